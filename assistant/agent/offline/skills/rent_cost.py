"""Renting a card for a while: "how much for 100 h of H100?", "combien d'heures pour 150 € ?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    currency_of,
    hourly_rates,
    named_cards,
    price_unknown,
)
from assistant.agent.offline.texts import hours, money, money_range, num, pick
from assistant.language import Lang
from assistant.tools.cost import RentCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def _hours_for_budget(result: RentCost, amount: float, gpu: str, lang: Lang) -> str:
    """The question gives money, not hours: the hours it buys are the answer."""
    cur = result.currency
    typical = result.rate_typical or 0.0
    low, high = result.rate_low, result.rate_high
    span = (
        f"{num(amount / high, lang, 0)}–{num(amount / low, lang, 0)} h"
        if low and high and low != high
        else ""
    )
    return pick(
        lang,
        f"**{money(amount, cur, lang)} buys about {num(amount / typical, lang, 0)} h of {gpu}**"
        + (f" ({span} across the prices seen)" if span else "")
        + f", at a typical {money(typical, cur, lang)}/h.",
        f"**{money(amount, cur, lang)} donnent environ {num(amount / typical, lang, 0)} h de {gpu}**"
        + (f" ({span} selon les prix relevés)" if span else "")
        + f", à {money(typical, cur, lang)}/h en général.",
    )


def render(result: RentCost, question: str, lang: Lang) -> str:
    """The cost for the hours asked (or the hours a sum buys), then the rates seen."""
    unknown = price_unknown(result.gpu, result.found, result.message, result.suggestions, lang)
    if unknown:
        return unknown
    from assistant.agent.offline.entities import extract_entities

    cur = result.currency
    gpu = result.gpu or pick(lang, "the card", "la carte")
    cost = money_range(result.cost_low, result.cost_high, cur, lang)
    text = pick(
        lang,
        f"**Renting {gpu} for {hours(result.hours, lang)}: {cost}**",
        f"**Louer {gpu} pendant {hours(result.hours, lang)} : {cost}**",
    )
    if result.cost_typical is not None and result.cost_low != result.cost_high:
        typical = (
            f"{money(result.cost_typical, cur, lang)} ({money(result.rate_typical, cur, lang)}/h)"
        )
        text += pick(lang, f", typically {typical}", f", typiquement {typical}")
    text += "."
    # Amounts as the question reads them, card numbers aside ("a 5090 at 2500 €" is 2500 €).
    budget = next((m for m in extract_entities(question).budgets if m.currency == cur), None)
    if budget is not None and result.rate_typical and not parse_durations(question):
        text = _hours_for_budget(result, budget.amount, gpu, lang)
    if result.n_prices:
        rate = money_range(result.rate_low, result.rate_high, cur, lang)
        plural = "s" if result.n_prices > 1 else ""
        text += pick(
            lang,
            f" Hourly rates seen: {rate} ({result.n_prices} sourced price{plural}).",
            f" Tarifs horaires relevés : {rate} ({result.n_prices} prix sourcé{plural}).",
        )
    return "\n\n".join(
        p for p in (text, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    total = ent.total_hours or defaults().rent.hours
    rates = hourly_rates(ent)
    cards: list[str | None] = list(named_cards(ent)) or [None]
    kind = "spot" if "spot" in reading.text.lower() else None
    return [
        {"gpu": card, "hours": total, "rate_per_hour": rates[0] if rates else None, "kind": kind,
         "currency": currency_of(ent)}
        for card in cards[:2]
    ]  # fmt: skip


SKILL = Skill(
    tool="rent_cost",
    result=RentCost,
    build=build,
    render=render,
    search_hint="location à l'heure prix indicatif",
    slots=("gpus", "durations", "money"),
    concepts=("rent", "cost"),
    fallback="recommend_gpus",
)
