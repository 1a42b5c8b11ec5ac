"""Disk billed while stopped: "is storage billed when the instance is off?", "500 Go un mois"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import assumptions_line, currency_of
from assistant.agent.offline.texts import money, num, pick
from assistant.language import Lang
from assistant.tools.cost import StorageCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

DAYS_PER_UNIT = {"month": 30.0, "year": 365.0}  # calendar months, as billed


def render(result: StorageCost, question: str, lang: Lang) -> str:
    """What the disk costs over the days asked, and that it is billed while stopped."""
    cur = result.currency
    cost, per_day = money(result.cost, cur, lang), money(result.cost_per_day, cur, lang)
    gb, days = num(result.gb, lang, 0), num(result.days, lang, 0)
    text = pick(
        lang,
        f"**{gb} GB kept {days} days: {cost}** ({per_day} a day) — persistent storage is billed "
        "even while the instance is stopped.",
        f"**{gb} Go gardés {days} jours : {cost}** ({per_day} par jour) — le stockage persistant "
        "est facturé même quand l'instance est à l'arrêt.",
    )
    if result.price_per_gb_month:
        price = money(result.price_per_gb_month, cur, lang)
        text += pick(
            lang,
            f" Price used: {price} per GB-month.",
            f" Prix utilisé : {price} par Go et par mois.",
        )
    return "\n\n".join(
        p for p in (text, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the size and the days to store it, from the question or the defaults; none
    when the question neither sizes the storage nor asks what a disk costs ("Placeholder storage
    has not been allocated on MPS device" is an error, not a bill; "the most cost-efficient way to
    deploy" names no disk)."""
    from assistant.agent.offline.concepts import concepts_in

    sized = ent.storage_gb is not None or ent.vram_gb is not None
    named = concepts_in(reading.text)
    if not sized and not ({"cost", "rent", "forgotten"} & named and "storage" in named):
        return []  # no size and no disk named: a default-sized bill would answer nothing asked
    gb = ent.storage_gb or ent.vram_gb or defaults().storage.gb
    span = next((d for d in ent.durations if d.hours and d.per_day is None), None)
    days: float | None = None
    if span is not None and span.unit in DAYS_PER_UNIT:
        days = span.count * DAYS_PER_UNIT[span.unit]
    elif span is not None and span.hours and span.hours >= 24:
        days = span.hours / 24
    return [{"gb": gb, "days": days, "currency": currency_of(ent)}]


SKILL = Skill(
    tool="storage_cost",
    result=StorageCost,
    build=build,
    render=render,
    search_hint="stockage persistant facturé à l'arrêt",
    slots=("storage_gb", "vram_gb", "durations", "money"),
    concepts=("storage",),
    requires=("cost", "rent"),  # a disk that is billed: not "enough disk space" beside an error
)
