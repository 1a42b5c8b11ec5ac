"""Spot (interruptible) vs dedicated instance for a job of N hours of work.

Model: interruptions arrive at random (a Poisson process at `interruptions_per_hour`). Work since the
last checkpoint is lost at each interruption, and getting a new instance and reloading takes
`restart_overhead_h`, billed. For a stretch of c hours between checkpoints, the expected time to get
through it is (1/λ + R)·(e^{λc} − 1) and the expected number of interruptions e^{λc} − 1 (the classic
result for restarts after failures). Without checkpoints the whole job is one stretch.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from assistant.money import Currency, format_money
from assistant.tools.cost_base import (
    CORPUS_QUIZ,
    MIN_RATE,
    CostResult,
    MoneyQuery,
    money_context,
)

# One interruption every 20 hours on average: a stated assumption, not a measured figure. Providers
# publish interruption frequency per month in bands (AWS's Spot Instance Advisor: <5 % to >20 %),
# and marketplaces vary by host; pass your own rate when you know it.
DEFAULT_INTERRUPTIONS_PER_HOUR = 0.05
DEFAULT_RESTART_OVERHEAD_H = 0.1  # 6 minutes to get a new instance and reload a checkpoint
# When no checkpoints are taken, this is the interval the advice is computed with.
SUGGESTED_CHECKPOINT_H = 0.5
# Without checkpoints, a chance of losing everything above this makes dedicated the advice.
MAX_RISK_WITHOUT_CHECKPOINTS = 0.25
MAX_JOB_HOURS = 100_000.0
MIN_CHECKPOINT_H = 0.01  # 36 seconds
_EXP_LIMIT = 50.0  # beyond e^50 expected restarts the job never finishes in practice


class SpotQuery(MoneyQuery):
    """A job of `job_hours` of work, on a spot instance or a dedicated one."""

    job_hours: float = Field(
        gt=0, le=MAX_JOB_HOURS, description="Hours of work the job needs without interruption"
    )
    spot_rate: float = Field(
        ge=MIN_RATE, description="Spot price per hour in `currency`, e.g. 0.80"
    )
    dedicated_rate: float = Field(
        ge=MIN_RATE, description="Dedicated (on-demand) price per hour, e.g. 2.50"
    )
    interruptions_per_hour: float = Field(
        default=DEFAULT_INTERRUPTIONS_PER_HOUR,
        ge=0,
        le=60,
        description="Average spot interruptions per hour (default 0.05: one every 20 h, a stated assumption)",
    )
    checkpoint_interval_h: float | None = Field(
        default=None,
        ge=MIN_CHECKPOINT_H,
        le=MAX_JOB_HOURS,
        description="Hours between checkpoints; None means no checkpoints (an interruption loses everything)",
    )
    gpu_count: int = Field(
        default=1, ge=1, le=1024, description="GPUs rented together; the rates are per GPU"
    )
    deadline: bool = Field(
        default=False,
        description="The result is due soon (a delivery tonight): an interruption also costs the "
        "wait for capacity to come back, which no saving on the bill makes up for; dedicated is advised",
    )
    restart_overhead_h: float = Field(
        default=DEFAULT_RESTART_OVERHEAD_H,
        ge=0,
        le=1000,
        description="Hours to get a new instance and resume after an interruption (default 0.1 = 6 min)",
    )
    rework_fraction: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="The asker's own estimate of the work done again on spot, as a share of the "
        "job (0.2: 20 % more hours); used instead of the interruption model",
    )


class SpotOption(BaseModel):
    """Expected outcome of one way to run the job."""

    name: str
    rate: float = Field(description="Price per hour")
    checkpoint_interval_h: float | None = None
    finishes: bool = Field(
        description="False when interruptions come too often for the job ever to finish"
    )
    expected_hours: float | None = Field(description="Expected wall time, restarts included")
    expected_cost: float | None
    expected_interruptions: float | None
    expected_lost_work_h: float | None = Field(
        description="Expected hours of work redone after interruptions"
    )
    p_interrupted: float = Field(description="Chance of at least one interruption during the job")


class SpotComparison(CostResult):
    """Spot vs dedicated: expected cost, time and lost work for each, and the advice."""

    job_hours: float
    gpu_count: int = Field(default=1, description="GPUs rented; expected costs cover all of them")
    spot: SpotOption
    dedicated: SpotOption
    spot_with_checkpoints: SpotOption | None = Field(
        default=None,
        description="When no checkpoints were given: spot with a checkpoint every 30 min",
    )
    verdict: Literal["spot", "spot_with_checkpoints", "dedicated"] = Field(
        description="The advice: the cheapest safe option, adding checkpoints when they pay off"
    )
    verdict_as_given: Literal["spot", "spot_with_checkpoints", "dedicated"] = Field(
        description="The choice between dedicated and spot exactly as described (checkpoints or none)"
    )
    deadline: bool = Field(default=False, description="A deadline was given: dedicated advised")
    rework_fraction: float | None = Field(
        default=None, description="The asker's estimate of the work redone on spot, when given"
    )
    savings_factor: float | None = Field(
        default=None, description="Dedicated cost divided by the cost of the advised spot option"
    )
    reasons: list[str]


def _spot_as_estimated(q: SpotQuery, share: float) -> SpotOption:
    """Spot with the asker's own share of work redone: the job's hours and that share again."""
    hours = q.job_hours * (1 + share)
    return SpotOption(
        name="spot", rate=q.spot_rate, checkpoint_interval_h=q.checkpoint_interval_h, finishes=True,
        expected_hours=hours, expected_cost=hours * q.spot_rate * q.gpu_count,
        expected_interruptions=None, expected_lost_work_h=q.job_hours * share,
        p_interrupted=1.0 if share > 0 else 0.0,
    )  # fmt: skip


def _spot_option(q: SpotQuery, interval: float | None, name: str) -> SpotOption:
    lam, restart, work = q.interruptions_per_hour, q.restart_overhead_h, q.job_hours
    p_interrupted = -math.expm1(-lam * work)
    stretch = work if interval is None else min(interval, work)
    if lam == 0:
        return SpotOption(
            name=name, rate=q.spot_rate, checkpoint_interval_h=interval, finishes=True,
            expected_hours=work, expected_cost=work * q.spot_rate * q.gpu_count, expected_interruptions=0.0,
            expected_lost_work_h=0.0, p_interrupted=0.0,
        )  # fmt: skip
    if lam * stretch > _EXP_LIMIT:
        return SpotOption(
            name=name, rate=q.spot_rate, checkpoint_interval_h=interval, finishes=False,
            expected_hours=None, expected_cost=None, expected_interruptions=None,
            expected_lost_work_h=None, p_interrupted=p_interrupted,
        )  # fmt: skip
    full = math.floor(work / stretch)
    rest = work - full * stretch
    restarts = full * math.expm1(lam * stretch) + math.expm1(lam * rest)
    # (1/λ + R)(e^{λc} − 1), written so a tiny λ stays exact
    redo = full * (math.expm1(lam * stretch) / lam) + math.expm1(lam * rest) / lam
    hours = redo + restart * restarts
    lost = max(redo - work, 0.0)
    hours = max(hours, work)
    return SpotOption(
        name=name,
        rate=q.spot_rate,
        checkpoint_interval_h=interval,
        finishes=True,
        expected_hours=hours,
        expected_cost=hours * q.spot_rate * q.gpu_count,
        expected_interruptions=restarts,
        expected_lost_work_h=lost,
        p_interrupted=p_interrupted,
    )


def spot_vs_dedicated(q: SpotQuery) -> SpotComparison:
    """Expected cost, wall time and lost work on spot vs dedicated, and which to choose.

    Follows the guide's answer: spot for interactive work, dedicated for a long run without
    checkpoints, and spot + frequent checkpoints + automatic restart to divide the bill.
    """
    cur, usd_per_eur, assumptions = money_context(q)
    work = q.job_hours
    dedicated = SpotOption(
        name="dedicated", rate=q.dedicated_rate, finishes=True, expected_hours=work,
        expected_cost=work * q.dedicated_rate * q.gpu_count, expected_interruptions=0.0, expected_lost_work_h=0.0,
        p_interrupted=0.0,
    )  # fmt: skip
    if q.rework_fraction is not None:
        return _as_estimated(q, dedicated, cur, usd_per_eur, assumptions)
    spot = _spot_option(q, q.checkpoint_interval_h, "spot")
    assumptions += [
        f"Interruptions: {q.interruptions_per_hour:g} per hour on average, at random (Poisson)"
        + (
            " — the default, a stated assumption."
            if q.interruptions_per_hour == DEFAULT_INTERRUPTIONS_PER_HOUR
            else "."
        ),
        f"Each interruption costs {q.restart_overhead_h:g} h to restart, billed at the spot rate, "
        "plus the work since the last checkpoint.",
        (
            f"A checkpoint every {q.checkpoint_interval_h:g} h; writing one takes no time."
            if q.checkpoint_interval_h
            else "No checkpoints: an interruption restarts the job from the beginning."
        ),
        "The dedicated instance is never interrupted.",
    ]
    reasons: list[str] = []
    alternative: SpotOption | None = None
    d_cost = dedicated.expected_cost or 0.0

    def money(x: float | None) -> str:
        """An amount in the query's currency (0 when None)."""
        return format_money(x or 0.0, cur)

    if q.checkpoint_interval_h is None and q.interruptions_per_hour > 0:
        alternative = _spot_option(q, SUGGESTED_CHECKPOINT_H, "spot_with_checkpoints")
    if not spot.finishes:
        verdict: Literal["spot", "spot_with_checkpoints", "dedicated"] = "dedicated"
        reasons.append("At this interruption rate the spot job would practically never finish.")
    elif q.checkpoint_interval_h is None and spot.p_interrupted > MAX_RISK_WITHOUT_CHECKPOINTS:
        verdict = "dedicated"
        reasons.append(
            f"Without checkpoints there is a {spot.p_interrupted:.0%} chance an interruption destroys all "
            f"the work; expected spot wall time {spot.expected_hours:.1f} h instead of {work:g} h."
        )
    elif (spot.expected_cost or 0.0) < d_cost:
        verdict = "spot" if q.checkpoint_interval_h is None else "spot_with_checkpoints"
        reasons.append(
            f"Spot is cheaper in expectation: {money(spot.expected_cost)} vs {money(d_cost)}."
        )
    else:
        verdict = "dedicated"
        reasons.append(
            f"Dedicated is not dearer here: {money(d_cost)} vs {money(spot.expected_cost)} on spot."
        )
    as_given = verdict
    advised: SpotOption | None = spot if verdict != "dedicated" else None
    if (
        verdict == "dedicated"
        and alternative is not None
        and alternative.finishes
        and (alternative.expected_cost or d_cost) < d_cost
    ):
        # The guide's answer for a long run: spot + frequent checkpoints + automatic restart.
        factor = d_cost / (alternative.expected_cost or d_cost)
        reasons.append(
            f"With a checkpoint every {SUGGESTED_CHECKPOINT_H:g} h and automatic restart, spot would cost "
            f"{money(alternative.expected_cost)} ({alternative.expected_hours:.1f} h): the bill divided "
            f"by {factor:.1f}."
        )
        verdict, advised = "spot_with_checkpoints", alternative
    if q.deadline and verdict != "dedicated":
        saved = d_cost - (spot.expected_cost or 0.0)
        reasons.append(
            f"A deadline: spot would save about {money(saved)}, but after an interruption spot "
            "capacity can take hours to come back, and a late delivery costs more than that."
        )
        verdict = as_given = "dedicated"
        advised = None
    savings = d_cost / advised.expected_cost if advised and advised.expected_cost else None
    summary = {
        "spot": "Spot: cheaper, and an interruption costs little here.",
        "spot_with_checkpoints": "Spot with frequent checkpoints and automatic restart.",
        "dedicated": "Dedicated.",
    }[verdict]
    if as_given == "dedicated" and verdict != "dedicated":
        summary += " Without checkpoints, dedicated."
    return SpotComparison(
        currency=cur,
        usd_per_eur=usd_per_eur,
        job_hours=work,
        gpu_count=q.gpu_count,
        spot=spot,
        dedicated=dedicated,
        spot_with_checkpoints=alternative,
        verdict=verdict,
        verdict_as_given=as_given,
        deadline=q.deadline,
        savings_factor=savings,
        reasons=reasons,
        summary=summary + " " + reasons[-1],
        assumptions=assumptions,
        sources=[CORPUS_QUIZ],
    )


def _as_estimated(
    q: SpotQuery, dedicated: SpotOption, cur: Currency, usd_per_eur: float, assumptions: list[str]
) -> SpotComparison:
    """Spot against dedicated with the asker's own share of work redone on spot ('if evictions
    make us redo ~20% of the work'): no interruption model, the cheaper bill wins."""
    share = q.rework_fraction or 0.0
    spot = _spot_as_estimated(q, share)
    d_cost, s_cost = dedicated.expected_cost or 0.0, spot.expected_cost or 0.0
    assumptions = [
        *assumptions,
        f"Rework: the asker's estimate, {share:.0%} of the job done again on spot "
        f"({q.job_hours * share:g} h); no interruption model.",
        "The dedicated instance is never interrupted.",
    ]
    cheaper = s_cost < d_cost and not q.deadline
    verdict: Literal["spot", "spot_with_checkpoints", "dedicated"] = (
        "spot" if cheaper else "dedicated"
    )
    reason = (
        f"Spot costs {format_money(s_cost, cur)} for {spot.expected_hours:g} h against "
        f"{format_money(d_cost, cur)} dedicated: {format_money(d_cost - s_cost, cur)} less."
        if cheaper
        else f"Dedicated costs {format_money(d_cost, cur)} against {format_money(s_cost, cur)} on "
        f"spot with {share:.0%} redone."
    )
    return SpotComparison(
        currency=cur,
        usd_per_eur=usd_per_eur,
        job_hours=q.job_hours,
        gpu_count=q.gpu_count,
        spot=spot,
        dedicated=dedicated,
        verdict=verdict,
        verdict_as_given=verdict,
        deadline=q.deadline,
        savings_factor=d_cost / s_cost if cheaper and s_cost else None,
        rework_fraction=share,
        reasons=[reason],
        summary=("Spot. " if cheaper else "Dedicated. ") + reason,
        assumptions=assumptions,
        sources=[CORPUS_QUIZ],
    )
