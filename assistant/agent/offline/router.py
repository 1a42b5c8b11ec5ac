"""The fitted intent router: multinomial logistic regression over what a question holds.

Features, for one text: the k-NN similarity to each intent's examples (the classifier's semantic
scores), the presence of each concept of the vocabulary (concepts.toml) and which entity slots
are filled (cards, a model, money, hours...). The weights are fitted offline by
tools/fit_router.py and frozen in router_weights.json with a hash of the examples and vocabulary
they were fitted on; a missing or stale file means no router (the caller falls back to k-NN).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from assistant.agent.offline.concepts import concept_patterns, concepts_in, router_concepts
from assistant.agent.offline.entities import Entities
from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

log = get_logger(__name__)

PACKAGE = "assistant.agent.offline"
WEIGHTS_FILE = "router_weights.json"


@lru_cache(maxsize=1)
def vocabulary_text() -> str:
    """The one vocabulary of concepts: concepts.toml and the names it takes from data."""
    from assistant.agent.offline.concepts import vocabulary_text as text

    return text()


def concepts() -> dict[str, re.Pattern[str]]:
    """concept id → its pattern (the one vocabulary, concepts.toml, matched on folded text),
    for the concepts the router reads."""
    read = router_concepts()
    return {c: p for c, p in concept_patterns().items() if c in read}


def concept_hits(text: str) -> set[str]:
    """The concepts a text names, of those the router reads."""
    return concepts_in(text) & router_concepts()


def _cards(ent: Entities) -> int:
    return len(ent.gpus) + len(ent.unknown_gpus)


# Entity slots as presence features; what a slot means is the extractor's business, not a weight.
SLOTS: dict[str, Callable[[Entities], bool]] = {
    "no_card": lambda e: _cards(e) == 0,
    "one_card": lambda e: _cards(e) == 1,
    "two_cards": lambda e: _cards(e) >= 2,
    "unknown_card": lambda e: bool(e.unknown_gpus),
    "model": lambda e: bool(e.models),
    "model_size": lambda e: e.model_size_b is not None,
    "budget": lambda e: bool(e.budgets),
    "hourly_rate": lambda e: bool(e.hourly_rates),
    "total_hours": lambda e: e.total_hours is not None,
    "hours_per_day": lambda e: e.hours_per_day is not None,
    "duration": lambda e: bool(e.durations),
    "feature": lambda e: any(not t.startswith("part") for t in e.topics),
    "guide_part": lambda e: bool(e.parts) or e.up_to_part is not None,
    "vram": lambda e: e.vram_gb is not None,
    "storage_size": lambda e: e.storage_gb is not None,
    "precision": lambda e: e.precision is not None,
    "training": lambda e: e.method in ("lora", "qlora", "full", "finetune"),
    "inference": lambda e: e.method == "inference",
    "context": lambda e: e.context_tokens is not None,
    "batch": lambda e: e.batch_size is not None,
    "power": lambda e: e.power_w is not None,
    "electricity_price": lambda e: e.electricity_price is not None,
    "card_count": lambda e: e.gpu_count is not None and e.gpu_count > 1,
    "mode_buy": lambda e: e.mode == "buy",
    "mode_rent": lambda e: e.mode == "rent",
    "condition": lambda e: e.condition is not None,
    "percentage": lambda e: bool(e.percentages),
}


def feature_names(labels: Sequence[str]) -> list[str]:
    """The feature names, in order: similarity per label, then concepts, then slots."""
    return (
        [f"sim:{label}" for label in labels]
        + [f"concept:{c}" for c in sorted(concepts())]
        + [f"slot:{s}" for s in SLOTS]
    )


def features(
    text: str, ent: Entities, semantic: Mapping[str, float], labels: Sequence[str]
) -> list[float]:
    """The feature row of one text, in `feature_names(labels)` order."""
    hits = concept_hits(text)
    return (
        [float(semantic.get(label, 0.0)) for label in labels]
        + [1.0 if c in hits else 0.0 for c in sorted(concepts())]
        + [1.0 if slot(ent) else 0.0 for slot in SLOTS.values()]
    )


def examples_hash(examples: Mapping[str, Sequence[str]]) -> str:
    """A content hash of the labelled examples and the vocabulary (what the weights depend on)."""
    payload = json.dumps(
        {"examples": {k: list(v) for k, v in sorted(examples.items())}, "vocab": vocabulary_text()},
        ensure_ascii=False,
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Router:
    """Frozen multinomial logistic regression: standardised features → intent probabilities."""

    labels: tuple[str, ...]
    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (labels, features)
    bias: np.ndarray  # (labels,)
    # The features that are explicit evidence (the concepts named), as a mask over `names`.
    explicit: np.ndarray

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """Each row's score per label, on standardised features."""
        z = (rows - self.mean) / self.scale
        return z @ self.weights.T + self.bias  # type: ignore[no-any-return]

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """Each row's probability per label."""
        return softmax(self.logits(rows))

    def evidence(self, rows: np.ndarray) -> np.ndarray:
        """Per label, how strongly the concepts the question names vote for it (0 when none do).

        The concepts' own share of the logits, as a distribution over labels, minus the uniform
        one: what the question says in so many words, apart from what it resembles and the
        entities it holds (a card alone does not ask for a spec sheet).
        """
        import numpy as np

        blank = np.where(self.explicit, 0.0, rows)
        lift = ((rows - blank) / self.scale) @ self.weights.T
        return softmax(lift) - 1.0 / len(self.labels)  # type: ignore[no-any-return]

    def to_json(self, extra: Mapping[str, object]) -> str:
        """The router's parameters as JSON, with `extra` (such as what it was fitted on) first."""
        return json.dumps(
            {
                **extra,
                "labels": list(self.labels),
                "features": list(self.names),
                "mean": [round(float(v), 6) for v in self.mean],
                "scale": [round(float(v), 6) for v in self.scale],
                "weights": [[round(float(v), 5) for v in row] for row in self.weights],
                "bias": [round(float(v), 5) for v in self.bias],
            },
            indent=1,
            ensure_ascii=False,
        )


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row's logits as probabilities (shifted by the row's maximum, for stability)."""
    import numpy as np

    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


def router_from_dict(data: Mapping[str, object]) -> Router:
    """The router that `Router.to_json` wrote, from its parsed JSON."""
    import numpy as np

    names = tuple(str(n) for n in data["features"])  # type: ignore[attr-defined]
    return Router(
        labels=tuple(str(x) for x in data["labels"]),  # type: ignore[attr-defined]
        names=names,
        mean=np.asarray(data["mean"], dtype=float),
        scale=np.asarray(data["scale"], dtype=float),
        weights=np.asarray(data["weights"], dtype=float),
        bias=np.asarray(data["bias"], dtype=float),
        explicit=explicit_mask(names),
    )


def explicit_mask(names: Sequence[str]) -> np.ndarray:
    """True for each feature that is a concept (the explicit evidence), as a mask over `names`."""
    import numpy as np

    return np.array([n.startswith("concept:") for n in names])


def load_router(
    examples: Mapping[str, Sequence[str]], model_key: str, text: str | None = None
) -> Router | None:
    """The frozen router, or None (logged) when its file is missing, unreadable or stale."""
    try:
        raw = (
            text
            if text is not None
            else resources.files(PACKAGE).joinpath(WEIGHTS_FILE).read_text("utf-8")
        )
        data = json.loads(raw)
        router = router_from_dict(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("intent router unavailable (%s): k-NN similarity alone decides", exc)
        return None
    expected = examples_hash(examples)
    if data.get("examples_hash") != expected:
        log.warning(
            "intent router is stale (examples or vocabulary changed since it was fitted; "
            "run tools/fit_router.py): k-NN similarity alone decides"
        )
        return None
    if data.get("model_key") != model_key:
        log.warning(
            "intent router was fitted with embedding model %s, not %s: k-NN similarity alone decides",
            data.get("model_key"),
            model_key,
        )
        return None
    if list(router.names) != feature_names(router.labels) or set(router.labels) != set(examples):
        log.warning(
            "intent router's features or intents differ from this code's: k-NN alone decides"
        )
        return None
    return router
