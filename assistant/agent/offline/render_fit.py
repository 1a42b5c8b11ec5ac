"""Answers from the workload-fit and recommendation tools."""

from __future__ import annotations

from typing import Any

from assistant.agent.offline.language import Lang
from assistant.agent.offline.texts import bullet_list, in_language, money, num, pick

FIT_VERDICTS = {
    "fits": ("Yes, it fits", "Oui, ça tient"),
    "tight": ("Tight: it just fits, with little headroom", "Juste : ça tient, avec peu de marge"),
    "does_not_fit": ("No, it does not fit", "Non, ça ne tient pas"),
    "unknown": ("Can't tell", "Impossible à dire"),
}
TASKS = {
    "inference": ("inference", "inférence"),
    "lora": ("LoRA fine-tuning", "fine-tuning LoRA"),
    "qlora": ("QLoRA fine-tuning", "fine-tuning QLoRA"),
    "full_finetune": ("full fine-tuning", "fine-tuning complet"),
    "image_generation": ("image generation", "génération d'images"),
}
ITEMS = {
    "weights": ("weights", "poids"),
    "text_encoders": ("text encoders", "encodeurs de texte"),
    "vae": ("VAE", "VAE"),
    "kv_cache": ("KV cache", "cache KV"),
    "activations": ("activations", "activations"),
    "gradients": ("gradients", "gradients"),
    "optimizer_states": ("optimizer states", "états de l'optimiseur"),
    "adapters": ("adapters", "adaptateurs"),
    "overhead": ("CUDA context and overhead", "contexte CUDA et surcoût"),
}


def _gb(value: Any, lang: Lang) -> str:
    return f"{num(value, lang)} {pick(lang, 'GB', 'Go')}"


def render_fit(result: dict[str, Any], question: str, lang: Lang) -> str:
    verdict = str(result.get("verdict") or "unknown")
    model = result.get("model") or (
        f"{num(result.get('params_b'), lang)}B" if result.get("params_b") else "?"
    )
    if verdict == "unknown" and not result.get("total_gb"):
        text = in_language(str(result.get("message") or ""), lang) or pick(
            lang, "", "Modèle ou carte inconnu."
        )
        near = result.get("suggestions") or []
        if near:
            text += (
                pick(lang, " Did you mean: ", " Vouliez-vous dire : ")
                + ", ".join(near[:5])
                + pick(lang, "?", " ?")
            )
        return text
    task = TASKS.get(str(result.get("task")), (str(result.get("task")), str(result.get("task"))))
    where = result.get("gpu") or (
        _gb(result.get("vram_gb"), lang)
        if result.get("vram_gb")
        else pick(lang, "the card", "la carte")
    )
    en, fr = FIT_VERDICTS.get(verdict, (verdict, verdict))
    head = (
        f"**{pick(lang, en, fr)}** — {model} ({pick(lang, task[0], task[1])}"
        + (f", {result['precision']}" if result.get("precision") else "")
        + (
            f", {num(result['context_tokens'], lang, 0)} tokens"
            if result.get("context_tokens")
            else ""
        )
        + f") {pick(lang, 'on', 'sur')} {where}: "
        + pick(lang, "about ", "environ ")
        + _gb(result.get("total_gb"), lang)
        + (
            pick(lang, " needed for ", " nécessaires pour ")
            + _gb(result.get("capacity_gb") or result.get("vram_gb"), lang)
            if result.get("capacity_gb") or result.get("vram_gb")
            else ""
        )
        + "."
    )
    lines = [head]
    breakdown = [
        f"{pick(lang, *ITEMS.get(str(line.get('item')), (str(line.get('item')), str(line.get('item')))))}: {_gb(line.get('gb'), lang)}"
        for line in result.get("breakdown") or []
        if (line.get("gb") or 0) > 0.005
    ]
    if breakdown:
        lines.append(bullet_list(breakdown))
    options = [o for o in result.get("fits_with") or [] if o.get("verdict") in ("fits", "tight")]
    if options and verdict != "fits":
        lines.append(
            pick(lang, "What would make it fit: ", "Pour que ça tienne : ")
            + "; ".join(
                f"{o.get('change')} (→ {_gb(o.get('total_gb'), lang)})" for o in options[:3]
            )
        )
    if result.get("bigger_cards") and verdict == "does_not_fit":
        lines.append(
            pick(lang, "Cards it fits on: ", "Cartes où ça tient : ")
            + ", ".join(result["bigger_cards"][:4])
        )
    measured = result.get("nearest_measured")
    if isinstance(measured, dict) and measured:
        value = measured.get("peak_gb") or measured.get("value") or measured.get("gb")
        label = measured.get("setup") or measured.get("workload") or measured.get("model") or ""
        if value:
            lines.append(
                pick(
                    lang,
                    f"Nearest measured figure: {num(value, lang)} ({label}).",
                    f"Mesure réelle la plus proche : {num(value, lang)} ({label}).",
                )
            )
    return "\n\n".join(lines)


def _option_line(option: dict[str, Any], lang: Lang, currency: str | None) -> str:
    name = option.get("gpu") or option.get("name") or option.get("card") or "?"
    bits = [f"**{name}**"]
    if option.get("condition"):
        bits.append(
            pick(
                lang,
                str(option["condition"]),
                {"used": "occasion", "new": "neuve"}.get(
                    str(option["condition"]), str(option["condition"])
                ),
            )
        )
    price_low, price_high = option.get("price_low"), option.get("price_high")
    if price_low is not None:
        bits.append(
            money(price_low, currency, lang)
            + (
                f" – {money(price_high, currency, lang)}"
                if price_high and price_high != price_low
                else ""
            )
        )
    if option.get("hours"):
        bits.append(f"{num(option['hours'], lang, 0)} h")
    if option.get("rate_per_hour") or option.get("rate"):
        bits.append(f"{money(option.get('rate_per_hour') or option.get('rate'), currency, lang)}/h")
    line = " · ".join(bits)
    reasons = [r for r in (in_language(r, lang) for r in (option.get("reasons") or [])[:2]) if r]
    limits = [
        r
        for r in (
            in_language(r, lang)
            for r in (option.get("limitations") or option.get("cannot") or [])[:2]
        )
        if r
    ]
    if reasons:
        line += " — " + " ".join(reasons)
    if limits:
        line += pick(lang, " Limits: ", " Limites : ") + " ".join(limits)
    return line


def render_recommend(result: dict[str, Any], question: str, lang: Lang) -> str:
    options = result.get("options") or result.get("recommendations") or []
    currency = result.get("currency")
    if not options:
        text = in_language(str(result.get("summary") or result.get("message") or ""), lang)
        return text or pick(
            lang, "No option fits these constraints.", "Aucune option ne respecte ces contraintes."
        )
    head = pick(lang, "**Recommended:**", "**Recommandations :**")
    lines = [
        head,
        "\n".join(f"{i}. {_option_line(o, lang, currency)}" for i, o in enumerate(options[:4], 1)),
    ]
    notes = [n for n in (in_language(n, lang) for n in result.get("notes") or []) if n]
    if notes:
        lines.append(bullet_list(notes[:3]))
    return "\n\n".join(lines)
