"""Purchase prices, new and used, from the dated price data, in the user's currency with the date
each price was seen. No row means "not in the data": a price is never invented."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from assistant.knowledge.prices import (
    Condition,
    PriceRange,
    gpu_suggestions,
    purchase_rows,
    summarize_prices,
)
from assistant.knowledge.sources import dedupe_sources
from assistant.money import convert, format_money
from assistant.tools.cost_base import CostResult, MoneyQuery, money_context


class PriceQuery(MoneyQuery):
    """What does a card cost to buy, new or used?"""

    gpu: str = Field(
        min_length=1,
        max_length=200,
        description="The card or machine, e.g. 'used RTX 3090', 'Mac Studio'",
    )
    condition: Condition | None = Field(default=None, description="new or used (default: both)")


class PriceSeen(BaseModel):
    """One dated price from the data, converted to the result's currency."""

    condition: Literal["new", "used"]
    low: float
    high: float
    original: str = Field(description="The price as the source gives it, in its own currency")
    as_of: str = Field(description="When the price was seen: YYYY, YYYY-MM or YYYY-MM-DD")
    source: str
    url: str | None = None
    note: str | None = None


class PurchasePriceResult(CostResult):
    """New and used prices of a card, each with the date seen; found=false when the data has none."""

    found: bool
    gpu: str
    condition: Condition | None = None
    new: PriceRange | None = None
    used: PriceRange | None = None
    prices: list[PriceSeen] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    summary_fr: str = ""


def _condition_from_text(text: str) -> tuple[str, Condition | None]:
    words = text.split()
    lowered = [w.lower() for w in words]
    for cond, keys in (
        ("used", ("used", "occasion", "d'occasion", "second-hand")),
        ("new", ("new", "neuf", "neuve")),
    ):
        if any(k in lowered for k in keys):
            kept = [
                w for w, lw in zip(words, lowered, strict=True) if lw not in keys and lw != "d'"
            ]
            return " ".join(kept), cond  # type: ignore[return-value]
    return text, None


def purchase_price_lookup(q: PriceQuery) -> PurchasePriceResult:
    """Purchase prices of a card (or a Mac), new and used, from the dated price data: the range, the
    typical (median) price in the user's currency, and every price with the date it was seen and its
    source. When the data has no price for the card, found=false: no price is ever invented."""
    cur, rate, assumptions = money_context(q)
    name, cond = _condition_from_text(q.gpu)
    cond = q.condition or cond
    label, rows = purchase_rows(name, cond)
    if not rows:
        what = f"{cond} " if cond else ""
        return PurchasePriceResult(
            found=False, gpu=label, condition=cond, currency=cur, usd_per_eur=rate,
            suggestions=gpu_suggestions(name)[:5], assumptions=assumptions,
            summary=f"No {what}purchase price for {label} in the data.",
            summary_fr=f"Pas de prix d'achat {'neuf ' if cond == 'new' else 'd’occasion ' if cond == 'used' else ''}pour {label} dans les données.",
        )  # fmt: skip
    ranges: dict[str, PriceRange | None] = {}
    for c in ("new", "used"):
        chosen = [r for r in rows if r.condition == c]
        ranges[c] = summarize_prices(label, c, chosen, cur, rate) if chosen else None
    seen = [
        PriceSeen(
            condition=r.condition, low=convert(r.low, r.currency, cur, rate),
            high=convert(r.high, r.currency, cur, rate),
            original=format_money(r.low, r.currency, decimals=0)
            + ("" if r.high == r.low else f"–{format_money(r.high, r.currency, decimals=0)}"),
            as_of=r.as_of, source=r.source, url=r.url, note=r.note,
        )
        for r in sorted(rows, key=lambda r: r.as_of, reverse=True)
    ]  # fmt: skip
    if any(r.currency != cur for r in rows):
        assumptions.append(f"Prices seen in another currency are converted to {cur}.")
    assumptions.append(
        "Launch list prices (MSRP) are what a card cost new at launch, not today's street price."
    )
    parts, parts_fr = [], []
    for c, fr in (("new", "neuve"), ("used", "d'occasion")):
        rng = ranges[c]
        if rng is None:
            continue
        span = format_money(rng.low, cur, decimals=0) + (
            "" if rng.high == rng.low else f" to {format_money(rng.high, cur, decimals=0)}"
        )
        span_fr = format_money(rng.low, cur, "fr", decimals=0) + (
            "" if rng.high == rng.low else f" à {format_money(rng.high, cur, 'fr', decimals=0)}"
        )
        latest = rng.dates[-1]
        parts.append(f"{c} {span} (seen {latest})")
        parts_fr.append(f"{fr} {span_fr} (relevé : {latest})")
    sources = dedupe_sources([r.to_source() for r in rows])
    return PurchasePriceResult(
        found=True, gpu=label, condition=cond, new=ranges["new"], used=ranges["used"], prices=seen,
        currency=cur, usd_per_eur=rate, assumptions=assumptions, sources=sources,
        summary=f"{label}: " + "; ".join(parts) + ".",
        summary_fr=f"{label} : " + " ; ".join(parts_fr) + ".",
    )  # fmt: skip
