"""Which knowledge entry a question is, if any: a fitted choice among a few candidate entries.

Candidates are the entries nearest the question by meaning (its title and "asked" phrasings, see
`lead_match.title_scores`), by keywords (BM25 over each entry's title, phrasings and direct
answer, both languages) and those the corpus search returned. Each candidate is described by a
few measures (`FEATURES`), and "no entry" by what the question brings besides its words
(`QUESTION_FEATURES`: a calculator's figures, a model, a card with a feature...). A conditional
logit (one softmax over the candidates and "no entry") fitted offline by tools/fit_lead.py, on
questions labelled with the entry that should open their answer or with none
(tests/golden/knowledge_leads.yaml), picks the most likely option. The weights are frozen in
lead_weights.json; a missing file or one fitted on other features means no knowledge lead at
all (logged), never a guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

    from assistant.retrieval.lexical import LexicalIndex

log = get_logger(__name__)

PACKAGE = "assistant.agent.offline"
WEIGHTS_FILE = "lead_weights.json"
NEAREST = 5  # candidates by meaning
KEYWORD = 3  # candidates by keywords

FEATURES: tuple[str, ...] = (
    "similarity",  # cosine of the question to the entry's nearest title or phrasing
    "below_nearest",  # that cosine minus the nearest candidate's (0 for the nearest)
    "margin",  # minus the best other entry's cosine (> 0: no other entry is nearer)
    "above_median",  # minus the question's median entry (some questions are close to all)
    "meaning_rank",  # 1 / (1 + rank by meaning)
    "search_rank",  # 1 / (1 + the entry's place among the searched passages), 0 if absent
    "search_first",  # the search's first passage is this entry
    "keywords",  # BM25 score over the best entry's BM25 score (0 when no keyword matches)
    "keyword_rank",  # 1 / (1 + rank by keywords), 0 without a keyword match
    "coverage",  # the rarity-weighted share of the entry's title or phrasing the question says
    "coverage_margin",  # that share minus the best other candidate's
    "other_kind",  # both name models, of different kinds (image vs language model)
    "identifier",  # the entry names a rare identifier the question names (gfx1103, sm_89)
    "same_maker",  # the entry is about one maker's GPUs, a maker the question names (AMD, Apple)
)
QUESTION_FEATURES: tuple[str, ...] = (
    "computed",  # a calculator answered with figures (a cost, a break-even, a speed)
    "model_or_part",  # the question names a model or a part of the guide
    "card_feature",  # the question names a card and a feature (a capability check answers)
    "strong_tool",  # a tool was called on what was asked, not on a guess
    "specs",  # specifications were asked and a spec sheet answered
    "nearest",  # the nearest entry's cosine
    "nearest_above_median",  # how far the nearest entry stands out
    "searched_entries",  # the share of the searched passages that are entries
    "best_coverage",  # the largest share of an entry's title or phrasing the question says
    "symptom",  # the question reports a failure: an error, a crash, a freeze, out of memory
    "explain",  # the question asks what something is or why ("c'est quoi", "why does")
)


@dataclass(frozen=True)
class Context:
    """What a question brings besides its words, as the lead sees it."""

    computed: bool = False
    model_or_part: bool = False
    card_feature: bool = False
    strong_tool: bool = False
    specs: bool = False
    symptom: bool = False
    explain: bool = False


@dataclass(frozen=True)
class Candidate:
    entry_id: str
    features: tuple[float, ...]


@dataclass(frozen=True)
class Options:
    """A question's candidate entries and the features of choosing none."""

    candidates: tuple[Candidate, ...]
    question: tuple[float, ...]


@dataclass(frozen=True)
class LeadModel:
    """Frozen conditional logit: an entry's utility is `weights` · its standardised features,
    "no entry"'s is `none_weights` · the question's standardised features + `none_bias`."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    none_mean: np.ndarray
    none_scale: np.ndarray
    none_weights: np.ndarray
    none_bias: float

    def probabilities(self, options: Options) -> np.ndarray:
        """The probability of each candidate, then of "no entry" (last)."""
        import numpy as np

        rows = np.asarray([c.features for c in options.candidates], dtype=float).reshape(
            -1, len(FEATURES)
        )
        utilities = ((rows - self.mean) / self.scale) @ self.weights
        question = (np.asarray(options.question, dtype=float) - self.none_mean) / self.none_scale
        every = np.append(utilities, question @ self.none_weights + self.none_bias)
        every = np.exp(every - every.max())
        return every / every.sum()  # type: ignore[no-any-return]

    def choice(self, options: Options) -> tuple[str, float] | None:
        """The most likely entry and its probability, or None when "no entry" is most likely."""
        return self._likeliest(options, with_none=True)

    def nearest(self, options: Options) -> tuple[str, float] | None:
        """The most likely entry and its probability, even when "no entry" is likelier."""
        return self._likeliest(options, with_none=False)

    def _likeliest(self, options: Options, with_none: bool) -> tuple[str, float] | None:
        """The likeliest candidate and its probability; None when there is none, or when "no
        entry" wins and counts (`with_none`)."""
        import numpy as np

        if not options.candidates:
            return None
        probs = self.probabilities(options)
        best = int(np.argmax(probs if with_none else probs[:-1]))
        if best == len(options.candidates):
            return None
        return options.candidates[best].entry_id, float(probs[best])

    def to_json(self, extra: dict[str, object]) -> str:
        """The model's parameters as JSON, after `extra` (what it was fitted on, how it scored)."""

        def rounded(values: np.ndarray) -> list[float]:
            return [round(float(v), 6) for v in values]

        return json.dumps(
            {
                **extra,
                "features": list(FEATURES),
                "question_features": list(QUESTION_FEATURES),
                "mean": rounded(self.mean),
                "scale": rounded(self.scale),
                "weights": rounded(self.weights),
                "none_mean": rounded(self.none_mean),
                "none_scale": rounded(self.none_scale),
                "none_weights": rounded(self.none_weights),
                "none_bias": round(float(self.none_bias), 6),
            },
            indent=1,
            ensure_ascii=False,
        )


def model_from_dict(data: dict[str, Any]) -> LeadModel:
    """The model `LeadModel.to_json` wrote, from its parsed JSON."""
    import numpy as np

    if tuple(data["features"]) != FEATURES or tuple(data["question_features"]) != (
        QUESTION_FEATURES
    ):
        raise ValueError("fitted on other features: run tools/fit_lead.py")
    return LeadModel(
        **{
            k: np.asarray(data[k], dtype=float)
            for k in ("mean", "scale", "weights", "none_mean", "none_scale", "none_weights")
        },
        none_bias=float(data["none_bias"]),
    )


@lru_cache(maxsize=1)
def load_model() -> LeadModel | None:
    """The frozen model, or None (logged) when its file is missing, unreadable or stale."""
    try:
        text = resources.files(PACKAGE).joinpath(WEIGHTS_FILE).read_text("utf-8")
        return model_from_dict(json.loads(text))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("knowledge-lead model unavailable (%s): no knowledge lead", exc)
        return None


@lru_cache(maxsize=1)
def _keyword_index() -> tuple[tuple[str, ...], LexicalIndex]:
    """BM25 over one text per entry: its title, phrasings and direct answer in both languages."""
    from assistant.retrieval.lexical import LexicalIndex

    texts = _texts_by_entry()
    ids = tuple(texts)
    return ids, LexicalIndex([texts[i] for i in ids])


@lru_cache(maxsize=1)
def _texts_by_entry() -> dict[str, str]:
    """One text per entry: its title, phrasings and direct answer in both languages."""
    from assistant.knowledge.entries import load_entries

    texts: dict[str, list[str]] = {}
    for entry in load_entries():
        texts.setdefault(entry.id, []).extend([entry.title, *entry.asked, entry.answer])
    return {i: " ".join(t) for i, t in texts.items()}


def keyword_scores(text: str) -> dict[str, float]:
    """entry id → BM25 score over the best entry's score, for entries sharing a keyword."""
    from assistant.knowledge.tokens import tokenize

    ids, index = _keyword_index()
    scores = index.scores(tokenize(text))
    top = float(scores.max()) if len(scores) else 0.0
    if top <= 0.0:
        return {}
    return {i: float(s) / top for i, s in zip(ids, scores.tolist(), strict=True) if s > 0.0}


# An identifier: letters and digits together ('gfx1103', 'sm_89', 'cudaerror700'), or an
# environment variable's underscores; a word most entries say tells nothing.
_IDENTIFIER = re.compile(r"(?=.*[a-z])(?=.*(?:\d|_))[a-z0-9_]{4,}")
IDENTIFIER_ENTRIES = 3  # an identifier in more entries than this is common


@lru_cache(maxsize=1)
def _identifier_index() -> dict[str, frozenset[str]]:
    """identifier → the entries whose title, phrasings or answer name it (the rare ones)."""
    from assistant.knowledge.tokens import raw_tokens

    named: dict[str, set[str]] = {}
    for entry_id, text in _texts_by_entry().items():
        for word in set(raw_tokens(text)):
            if _IDENTIFIER.fullmatch(word):
                named.setdefault(word, set()).add(entry_id)
    return {w: frozenset(e) for w, e in named.items() if len(e) <= IDENTIFIER_ENTRIES}


def identifier_matches(text: str) -> frozenset[str]:
    """The entries that name a rare identifier the question names."""
    from assistant.knowledge.tokens import raw_tokens

    index = _identifier_index()
    return frozenset(e for w in set(raw_tokens(text)) for e in index.get(w, ()))


def candidates(
    ranked: Sequence[tuple[str, float]],
    median: float,
    keywords: dict[str, float],
    retrieved: Sequence[str | None],
    context: Context,
    coverage: dict[str, float] | None = None,
    other_kind: frozenset[str] = frozenset(),
    include: Sequence[str] = (),
    identified: frozenset[str] = frozenset(),
    same_maker: frozenset[str] = frozenset(),
) -> Options:
    """The candidate entries and their features, and the features of choosing none.

    `ranked`: (entry id, cosine) nearest first, entries about other cards already left out;
    `median`: the question's median cosine over every entry; `keywords`: `keyword_scores`;
    `retrieved`: the searched passages' entry ids, best first (None for a guide passage);
    `coverage`: `lead_match.title_coverage`; `other_kind`: entries about another kind of model;
    `include`: entries that are candidates however far they rank (those in `ranked`);
    `identified`: `identifier_matches`, also candidates however far they rank;
    `same_maker`: entries about the GPUs of a maker the question names."""
    scores = dict(ranked)
    covered = {e: (coverage or {}).get(e, 0.0) for e in scores}
    nearest = ranked[0][1] if ranked else median
    question = (
        float(context.computed),
        float(context.model_or_part),
        float(context.card_feature),
        float(context.strong_tool),
        float(context.specs),
        nearest,
        nearest - median,
        sum(e is not None for e in retrieved) / len(retrieved) if retrieved else 0.0,
        max(covered.values(), default=0.0),
        float(context.symptom),
        float(context.explain),
    )
    meaning_rank = {e: n for n, (e, _) in enumerate(ranked)}
    by_keywords = sorted((e for e in keywords if e in scores), key=lambda e: -keywords[e])
    keyword_rank = {e: n for n, e in enumerate(by_keywords)}
    searched = [e for e in retrieved if e is not None]
    first = retrieved[0] if retrieved else None
    chosen = list(
        dict.fromkeys(
            [e for e, _ in ranked[:NEAREST]]
            + [
                e
                for e in [*searched, *by_keywords[:KEYWORD], *include, *sorted(identified)]
                if e in scores
            ]
        )
    )
    top_covered = sorted(((e, covered[e]) for e in chosen), key=lambda x: -x[1])[:2]
    found = []
    for entry_id in chosen:
        sim = scores[entry_id]
        other = max((s for e, s in ranked[:2] if e != entry_id), default=sim)
        place = searched.index(entry_id) if entry_id in searched else None
        row = (
            sim,
            sim - nearest,
            sim - other,
            sim - median,
            1.0 / (1 + meaning_rank[entry_id]),
            0.0 if place is None else 1.0 / (1 + place),
            1.0 if entry_id == first else 0.0,
            keywords.get(entry_id, 0.0),
            1.0 / (1 + keyword_rank[entry_id]) if entry_id in keyword_rank else 0.0,
            covered[entry_id],
            covered[entry_id] - max((v for e, v in top_covered if e != entry_id), default=0.0),
            float(entry_id in other_kind),
            float(entry_id in identified),
            float(entry_id in same_maker),
        )
        found.append(Candidate(entry_id, row))
    return Options(tuple(found), question)


def choose(options: Options) -> tuple[str, float] | None:
    """The entry that opens the answer and its probability, or None (no entry, or no model)."""
    model = load_model()
    return None if model is None else model.choice(options)


def nearest(options: Options) -> tuple[str, float] | None:
    """The likeliest entry among the candidates though none may lead, or None (no model)."""
    model = load_model()
    return None if model is None else model.nearest(options)
