"""Cost calculators: renting for N hours, rent vs buy, a forgotten instance, storage while stopped.

Pure functions, pydantic in and out. Every result states its assumptions (exchange rate, month
length, default prices) and its sources. Spot vs dedicated lives in `assistant.tools.spot` and is
re-exported here.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from assistant.knowledge.budget_data import load_budget_data
from assistant.knowledge.prices import (
    Kind,
    canonical_gpu,
    gpu_suggestions,
    hourly_price_range,
    sorted_price_gpus,
)
from assistant.knowledge.sources import Source
from assistant.money import convert, format_money
from assistant.tools.buy import RentVsBuy, RentVsBuyQuery, rent_vs_buy
from assistant.tools.cost_base import (
    CORPUS_PITFALLS,
    DAYS_PER_MONTH,
    MAX_GB,
    MAX_HOURS,
    MIN_RATE,
    WEEKEND_HOURS,
    CostResult,
    MoneyQuery,
    money_context,
)
from assistant.tools.spot import SpotComparison, SpotOption, SpotQuery, spot_vs_dedicated

__all__ = [
    "CostResult",
    "ForgottenCost",
    "ForgottenQuery",
    "RentCost",
    "RentQuery",
    "RentVsBuy",
    "RentVsBuyQuery",
    "SpotComparison",
    "SpotOption",
    "SpotQuery",
    "StorageCost",
    "StorageQuery",
    "forgotten_instance",
    "rent_cost",
    "rent_vs_buy",
    "spot_vs_dedicated",
    "storage_cost",
]

# Block storage list price used when none is given: Amazon EBS gp3, US East, per GB-month.
DEFAULT_STORAGE_USD_PER_GB_MONTH = 0.08
STORAGE_SOURCE = Source(
    title="Amazon EBS pricing (gp3 volumes, US East)",
    url="https://aws.amazon.com/ebs/pricing/",
    note="0.08 USD per GB-month list price, used as a default when no storage price is given",
)


# --- rent -----------------------------------------------------------------------------------------


class RentQuery(MoneyQuery):
    """Cost of renting one or several GPUs of a kind for a number of hours."""

    gpu: str | None = Field(
        default=None, max_length=200, description="GPU to rent, e.g. 'H100' or 'RTX 4090'"
    )
    hours: float = Field(gt=0, le=MAX_HOURS, description="Hours of rental")
    rate_per_hour: float | None = Field(
        default=None,
        gt=0,
        description="Known price per GPU-hour in `currency` (skips the price data)",
    )
    gpu_count: int = Field(default=1, ge=1, le=1024, description="GPUs rented together")
    kind: Kind | None = Field(
        default=None,
        description="Restrict the price data to one kind (on-demand, spot, community, marketplace, serverless...)",
    )
    utilisation: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Share of `hours` the GPUs are actually rented (0.4 = 40 % of the time)",
    )
    speedup: float = Field(
        default=1.0,
        ge=0.001,
        le=1000,
        description="How many times faster this card does the work than the one `hours` was "
        "estimated on (2 = the job takes half the hours; 0.4 = it takes 2.5 times the hours)",
    )

    @model_validator(mode="after")
    def _gpu_or_rate(self) -> RentQuery:
        if self.gpu is None and self.rate_per_hour is None:
            raise ValueError("give a GPU name or a rate per hour")
        return self


class RentCost(CostResult):
    """Cost of a rental: a range from the price data, or one figure from a given rate."""

    gpu: str | None = Field(description="Catalog name of the card, if known")
    found: bool = Field(description="False when the GPU is unknown or has no price data")
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    hours: float = Field(description="The hours asked about")
    hours_billed: float | None = Field(
        default=None, description="Hours paid for: hours × utilisation ÷ speed-up"
    )
    utilisation: float = 1.0
    speedup: float = 1.0
    gpu_count: int = Field(default=1, description="GPUs rented; costs cover all of them")
    kind: str | None = None
    rate_low: float | None = Field(default=None, description="Per GPU-hour")
    rate_high: float | None = None
    rate_typical: float | None = None
    cost_low: float | None = None
    cost_high: float | None = None
    cost_typical: float | None = None
    n_prices: int = 0


def rent_cost(q: RentQuery) -> RentCost:
    """Cost of renting `gpu_count` GPUs for `hours`: GPUs × hours × the price per GPU-hour, low /
    typical / high from sourced prices, or one figure from a given rate."""
    cur, usd_per_eur, assumptions = money_context(q)
    name = canonical_gpu(q.gpu) if q.gpu else None
    n = q.gpu_count
    billed = q.hours * q.utilisation / q.speedup
    common = {
        "currency": cur,
        "usd_per_eur": usd_per_eur,
        "hours": q.hours,
        "hours_billed": billed,
        "utilisation": q.utilisation,
        "speedup": q.speedup,
        "gpu_count": n,
        "assumptions": assumptions,
    }
    if billed != q.hours:
        assumptions.append(
            f"Hours paid: {q.hours:g} h"
            + (f" × {q.utilisation:.0%} in use" if q.utilisation != 1 else "")
            + (f" ÷ {q.speedup:g} (that much faster)" if q.speedup > 1 else "")
            + (f" × {1 / q.speedup:g} (that much slower)" if q.speedup < 1 else "")
            + f" = {billed:g} h."
        )
    who = f"{n} × {name or q.gpu or 'GPU'} " if n > 1 else ""
    if q.rate_per_hour is not None:
        cost = q.rate_per_hour * billed * n
        return RentCost(
            gpu=name or q.gpu,
            found=True,
            kind="given rate",
            rate_low=q.rate_per_hour,
            rate_high=q.rate_per_hour,
            rate_typical=q.rate_per_hour,
            cost_low=cost,
            cost_high=cost,
            cost_typical=cost,
            n_prices=0,
            summary=(
                f"{who}{billed:g} h at {format_money(q.rate_per_hour, cur)}/GPU-h = "
                f"{format_money(cost, cur)}."
            ),
            **common,
        )
    assert q.gpu is not None
    if name is None:
        return RentCost(
            gpu=None,
            found=False,
            message=f"Unknown GPU {q.gpu!r}.",
            suggestions=gpu_suggestions(q.gpu),
            summary=f"I don't know a GPU called {q.gpu!r}.",
            **common,
        )
    rng = hourly_price_range(q.gpu, q.kind, currency=cur, usd_per_eur=usd_per_eur)
    if rng is None:
        return RentCost(
            gpu=name,
            found=False,
            message=f"No {q.kind or 'rental'} price data for {name}; give a rate per hour.",
            suggestions=sorted_price_gpus(),
            summary=f"No price data for {name}.",
            **common,
        )
    assumptions.append(
        "Prices per GPU-hour from the corpus's indicative ranges and dated provider snapshots; "
        + ("spot and reserved capacity excluded." if q.kind is None else f"kind '{q.kind}' only.")
        + f" Low and high are the extremes of {rng.n} figures; typical is their median."
    )
    low, high, typ = (rate * billed * n for rate in (rng.low, rng.high, rng.typical))
    return RentCost(
        gpu=name,
        found=True,
        kind=rng.kind,
        rate_low=rng.low,
        rate_high=rng.high,
        rate_typical=rng.typical,
        cost_low=low,
        cost_high=high,
        cost_typical=typ,
        n_prices=rng.n,
        sources=rng.sources,
        summary=(
            f"{who or name + ' '}for {billed:g} h: {format_money(low, cur)} – {format_money(high, cur)}, "
            f"typically {format_money(typ, cur)} ({format_money(rng.typical, cur)}/h per GPU)."
        ),
        **common,
    )


# --- forgotten instance ---------------------------------------------------------------------------


class ForgottenQuery(MoneyQuery):
    """An instance left running by mistake."""

    gpu: str | None = Field(
        default=None, max_length=200, description="GPU of the forgotten instance, e.g. 'H100'"
    )
    rate_per_hour: float | None = Field(
        default=None, ge=MIN_RATE, description="Its price per hour in `currency`"
    )
    hours: float = Field(
        default=WEEKEND_HOURS, gt=0, le=MAX_HOURS, description="Hours left running (a weekend = 48)"
    )
    gpu_count: int = Field(default=1, ge=1, le=1024, description="GPUs in the instance")

    @model_validator(mode="after")
    def _gpu_or_rate(self) -> ForgottenQuery:
        if self.gpu is None and self.rate_per_hour is None:
            raise ValueError("give a GPU name or a rate per hour")
        return self


class ForgottenCost(RentCost):
    """What a forgotten instance costs."""

    corpus_note: str | None = None
    corpus_note_fr: str | None = Field(default=None, description="The corpus note in French")


def forgotten_instance(q: ForgottenQuery) -> ForgottenCost:
    """What an instance left running costs (default: a 48-hour weekend)."""
    rent = rent_cost(
        RentQuery(
            gpu=q.gpu,
            hours=q.hours,
            rate_per_hour=q.rate_per_hour,
            gpu_count=q.gpu_count,
            currency=q.currency,
            usd_per_eur=q.usd_per_eur,
        )
    )
    result = ForgottenCost(**rent.model_dump())
    if q.hours == WEEKEND_HOURS:
        result.assumptions.append(
            "A weekend is taken as 48 hours (Friday evening to Sunday evening)."
        )
    if result.found and result.cost_typical is not None:
        who = f"{q.gpu_count} × {result.gpu}" if q.gpu_count > 1 else (result.gpu or "the instance")
        result.summary = (
            f"{who} left running {q.hours:g} h costs about {format_money(result.cost_typical, result.currency)}"
            + (
                f" ({format_money(result.cost_low or 0, result.currency)} – "
                f"{format_money(result.cost_high or 0, result.currency)})."
                if result.cost_low != result.cost_high
                else "."
            )
        )
    guide = load_budget_data()
    if result.gpu and canonical_gpu(result.gpu) == canonical_gpu(guide.forgotten_gpu):
        said = format_money(guide.forgotten_amount, guide.forgotten_currency, decimals=0)
        mine = convert(
            guide.forgotten_amount, guide.forgotten_currency, result.currency, result.usd_per_eur
        )
        per_hour = format_money(
            guide.forgotten_amount / guide.forgotten_hours, guide.forgotten_currency, decimals=1
        )
        result.corpus_note = (
            f"The guide calls a forgotten {guide.forgotten_gpu} over a weekend the costliest mistake: about {said} "
            f"(≈ {format_money(mine, result.currency)}), i.e. about {per_hour}/h over "
            f"{guide.forgotten_hours:g} h, a hyperscaler on-demand price."
        )
        result.corpus_note_fr = (
            f"Le guide cite environ {format_money(guide.forgotten_amount, guide.forgotten_currency, 'fr', decimals=0)} "
            f"pour une {guide.forgotten_gpu} oubliée un week-end (≈ {format_money(mine, result.currency, 'fr')}), "
            f"soit environ {format_money(guide.forgotten_amount / guide.forgotten_hours, guide.forgotten_currency, 'fr', decimals=1)}/h "
            f"sur {guide.forgotten_hours:g} h, un tarif à la demande d'hyperscaler : l'erreur la plus coûteuse."
        )
        result.sources.append(CORPUS_PITFALLS)
    return result


# --- storage --------------------------------------------------------------------------------------


class StorageQuery(MoneyQuery):
    """Persistent disk billed while the instance is stopped."""

    gb: float = Field(gt=0, le=MAX_GB, description="Disk size in GB")
    price_per_gb_month: float | None = Field(
        default=None,
        gt=0,
        le=1000,
        description="Price per GB-month in `currency` (default: 0.08 USD, EBS gp3)",
    )
    days: float = Field(
        default=DAYS_PER_MONTH, gt=0, le=36_500, description="Days the disk is kept"
    )


class StorageCost(CostResult):
    """Storage cost while stopped."""

    gb: float
    days: float
    price_per_gb_month: float
    cost_per_day: float
    cost: float


def storage_cost(q: StorageQuery) -> StorageCost:
    """Cost of keeping a persistent disk for `days`, billed even while the instance is stopped."""
    cur, usd_per_eur, assumptions = money_context(q)
    sources = [CORPUS_PITFALLS]
    price = q.price_per_gb_month
    if price is None:
        price = convert(DEFAULT_STORAGE_USD_PER_GB_MONTH, "USD", cur, usd_per_eur)
        assumptions.append(
            f"Storage priced at {format_money(price, cur, decimals=3)} per GB-month (EBS gp3 list price)."
        )
        sources.append(STORAGE_SOURCE)
    assumptions.append(
        f"A month is {DAYS_PER_MONTH:g} days; storage is billed whether the instance runs or not."
    )
    per_day = q.gb * price / DAYS_PER_MONTH
    cost = per_day * q.days
    return StorageCost(
        currency=cur,
        usd_per_eur=usd_per_eur,
        gb=q.gb,
        days=q.days,
        price_per_gb_month=price,
        cost_per_day=per_day,
        cost=cost,
        assumptions=assumptions,
        sources=sources,
        summary=(
            f"{q.gb:g} GB kept {q.days:g} days costs {format_money(cost, cur)} "
            f"({format_money(per_day, cur)} a day), even while stopped."
        ),
    )
