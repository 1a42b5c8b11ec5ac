"""What a card costs to buy: "what does a used 3090 cost these days?", "prix d'un Mac Studio"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import assumptions_line, currency_of, named_cards
from assistant.agent.offline.texts import bullet_list, pick
from assistant.language import Lang
from assistant.tools.price import PurchasePriceResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def render(result: PurchasePriceResult, question: str, lang: Lang) -> str:
    """The price range with its dates first; 'not in the data' when there is none."""
    head = f"**{pick(lang, result.summary, result.summary_fr)}**"
    if not result.found:
        near = ", ".join(result.suggestions[:5])
        tail = pick(lang, " I never make a price up.", " Je n'invente jamais de prix.")
        return (
            head
            + tail
            + (pick(lang, f" Near names: {near}.", f" Noms proches : {near}.") if near else "")
        )
    seen = [
        f"{p.original} ({pick(lang, p.condition, 'neuf' if p.condition == 'new' else 'occasion')}, {p.as_of}) — {p.source}"
        for p in result.prices[:5]
    ]
    return "\n\n".join(
        p
        for p in (
            head,
            bullet_list(seen),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the first card named, or none without a card."""
    from assistant.agent.offline.concepts import concepts_in

    cards = named_cards(ent)
    if not cards:
        return []
    asked = concepts_in(reading.text)
    if "electricity" in asked and not asked & {"purchase_price", "buy"}:
        return []  # "what does my 3090 rig cost a month at 38c/kWh?": power, not the card's price
    return [{"gpu": cards[0], "condition": ent.condition, "currency": currency_of(ent)}]


SKILL = Skill(
    tool="purchase_price",
    result=PurchasePriceResult,
    build=build,
    render=render,
    search_hint="prix d'achat occasion neuf",
    slots=("gpus", "unknown_gpus", "condition", "money"),
    needs=("gpus", "unknown_gpus"),
    concepts=("purchase_price",),
    # "how much FPS on a Jetson Orin?" names a card but asks no price
    requires=("purchase_price", "cost", "buy"),
)
