"""Fit the offline intent router and freeze its weights as package data.

    python tools/fit_router.py            # fit, print the cross-validated accuracy, write the weights
    python tools/fit_router.py --check    # exit 1 when the frozen weights are stale

Training data: every skill's example questions and the tool-less intents' (EN and FR), plus the
golden set's single-turn questions labelled by their expected tools (several tools share the
label). The k-NN similarity of an example is computed without the example itself, and in
cross-validation without any example of the held-out fold, so no row sees its own answer.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden" / "golden.yaml"
WEIGHTS = REPO / "assistant" / "agent" / "offline" / "router_weights.json"
FOLDS = 5
L2 = 0.002
STEPS = 1500
SEED = 7
TOP_K = 3

if TYPE_CHECKING:
    import numpy as np


def golden_hash() -> str:
    return hashlib.sha256(GOLDEN.read_bytes()).hexdigest()[:16]


def stale_reason(data: dict, examples_digest: str, key: str) -> str | None:  # type: ignore[type-arg]
    """Why frozen weights don't match the examples, vocabulary and embedding model (None: fresh)."""
    if not data:
        return f"{WEIGHTS.name} is missing: run tools/fit_router.py"
    if data.get("examples_hash") != examples_digest:
        return "router weights are stale (examples or vocabulary changed): run tools/fit_router.py"
    if data.get("model_key") != key:
        return f"router weights were fitted for embedding model {data.get('model_key')}, not {key}: run tools/fit_router.py"
    return None


def golden_labels(cases: list, labels: list[str]) -> list[tuple[str, list[str]]]:  # type: ignore[type-arg]
    """Single-turn golden questions and the intents they must reach (their expected tools)."""
    out = []
    for case in cases:
        if case.history or case.category == "injection":
            continue
        tools = [t for t in case.tools if t in labels]
        if not tools and case.category in ("off_topic", "greeting"):
            tools = [case.category]
        if not tools:  # a corpus answer says nothing of which tool, if any, should also answer
            continue
        out.append((case.question, list(dict.fromkeys(tools))))
    return out


def knn_features(
    sims: np.ndarray, pool_labels: np.ndarray, pool_mask: np.ndarray, labels: list[str]
) -> np.ndarray:
    """Per row of `sims` (rows × pool), the mean of the TOP_K best similarities per label."""
    import numpy as np

    out = np.zeros((sims.shape[0], len(labels)))
    for j, label in enumerate(labels):
        cols = (pool_labels == label) & pool_mask[None, :] if pool_mask.ndim == 1 else None
        assert cols is not None
        block = np.where(cols, sims, -np.inf)
        top = -np.sort(-block, axis=1)[:, :TOP_K]
        top = np.where(np.isfinite(top), top, np.nan)
        out[:, j] = np.nan_to_num(np.nanmean(top, axis=1), nan=0.0)
    return out


def balanced_weights(y: np.ndarray) -> np.ndarray:
    """Per row, a weight that gives every label the same total weight (rows of a label that has
    many examples count less each), so the size of an example list is not a prior."""

    per_label = y.sum(axis=0)
    per_label[per_label == 0] = 1.0
    w = (y / per_label).sum(axis=1)
    return w / w.mean()  # type: ignore[no-any-return]


def adam(
    gradient: Callable[[np.ndarray], np.ndarray], size: int, steps: int, lr: float = 0.05
) -> np.ndarray:
    """The parameters (from zeros) after `steps` Adam steps on `gradient(params)`."""
    import numpy as np

    b1, b2, eps = 0.9, 0.999, 1e-8
    params = np.zeros(size)
    moment, velocity = np.zeros(size), np.zeros(size)
    for t in range(1, steps + 1):
        grad = gradient(params)
        moment = b1 * moment + (1 - b1) * grad
        velocity = b2 * velocity + (1 - b2) * grad**2
        params -= lr * (moment / (1 - b1**t)) / (np.sqrt(velocity / (1 - b2**t)) + eps)
    return params


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's mean and standard deviation (1 where a column is constant)."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    return mean, scale


def fit_softmax(
    x: np.ndarray,
    y: np.ndarray,
    l2: float = L2,
    steps: int = STEPS,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Multinomial logistic regression (soft targets, L2, optional row weights) by Adam on
    standardised features."""
    import numpy as np

    from assistant.agent.offline.router import softmax

    mean, scale = standardise(x)
    z = (x - mean) / scale
    n, f = z.shape
    c = y.shape[1]
    rows = np.ones(n) if weights is None else weights

    def gradient(params: np.ndarray) -> np.ndarray:
        w, b = params[: c * f].reshape(c, f), params[c * f :]
        g = (softmax(z @ w.T + b) - y) * rows[:, None] / n
        return np.concatenate([(g.T @ z + l2 * w).ravel(), g.sum(axis=0)])

    params = adam(gradient, c * f + c, steps)
    return mean, scale, params[: c * f].reshape(c, f), params[c * f :]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the weights are fresh")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.path.insert(0, str(REPO))

    import json

    import numpy as np

    from assistant.agent.offline.entities import extract_entities
    from assistant.agent.offline.evaluation import load_cases
    from assistant.agent.offline.intents import IntentClassifier, load_examples
    from assistant.agent.offline.router import (
        Router,
        examples_hash,
        explicit_mask,
        feature_names,
        features,
        softmax,
    )
    from assistant.retrieval.embeddings import model_key

    examples = load_examples()
    key = model_key()
    if args.check:
        data = json.loads(WEIGHTS.read_text("utf-8")) if WEIGHTS.exists() else {}
        problem = stale_reason(data, examples_hash(examples), key)
        if data.get("golden_hash") != golden_hash():
            print(
                "note: the golden set changed since the router was fitted (refit when convenient)"
            )
        print(problem or "router weights are fresh")
        return 1 if problem else 0

    labels = sorted(examples)
    classifier = IntentClassifier()
    pool = classifier._ensure()
    pool_labels = np.array(classifier._labels)
    pool_texts = [t for intent in examples for t in examples[intent]]
    golden = golden_labels(load_cases(GOLDEN), labels)
    texts = pool_texts + [q for q, _ in golden]
    targets = [[label] for label in pool_labels.tolist()] + [tools for _, tools in golden]
    n_pool = len(pool_texts)
    vectors = np.vstack([pool, classifier._encode([q for q, _ in golden])])
    sims = vectors @ pool.T
    folded = [t.strip().lower() for t in pool_texts]
    for i, text in enumerate(t.strip().lower() for t in texts):
        for j, other in enumerate(folded):  # never its own example, nor a copy of it
            if i == j or text == other:
                sims[i, j] = -np.inf
    entities = [extract_entities(t) for t in texts]
    y = np.zeros((len(texts), len(labels)))
    for i, tools in enumerate(targets):
        for tool in tools:
            y[i, labels.index(tool)] = 1.0 / len(tools)

    def design(pool_mask: np.ndarray) -> np.ndarray:
        sem = knn_features(sims, pool_labels, pool_mask, labels)
        return np.array(
            [
                features(t, e, dict(zip(labels, row, strict=True)), labels)
                for t, e, row in zip(texts, entities, sem.tolist(), strict=True)
            ]
        )

    rng = np.random.default_rng(SEED)
    fold_of = rng.integers(0, FOLDS, size=len(texts))
    hits = np.zeros(len(texts), dtype=bool)
    for fold in range(FOLDS):
        test = fold_of == fold
        pool_mask = ~test[:n_pool]
        x = design(pool_mask)
        train = ~test
        mean, scale, w, b = fit_softmax(x[train], y[train], weights=balanced_weights(y[train]))
        pred = softmax(((x[test] - mean) / scale) @ w.T + b).argmax(axis=1)
        hits[test] = [
            labels[p] in targets[i] for p, i in zip(pred, np.flatnonzero(test), strict=True)
        ]
    n_gold = len(golden)
    print(
        f"cross-validated accuracy ({FOLDS} folds): {hits.mean():.1%} of {len(texts)} "
        f"(examples {hits[:n_pool].mean():.1%} of {n_pool}, golden {hits[n_pool:].mean():.1%} of {n_gold})"
    )

    x = design(np.ones(n_pool, dtype=bool))
    mean, scale, w, b = fit_softmax(x, y, weights=balanced_weights(y))
    names = feature_names(labels)
    router = Router(
        labels=tuple(labels),
        names=tuple(names),
        mean=mean,
        scale=scale,
        weights=w,
        bias=b,
        explicit=explicit_mask(names),
    )
    train_pred = router.probabilities(x).argmax(axis=1)
    train_acc = np.mean([labels[p] in t for p, t in zip(train_pred, targets, strict=True)])
    print(f"training accuracy: {train_acc:.1%}")
    WEIGHTS.write_text(
        router.to_json(
            {
                "about": "Offline intent router: multinomial logistic regression. "
                "Written by tools/fit_router.py; do not edit.",
                "model_key": key,
                "examples_hash": examples_hash(examples),
                "golden_hash": golden_hash(),
                "training_rows": len(texts),
                "cv_accuracy": round(float(hits.mean()), 4),
            }
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {WEIGHTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
