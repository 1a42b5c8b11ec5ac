"""Rent vs buy: after how many hours of use does owning the card cost less than renting it?

Owning costs the purchase price minus what the card resells for, plus electricity
(W × hours × price per kWh). Renting costs the hourly rate. Break-even hours =
(purchase − resale) / (rent per hour − electricity per hour).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from assistant.knowledge.prices import (
    Condition,
    canonical_gpu,
    gpu_suggestions,
    hourly_price_range,
    purchase_price,
)
from assistant.knowledge.sources import Source
from assistant.money import configured_electricity_price, format_money, format_unit_price
from assistant.tools.cost_base import (
    DAYS_PER_MONTH,
    MAX_HOURS,
    MIN_RATE,
    CostResult,
    MoneyQuery,
    money_context,
)

DEFAULT_HOURS_PER_DAY = 8.0
CALENDAR_DAYS_PER_MONTH = 365 / 12
NEVER_HOURS = 1_000_000.0  # a break-even beyond about 114 years of use is "never"


class RentVsBuyQuery(MoneyQuery):
    """Buy a card, or rent one by the hour?"""

    gpu: str | None = Field(
        default=None,
        max_length=200,
        description="The card, to look up its prices and power when not given",
    )
    purchase_price: float | None = Field(
        default=None,
        gt=0,
        description="Purchase price in `currency` (default: the price data's typical)",
    )
    condition: Condition | None = Field(
        default=None, description="new or used, when the purchase price is looked up"
    )
    rent_rate: float | None = Field(
        default=None,
        ge=MIN_RATE,
        description="Rental price per card and hour in `currency` (default: the price data's "
        "typical); gpu_count cards are rented",
    )
    rent_per_month_flat: float | None = Field(
        default=None,
        gt=0,
        description="The alternative at a fixed price a month instead of by the hour (a GPU "
        "rented by the month, a notebook subscription such as Colab Pro), in `currency`; "
        "replaces rent_rate",
    )
    hours_per_day: float = Field(
        default=DEFAULT_HOURS_PER_DAY, ge=0.01, le=24, description="Hours of use per day"
    )
    days_per_month: float = Field(
        default=DAYS_PER_MONTH, gt=0, le=31, description="Days of use a month (22 working days)"
    )
    utilisation: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Share of those hours the card is busy and a rental would be paid (0.4 = 40 %)",
    )
    period_hours: float | None = Field(
        default=None,
        gt=0,
        le=MAX_HOURS,
        description="Calendar time to total both options over, in hours (3 years = 26,280 h)",
    )
    gpu_count: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Cards bought or rented (their power, price and hourly rate add up)",
    )
    power_w: float | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Power drawn while working, in watts (default: the card's TDP)",
    )
    electricity_price_per_kwh: float | None = Field(
        default=None,
        ge=0,
        description="Electricity price per kWh in `currency` (default: the configured one)",
    )
    idle_power_w: float | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Power drawn while switched on but not working, in watts (default: none "
        "counted)",
    )
    always_on: bool = Field(
        default=False,
        description="The machine stays on around the clock and idles when not working",
    )
    idle_hours_per_day: float | None = Field(
        default=None,
        ge=0,
        le=24,
        description="Hours a day switched on but idle, on the days of use (when not always_on)",
    )
    running_per_month: float | None = Field(
        default=None,
        ge=0,
        le=10_000_000,
        description="Monthly cost of owning besides the purchase (hosting, colocation, "
        "maintenance), spread over the hours of use",
    )
    running_includes_power: bool = Field(
        default=False,
        description="`running_per_month` already pays for the electricity: power is not counted again",
    )
    resale_value: float | None = Field(
        default=None,
        ge=0,
        description="What the card resells for at the end, in `currency`",
    )
    resale_fraction: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Resale value as a fraction of the purchase price (0.5 = half)",
    )

    @model_validator(mode="after")
    def _consistent(self) -> RentVsBuyQuery:
        if self.resale_value is not None and self.resale_fraction is not None:
            raise ValueError("give resale_value or resale_fraction, not both")
        if self.gpu is None and (self.purchase_price is None or self.rent_rate is None):
            raise ValueError("give a GPU name, or both purchase_price and rent_rate")
        if (
            self.resale_value is not None
            and self.purchase_price is not None
            and self.resale_value > self.purchase_price
        ):
            raise ValueError("resale_value cannot exceed purchase_price")
        return self


class RentVsBuy(CostResult):
    """Break-even between buying and renting."""

    gpu: str | None = None
    found: bool = True
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    purchase_price: float | None = None
    resale_value: float | None = None
    net_purchase: float | None = Field(
        default=None, description="Purchase price minus resale value"
    )
    rent_rate: float | None = None
    power_w: float | None = None
    electricity_price_per_kwh: float | None = None
    electricity_per_hour: float | None = Field(
        default=None, description="Electricity per hour of use, idle hours' share included"
    )
    idle_power_w: float | None = None
    idle_hours_per_month: float | None = None
    running_per_month: float | None = Field(
        default=None, description="Monthly running cost of owning counted (hosting, colocation)"
    )
    running_includes_power: bool = False
    idle_per_month: float | None = Field(
        default=None, description="Electricity of the idle hours over a month"
    )
    saving_per_hour: float | None = Field(
        default=None, description="Rent rate minus electricity per hour"
    )
    hours_per_day: float = Field(description="Hours a day the card is busy (after utilisation)")
    days_per_month: float = DAYS_PER_MONTH
    utilisation: float = 1.0
    gpu_count: int = 1
    rent_per_month: float | None = Field(
        default=None, description="Renting for a month of this use: rate × hours a day × days"
    )
    period_hours: float | None = None
    hours_used: float | None = Field(default=None, description="Hours of use over the period")
    rent_total: float | None = Field(default=None, description="Renting over the period")
    own_total: float | None = Field(
        default=None, description="Owning over the period: purchase − resale + electricity"
    )
    rent_per_month_flat: float | None = Field(
        default=None, description="The alternative's flat price a month, when it is one"
    )
    break_even_hours: float | None = Field(
        default=None, description="None when buying never pays off"
    )
    break_even_days: float | None = None
    break_even_months: float | None = None


def _card_tdp(gpu: str | None) -> float | None:
    if gpu is None:
        return None
    try:
        from assistant.knowledge.matching import match_gpu
    except ImportError:
        return None
    card = match_gpu(gpu).gpu
    tdp = getattr(card, "tdp_w", None) if card is not None else None
    return float(tdp) if tdp else None


def rent_vs_buy(q: RentVsBuyQuery) -> RentVsBuy:
    """Break-even in hours and months at `hours_per_day` between buying a card and renting one."""
    cur, usd_per_eur, assumptions = money_context(q)
    sources: list[Source] = []
    per_day = q.hours_per_day * q.utilisation
    base = {
        "currency": cur, "usd_per_eur": usd_per_eur, "hours_per_day": per_day,
        "days_per_month": q.days_per_month, "utilisation": q.utilisation,
        "gpu_count": q.gpu_count, "period_hours": q.period_hours,
    }  # fmt: skip
    name = canonical_gpu(q.gpu) if q.gpu else None
    known_price = (
        purchase_price(q.gpu, q.condition, currency=cur, usd_per_eur=usd_per_eur)
        if q.gpu is not None and q.purchase_price is None
        else None
    )
    if known_price is not None and name is None:
        name = known_price.gpu  # a card the price data knows though the catalog does not
    if (
        q.gpu is not None
        and name is None
        and (q.purchase_price is None or (q.rent_rate is None and q.rent_per_month_flat is None))
    ):
        return RentVsBuy(
            found=False, message=f"Unknown GPU {q.gpu!r}.", suggestions=gpu_suggestions(q.gpu),
            summary=f"I don't know a GPU called {q.gpu!r}.", assumptions=assumptions, **base,
        )  # fmt: skip
    price = q.purchase_price
    if price is None:
        found = known_price
        if found is None:
            return RentVsBuy(
                gpu=name, found=False, message=f"No purchase price for {name}; give purchase_price.",
                summary=f"No purchase price for {name}.", assumptions=assumptions, **base,
            )  # fmt: skip
        price = found.typical * q.gpu_count
        sources += found.sources
        assumptions.append(
            f"Purchase price: the median of {found.n} sourced figure(s) ({found.kind})."
        )
    rate = q.rent_rate
    if q.rent_per_month_flat is not None:
        # A flat monthly price, spread over the hours of use a month: what an hour of it costs.
        month_hours = per_day * q.days_per_month
        rate = q.rent_per_month_flat / month_hours
        assumptions.append(
            f"Rent: {format_money(q.rent_per_month_flat, cur)} a month whatever the use, that is "
            f"{format_money(rate, cur)}/h over the {month_hours:,.0f} h of use a month."
        )
    if rate is None:
        assert q.gpu is not None
        rng = hourly_price_range(q.gpu, currency=cur, usd_per_eur=usd_per_eur)
        if rng is None:
            return RentVsBuy(
                gpu=name, found=False, message=f"No rental price for {name}; give rent_rate.",
                summary=f"No rental price for {name}.", assumptions=assumptions, **base,
            )  # fmt: skip
        rate = rng.typical
        sources += rng.sources
        assumptions.append(
            f"Rent rate: the median of {rng.n} sourced hourly price(s) (spot excluded)."
        )
    if q.gpu_count > 1 and q.rent_per_month_flat is None:
        assumptions.append(f"Rent: {format_money(rate, cur)}/h per card × {q.gpu_count} cards.")
        rate *= q.gpu_count
    power = q.power_w
    if power is None:
        power = (_card_tdp(q.gpu) or 0.0) * q.gpu_count
        assumptions.append(
            f"Power: {power:g} W, the TDP from the catalog"
            + (f" × {q.gpu_count} cards." if q.gpu_count > 1 else ".")
            if power
            else "Power: unknown, so electricity is not counted (give power_w)."
        )
    kwh_price = q.electricity_price_per_kwh
    if kwh_price is None:  # a Python caller that gave none: the configured price
        kwh_price = configured_electricity_price(cur, usd_per_eur)
    assumptions.append(
        f"Electricity: {format_unit_price(kwh_price, cur)} per kWh (the question's, else "
        "GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH)."
    )
    if q.resale_value is not None:
        resale = min(q.resale_value, price)
    elif q.resale_fraction is not None:
        resale = price * q.resale_fraction
    else:
        resale = 0.0
        assumptions.append("Resale value: none assumed (give resale_value or resale_fraction).")
    electricity = (
        0.0 if q.running_per_month and q.running_includes_power else power / 1000 * kwh_price
    )
    idle = (
        None if q.running_per_month and q.running_includes_power else _idle(q, per_day, kwh_price)
    )
    if q.running_per_month:
        use_hours = per_day * q.days_per_month
        electricity += q.running_per_month / use_hours
        assumptions.append(
            f"Running costs: {format_money(q.running_per_month, cur)} a month"
            + (" (electricity included)" if q.running_includes_power else "")
            + f", spread over the {use_hours:,.0f} h of use."
        )
    if idle is not None:
        idle_hours, idle_cost = idle
        use_hours = per_day * q.days_per_month
        electricity += idle_cost / use_hours
        assumptions.append(
            f"Idle: {q.idle_power_w:g} W for {idle_hours:,.0f} h a month switched on but not "
            f"working ({format_money(idle_cost, cur)} a month), spread over the "
            f"{use_hours:,.0f} h of use."
        )
    saving = rate - electricity
    net = price - resale
    assumptions.append(
        f"A month is {q.days_per_month:g} days of use; only the card's own power is counted, not the rest of the machine."
    )
    used = _hours_used(q.period_hours, per_day, q.days_per_month)
    result = RentVsBuy(
        gpu=name or q.gpu, purchase_price=price, resale_value=resale, net_purchase=net, rent_rate=rate,
        power_w=power, electricity_price_per_kwh=kwh_price, electricity_per_hour=electricity,
        idle_power_w=q.idle_power_w if idle else None,
        idle_hours_per_month=idle[0] if idle else None, idle_per_month=idle[1] if idle else None,
        running_per_month=q.running_per_month, running_includes_power=q.running_includes_power,
        rent_per_month_flat=q.rent_per_month_flat,
        saving_per_hour=saving, assumptions=assumptions, sources=sources,
        rent_per_month=rate * per_day * q.days_per_month, hours_used=used,
        rent_total=rate * used if used is not None else None,
        own_total=net + electricity * used if used is not None else None, **base,
    )  # fmt: skip
    if saving <= 0:
        result.summary = (
            f"Buying never pays off: electricity ({format_money(electricity, cur)}/h) costs as much as "
            f"renting ({format_money(rate, cur)}/h)."
        )
        return result
    hours = net / saving
    if hours > NEVER_HOURS:
        result.summary = f"Buying practically never pays off: renting saves only {format_money(saving, cur, decimals=6)}/h."
        return result
    result.break_even_hours = hours
    result.break_even_days = hours / per_day
    result.break_even_months = result.break_even_days / q.days_per_month
    result.summary = (
        f"Buying at {format_money(price, cur)} pays off after {hours:,.0f} hours of use: "
        f"{result.break_even_months:.1f} months at {per_day:g} h a day, {q.days_per_month:g} days a month "
        f"(renting {format_money(rate, cur)}/h, electricity {format_money(electricity, cur)}/h)."
    )
    return result


def _idle(q: RentVsBuyQuery, per_day: float, kwh_price: float) -> tuple[float, float] | None:
    """(idle hours a month, their electricity) for a machine left on when it does not work:
    around the clock, or the idle hours a day on the days of use."""
    if not q.idle_power_w:
        return None
    if q.always_on:
        hours = max(0.0, 24 * CALENDAR_DAYS_PER_MONTH - per_day * q.days_per_month)
    elif q.idle_hours_per_day:
        hours = q.idle_hours_per_day * q.days_per_month
    else:
        return None
    return hours, q.idle_power_w / 1000 * kwh_price * hours


def _hours_used(period_hours: float | None, per_day: float, days_per_month: float) -> float | None:
    """Hours of use over a calendar period: its days, the share of them used, the hours a day."""
    if period_hours is None:
        return None
    days = period_hours / 24
    if days_per_month != DAYS_PER_MONTH:
        days *= days_per_month / CALENDAR_DAYS_PER_MONTH  # working days only
    return days * per_day
