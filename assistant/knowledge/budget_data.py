"""The guide's figures behind the budget plan and the forgotten-instance note (budget_plan.toml),
validated; the guide's parts themselves are the topics of topics.toml."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.money import Currency


class Shares(BaseModel):
    """Shares of a budget: marketplace hours, Hopper/Blackwell hours, reserve."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    comfort: float = Field(ge=0, le=1)
    hopper: float = Field(ge=0, le=1)
    reserve: float = Field(ge=0, le=1)


class BudgetData(BaseModel):
    """Every figure of budget_plan.toml."""

    model_config = ConfigDict(frozen=True)

    parts: list[int]
    hopper_parts: frozenset[int]
    parts_source: str
    comfort_gpu: str
    comfort_alt: str
    hopper_gpu: str
    hopper_alt: str
    price_kind: str
    learning_card: str
    cards_source: str
    shares: dict[str, Shares]
    small_budget: float
    small_budget_currency: Currency
    small_budget_card: str
    small_budget_source: str
    forgotten_gpu: str
    forgotten_amount: float
    forgotten_currency: Currency
    forgotten_hours: float
    forgotten_source: str


@lru_cache(maxsize=1)
def load_budget_data() -> BudgetData:
    """The budget figures, with the guide's part numbers taken from topics.toml."""
    from assistant.knowledge.loader import read_toml_table
    from assistant.knowledge.topics import load_topics

    doc = read_toml_table("budget_plan.toml")
    cards, small, weekend = doc["cards"], doc["small_budget"], doc["forgotten_weekend"]
    return BudgetData(
        parts=sorted({t.part for t in load_topics() if t.part is not None}),
        hopper_parts=frozenset(doc["parts"]["hopper"]),
        parts_source=doc["parts"]["source"],
        comfort_gpu=cards["comfort"],
        comfort_alt=cards["comfort_alt"],
        hopper_gpu=cards["hopper"],
        hopper_alt=cards["hopper_alt"],
        price_kind=cards["price_kind"],
        learning_card=cards["learning_card"],
        cards_source=cards["source"],
        shares={k: Shares.model_validate(v) for k, v in doc["shares"].items()},
        small_budget=small["amount"],
        small_budget_currency=small["currency"],
        small_budget_card=small["card"],
        small_budget_source=small["source"],
        forgotten_gpu=weekend["gpu"],
        forgotten_amount=weekend["amount"],
        forgotten_currency=weekend["currency"],
        forgotten_hours=weekend["hours"],
        forgotten_source=weekend["source"],
    )
