"""Two or more cards side by side: "4090 vs 3090", "which has more bandwidth, H100 or A100?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import names_concept
from assistant.agent.offline.cues import asks_which_card
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import memory_pick, named_cards, render_unknown
from assistant.agent.offline.skills.gpu_lookup import asked_fields, provenance_note
from assistant.agent.offline.texts import bullet_list, in_language, label, num, pick, value_word
from assistant.knowledge.gpus import GpuCard
from assistant.language import Lang
from assistant.tools.lookup import ComparisonRow, GpuComparison

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

_UNITS_FR = {"GB": "Go", "GB/s": "Go/s", "KB": "Ko"}


def _cell(field: str, value: Any, lang: Lang) -> str:
    if value is None:
        return "—"
    if field == "arch_target":
        return f"`{value}`"
    if field == "year":
        return str(value)
    if field in ("segment", "vendor") and isinstance(value, str):
        return value_word(value, lang)
    return num(value, lang) if not isinstance(value, str) else value


def _asked_leaders(rows: list[ComparisonRow], question: str, lang: Lang) -> str:
    """A sentence naming the leading card on each figure the question asks about."""
    wanted = asked_fields(question)
    lines = []
    for row in rows:
        if row.field not in wanted or not row.leaders or row.field == "tdp_w":
            continue
        figures = " vs ".join(
            _cell(row.field, v, lang) + (f" {row.unit}" if row.unit else "") for v in row.values
        )
        if lang == "fr":
            for en, fr in _UNITS_FR.items():
                figures = figures.replace(f" {en}", f" {fr}")
        sep = " : " if lang == "fr" else ": "
        leaders = pick(lang, " and ", " et ").join(row.leaders)
        lines.append(f"**{label(row.field, lang, row.label)}{sep}{leaders}** ({figures}).")
    return "\n\n".join(lines)


def _hardware_rows(cards: list[GpuCard], lang: Lang) -> list[str]:
    """Table rows for tensor cores and bus interface, when any compared card has them."""
    rows = []
    for field, en, fr in (
        ("tensor_cores", "Tensor cores", "Tensor cores"),
        ("bus_interface", "Bus interface", "Interface de bus"),
    ):
        values = [getattr(c, field) for c in cards]
        if any(v is not None for v in values):
            cells = " | ".join(_cell(field, v, lang) for v in values)
            rows.append(f"| {pick(lang, en, fr)} | {cells} |")
    return rows


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


def _speed_ratios(cards: list[GpuCard], question: str, lang: Lang) -> str:
    """'How much faster?' (or cards weighed for training): the paper ratios of dense tensor math
    (training, prompt processing) and of memory bandwidth (token generation) between the fastest
    and the slowest card, the others in between."""
    from assistant.agent.offline.concepts import concepts_in

    if len(cards) < 2 or not {"speed", "model_task"} & concepts_in(question):
        return ""
    ranked = sorted(
        cards, key=lambda c: (c.fp16_tensor_tflops or 0, c.bandwidth_gbs or 0), reverse=True
    )
    fast, slow, between = ranked[0], ranked[-1], ranked[1:-1]
    math = _ratio(fast.fp16_tensor_tflops, slow.fp16_tensor_tflops)
    memory = _ratio(fast.bandwidth_gbs, slow.bandwidth_gbs)
    if math is None and memory is None:
        return ""
    parts_en, parts_fr = [], []
    if math is not None:
        figures = (
            f"{num(fast.fp16_tensor_tflops, lang, 0)} vs {num(slow.fp16_tensor_tflops, lang, 0)}"
        )
        parts_en.append(
            f"{num(math, lang, 1)}× in dense FP16/BF16 tensor math ({figures} TFLOPS), which "
            "bounds training and prompt processing"
        )
        parts_fr.append(
            f"{num(math, lang, 1)}× en calcul tensoriel FP16/BF16 dense ({figures} TFLOPS), qui "
            "borne l'entraînement et le traitement du prompt"
        )
    if memory is not None:
        figures = f"{num(fast.bandwidth_gbs, lang, 0)} vs {num(slow.bandwidth_gbs, lang, 0)}"
        parts_en.append(
            f"{num(memory, lang, 1)}× in memory bandwidth ({figures} GB/s), which bounds token "
            "generation"
        )
        parts_fr.append(
            f"{num(memory, lang, 1)}× en bande passante mémoire ({figures} Go/s), qui borne la "
            "génération de tokens"
        )
    middle = (
        pick(lang, "; in between: ", " ; entre les deux : ")
        + ", ".join(
            f"{c.name} ({num(c.fp16_tensor_tflops, lang, 0) if c.fp16_tensor_tflops else '—'} TFLOPS, "
            f"{num(c.bandwidth_gbs, lang, 0) if c.bandwidth_gbs else '—'} "
            + pick(lang, "GB/s)", "Go/s)")
            for c in between
        )
        if between
        else ""
    )
    return pick(
        lang,
        f"**On paper, {fast.name} is about {', and '.join(parts_en)}, against {slow.name}**"
        f"{middle}; "
        "measured speed-ups are usually smaller than the paper ratio (software, batch size and "
        "communication take their share).",
        f"**Sur le papier, {fast.name} fait environ {', et '.join(parts_fr)}, face à {slow.name}**"
        f"{middle} ; "
        "les gains mesurés sont en général plus faibles que ce rapport (logiciel, taille de lot et "
        "communications en prennent leur part).",
    )


def render(result: GpuComparison, question: str, lang: Lang) -> str:
    """The pick when the question asks to choose (the card with the most memory), the paper
    speed ratios when a speed-up is asked, the leader on each figure asked, then the table and
    the comparison's notes."""
    parts = [_speed_ratios(result.cards, question, lang)]
    choose = asks_which_card(question) or names_concept("hindsight", question)
    if len(result.cards) >= 2 and choose and not asked_fields(question):
        # "which one should I take?" (or "would the 5070 have been smarter?") gets the pick;
        # "which card has more VRAM?" the figure's leader
        parts.insert(0, memory_pick([c.name for c in result.cards], lang).strip())
    parts += [render_unknown(u.name, u.suggestions, lang) for u in result.unknown]
    if result.cards and result.rows:
        names = [c.name for c in result.cards]
        header = "| | " + " | ".join(names) + " |\n|---|" + "---|" * len(names)
        body = [
            f"| {label(row.field, lang, row.label)} | "
            + " | ".join(_cell(row.field, v, lang) for v in row.values)
            + " |"
            for row in result.rows
        ]
        body += _hardware_rows(result.cards, lang)
        parts.append(_asked_leaders(result.rows, question, lang))
        parts.append(header + "\n" + "\n".join(body))
        notes = [n for n in (in_language(n, lang) for n in result.notes) if n]
        if notes:
            parts.append(bullet_list(notes))
    # one note per long-tail card, after the comparison: where its figures come from
    parts += [provenance_note(c.name, c.curated, c.provenance, lang) for c in result.cards]
    return "\n\n".join(p for p in parts if p)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call comparing the cards named, or none when fewer than two are."""
    cards = named_cards(ent)
    return [{"gpus": cards}] if len(cards) >= 2 else []


SKILL = Skill(
    tool="gpu_compare",
    result=GpuComparison,
    build=build,
    render=render,
    search_hint="VRAM architecture FP16 TFLOPS",
    slots=("gpus", "unknown_gpus"),
    needs=("gpus",),
    concepts=("compare", "specs"),
    fallback="gpu_lookup",
)
