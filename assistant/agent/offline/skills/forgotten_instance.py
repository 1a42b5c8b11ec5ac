"""An instance left running: "my H100 ran all weekend, how much?", "instance oubliée 48 h"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.numbers import HOURS_PER_UNIT
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    hourly_rates,
    money_inputs,
    named_cards,
    price_unknown,
)
from assistant.agent.offline.texts import hours, money, money_range, pick
from assistant.language import Lang
from assistant.tools.cost import ForgottenCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def render(result: ForgottenCost, question: str, lang: Lang) -> str:
    """What the forgotten hours cost, then the guide's own warning when it applies."""
    unknown = price_unknown(result.gpu, result.found, result.message, result.suggestions, lang)
    if unknown:
        return unknown
    cur = result.currency
    gpu = (f"{result.gpu_count}× " if result.gpu_count > 1 else "") + (result.gpu or "?")
    cost = money_range(result.cost_low, result.cost_high, cur, lang)
    typical = money(result.cost_typical, cur, lang)
    text = pick(
        lang,
        f"**A forgotten {gpu} left running {hours(result.hours, lang)} costs about {typical}** "
        f"(range {cost}). Shut instances down when you stop working.",
        f"**Une {gpu} oubliée allumée {hours(result.hours, lang)} coûte environ {typical}** "
        f"(fourchette {cost}). Éteignez vos instances.",
    )
    note = pick(lang, result.corpus_note or "", result.corpus_note_fr or "")
    if note:
        text += "\n\n" + note
    return "\n\n".join(
        p for p in (text, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the card named (or the default card), its hours and rate; none for a machine
    whose draw or electricity price is given and no rental rate (its power bill, not a rental's)."""
    cards = named_cards(ent) or [defaults().forgotten.gpu]
    rates = hourly_rates(ent)
    whole = reading.entities
    if not rates and (whole.power_w is not None or whole.electricity_price is not None):
        return []
    spent = ent.total_hours
    if spent is None and reading.entities.always_on:
        spent = HOURS_PER_UNIT["month"]  # 'left running 24/7': a whole month's bill
    return [
        {"gpu": cards[0], "hours": spent, "rate_per_hour": rates[0] if rates else None,
         "gpu_count": ent.count_of(cards[0]), **money_inputs(ent)}
    ]  # fmt: skip


SKILL = Skill(
    tool="forgotten_instance",
    result=ForgottenCost,
    build=build,
    render=render,
    search_hint="éteignez instance oubliée week-end",
    slots=("gpus", "durations", "money", "gpu_count"),
    concepts=("forgotten",),
    requires=("forgotten",),
)
