"""The sentences of a fit result, in English and French, and its formula."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.tools.fit.cards import CardSet
from assistant.tools.fit.estimate import Estimate, Setup
from assistant.tools.fit.models import MultiGpu, PrecisionOption, PrecisionSupport

TASK_EN = {
    "inference": "inference",
    "lora": "LoRA",
    "qlora": "QLoRA",
    "full_finetune": "full fine-tuning",
    "image_generation": "image generation",
}
TASK_FR = {
    "inference": "inférence",
    "lora": "LoRA",
    "qlora": "QLoRA",
    "full_finetune": "fine-tuning complet",
    "image_generation": "génération d'images",
}
VERDICT_EN = {
    "fits": "fits",
    "tight": "is tight on",
    "does_not_fit": "does not fit",
    "unknown": "may or may not fit",
}
VERDICT_FR = {
    "fits": "tient sur",
    "tight": "tient de justesse sur",
    "does_not_fit": "ne tient pas sur",
    "unknown": "tient peut-être sur",
}


@dataclass
class Parts:
    """What the sentences are made of."""

    name: str
    setup: Setup
    est: Estimate
    verdict: str
    capacity: float | None
    where: tuple[str, str]  # (English, French) name of the card(s)
    multi: MultiGpu | None = None
    support: list[PrecisionSupport] = field(default_factory=list)
    runs: str = "yes"
    rows: list[PrecisionOption] = field(default_factory=list)


def generic_name(text: str, params_b: float) -> str:
    """The name of a model known only by its size, with the words asked unless just the size."""
    bare = text.strip().lower().replace(" ", "") in (f"{params_b:g}b", f"{params_b:g}bn")
    return f"generic {params_b:g}B model" + ("" if bare else f" ({text.strip()[:60]})")


def where(cards: CardSet) -> tuple[str, str]:
    """(English, French) names of the card(s): one, n of a size, or a set with its total."""
    if not cards.slots:
        return "", ""
    first = cards.slots[0]
    if len(cards.slots) == 1:
        if first.origin == "size":
            return f"a {first.vram_gb:g} GB card", f"une carte de {first.vram_gb:g} Go"
        return f"{first.name} ({first.vram_gb:g} GB)", f"{first.name} ({first.vram_gb:g} Go)"
    if all(s.origin == "size" for s in cards.slots) and not cards.mixed:
        n = len(cards.slots)
        return f"{n} cards of {first.vram_gb:g} GB", f"{n} cartes de {first.vram_gb:g} Go"
    label = cards.label()
    total = cards.total_vram_gb
    return (
        f"{label} ({total:g} GB in all, not one pool)",
        f"{label} ({total:g} Go au total, pas un seul bloc)",
    )


def _amount(parts: Parts, fr: bool) -> str:
    gb = "Go" if fr else "GB"
    total = parts.est.total_gb
    multi = parts.multi
    if multi is not None:
        each = "la carte la plus chargée" if fr else "the fullest card"
        if multi.mode == "replicate":
            each = "chaque carte (une copie entière)" if fr else "each card (a full copy)"
        lead = "environ" if fr else "about"
        return (
            f"{lead} {multi.whole_gb:.1f} {gb} en tout, {total:.1f} {gb} sur {each}"
            if fr
            else f"{lead} {multi.whole_gb:.1f} {gb} in all, {total:.1f} {gb} on {each}"
        )
    if not parts.est.complete:
        return (
            f"au moins {total:.1f} {gb} (poids et contexte ; activations vidéo non modélisées)"
            if fr
            else f"at least {total:.1f} {gb} (weights and overhead; video activations not modelled)"
        )
    return f"environ {total:.1f} {gb}" if fr else f"about {total:.1f} {gb}"


def _side_by_side(rows: list[PrecisionOption], chosen: str, fr: bool) -> str:
    if len(rows) < 2:
        return ""
    gb = "Go" if fr else "GB"
    words = (
        {"fits": "tient", "tight": "juste", "does_not_fit": "ne tient pas", "unknown": "?"}
        if fr
        else {"fits": "fits", "tight": "tight", "does_not_fit": "does not fit", "unknown": "?"}
    )
    items = []
    for r in rows:
        mark = (
            "" if r.runs in ("yes", "unknown") else (" (poids seuls)" if fr else " (weight-only)")
        )
        if r.runs == "no":
            mark = " (ne tourne pas)" if fr else " (does not run)"
        items.append(f"{r.precision} {r.total_gb:.1f} {gb} {words[r.verdict]}{mark}")
    if fr:
        return f" Côte à côte : {', '.join(items)} ; la réponse retient {chosen}."
    return f" Side by side: {', '.join(items)}; the answer leads with {chosen}."


def _message(parts: Parts, fr: bool) -> str:
    task = (TASK_FR if fr else TASK_EN)[parts.setup.task]
    what = f"{parts.name}, {task} {'en' if fr else 'at'} {parts.setup.precision}"
    amount = _amount(parts, fr)
    if parts.capacity is None:
        tail = (
            "Donnez un GPU ou une taille de mémoire pour un verdict."
            if fr
            else "Give a GPU or a memory size for a verdict."
        )
        return f"{what} : {amount}. {tail}" if fr else f"{what}: {amount}. {tail}"
    card = parts.where[1] if fr else parts.where[0]
    verdict = (VERDICT_FR if fr else VERDICT_EN)[parts.verdict]
    out = f"{what} : {amount} ; {verdict} {card}." if fr else f"{what}: {amount}; {verdict} {card}."
    if parts.support and parts.runs in ("no", "weight_only"):
        reasons = " ".join((s.reason_fr if fr else s.reason) for s in parts.support)
        if parts.verdict in ("fits", "tight"):
            out += (" Le modèle tient, mais : " if fr else " It fits, but: ") + reasons
        else:
            out += " " + reasons
    return out + _side_by_side(parts.rows, parts.setup.precision, fr)


def message_en(parts: Parts) -> str:
    """The answer's sentences in English."""
    return _message(parts, fr=False)


def message_fr(parts: Parts) -> str:
    """The answer's sentences in French."""
    return _message(parts, fr=True)


def formula(est: Estimate, multi: MultiGpu | None) -> str:
    """'weights 14.96 + kv_cache 0.50 + ... = 16.72 GB', each line's inputs in the breakdown."""
    sums: dict[str, float] = {}
    for line in est.lines:
        sums[line.item] = sums.get(line.item, 0.0) + line.gb
    terms = " + ".join(f"{item} {gb:.2f}" for item, gb in sums.items())
    out = f"{terms} = {est.total_gb:.2f} GB (the breakdown gives each term's inputs)"
    if multi is not None and multi.mode == "equal":
        out += (
            f"; per card: sharded part {multi.sharded_gb:.2f} GB / {multi.cards} (equal shares) "
            f"+ {multi.per_card_gb:.2f} GB it keeps itself"
        )
    elif multi is not None and multi.mode == "shard":
        out += (
            f"; per card: sharded part {multi.sharded_gb:.2f} GB x the card's share of "
            f"{multi.total_vram_gb:g} GB + {multi.per_card_gb:.2f} GB it keeps itself"
        )
    elif multi is not None:
        out += f"; every card holds all {multi.sharded_gb + multi.per_card_gb:.2f} GB"
    return out


def unknown_fr(message: str) -> str:
    """The French of a failure message: the English is kept (it names the input) after a lead-in."""
    return f"Estimation impossible : {message}"
