"""The query and result models of the recommendation tool, at the bottom of the package: every other
module of `assistant.tools.recommend` imports from here, and this imports nothing from them."""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from assistant.knowledge.sources import Source
from assistant.money import Currency
from assistant.tools.cost_base import MAX_BUDGET, MoneyQuery

Mode = Literal["buy", "rent", "either"]
ConditionChoice = Literal["new", "used", "any"]
Form = Literal["desktop", "cloud", "any"]
Kind = Literal["buy", "rent"]
Workload = Literal["lora", "qlora", "flux", "llm_inference", "training"]

MAX_POWER_W = 5_000
MAX_CANDIDATES = 8


class RecommendQuery(MoneyQuery):
    """A budget, a goal and constraints to recommend GPUs for."""

    budget: float | None = Field(
        default=None,
        ge=0,
        le=MAX_BUDGET,
        description="Money to spend, in `currency` (purchase price, or total rental spend); "
        "None for no limit, 0 for free options only",
    )
    mode: Mode = Field(default="either", description="buy a card, rent one by the hour, or either")
    goal: str | None = Field(
        default=None,
        max_length=500,
        description="The goal in free text, EN or FR: 'learn CUDA up to part 4', 'wgmma', "
        "'LoRA on SDXL', 'run Llama 3.1 70B'. Structured fields below take precedence",
    )
    guide_part: int | None = Field(
        default=None,
        ge=1,
        le=9,
        description="Cover the guide up to this part (1–9); parts 4 and 8 need Hopper or Blackwell",
    )
    feature: str | None = Field(
        default=None,
        max_length=100,
        description="A CUDA feature or topic to learn or use: 'wgmma', 'tcgen05', 'TMA', 'fp8', "
        "'fp4', 'megakernels', 'triton', 'rocm'",
    )
    workload: Workload | None = Field(
        default=None,
        description="lora, qlora, flux (image generation), llm_inference or training (deep-learning "
        "training or fine-tuning in general); VRAM is checked with the workload-fit estimate",
    )
    model: str | None = Field(
        default=None,
        max_length=200,
        description="Model for the workload, as written: 'Llama 3.1 8B', 'flux dev', 'sdxl'",
    )
    model_params_b: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Model size in billions of parameters, for a model not named",
    )
    condition: ConditionChoice = Field(
        default="any", description="For purchases: new, used, or any"
    )
    max_power_w: int | None = Field(
        default=None,
        gt=0,
        le=MAX_POWER_W,
        description="Highest board power (TDP, watts) for a card you buy; rentals are not limited",
    )
    form: Form = Field(
        default="any",
        description="desktop (a card you own), cloud (rented), or any; narrows `mode`",
    )
    limit: int = Field(default=5, ge=1, le=20, description="How many options to return")
    candidates: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list,
        max_length=MAX_CANDIDATES,
        description="Choose only among these cards, as written: the ones the asker is weighing "
        "('3060 12GB or 4060?'); each one left out is said with the reason",
    )

    @field_validator("budget")
    @classmethod
    def _finite(cls, value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise ValueError("budget must be a finite number")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> RecommendQuery:
        if (self.mode == "buy" and self.form == "cloud") or (
            self.mode == "rent" and self.form == "desktop"
        ):
            raise ValueError(f"mode {self.mode!r} contradicts form {self.form!r}")
        return self

    def kinds(self) -> tuple[Kind, ...]:
        """The option kinds the mode and form allow."""
        buy = self.mode in ("buy", "either") and self.form in ("desktop", "any")
        rent = self.mode in ("rent", "either") and self.form in ("cloud", "any")
        return tuple(k for k, ok in (("buy", buy), ("rent", rent)) if ok)  # type: ignore[misc]


class RecommendOption(BaseModel):
    """One card to buy, or to rent for a number of hours."""

    rank: int = Field(description="1 is the best option")
    kind: Kind
    gpu: str = Field(description="Catalog name of the card")
    condition: Literal["new", "used"] | None = Field(
        default=None, description="For purchases: the condition the price is for"
    )
    price_low: float | None = Field(default=None, description="Purchase price range, low end")
    price_high: float | None = None
    price_typical: float | None = None
    rate_per_hour: float | None = Field(
        default=None, description="Typical rental rate per GPU-hour (median of the price rows)"
    )
    rate_low: float | None = Field(default=None, description="Lowest rental rate seen per hour")
    rate_high: float | None = None
    hours: float | None = Field(
        default=None, description="Hours the budget buys at the typical rate"
    )
    hours_at_lowest_rate: float | None = None
    within_budget: bool
    vram_gb: float | None = None
    tdp_w: float | None = None
    compute_capability: str | None = None
    arch_target: str | None = None
    verdicts: dict[str, str] = Field(
        default_factory=dict, description="Capability verdict per goal topic"
    )
    fit: str | None = Field(default=None, description="How the workload fits, when there is one")
    reasons: list[str] = Field(default_factory=list)
    cannot: list[str] = Field(default_factory=list, description="What it can't do for the goal")
    sources: list[Source] = Field(default_factory=list)


class CheapestPick(BaseModel):
    """The cheapest card that exercises a feature, to buy or to rent."""

    kind: Kind
    gpu: str
    verdict: str
    condition: Literal["new", "used"] | None = None
    low: float = Field(description="Lowest price (purchase) or rate per hour (rental)")
    high: float
    sources: list[Source] = Field(default_factory=list)


class FeatureCheapest(BaseModel):
    """For one feature or topic: the cheapest hardware that exercises it."""

    topic: str
    topic_name: str
    buy: CheapestPick | None = None
    rent: CheapestPick | None = None
    note: str | None = None


class FreeTier(BaseModel):
    """A free GPU notebook service and what it covers for the goal."""

    name: str
    gpu: str | None
    covers: list[str] = Field(default_factory=list, description="Goal topics it fully covers")
    partly: list[str] = Field(default_factory=list, description="Goal topics it covers in part")
    cannot: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)


class Recommendation(BaseModel):
    """Ranked options, what comes closest when nothing fits, corrections and assumptions."""

    goal: str = Field(description="The goal as understood")
    goal_assumed: bool = Field(
        default=False,
        description="No goal was stated: the picks are for learning GPU programming with the guide",
    )
    currency: Currency
    usd_per_eur: float
    budget: float | None
    options: list[RecommendOption] = Field(default_factory=list)
    closest: list[RecommendOption] = Field(
        default_factory=list, description="When nothing fits: the nearest options over budget"
    )
    free_tiers: list[FreeTier] = Field(default_factory=list)
    cheapest_for_feature: list[FeatureCheapest] = Field(default_factory=list)
    summary: str = ""
    notes: list[str] = Field(
        default_factory=list, description="Including corrections to the corpus"
    )
    assumptions: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list, description="Near names for unknown input")
    candidates: list[str] = Field(
        default_factory=list, description="The cards the choice was limited to (catalog names)"
    )
    left_out: list[str] = Field(
        default_factory=list, description="Why each of those cards is not an option, if any"
    )
    sources: list[Source] = Field(default_factory=list)
