"""The parts of a recommendation beside the options: notes on partly covered topics, corrections
to the corpus, the guide's budget plan, the free tiers, the cheapest hardware for a feature, and
the standing assumptions."""

from __future__ import annotations

from assistant.knowledge.features import corpus_claims_for
from assistant.knowledge.gpus import load_catalog
from assistant.knowledge.prices import hourly_price_range, purchase_price
from assistant.knowledge.sources import Source
from assistant.knowledge.topics import Topic
from assistant.money import Currency
from assistant.tools.capability import assess
from assistant.tools.cost_base import CORPUS_DOC1, CORPUS_QUIZ
from assistant.tools.recommend.goal import Goal
from assistant.tools.recommend.models import (
    CheapestPick,
    FeatureCheapest,
    FreeTier,
    RecommendQuery,
)
from assistant.tools.recommend.rank import Candidate, priced_cards

COLAB_SOURCE = Source(
    title=CORPUS_DOC1, note="1.2 Le gratuit — Google Colab; résumé: free Colab (T4)"
)
TCGEN05_KEYS = ("tcgen05", "tmem")


def gap_notes(picked: list[Candidate], goal: Goal) -> list[str]:
    """For topics the first pick only partly covers: the topic's own cheapest way to cover them."""
    if not picked:
        return [
            f"{t.name}: {t.cheapest_alternative}" for t in goal.topics if t.cheapest_alternative
        ][:3]
    first = picked[0]
    covered = {k for c in picked for k, v in c.verdicts.items() if v.verdict == "yes"}
    out = []
    for t in goal.topics:
        v = first.verdicts.get(t.key)
        if (
            v is not None
            and v.verdict == "partial"
            and t.key not in covered
            and t.cheapest_alternative
        ):
            out.append(
                f"{t.name}: {first.card.name} covers it only partly. {t.cheapest_alternative}"
            )
    return out


def corrections(picked: list[Candidate], goal: Goal) -> tuple[list[str], list[Source]]:
    """The corpus statements NVIDIA's documents contradict, for the goal's features on the picked
    cards, and always the RTX 5090/tcgen05 one when the goal involves tcgen05 or Tensor Memory."""
    keys = {k for t in goal.topics for k in t.feature_keys()}
    pairs = {
        (k, c.card.compute_capability) for c in picked for k in keys if c.card.compute_capability
    }
    pairs |= {(k, "12.0") for k in keys & set(TCGEN05_KEYS)}
    notes: list[str] = []
    sources: list[Source] = []
    seen: set[str] = set()
    for key, cc in sorted(pairs, key=lambda p: (p[0], p[1] or "")):
        for claim in corpus_claims_for(key, cc):
            if claim.key in seen:
                continue
            seen.add(claim.key)
            notes.append(
                f"Correction to the guide (§ {claim.section}): it says « {claim.claim} »; "
                f"NVIDIA's documents: {claim.correction}"
            )
            sources.extend(claim.sources)
    return notes, sources


def budget_plan_note(q: RecommendQuery, goal: Goal) -> str:
    """A note with the guide's plan for spending the budget on learning, scaled to this budget."""
    from assistant.tools.budget import BudgetQuery, plan_budget

    parts = goal.parts or None
    plan = plan_budget(
        BudgetQuery(budget=q.budget, currency=q.currency, usd_per_eur=q.usd_per_eur, parts=parts)
    )
    return f"The guide's way to spend a learning budget (its 200 € answer, scaled): {plan.summary}"


def free_tiers(goal: Goal) -> list[FreeTier]:
    """Colab's free T4 and Kaggle's notebooks, and what of the goal's topics and work they cover."""
    t4 = load_catalog().by_name("T4")
    covers: list[str] = []
    partly: list[str] = []
    cannot: list[str] = []
    if t4 is not None:
        for topic in goal.topics:
            v = assess(t4, topic)
            {"yes": covers, "partial": partly}.get(v.verdict, cannot).append(topic.name)
        if goal.fit_tiers and t4.vram_gb is not None:
            what = goal.model or goal.workload or "the workload"
            ok = any(t4.vram_gb >= tier.min_vram_gb for tier in goal.fit_tiers)
            (covers if ok else cannot).append(f"{what} in {t4.vram_gb:g} GB")
    return [
        FreeTier(name="Google Colab (free tier)", gpu="T4", covers=covers, partly=partly,
                 cannot=cannot, sources=[COLAB_SOURCE, CORPUS_QUIZ]),
        FreeTier(name="Kaggle notebooks (free)", gpu=None, covers=covers, partly=partly,
                 cannot=cannot, sources=[CORPUS_QUIZ]),
    ]  # fmt: skip


def cheapest(topic: Topic, currency: Currency, rate: float) -> FeatureCheapest:
    """The cheapest card to buy and to rent with the topic (fully, else partly), in `currency`."""
    rows = [(card, assess(card, topic)) for card in priced_cards()]
    best = [r for r in rows if r[1].verdict == "yes"] or [
        r for r in rows if r[1].verdict == "partial"
    ]
    buy: CheapestPick | None = None
    rent: CheapestPick | None = None
    for card, v in best:
        for cond in ("new", "used"):
            p = purchase_price(card.name, cond, currency=currency, usd_per_eur=rate)
            if p is not None and (buy is None or p.low < buy.low):
                buy = CheapestPick(kind="buy", gpu=card.name, verdict=v.verdict, condition=cond,
                                   low=round(p.low, 2), high=round(p.high, 2), sources=p.sources)  # fmt: skip
        h = hourly_price_range(card.name, currency=currency, usd_per_eur=rate)
        if h is not None and (rent is None or h.low < rent.low):
            rent = CheapestPick(kind="rent", gpu=card.name, verdict=v.verdict, low=round(h.low, 2),
                                high=round(h.high, 2), sources=h.sources)  # fmt: skip
    note = topic.cheapest_alternative
    if buy is None:
        note = f"No card with a purchase price in the data has {topic.name}." + (
            f" {note}" if note else ""
        )
    return FeatureCheapest(topic=topic.key, topic_name=topic.name, buy=buy, rent=rent, note=note)


def standing_assumptions(q: RecommendQuery) -> list[str]:
    """The assumptions every recommendation states: how prices are read, what power limits cover."""
    out = [
        "Purchase prices: the guide's 2026 ranges and launch list prices (converted at the stated "
        "rate); rental rates: the median of on-demand, community, marketplace and serverless "
        "rows (spot excluded).",
        "Each option is priced against the whole budget; options are alternatives, not a basket.",
    ]
    if q.max_power_w is not None:
        out.append("The power limit applies to cards you buy (board power / TDP), not to rentals.")
    return out
