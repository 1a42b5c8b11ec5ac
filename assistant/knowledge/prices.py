"""Price data: the corpus's hourly ranges and purchase table, and dated provider snapshots.

Every row names its source and the date (or year) its price was seen. GPU names resolve through the
catalog's matcher, so "H100", "H100 SXM" and "my h100" land on the same card.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from datetime import date
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from assistant.knowledge.loader import read_csv_rows
from assistant.knowledge.sources import Source
from assistant.money import Currency, convert

Kind = Literal[
    "indicative", "on-demand", "spot", "community", "serverless", "marketplace", "reserved"
]
Condition = Literal["new", "used"]

HOURLY_FILES = ("prices_hourly_corpus.csv", "prices_hourly_cloud.csv")
PURCHASE_FILE = "prices_purchase.csv"
# What "any kind" means for a rental price: interruptible and reserved capacity are other products.
DEFAULT_KINDS: tuple[Kind, ...] = (
    "indicative",
    "on-demand",
    "community",
    "marketplace",
    "serverless",
)
AS_OF_PATTERN = r"^\d{4}(-\d{2}(-\d{2})?)?$"


class _PricedRow(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    gpu: str = Field(min_length=2, description="GPU name as the source writes it")
    low: float = Field(gt=0, description="Lowest price in the source")
    high: float = Field(gt=0, description="Highest price in the source")
    currency: Currency
    as_of: str = Field(
        pattern=AS_OF_PATTERN, description="When the price was seen: YYYY, YYYY-MM or YYYY-MM-DD"
    )
    as_of_note: str | None = Field(
        default=None, description="How precise the date is, or where it comes from"
    )
    source: str = Field(min_length=3, description="Document or page the price comes from")
    document: str | None = Field(default=None, description="Corpus document id, for corpus rows")
    section: str | None = None
    url: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> _PricedRow:
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    @property
    def midpoint(self) -> float:
        """Halfway between the row's low and high price."""
        return (self.low + self.high) / 2

    def to_source(self) -> Source:
        """The row's origin as a Source: document, section, note and when the price was seen."""
        exact = date.fromisoformat(self.as_of) if len(self.as_of) == 10 else None
        where = ", ".join(p for p in (self.section, self.note) if p)
        title = f"{self.source} (corpus document {self.document})" if self.document else self.source
        when = f"as of {self.as_of}" + (f" ({self.as_of_note})" if self.as_of_note else "")
        return Source(
            title=title, url=self.url, date=exact, note="; ".join(p for p in (where, when) if p)
        )


class HourlyPrice(_PricedRow):
    """A rental price per GPU-hour at one provider (or a range stated by a document)."""

    kind: Kind
    provider: str = Field(min_length=2)


class PurchasePrice(_PricedRow):
    """A purchase price for one card, new or used."""

    condition: Condition
    product: str | None = Field(
        default=None,
        description="What is sold when it is more than a card, e.g. 'Mac Studio (M4 Max)'",
    )


class PriceRange(BaseModel):
    """Low, high and typical price for one card, with where and when the figures were seen."""

    gpu: str = Field(description="Catalog name of the card")
    kind: str = Field(description="Which prices: rental kinds, or new/used for purchases")
    low: float
    high: float
    typical: float = Field(description="Median of the rows' midpoints")
    currency: Currency
    n: int = Field(description="How many price rows were used")
    sources: list[Source]
    dates: list[str] = Field(description="The as-of dates of the rows, oldest first")


@lru_cache(maxsize=1)
def load_hourly_prices() -> tuple[HourlyPrice, ...]:
    """Every hourly price row (corpus ranges first, then provider snapshots)."""
    rows: list[HourlyPrice] = []
    for name in HOURLY_FILES:
        rows.extend(read_csv_rows(name, HourlyPrice))
    return tuple(rows)


@lru_cache(maxsize=1)
def load_purchase_prices() -> tuple[PurchasePrice, ...]:
    """Every purchase price row."""
    return tuple(read_csv_rows(PURCHASE_FILE, PurchasePrice))


def _simplify(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


@lru_cache(maxsize=512)
def canonical_gpu(name: str) -> str | None:
    """The catalog name a GPU name resolves to, or None if the catalog does not know it."""
    try:
        from assistant.knowledge.matching import match_gpu
    except ImportError:  # catalog not available: exact names only
        return _simplify(name) or None
    match = match_gpu(name)
    return match.gpu.name if match.gpu is not None else None


def gpu_suggestions(name: str) -> list[str]:
    """Near names for an unknown GPU (the catalog's, else the price data's)."""
    try:
        from assistant.knowledge.matching import match_gpu

        suggestions = list(match_gpu(name).suggestions)
    except ImportError:
        suggestions = []
    return suggestions or sorted_price_gpus()[:8]


def sorted_price_gpus() -> list[str]:
    """GPU names that have a rental price, in data order without duplicates."""
    seen: dict[str, None] = {}
    for row in load_hourly_prices():
        seen.setdefault(row.gpu, None)
    return list(seen)


def _summarize(
    gpu: str,
    kind: str,
    rows: Sequence[_PricedRow],
    currency: Currency,
    usd_per_eur: float | None,
) -> PriceRange:
    def conv(value: float, row: _PricedRow) -> float:
        """A row's amount in the currency asked for."""
        return convert(value, row.currency, currency, usd_per_eur)

    return PriceRange(
        gpu=gpu,
        kind=kind,
        low=min(conv(r.low, r) for r in rows),
        high=max(conv(r.high, r) for r in rows),
        typical=statistics.median(conv(r.midpoint, r) for r in rows),
        currency=currency,
        n=len(rows),
        sources=[r.to_source() for r in rows],
        dates=sorted({r.as_of for r in rows}),
    )


summarize_prices = _summarize  # public name for tools that summarise rows they selected


def _kinds(kind: str | Iterable[str] | None) -> tuple[str, ...]:
    if kind is None:
        return DEFAULT_KINDS
    if isinstance(kind, str):
        return (kind,)
    return tuple(kind)


def hourly_rows(gpu_name: str, kind: str | Iterable[str] | None = None) -> list[HourlyPrice]:
    """The hourly price rows for the card `gpu_name` resolves to, filtered by kind."""
    target = canonical_gpu(gpu_name)
    if target is None:
        return []
    kinds = _kinds(kind)
    return [r for r in load_hourly_prices() if r.kind in kinds and canonical_gpu(r.gpu) == target]


def hourly_price_range(
    gpu_name: str,
    kind: str | Iterable[str] | None = None,
    currency: Currency = "USD",
    usd_per_eur: float | None = None,
) -> PriceRange | None:
    """Rental price per GPU-hour for a card: None when no row matches.

    `kind` None means every rental kind except spot and reserved capacity.
    """
    rows = hourly_rows(gpu_name, kind)
    if not rows:
        return None
    name = canonical_gpu(gpu_name) or gpu_name
    return _summarize(name, "+".join(_kinds(kind)), rows, currency, usd_per_eur)


def purchase_rows(
    gpu_name: str, condition: Condition | None = None
) -> tuple[str, list[PurchasePrice]]:
    """(the name the rows are for, the purchase rows) of a card: through the catalog's matcher, else
    the data's own names (a card the catalog lacks) or products ('Mac Studio')."""
    wanted = [r for r in load_purchase_prices() if condition is None or r.condition == condition]
    target = canonical_gpu(gpu_name)
    if target is not None:
        rows = [r for r in wanted if canonical_gpu(r.gpu) == target]
        if rows:
            return target, rows
    key = _simplify(gpu_name)
    if len(key) < 3:
        return target or gpu_name, []
    named = [
        r
        for r in wanted
        if canonical_gpu(r.gpu) is None
        and (_simplify(r.gpu).endswith(key) or key.endswith(_simplify(r.gpu)))
    ]
    if named:
        return named[0].gpu, named
    chip = key.removeprefix("apple")  # 'Apple M3 Ultra' is sold as a Mac Studio with an M3 Ultra
    products = [
        r
        for r in wanted
        if r.product and (chip in _simplify(r.product) or chip in _simplify(r.gpu))
    ]
    if not products:
        return target or gpu_name, []
    labels = {r.product for r in products}
    return (products[0].product or gpu_name) if len(labels) == 1 else gpu_name.strip(), products


def purchase_price(
    gpu_name: str,
    condition: Condition | None = None,
    currency: Currency = "EUR",
    usd_per_eur: float | None = None,
) -> PriceRange | None:
    """Purchase price of a card (new, used, or either): None when no row matches."""
    target, rows = purchase_rows(gpu_name, condition)
    if not rows:
        return None
    return _summarize(target, condition or "new+used", rows, currency, usd_per_eur)
