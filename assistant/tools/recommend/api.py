"""Recommend GPUs for a budget, a goal and constraints: ranked cards to buy or to rent (and for how
many hours), each with its reasons, what it cannot do and its sources; the cheapest hardware that
exercises a feature; and, when nothing fits, what comes closest and the free tiers."""

from __future__ import annotations

from assistant.tools.cost_base import money_context
from assistant.tools.recommend.build import build_recommendation
from assistant.tools.recommend.goal import resolve_goal
from assistant.tools.recommend.models import Recommendation, RecommendQuery


def recommend(query: RecommendQuery) -> Recommendation:
    """Recommend GPUs to buy or rent for a budget, a goal (the guide up to part N, a feature such as
    wgmma, tcgen05 or FP4, LoRA/QLoRA/FLUX, an LLM of a given size) and constraints (new or used,
    power, desktop or cloud). Options must get a yes/partial capability verdict for the goal, hold
    the workload in VRAM, meet the constraints and fit the budget; they are ranked by coverage of
    the goal, then cost. Also gives the cheapest hardware for a feature, the free tiers, and, when
    nothing fits, the closest options. Unknown features or models come back as notes."""
    currency, rate, assumptions = money_context(query)
    goal = resolve_goal(query)
    return build_recommendation(query, goal, currency, rate, assumptions)
