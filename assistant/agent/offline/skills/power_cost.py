"""Electricity of a card you own: "how much does a 3090 cost to run per month?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    currency_of,
    named_cards,
    render_unknown,
)
from assistant.agent.offline.texts import pick
from assistant.language import Lang
from assistant.tools.power import PowerCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def render(result: PowerCost, question: str, lang: Lang) -> str:
    """The monthly and daily cost first (the tool's own bilingual summary), then the assumptions."""
    if not result.found:
        if result.suggestions and result.gpu:
            return render_unknown(result.gpu, result.suggestions, lang)
        return pick(lang, result.summary, result.summary_fr)
    text = "**" + pick(lang, result.summary, result.summary_fr).replace(". ", ".** ", 1)
    if not text.rstrip().endswith("**") and text.count("**") == 1:
        text += "**"
    return "\n\n".join(
        p for p in (text, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = named_cards(ent)
    if not cards and ent.power_w is None:
        return []
    return [{"gpu": cards[0] if cards else None, "power_w": ent.power_w, "hours_per_day": ent.hours_per_day,
             "gpu_count": ent.gpu_count or 1, "currency": currency_of(ent)}]  # fmt: skip


SKILL = Skill(
    tool="power_cost",
    result=PowerCost,
    build=build,
    render=render,
    search_hint="consommation électrique coût électricité",
    slots=("gpus", "unknown_gpus", "power_w", "durations", "gpu_count", "money"),
    needs=("gpus", "unknown_gpus", "power_w"),
    concepts=("electricity",),
)
