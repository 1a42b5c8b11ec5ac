"""Candidates for a recommendation and their order.

Hard requirements filter: no capability verdict 'no' or 'unknown' for any goal topic, the workload
holds in VRAM (at least at a reduced precision), the power and condition constraints, a price in
the data. The budget splits what fits from what comes closest. Order: the VRAM fit tier, the
coverage of the goal, then for a learning goal the card that does the most (a comfortable 12 GB,
more features, more VRAM) for a purchase, or the lowest hourly rate for a rental; for other goals
the lowest cost. After the first pick, options that add goal features the picks lack come first,
which is how "a card at home plus H100 and B200 hours for parts 4 and 8" comes out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from assistant.knowledge.features import features_for_card
from assistant.knowledge.gpus import GpuCard, load_catalog
from assistant.knowledge.prices import (
    PriceRange,
    canonical_gpu,
    hourly_price_range,
    load_hourly_prices,
    load_purchase_prices,
    purchase_price,
)
from assistant.knowledge.thresholds import vram_threshold
from assistant.money import Currency
from assistant.tools.capability import CapabilityVerdict, assess
from assistant.tools.recommend.goal import Goal

MIN_RENT_HOURS = 1.0  # a budget that buys less than an hour of a card does not "fit" it
VERDICT_POINTS = {"yes": 2, "partial": 1}
BUYABLE_SEGMENTS = ("consumer", "workstation", "embedded", "apple")


@dataclass
class Candidate:
    """One card as one kind of option, with everything the ranking and the wording need."""

    card: GpuCard
    kind: str
    verdicts: dict[str, CapabilityVerdict]
    fit_tier: int | None
    price: PriceRange
    condition: str | None = None
    within_budget: bool = True
    hours: float | None = None
    hours_low_rate: float | None = None
    groups: frozenset[str] = field(default_factory=frozenset)
    points: int = 0
    features: int = 0

    @property
    def vram(self) -> float:
        """The card's VRAM in GB, 0 when unknown."""
        return float(self.card.vram_gb or 0.0)

    @property
    def cost(self) -> float:
        """The typical price of this option (purchase or hourly rate)."""
        return self.price.typical


def _groups(card: GpuCard, goal: Goal) -> tuple[frozenset[str], int]:
    supported = (
        {s.key for s in features_for_card(card) if s.supported}
        if card.vendor == "nvidia"
        else set()
    )
    groups = set()
    for topic in goal.topics:
        for group in [*topic.hard_features, *topic.efficient_features]:
            if any(k in supported for k in group.split("|")):
                groups.add(group)
    return frozenset(groups), len(supported)


def _fit_tier(card: GpuCard, goal: Goal) -> tuple[bool, int | None]:
    if not goal.fit_tiers:
        return True, None
    if card.vram_gb is None:
        return False, None
    for i, tier in enumerate(goal.fit_tiers):
        if card.vram_gb >= tier.min_vram_gb:
            return True, i
    return False, None


def _pool(named: dict[str, GpuCard] | None) -> tuple[GpuCard, ...]:
    """The cards to weigh: the priced ones, or only the ones the asker named (priced or not)."""
    return priced_cards() if named is None else tuple(named.values())


@lru_cache(maxsize=1)
def priced_cards() -> tuple[GpuCard, ...]:
    """Catalog cards with at least one purchase or rental price row, in catalog order."""
    names = {canonical_gpu(r.gpu) for r in (*load_purchase_prices(), *load_hourly_prices())}
    return tuple(card for card in load_catalog().gpus if card.name in names)


def _purchase(
    card: GpuCard, condition: str, currency: Currency, rate: float
) -> tuple[PriceRange, str] | None:
    wanted = ("new", "used") if condition == "any" else (condition,)
    found = []
    for cond in wanted:
        rng = purchase_price(card.name, cond, currency=currency, usd_per_eur=rate)  # type: ignore[arg-type]
        if rng is not None:
            found.append((rng, cond))
    return min(found, key=lambda pair: pair[0].low) if found else None


def named_candidates(q: Any) -> tuple[dict[str, GpuCard] | None, list[str]]:
    """The cards the choice is limited to (by catalog name), or None for no limit; and a note for
    each name no catalog knows."""
    from assistant.knowledge.matching import match_gpu

    if not q.candidates:
        return None, []
    named: dict[str, GpuCard] = {}
    notes = []
    for written in q.candidates:
        card = match_gpu(written).gpu
        if card is None:
            notes.append(f"{written!r} is not in the GPU catalog, so it is not weighed.")
        else:
            named.setdefault(card.name, card)
    return named, notes


def _left_out(card: GpuCard, verdicts: dict[str, CapabilityVerdict], goal: Goal) -> str:
    """Why a card the asker named is not an option for the goal."""
    lacking = [
        f"{v.topic_name or key} ({v.verdict})"
        for key, v in verdicts.items()
        if v.verdict not in VERDICT_POINTS
    ]
    if lacking:
        return f"{card.name} is left out: " + ", ".join(lacking) + "."
    if card.vram_gb is None or not goal.fit_tiers:
        return f"{card.name} is left out: the catalog has no memory size for it."
    need = goal.fit_tiers[-1].min_vram_gb
    what = goal.model or goal.workload or "the workload"
    return (
        f"{card.name} is left out: {what} needs about {need:g} GB, and it has {card.vram_gb:g} GB."
    )


def build_candidates(
    q: Any, goal: Goal, currency: Currency, rate: float, named: dict[str, GpuCard] | None
) -> tuple[list[Candidate], list[str], list[str]]:
    """Every (card, kind) that meets the hard requirements; why whole groups were left out; and,
    when the asker named the cards to choose among (`named`, from `named_candidates`), why each
    one left out is."""
    out: list[Candidate] = []
    skipped_power: list[str] = []
    kinds = q.kinds()
    left_out: list[str] = []
    for card in _pool(named):
        if named is None and (goal.workload or goal.fit_tiers) and card.vendor != "nvidia":
            continue  # the corpus's advice for AI workloads: the CUDA ecosystem
        bought = None
        if "buy" in kinds and card.segment in BUYABLE_SEGMENTS:
            bought = _purchase(card, q.condition, currency, rate)
        hourly = None
        if "rent" in kinds:
            hourly = hourly_price_range(card.name, currency=currency, usd_per_eur=rate)
        if bought is None and hourly is None:
            if named is not None:
                left_out.append(f"{card.name} is left out: no price for it in the data.")
            continue
        verdicts = {t.key: assess(card, t) for t in goal.topics}
        ok, tier = _fit_tier(card, goal)
        if any(v.verdict not in VERDICT_POINTS for v in verdicts.values()) or not ok:
            if named is not None:
                left_out.append(_left_out(card, verdicts, goal))
            continue
        groups, n_features = _groups(card, goal)
        points = sum(VERDICT_POINTS[v.verdict] for v in verdicts.values())
        base: dict[str, Any] = dict(
            card=card, verdicts=verdicts, fit_tier=tier, groups=groups, points=points,
            features=n_features,
        )  # fmt: skip
        if bought is not None:
            if q.max_power_w is not None and (card.tdp_w is None or card.tdp_w > q.max_power_w):
                skipped_power.append(card.name)
            else:
                rng, cond = bought
                within = q.budget is None or rng.low <= q.budget
                out.append(
                    Candidate(kind="buy", price=rng, condition=cond, within_budget=within, **base)
                )
        if hourly is not None:
            hours = q.budget / hourly.typical if q.budget is not None else None
            hours_low = q.budget / hourly.low if q.budget is not None else None
            within = hours is None or hours >= MIN_RENT_HOURS
            out.append(
                Candidate(
                    kind="rent",
                    price=hourly,
                    within_budget=within,
                    hours=hours,
                    hours_low_rate=hours_low,
                    **base,
                )
            )
    notes = []
    if skipped_power:
        notes.append(
            f"Left out for drawing more than {q.max_power_w} W (or an unknown board power): "
            + ", ".join(skipped_power)
            + "."
        )
    return out, notes, left_out


def sort_key(c: Candidate, goal: Goal) -> tuple[float, ...]:
    """Sort key, best first: fit tier, points, the learning goal's extras, then cost and VRAM."""
    tier = float(c.fit_tier or 0)
    if goal.learning and c.kind == "buy":
        comfort = 1.0 if c.vram >= vram_threshold("learning_comfort").vram_gb else 0.0
        return (tier, -c.points, -comfort, -c.features, -c.vram, c.cost)
    if goal.learning:
        return (tier, -c.points, -len(c.groups), c.cost, -c.vram)
    if goal.program:  # no requirement known: the most capable card the budget buys
        return (tier, -c.points, -float(c.card.bandwidth_gbs or 0.0), -c.vram, c.cost)
    if goal.workload == "llm_inference" and not goal.fit_tiers:
        return (tier, -c.points, -c.vram, c.cost)  # no model size: memory bounds the models
    return (tier, -c.points, c.cost, -c.vram)


def arrange(candidates: list[Candidate], goal: Goal, limit: int) -> list[Candidate]:
    """The ranked options: the best first, then whatever adds goal features the picks lack, then
    the rest in order (buy and rent alternate when either will do)."""
    buys = sorted((c for c in candidates if c.kind == "buy"), key=lambda c: sort_key(c, goal))
    rents = sorted((c for c in candidates if c.kind == "rent"), key=lambda c: sort_key(c, goal))
    merged: list[Candidate] = []
    for i in range(max(len(buys), len(rents))):
        merged.extend(x[i] for x in (buys, rents) if i < len(x))
    if not goal.learning:  # a feature or workload: better coverage first, whatever the kind
        merged.sort(key=lambda c: (c.fit_tier or 0, -c.points))
    picked: list[Candidate] = []
    covered: set[str] = set()
    while merged and len(picked) < limit:
        choice = None
        if picked:
            choice = next((c for c in merged if c.groups - covered), None)
        choice = choice or merged[0]
        merged.remove(choice)
        picked.append(choice)
        covered |= choice.groups
    return picked


def closest(candidates: list[Candidate], limit: int = 3) -> list[Candidate]:
    """Over-budget candidates, cheapest first (lowest price or hourly rate)."""
    over = [c for c in candidates if not c.within_budget]
    buys = sorted(
        (c for c in over if c.kind == "buy"),
        key=lambda c: (c.fit_tier or 0, -c.points, c.price.low),
    )
    rents = sorted(
        (c for c in over if c.kind == "rent"),
        key=lambda c: (c.fit_tier or 0, -c.points, c.price.low),
    )
    return [*buys[:limit], *rents[:limit]][:limit]
