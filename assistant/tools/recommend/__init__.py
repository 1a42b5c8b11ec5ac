"""Recommend GPUs for a budget, a goal and constraints.

The query and result models live in `models`; `goal` reads what is asked, `rank` builds and orders
the candidates, `notes` adds free tiers, cheapest picks and corrections, `build` writes the result,
`api` holds the tool function; this module re-exports the public names."""

from assistant.tools.recommend.api import recommend
from assistant.tools.recommend.models import (
    CheapestPick,
    FeatureCheapest,
    FreeTier,
    Recommendation,
    RecommendOption,
    RecommendQuery,
    Workload,
)

__all__ = [
    "CheapestPick",
    "FeatureCheapest",
    "FreeTier",
    "RecommendOption",
    "RecommendQuery",
    "Recommendation",
    "Workload",
    "recommend",
]
