"""Spread a learning budget over the guide's parts, the way the guide does for 200 €.

The guide's worked answer: free tiers (Colab, Kaggle) for parts 1–3 and 5–7, about a quarter of the
budget for comfortable hours on an RTX 4090 or A100 from a marketplace, half for about twenty hours
of H100 or B200 for parts 4 and 8, and a quarter kept in reserve. Hours come from the guide's own
hourly price ranges.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from assistant.knowledge.budget_data import load_budget_data
from assistant.knowledge.prices import hourly_price_range, purchase_price
from assistant.knowledge.sources import Source
from assistant.money import convert, format_money
from assistant.tools.cost_base import CORPUS_QUIZ, CostResult, MoneyQuery, money_context


class BudgetQuery(MoneyQuery):
    """A budget to learn GPU programming with, and the guide's parts to cover."""

    budget: float = Field(gt=0, description="Total budget in `currency`, e.g. 200")
    parts: list[int] | None = Field(
        default=None, max_length=9, description="Guide parts to cover, 1–9 (default: all of them)"
    )

    @field_validator("parts")
    @classmethod
    def _valid_parts(cls, parts: list[int] | None) -> list[int] | None:
        if parts is None:
            return None
        known = load_budget_data().parts
        bad = [p for p in parts if p not in known]
        if bad:
            raise ValueError(f"guide parts are numbered {known[0]} to {known[-1]}, not {bad}")
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
    notes_fr: list[str] = Field(default_factory=list, description="The notes in French")


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
    kind = load_budget_data().price_kind
    rng = hourly_price_range(gpu, kind, currency=cur, usd_per_eur=rate)  # type: ignore[arg-type]
    alt_rng = hourly_price_range(alt, kind, currency=cur, usd_per_eur=rate)  # type: ignore[arg-type]
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
    data = load_budget_data()
    parts = q.parts or list(data.parts)
    free = [p for p in parts if p not in data.hopper_parts]
    hopper = [p for p in parts if p in data.hopper_parts]
    split = data.shares["both" if free and hopper else "free_only" if free else "hopper_only"]
    shares = {"comfort": split.comfort, "hopper": split.hopper, "reserve": split.reserve}
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
            "Comfortable rental hours, no quotas", free, data.comfort_gpu, data.comfort_alt,
            q.budget * shares["comfort"], cur, usd_per_eur, "a marketplace such as Vast.ai or RunPod",
        )  # fmt: skip
        lines.append(line)
        sources += src
    if hopper:
        line, src = _rental_line(
            "Hopper / Blackwell hours (TMA, wgmma, tcgen05, megakernels)", hopper, data.hopper_gpu, data.hopper_alt,
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
        f"Shares follow the guide's {format_money(data.small_budget, data.small_budget_currency, decimals=0)} answer: "
        + ", ".join(f"{k} {v:.0%}" for k, v in shares.items() if v)
        + "; hours from the guide's indicative hourly ranges (low hours at the high price)."
    )
    notes: list[str] = []
    notes_fr: list[str] = []
    buy = purchase_price(data.learning_card, "new", currency=cur, usd_per_eur=usd_per_eur)
    if buy is not None and q.budget >= buy.low:
        notes.append(
            f"This budget could buy an {data.learning_card} ({format_money(buy.low, cur)} – {format_money(buy.high, cur)}), "
            "the guide's learning card, but no consumer card has TMA, wgmma or tcgen05: keep hours of "
            f"{data.hopper_gpu} or {data.hopper_alt} rental for parts "
            + " and ".join(str(p) for p in sorted(data.hopper_parts))
            + "."
        )
        notes_fr.append(
            f"Ce budget permettrait d'acheter une {data.learning_card} ({format_money(buy.low, cur, 'fr')} – "
            f"{format_money(buy.high, cur, 'fr')}), la carte d'apprentissage du guide, mais aucune carte grand "
            f"public n'a TMA, wgmma ou tcgen05 : gardez des heures de {data.hopper_gpu} ou {data.hopper_alt} "
            "en location pour les parties "
            + " et ".join(str(p) for p in sorted(data.hopper_parts))
            + "."
        )
    elif convert(q.budget, cur, data.small_budget_currency, usd_per_eur) <= data.small_budget:
        small = format_money(
            convert(data.small_budget, data.small_budget_currency, cur, usd_per_eur),
            cur,
            decimals=0,
        )
        notes.append(
            f"Don't buy hardware with this: about {small} buys an old card ({data.small_budget_card}, "
            "no tensor cores) that would not cover the modern content."
        )
        small_fr = format_money(
            convert(data.small_budget, data.small_budget_currency, cur, usd_per_eur),
            cur,
            "fr",
            decimals=0,
        )
        notes_fr.append(
            f"N'achetez pas de matériel avec ça : environ {small_fr} donnent une carte ancienne "
            f"({data.small_budget_card}, sans tensor cores) qui ne couvrirait pas le contenu moderne."
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
        notes_fr=notes_fr,
        summary=summary,
        assumptions=assumptions,
        sources=sources,
    )
