"""What the cost calculators share: input bounds, the money fields, and the result base."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from assistant.knowledge.sources import Source
from assistant.money import (
    Currency,
    CurrencyInput,
    Money,
    exchange_rate,
    has_rate,
    other_rate_assumption,
    pound_assumption,
    rate_assumption,
    resolve_currency,
)

# Bounds that reject absurd input with a clear message rather than computing nonsense.
MAX_HOURS = 1_000_000.0  # about 114 years of GPU time
# Money bounds below are in euros whatever the currency (EUR_BOUNDS, MoneyQuery).
MAX_RATE = 10_000.0  # per GPU-hour
MIN_RATE = 0.0001  # per hour: below this a price is a typo, and ratios of prices overflow
MAX_PRICE = 10_000_000.0
MAX_BUDGET = 1_000_000_000.0
MAX_GB = 10_000_000.0
MAX_KWH_PRICE_EUR = 100.0  # per kWh, in euros whatever the currency (120 FCFA is 0.18 EUR)
EUR_BOUNDS = {
    "electricity_price_per_kwh": MAX_KWH_PRICE_EUR,
    "rate_per_hour": MAX_RATE,
    "rent_rate": MAX_RATE,
    "spot_rate": MAX_RATE,
    "dedicated_rate": MAX_RATE,
    "purchase_price": MAX_PRICE,
    "rent_per_month_flat": MAX_PRICE,
    "resale_value": MAX_PRICE,
    "budget": MAX_BUDGET,
}
DAYS_PER_MONTH = 30.0
WEEKEND_HOURS = 48.0

CORPUS_DOC1 = "1 · Obtenir un GPU (corpus document 000_6b3728bf6a0ed216)"
CORPUS_PITFALLS = Source(
    title=CORPUS_DOC1, note="1.3 La location à l'heure, 'Les pièges de la location'"
)
CORPUS_QUIZ = Source(
    title=CORPUS_DOC1, note="'Vérifiez que vous avez compris' (quiz with worked answers)"
)

STRICT = ConfigDict(allow_inf_nan=False, extra="forbid")


class MoneyQuery(BaseModel):
    """Fields every cost query has."""

    model_config = STRICT

    currency: CurrencyInput = Field(
        default=None,
        description="Currency of the money inputs and of the result: EUR, USD, GBP or another ISO code such as CHF, SGD, INR, JPY (default: the configured one)",
    )
    usd_per_eur: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="Exchange rate in USD per EUR (default: the configured one)",
    )

    @model_validator(mode="after")
    def _money_in_range(self) -> MoneyQuery:
        """Each amount of money is bounded in euros (`EUR_BOUNDS`), so a currency of small units
        (FCFA, rupiah, won) keeps its real prices and a typo in any currency is still refused."""
        currency = resolve_currency(self.currency)
        if not has_rate(currency):
            return self  # no rate to bound it by: the asker's own figure, computed as given
        for name, bound in EUR_BOUNDS.items():
            amount = getattr(self, name, None)
            if amount is None:
                continue
            in_eur = Money(amount=amount, currency=currency).to("EUR", self.usd_per_eur).amount
            if in_eur > bound:
                # the type of a field's own bound: an asker's figure out of range, which the
                # tool's message explains, not arguments to drop
                raise PydanticCustomError(
                    "less_than_equal",
                    "{name}: {amount} {currency} is more than {bound} EUR",
                    {"name": name, "amount": f"{amount:g}", "currency": currency,
                     "bound": f"{bound:,.0f}"},
                )  # fmt: skip
        return self


class CostResult(BaseModel):
    """What every cost result carries."""

    currency: Currency = Field(description="Currency of every amount in the result")
    usd_per_eur: float = Field(description="The exchange rate assumed (USD per EUR)")
    summary: str = Field(default="", description="One or two sentences for people")
    assumptions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)


def money_context(q: MoneyQuery) -> tuple[Currency, float, list[str]]:
    """The result currency, the exchange rate, and the assumption sentence stating that rate."""
    cur = resolve_currency(q.currency)
    rate = exchange_rate(q.usd_per_eur)
    other = other_rate_assumption(cur)
    return (
        cur,
        rate,
        [
            rate_assumption(rate),
            *([pound_assumption()] if cur == "GBP" else []),
            *([other] if other else []),
        ],
    )
