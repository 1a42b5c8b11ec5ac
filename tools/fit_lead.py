"""Fit the knowledge-lead choice and freeze it as package data.

    python tools/fit_lead.py            # fit, print cross-validated outcomes, write the weights
    python tools/fit_lead.py --check    # exit 1 when the frozen weights are stale

Training data: the questions of tests/golden/knowledge_leads.yaml, each labelled with the entries
that should open its answer, or with none. Every question is answered once with the lead model
switched off, recording the candidate entries and their features (`lead_model.candidates`) of the
whole question's lookup (a message of several questions also looks up each sentence's entry; those
are not what the label says); a question's target is its expected entries among the candidates,
else "no entry". The model is a
conditional logit (one softmax over a question's candidates and "no entry", L2, Adam).
Cross-validation holds out whole questions, five folds, and counts per question: the right entry
leads, another entry leads, or none leads though one should; for questions expecting none,
whether none leads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parent.parent
for path in (REPO, REPO / "tools"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

LABELS = REPO / "tests" / "golden" / "knowledge_leads.yaml"
WEIGHTS = REPO / "assistant" / "agent" / "offline" / "lead_weights.json"
GOLDEN = REPO / "tests" / "golden"
FOLDS = 5
L2 = 0.01
STEPS = 2000

if TYPE_CHECKING:
    import numpy as np

    from assistant.agent.offline.lead_model import LeadModel, Options


def labels_hash() -> str:
    return hashlib.sha256(LABELS.read_bytes()).hexdigest()[:16]


def stale_reason(data: dict[str, Any]) -> str | None:
    """Why the frozen weights don't match the features or the labels (None: fresh)."""
    from assistant.agent.offline.lead_model import FEATURES, QUESTION_FEATURES

    if not data:
        return f"{WEIGHTS.name} is missing: run tools/fit_lead.py"
    if (
        tuple(data.get("features", ())) != FEATURES
        or tuple(data.get("question_features", ())) != QUESTION_FEATURES
    ):
        return "lead weights were fitted on other features: run tools/fit_lead.py"
    if data.get("labels_hash") != labels_hash():
        return "lead weights are stale (the labelled questions changed): run tools/fit_lead.py"
    return None


def labelled_set(set_name: str) -> list[dict[str, Any]]:
    """The questions of a labelled set: its key in the label file names tests/golden/<key>.yaml."""
    import yaml

    items: list[dict[str, Any]] = yaml.safe_load((GOLDEN / f"{set_name}.yaml").read_text("utf-8"))
    return items


def labelled_questions() -> list[tuple[str, dict[str, Any], list[str]]]:
    """(set name, question item, expected entries) for every labelled question."""
    import yaml

    labels: dict[str, dict[str, list[str]]] = yaml.safe_load(LABELS.read_text("utf-8"))
    out = []
    for set_name, wanted in labels.items():
        for item in labelled_set(set_name):
            if item["id"] in wanted:
                out.append((set_name, item, list(wanted[item["id"]])))
    return out


def collect() -> list[tuple[str, Options, list[str]]]:
    """(question id, its options, expected entries), answering each question once."""
    from answer_batch import history_of

    from assistant import ask
    from assistant.agent.offline import knowledge_lead, lead_model

    seen: list[tuple[int, Options]] = []
    reading_length: list[int] = []  # the length of the text whose lead is being found

    def record(options: Options) -> None:
        seen.append((reading_length[-1] if reading_length else 0, options))
        return None

    def find_lead(reading: Any, *args: Any, **kwargs: Any) -> Any:
        reading_length.append(len(reading.question))
        try:
            return original_find(reading, *args, **kwargs)
        finally:
            reading_length.pop()

    original, original_find = lead_model.choose, knowledge_lead.find_lead
    lead_model.choose = record  # type: ignore[assignment]
    knowledge_lead.find_lead = find_lead  # type: ignore[assignment]
    rows = []
    try:
        for _, item, expected in labelled_questions():
            seen.clear()
            ask(item["question"], history=history_of(item))
            # A message of several questions also looks up each sentence's entry: the label is
            # the whole question's, whose text is the longest (the last such lookup counts).
            longest = max((length for length, _ in seen), default=0)
            whole = [options for length, options in seen if length == longest]
            options = whole[-1] if whole else lead_model.Options((), ())
            rows.append((item["id"], options, expected))
    finally:
        lead_model.choose, knowledge_lead.find_lead = original, original_find
    return rows


def fit(rows: list[tuple[str, Options, list[str]]]) -> LeadModel:
    """The conditional logit fitted on these questions (those the lead was asked about)."""
    import numpy as np
    from fit_router import adam, standardise

    from assistant.agent.offline.lead_model import FEATURES, QUESTION_FEATURES, LeadModel

    rows = [r for r in rows if r[1].question]
    width = max(len(o.candidates) for _, o, _ in rows)
    q, f, g = len(rows), len(FEATURES), len(QUESTION_FEATURES)
    x = np.zeros((q, width, f))
    mask = np.zeros((q, width), dtype=bool)
    target = np.zeros((q, width + 1))
    for n, (_, options, expected) in enumerate(rows):
        for m, cand in enumerate(options.candidates):
            x[n, m], mask[n, m] = cand.features, True
            target[n, m] = float(cand.entry_id in expected)
        if not target[n].any():
            target[n, width] = 1.0  # no expected entry among the candidates: none should lead
        target[n] /= target[n].sum()
    questions = np.asarray([o.question for _, o, _ in rows], dtype=float)
    mean, scale = standardise(x[mask])
    none_mean, none_scale = standardise(questions)
    z = np.where(mask[..., None], (x - mean) / scale, 0.0)
    zq = (questions - none_mean) / none_scale

    def gradient(params: np.ndarray) -> np.ndarray:
        w, v, b = params[:f], params[f : f + g], params[-1]
        utilities = np.concatenate([np.where(mask, z @ w, -np.inf), (zq @ v + b)[:, None]], axis=1)
        probs = np.exp(utilities - utilities.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        delta = (probs - target) / q
        return np.concatenate(
            [
                np.einsum("qm,qmf->f", delta[:, :width], z) + L2 * w,
                delta[:, width] @ zq + L2 * v,
                [delta[:, width].sum()],
            ]
        )

    params = adam(gradient, f + g + 1, STEPS)
    return LeadModel(
        mean, scale, params[:f], none_mean, none_scale, params[f : f + g], float(params[-1])
    )


def outcome(model: LeadModel, options: Options, expected: list[str]) -> str:
    """right / wrong (another entry leads) / missed (none leads but one should) / none (rightly)."""
    chosen = model.choice(options) if options.question else None
    entry = chosen[0] if chosen else None
    if not expected:
        return "none" if entry is None else "wrong"
    return "right" if entry in expected else "missed" if entry is None else "wrong"


def cross_validate(rows: list[tuple[str, Options, list[str]]]) -> dict[str, int]:
    """Outcome counts over FOLDS folds of whole questions."""
    counts = {"right": 0, "wrong": 0, "missed": 0, "none": 0}
    for k in range(FOLDS):
        model = fit([r for n, r in enumerate(rows) if n % FOLDS != k])
        for n, (_, options, expected) in enumerate(rows):
            if n % FOLDS == k:
                counts[outcome(model, options, expected)] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the weights are fresh")
    parser.add_argument("--verbose", action="store_true", help="list the questions it gets wrong")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.check:
        data = json.loads(WEIGHTS.read_text("utf-8")) if WEIGHTS.exists() else {}
        reason = stale_reason(data)
        print(reason or "lead weights are fresh")
        return 1 if reason else 0

    from assistant.agent.offline.lead_model import FEATURES, QUESTION_FEATURES

    rows = collect()
    expecting = sum(bool(e) for _, _, e in rows)
    print(f"{len(rows)} questions: {expecting} expect an entry, {len(rows) - expecting} none")
    cv = cross_validate(rows)
    print(f"cross-validated ({FOLDS} folds of questions): {cv}")
    model = fit(rows)
    fitted = {"right": 0, "wrong": 0, "missed": 0, "none": 0}
    for qid, options, expected in rows:
        result = outcome(model, options, expected)
        fitted[result] += 1
        if args.verbose and result in ("wrong", "missed"):
            print(f"  {result:6} {qid}: {model.choice(options)} expected {expected}")
    print(f"on the training questions: {fitted}")
    for name, weight in zip(FEATURES, model.weights, strict=True):
        print(f"  entry: {name:22} {weight:+.3f}")
    for name, weight in zip(QUESTION_FEATURES, model.none_weights, strict=True):
        print(f"  none:  {name:22} {weight:+.3f}")
    extra = {
        "fitted_by": "tools/fit_lead.py",
        "labels_hash": labels_hash(),
        "questions": len(rows),
        "expecting_an_entry": expecting,
        "cross_validated": cv,
    }
    WEIGHTS.write_text(model.to_json(extra) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
