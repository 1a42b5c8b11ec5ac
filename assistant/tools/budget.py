"""Spread a learning budget over the guide's parts, the way the guide does for 200 €.

The guide's worked answer: free tiers (Colab, Kaggle) for parts 1–3 and 5–7, about a quarter of the
budget for comfortable hours on an RTX 4090 or A100 from a marketplace, half for about twenty hours
of H100 or B200 for parts 4 and 8, and a quarter kept in reserve. Hours come from the guide's own
hourly price ranges.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from assistant.knowledge.prices import hourly_price_range, purchase_price
from assistant.knowledge.sources import Source
from assistant.money import convert, format_money
from assistant.tools.cost_base import CORPUS_QUIZ, MAX_BUDGET, CostResult, MoneyQuery, money_context

GUIDE_PARTS: dict[int, str] = {
    1: "Fondations",
    2: "Modèle de programmation",
    3: "Performance",
    4: "CUDA moderne",
    5: "Écosystème",
    6: "Domaines",
    7: "IA",
    8: "Megakernels",
    9: "Pratique",
}
# Parts any CUDA GPU (a free T4) covers, and parts that need Hopper or Blackwell.
FREE_TIER_PARTS = frozenset({1, 2, 3, 5, 6, 7, 9})
HOPPER_PARTS = frozenset({4, 8})
COMFORT_GPU, COMFORT_ALT = "RTX 4090", "A100 80GB"
HOPPER_GPU, HOPPER_ALT = "H100", "B200"
# Shares of the budget, as in the guide's 200 € answer (50 / 100 / 50).
SHARES_BOTH = {"comfort": 0.25, "hopper": 0.50, "reserve": 0.25}
SHARES_FREE_ONLY = {"comfort": 0.75, "hopper": 0.0, "reserve": 0.25}
SHARES_HOPPER_ONLY = {"comfort": 0.0, "hopper": 0.75, "reserve": 0.25}
PRICE_KIND = "indicative"  # the corpus's own ranges


class BudgetQuery(MoneyQuery):
    """A budget to learn GPU programming with, and the guide's parts to cover."""

    budget: float = Field(gt=0, le=MAX_BUDGET, description="Total budget in `currency`, e.g. 200")
    parts: list[int] | None = Field(
        default=None, max_length=9, description="Guide parts to cover, 1–9 (default: all of them)"
    )

    @field_validator("parts")
    @classmethod
    def _valid_parts(cls, parts: list[int] | None) -> list[int] | None:
        if parts is None:
            return None
        bad = [p for p in parts if p not in GUIDE_PARTS]
        if bad:
            raise ValueError(f"guide parts are numbered 1 to 9, not {bad}")
        if not parts:
            raise ValueError("give at least one part, or none at all for every part")
        return sorted(set(parts))


class BudgetLine(BaseModel):
    """One line of the plan."""

    item: str
    parts: list[int]
    where: str
    gpu: str | None = None
    amount: float = Field(description="Money set aside for this line, in the plan's currency")
    hours_low: float | None = Field(default=None, description="Hours at the top of the price range")
    hours_high: float | None = Field(
        default=None, description="Hours at the bottom of the price range"
    )
    hours_typical: float | None = None
    note: str | None = None


class BudgetPlan(CostResult):
    """A budget spread over free tiers, rental hours and a reserve."""

    budget: float
    parts: list[int]
    lines: list[BudgetLine]
    allocated: float = Field(description="Planned spending, reserve excluded")
    left: float = Field(description="What is left: the reserve")
    notes: list[str] = Field(default_factory=list)


def _rental_line(
    item: str,
    parts: list[int],
    gpu: str,
    alt: str,
    amount: float,
    cur: str,
    rate: float,
    where: str,
) -> tuple[BudgetLine, list[Source]]:
    rng = hourly_price_range(gpu, PRICE_KIND, currency=cur, usd_per_eur=rate)  # type: ignore[arg-type]
    alt_rng = hourly_price_range(alt, PRICE_KIND, currency=cur, usd_per_eur=rate)  # type: ignore[arg-type]
    if rng is None:
        return BudgetLine(item=item, parts=parts, where=where, gpu=gpu, amount=amount), []
    note = None
    if alt_rng is not None:
        note = f"or {amount / alt_rng.high:.0f}–{amount / alt_rng.low:.0f} h of {alt_rng.gpu}"
    line = BudgetLine(
        item=item,
        parts=parts,
        where=where,
        gpu=rng.gpu,
        amount=amount,
        hours_low=amount / rng.high,
        hours_high=amount / rng.low,
        hours_typical=amount / rng.typical,
        note=note,
    )
    return line, rng.sources[:1]


def plan_budget(q: BudgetQuery) -> BudgetPlan:
    """Spread a budget over the guide's parts: free tiers first, then rental hours per part, then a reserve."""
    cur, usd_per_eur, assumptions = money_context(q)
    parts = q.parts or sorted(GUIDE_PARTS)
    free = [p for p in parts if p in FREE_TIER_PARTS]
    hopper = [p for p in parts if p in HOPPER_PARTS]
    shares = SHARES_BOTH if free and hopper else SHARES_FREE_ONLY if free else SHARES_HOPPER_ONLY
    lines: list[BudgetLine] = []
    sources: list[Source] = [CORPUS_QUIZ]
    if free:
        lines.append(
            BudgetLine(
                item="Free tiers",
                parts=free,
                where="Google Colab (T4) and Kaggle (T4 or P100, 30 GPU-hours a week)",
                gpu="T4",
                amount=0.0,
                note="Covers most of the guide: everything but Ampere-, Hopper- and Blackwell-only features.",
            )
        )
        line, src = _rental_line(
            "Comfortable rental hours, no quotas", free, COMFORT_GPU, COMFORT_ALT,
            q.budget * shares["comfort"], cur, usd_per_eur, "a marketplace such as Vast.ai or RunPod",
        )  # fmt: skip
        lines.append(line)
        sources += src
    if hopper:
        line, src = _rental_line(
            "Hopper / Blackwell hours (TMA, wgmma, tcgen05, megakernels)", hopper, HOPPER_GPU, HOPPER_ALT,
            q.budget * shares["hopper"], cur, usd_per_eur, "a GPU cloud (RunPod, Lambda, Vast.ai...)",
        )  # fmt: skip
        lines.append(line)
        sources += src
    reserve = q.budget * shares["reserve"]
    lines.append(
        BudgetLine(
            item="Reserve", parts=[], where="kept", amount=reserve, note="for overruns and storage"
        )
    )
    allocated = sum(line.amount for line in lines[:-1])
    assumptions.append(
        "Shares follow the guide's 200 € answer: "
        + ", ".join(f"{k} {v:.0%}" for k, v in shares.items() if v)
        + "; hours from the guide's indicative hourly ranges (low hours at the high price)."
    )
    notes = []
    buy = purchase_price("RTX 5090", "new", currency=cur, usd_per_eur=usd_per_eur)
    if buy is not None and q.budget >= buy.low:
        notes.append(
            f"This budget could buy an RTX 5090 ({format_money(buy.low, cur)} – {format_money(buy.high, cur)}), "
            "the guide's learning card, but no consumer card has TMA, wgmma or tcgen05: keep hours of "
            "H100 or B200 rental for parts 4 and 8."
        )
    elif convert(q.budget, cur, "EUR", usd_per_eur) <= 200:
        notes.append(
            "Don't buy hardware with this: about 200 € buys an old card (GTX 1660, no tensor cores) "
            "that would not cover the modern content."
        )
    hours = [
        f"{line.hours_low:.0f}–{line.hours_high:.0f} h of {line.gpu}"
        for line in lines
        if line.hours_low
    ]
    steps = (["free tiers first"] if free else []) + hours
    summary = (
        f"{format_money(q.budget, cur)}: "
        + (", then ".join(steps) if steps else "no rental needed")
        + f", keeping {format_money(reserve, cur)} in reserve."
    )
    return BudgetPlan(
        currency=cur,
        usd_per_eur=usd_per_eur,
        budget=q.budget,
        parts=parts,
        lines=lines,
        allocated=allocated,
        left=q.budget - allocated,
        notes=notes,
        summary=summary,
        assumptions=assumptions,
        sources=sources,
    )
