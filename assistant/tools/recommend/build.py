"""Turning ranked candidates into a `Recommendation`: the wording of each option and the summary,
with the notes, free tiers and cheapest hardware from `notes`."""

from __future__ import annotations

from assistant.knowledge.sources import dedupe_sources
from assistant.money import Currency, format_money
from assistant.tools.recommend.goal import Goal
from assistant.tools.recommend.models import (
    FreeTier,
    Recommendation,
    RecommendOption,
    RecommendQuery,
)
from assistant.tools.recommend.notes import (
    budget_plan_note,
    cheapest,
    corrections,
    free_tiers,
    gap_notes,
    standing_assumptions,
)
from assistant.tools.recommend.rank import (
    Candidate,
    arrange,
    build_candidates,
    closest,
    named_candidates,
)

MAX_OPTION_SOURCES = 6


def build_recommendation(
    q: RecommendQuery, goal: Goal, currency: Currency, rate: float, assumptions: list[str]
) -> Recommendation:
    """The options within budget (else the closest), with notes, free tiers and cheapest cards."""
    named, named_notes = named_candidates(q)
    candidates, group_notes, left_out = build_candidates(q, goal, currency, rate, named)
    notes = [*named_notes, *group_notes]
    fitting = [c for c in candidates if c.within_budget]
    picked = arrange(fitting, goal, q.limit) if not goal.problems else []
    near = closest(candidates) if not picked and not goal.problems else []
    options = [_option(c, i, goal, currency, q.budget) for i, c in enumerate(picked, 1)]
    nearest = [_option(c, i, goal, currency, q.budget) for i, c in enumerate(near, 1)]
    per_feature = [cheapest(t, currency, rate) for t in goal.feature_topics]
    free = free_tiers(goal)
    notes = [*goal.problems, *notes, *goal.notes, *gap_notes(picked, goal)]
    fixes, correction_sources = corrections(picked, goal)
    notes.extend(fixes)
    if (
        goal.learning
        and q.budget
        and "rent" in q.kinds()
        and not any(c.kind == "buy" for c in picked)
    ):
        notes.append(budget_plan_note(q, goal))
    all_sources = [s for o in (*options, *nearest) for s in o.sources]
    all_sources += [*goal.sources, *correction_sources]
    return Recommendation(
        goal=goal.description,
        goal_assumed=goal.assumed,
        currency=currency,
        usd_per_eur=rate,
        budget=q.budget,
        options=options,
        closest=nearest,
        free_tiers=free,
        cheapest_for_feature=per_feature,
        summary=_summary(q, goal, options, nearest, free, currency),
        notes=_unique(notes),
        assumptions=_unique([*assumptions, *goal.assumptions, *standing_assumptions(q)]),
        suggestions=goal.suggestions,
        candidates=list(named or {}),
        left_out=left_out,
        sources=dedupe_sources(all_sources),
    )


def _money(value: float, currency: Currency) -> str:
    return format_money(value, currency)


def _topic_label(name: str, key: str) -> str:
    """'part 4' for a guide part topic, else the topic's name."""
    if key.startswith("part") and key[4:5].isdigit():
        return f"part {key[4]}"
    return name


def option_price(o: RecommendOption, currency: Currency) -> str:
    """The option's price in a few words: 'used, €300.00–€600.00' or '€3.05/h typical'."""
    if o.kind == "rent" and o.rate_per_hour is not None:
        return f"{_money(o.rate_per_hour, currency)}/h typical"
    if o.price_low is None:
        return "no price"
    span = _money(o.price_low, currency)
    if o.price_high is not None and abs(o.price_high - o.price_low) >= 0.005:
        span += f"–{_money(o.price_high, currency)}"
    return f"{o.condition}, {span}" if o.condition else span


def _price_text(c: Candidate, currency: Currency) -> str:
    low, high = c.price.low, c.price.high
    span = (
        _money(low, currency)
        if abs(high - low) < 0.005
        else f"{_money(low, currency)}–{_money(high, currency)}"
    )
    if c.kind == "buy":
        return f"Buy {c.condition} at {span}"
    return f"Rent at {_money(c.price.typical, currency)}/h typical ({span}/h seen)"


def _budget_remark(c: Candidate, budget: float | None) -> str:
    if not c.within_budget:
        return "; over the budget."
    if c.kind == "buy" and budget is not None and c.price.typical > budget:
        return "; within the budget only at the low end of its price range."
    return "."


def _option(
    c: Candidate, rank: int, goal: Goal, currency: Currency, budget: float | None
) -> RecommendOption:
    card = c.card
    arch = f"{card.architecture} ({card.arch_target})" if card.arch_target else card.architecture
    reasons = [f"{card.vram_gb:g} GB, {arch}" + (f", {card.tdp_w:g} W" if card.tdp_w else "") + "."]
    if c.hours is not None and c.hours_low_rate is not None:
        reasons.append(
            f"The budget buys about {c.hours:.0f} h at the typical rate "
            f"({c.hours_low_rate:.0f} h at the lowest rate seen)."
        )
    cannot: list[str] = []
    fit = None
    if c.fit_tier is not None:
        tier = goal.fit_tiers[c.fit_tier]
        what = goal.model or (goal.workload or "the workload")
        fit = f"{what} fits at {tier.label} (needs about {tier.min_vram_gb:g} GB)"
        reasons.append(fit[0].upper() + fit[1:] + ".")
        if c.fit_tier > 0:
            best = goal.fit_tiers[0]
            cannot.append(f"{what} at {best.label} (needs about {best.min_vram_gb:g} GB)")
    by_verdict: dict[str, list[str]] = {}
    for key, v in c.verdicts.items():
        by_verdict.setdefault(v.verdict, []).append(_topic_label(v.topic_name or key, key))
        if v.verdict != "yes" and v.missing:
            cannot.append(f"{v.topic_name or key}: lacks " + ", ".join(v.missing))
    for verdict in ("yes", "partial"):
        if by_verdict.get(verdict):
            reasons.append(f"{verdict.capitalize()}: " + ", ".join(by_verdict[verdict]) + ".")
    reasons.append(_price_text(c, currency) + _budget_remark(c, budget))
    sources = [*c.price.sources]
    for v in c.verdicts.values():
        sources.extend(v.sources)
    sources.extend(card.source_for("vram_gb"))
    return RecommendOption(
        rank=rank,
        kind=c.kind,  # type: ignore[arg-type]
        gpu=card.name,
        condition=c.condition,  # type: ignore[arg-type]
        price_low=round(c.price.low, 2) if c.kind == "buy" else None,
        price_high=round(c.price.high, 2) if c.kind == "buy" else None,
        price_typical=round(c.price.typical, 2) if c.kind == "buy" else None,
        rate_per_hour=round(c.price.typical, 2) if c.kind == "rent" else None,
        rate_low=round(c.price.low, 2) if c.kind == "rent" else None,
        rate_high=round(c.price.high, 2) if c.kind == "rent" else None,
        hours=round(c.hours, 1) if c.hours is not None else None,
        hours_at_lowest_rate=round(c.hours_low_rate, 1) if c.hours_low_rate is not None else None,
        within_budget=c.within_budget,
        vram_gb=card.vram_gb,
        tdp_w=card.tdp_w,
        compute_capability=card.compute_capability,
        arch_target=card.arch_target,
        verdicts={k: v.verdict for k, v in c.verdicts.items()},
        fit=fit,
        reasons=reasons,
        cannot=cannot,
        sources=dedupe_sources(sources)[:MAX_OPTION_SOURCES],
    )


def _summary(
    q: RecommendQuery,
    goal: Goal,
    options: list[RecommendOption],
    nearest: list[RecommendOption],
    free: list[FreeTier],
    currency: Currency,
) -> str:
    if goal.problems:
        return " ".join(goal.problems)
    what = f" for {goal.description}" if goal.description else ""
    free_all = bool(free and free[0].covers and not free[0].cannot and not free[0].partly)
    if free_all:
        target = goal.description or "this goal"
        lead = f"The free tiers (Google Colab's T4, Kaggle) already cover {target}."
        if not options:
            return lead + " Nothing else is needed to start."
    if options:
        first = options[0]
        among = "Of the cards named, best option" if q.candidates else "Best option"
        head = f"{among}{what}: {_verb(first)} {first.gpu} ({option_price(first, currency)})."
        rest = [f"{_verb(o)} {o.gpu}" for o in options[1:3]]
        text = head + (" Then: " + "; ".join(rest) + "." if rest else "")
        return f"{lead} {text}" if free_all else text
    budget = f" {_money(q.budget, currency)}" if q.budget is not None else ""
    text = f"Nothing fits{budget}{what} with these constraints."
    if nearest:
        text += f" Closest: {_verb(nearest[0])} {nearest[0].gpu} ({option_price(nearest[0], currency)})."
    if free and free[0].covers:
        text += f" Free tiers (Colab, Kaggle) cover: {', '.join(free[0].covers[:4])}."
    return text


def _verb(o: RecommendOption) -> str:
    return "buy" if o.kind == "buy" else "rent"


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))
