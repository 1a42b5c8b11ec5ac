"""Answers from the workload-fit and recommendation tools."""

from __future__ import annotations

import re
from typing import Any

from assistant.agent.offline.language import Lang
from assistant.agent.offline.texts import (
    bullet_list,
    in_language,
    localized_name,
    money,
    num,
    pick,
)

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


def _gpu_count(question: str) -> int | None:
    """How many cards share the model, when the question names more than one."""
    from assistant.agent.offline.entities import extract_entities

    count = extract_entities(question).gpu_count
    return count if count and count > 1 else None


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
    setup = (
        f"{model} ({pick(lang, task[0], task[1])}"
        + (f", {result['precision']}" if result.get("precision") else "")
        + (
            f", {num(result['context_tokens'], lang, 0)} tokens"
            if result.get("context_tokens")
            else ""
        )
        + ")"
    )
    colon = " : " if lang == "fr" else ": "
    capacity = result.get("capacity_gb") or result.get("vram_gb")
    if not result.get("gpu") and not capacity:
        head = f"**{setup}{pick(lang, ' needs about ', ' demande environ ')}{_gb(result.get('total_gb'), lang)}**."
    else:
        where = result.get("gpu") or pick(
            lang,
            f"a {_gb(result.get('vram_gb') or capacity, lang)} card",
            f"une carte de {_gb(result.get('vram_gb') or capacity, lang)}",
        )
        en, fr = FIT_VERDICTS.get(verdict, (verdict, verdict))
        count = _gpu_count(question) if result.get("gpu") else None
        if count:
            where = f"{count} × {where}"
        head = (
            f"**{pick(lang, en, fr)}** — {setup} {pick(lang, 'on', 'sur')} {where}{colon}"
            + pick(lang, "about ", "environ ")
            + _gb(result.get("total_gb"), lang)
            + (pick(lang, " per GPU", " par GPU") if count else "")
            + pick(lang, " needed for ", " nécessaires pour ")
            + _gb(capacity, lang)
            + "."
        )
    lines = [head]
    breakdown = [
        f"{pick(lang, *ITEMS.get(str(line.get('item')), (str(line.get('item')), str(line.get('item')))))}{colon}{_gb(line.get('gb'), lang)}"
        for line in result.get("breakdown") or []
        if (line.get("gb") or 0) > 0.005
    ]
    if breakdown:
        lines.append(bullet_list(breakdown))
    options = [o for o in result.get("fits_with") or [] if o.get("verdict") in ("fits", "tight")]
    if options and verdict != "fits":
        lines.append(
            pick(lang, "What would make it fit: ", "Pour que ça tienne : ")
            + pick(lang, "; ", " ; ").join(
                f"{in_language(str(o.get('change')), lang) or o.get('change')} (→ {_gb(o.get('total_gb'), lang)})"
                for o in options[:3]
            )
        )
    if result.get("bigger_cards") and verdict == "does_not_fit":
        lines.append(
            pick(lang, "Cards it fits on: ", "Cartes où ça tient : ")
            + ", ".join(result["bigger_cards"][:4])
        )
    measured = result.get("nearest_measured")
    if isinstance(measured, dict) and measured.get("value_gb"):
        setup = " · ".join(
            str(measured[k]) for k in ("model", "precision_or_method", "gpu") if measured.get(k)
        )
        lines.append(
            pick(lang, "Nearest measured peak: ", "Pic mesuré le plus proche : ")
            + f"{_gb(measured['value_gb'], lang)} ({setup})."
        )
    return "\n\n".join(line for line in lines if line)


def _topic_label(topic: str, lang: Lang) -> str:
    part = re.match(r"part(\d)_", topic)
    if part:
        return part.group(1)
    return topic.replace("_", " ")


def _verdict_summary(verdicts: dict[str, str], lang: Lang) -> str:
    groups: dict[str, list[str]] = {}
    for topic, verdict in verdicts.items():
        groups.setdefault(verdict, []).append(_topic_label(topic, lang))
    words = {"yes": ("yes", "oui"), "partial": ("partial", "partiel"), "no": ("no", "non")}
    out = []
    for verdict in ("yes", "partial", "no"):
        items = groups.get(verdict)
        if items:
            parts = [i for i in items if i.isdigit()]
            named = [i for i in items if not i.isdigit()]
            label = pick(lang, "parts ", "parties ") + ", ".join(parts) if parts else ""
            listed = ", ".join(x for x in [label, *named] if x)
            sep = " : " if lang == "fr" else ": "
            out.append(f"{pick(lang, *words[verdict])}{sep}{listed}")
    return pick(lang, "; ", " ; ").join(out)


def _option_line(option: dict[str, Any], lang: Lang, currency: str | None) -> str:
    name = option.get("gpu") or "?"
    bits = [f"**{name}**"]
    if option.get("kind") == "rent":
        bits.append(pick(lang, "rent", "location"))
        if option.get("rate_per_hour"):
            bits.append(f"{money(option['rate_per_hour'], currency, lang)}/h")
        if option.get("hours"):
            bits.append(
                pick(
                    lang,
                    f"≈ {num(option['hours'], lang, 0)} h for the budget",
                    f"≈ {num(option['hours'], lang, 0)} h pour le budget",
                )
            )
    else:
        condition = {"used": ("used", "occasion"), "new": ("new", "neuve")}.get(
            str(option.get("condition"))
        )
        bits.append(
            pick(lang, "buy", "achat") + (f" ({pick(lang, *condition)})" if condition else "")
        )
        if option.get("price_low") is not None:
            high = option.get("price_high")
            bits.append(
                money(option["price_low"], currency, lang)
                + (
                    f" – {money(high, currency, lang)}"
                    if high and high != option["price_low"]
                    else ""
                )
            )
    specs = [
        _gb(option["vram_gb"], lang) if option.get("vram_gb") else "",
        f"`{option['arch_target']}`" if option.get("arch_target") else "",
        f"{num(option['tdp_w'], lang, 0)} W" if option.get("tdp_w") else "",
    ]
    bits.append(", ".join(x for x in specs if x))
    verdicts = _verdict_summary(option.get("verdicts") or {}, lang)
    if verdicts:
        bits.append(verdicts)
    if option.get("fit"):
        fit = in_language(str(option["fit"]), lang)
        if fit:
            bits.append(fit)
    return " · ".join(b for b in bits if b)


def _note(note: str, lang: Lang) -> str | None:
    """A recommendation note; in French, corrections to the guide keep the guide's own quote."""
    if lang == "en":
        return note
    quote = re.search(r"«[^»]+»", note)
    if note.startswith("Correction") and quote:
        return f"Correction au guide : il dit {quote.group(0)} ; les documents de NVIDIA disent autrement (voir les sources)."
    return in_language(note, lang)


def _cheapest(item: dict[str, Any], lang: Lang, currency: str | None) -> str:
    picks = []
    for kind in ("buy", "rent"):
        pick_ = item.get(kind)
        if not pick_:
            continue
        price = money_range_plain(pick_.get("low"), pick_.get("high"), currency, lang)
        if kind == "rent":
            picks.append(
                pick(lang, f"rent {pick_['gpu']} ({price}/h)", f"louer {pick_['gpu']} ({price}/h)")
            )
        else:
            picks.append(
                pick(lang, f"buy {pick_['gpu']} ({price})", f"acheter {pick_['gpu']} ({price})")
            )
    name = localized_name(str(item.get("topic_name") or item.get("topic")), lang)
    head = pick(lang, f"Cheapest hardware for {name}: ", f"Matériel le moins cher pour {name} : ")
    return head + (pick(lang, " or ", " ou ").join(picks) if picks else "—")


def money_range_plain(low: Any, high: Any, currency: str | None, lang: Lang) -> str:
    if high is None or low == high:
        return money(low, currency, lang)
    return f"{money(low, currency, lang)} – {money(high, currency, lang)}"


def _small_budget_note(question: str, lang: Lang) -> str:
    """The amount assumed for a budget called small without one."""
    from assistant.agent.offline.builders import SMALL_BUDGET_EUR
    from assistant.agent.offline.cues import asks_small_budget
    from assistant.money import parse_money

    if not asks_small_budget(question) or any(m.per is None for m in parse_money(question)):
        return ""
    amount = money(SMALL_BUDGET_EUR, "EUR", lang)
    return pick(
        lang,
        f"(A small budget, read as {amount} at most: about the price of the guide's entry card.)",
        f"(Petit budget, compris comme {amount} au plus : environ le prix de la carte d'entrée du guide.)",
    )


def render_recommend(result: dict[str, Any], question: str, lang: Lang) -> str:
    options = result.get("options") or []
    currency = result.get("currency")
    lines = []
    lines.append(_small_budget_note(question, lang))
    if options:
        lines.append(pick(lang, "**Recommended:**", "**Recommandations :**"))
        lines.append(
            "\n".join(
                f"{i}. {_option_line(o, lang, currency)}" for i, o in enumerate(options[:3], 1)
            )
        )
        first = options[0]
        cannot = [c for c in (in_language(c, lang) for c in first.get("cannot") or []) if c]
        if cannot:
            lines.append(
                pick(
                    lang,
                    f"What {first.get('gpu')} can't do: ",
                    f"Ce que {first.get('gpu')} ne fait pas : ",
                )
                + pick(lang, "; ", " ; ").join(cannot[:3])
            )
    else:
        budget = result.get("budget")
        lines.append(
            pick(lang, "**Nothing fits these constraints**", "**Rien ne respecte ces contraintes**")
            + (f" ({money(budget, currency, lang)})" if budget is not None else "")
            + "."
        )
        closest = result.get("closest") or []
        if closest:
            lines.append(
                pick(lang, "Closest options:", "Options les plus proches :")
                + "\n"
                + "\n".join(f"- {_option_line(o, lang, currency)}" for o in closest[:3])
            )
    for item in result.get("cheapest_for_feature") or []:
        lines.append(_cheapest(item, lang, currency))
    free = [t for t in result.get("free_tiers") or [] if t.get("covers")]
    if free and (not options or (result.get("budget") or 0) < 300):
        names = ", ".join(str(t.get("name")) for t in free)
        lines.append(
            pick(
                lang,
                f"Free: {names} cover {len(free[0]['covers'])} of the goal's topics.",
                f"Gratuit : {names} couvrent {len(free[0]['covers'])} des sujets visés.",
            )
        )
    notes = [n for n in (_note(n, lang) for n in result.get("notes") or []) if n]
    if notes:
        lines.append(bullet_list(notes[:3]))
    return "\n\n".join(line for line in lines if line)
