"""A semantic intent classifier: labelled example questions, embedded once, compared by cosine.

Each intent's score is the mean similarity of the question to its k nearest examples (k-NN),
adjusted by explicit cues (a second card for a comparison, a model for a memory fit...). A
question is also cut into clauses ("compare X and Y, and what does renting Y cost?") and each
clause is classified too, so several intents in one question each get their tool.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from assistant.agent.offline.cues import cue_boosts
from assistant.agent.offline.entities import Entities, extract_entities
from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

log = get_logger(__name__)

EXAMPLES_FILE = "intents.toml"
TOP_K = 3
# Below this combined score the question is not confidently about any tool.
MIN_SCORE = 0.45
# A second intent is kept when it is this close to the best one (whole question) ...
SECOND_MARGIN = 0.06
# ... or when a clause of its own lands on it with at least this score.
CLAUSE_MIN = 0.55
# A second intent also needs the question to name what it is about, not only to resemble it.
EXPLICIT_CUE = 0.1
CACHE_SIZE = 512
# A long message is read as its first clauses; the rest adds cost, not intents.
MAX_CLAUSES = 6

OTHER_INTENTS = ("corpus_only", "off_topic", "greeting")
# Intents that never share a question with a tool intent.
_EXCLUSIVE = {"corpus_only", "off_topic", "greeting"}

_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[?;!]+|\.\s+|,\s*(?:and|et|plus|then|puis|also|aussi)\b|\s(?:and|et)\s+(?=(?:what|how|which|is|does|can|should|would"
    r"|combien|quel|quelle|est-ce|que|qu'|en|si|puis|peut|dois)\b)|\b(?:also|aussi|then|puis)\b)\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class IntentScore:
    intent: str
    score: float
    semantic: float
    cue: float


@dataclass(frozen=True)
class Classification:
    """The intents chosen for a question, best first, with every intent's score."""

    intents: list[str]
    scores: list[IntentScore]
    entities: Entities

    @property
    def best(self) -> str:
        return self.intents[0] if self.intents else "corpus_only"


def tool_intents() -> tuple[str, ...]:
    """The intents answered by a tool: one per skill."""
    from assistant.agent.offline.skills import all_skills

    return tuple(all_skills())


@lru_cache(maxsize=1)
def load_examples() -> dict[str, list[str]]:
    """intent → example questions: each skill's, then the tool-less intents' (intents.toml)."""
    from assistant.agent.offline.skills import all_skills

    examples = {name: list(skill.examples.all) for name, skill in all_skills().items()}
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(EXAMPLES_FILE).read_text("utf-8")
    )
    examples.update({intent: list(table["examples"]) for intent, table in data.items()})
    return examples


class IntentClassifier:
    """k-NN over embedded examples; `embed` maps texts to L2-normalised rows."""

    def __init__(
        self, embed: object | None = None, examples: dict[str, list[str]] | None = None
    ) -> None:
        self._embed = embed
        self._examples = examples or load_examples()
        self._labels: list[str] = []
        self._matrix: np.ndarray | None = None
        self._lock = threading.Lock()
        self._cache: dict[str, np.ndarray] = {}

    def _encode(self, texts: list[str]) -> np.ndarray:
        if self._embed is None:
            from assistant.retrieval.embeddings import get_embedder

            self._embed = get_embedder().embed_queries
        return self._embed(texts)  # type: ignore[operator, no-any-return]

    def _ensure(self) -> np.ndarray:
        with self._lock:
            if self._matrix is None:
                labels, texts = [], []
                for intent, examples in self._examples.items():
                    for example in examples:
                        labels.append(intent)
                        texts.append(example)
                self._matrix = self._cached_matrix(texts)
                self._labels = labels
            return self._matrix

    def _cached_matrix(self, texts: list[str]) -> np.ndarray:
        """The examples' vectors, kept on disk per model and example set (a cold start skips them)."""
        import numpy as np

        if self._embed is not None:  # a caller's own embedding function: nothing to cache
            return self._encode(texts)
        from assistant.retrieval.embeddings import model_key
        from assistant.settings import get_settings

        key = model_key()
        digest = hashlib.sha256("\n".join([key, *texts]).encode()).hexdigest()[:16]
        path = get_settings().home / "cache" / f"intents-{digest}.npy"
        try:
            matrix = np.load(path)
            if matrix.shape[0] == len(texts):
                return matrix
        except (OSError, ValueError):
            pass
        matrix = self._encode(texts)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, matrix)
            os.replace(tmp, path)
        except OSError as exc:  # a read-only home only costs the next cold start
            log.info("intent example vectors not cached: %s", exc)
        return matrix

    def _vectors(self, texts: list[str]) -> np.ndarray:
        """Query vectors, remembered per text (a turn reads the same clauses more than once)."""
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, row in zip(missing, self._encode(missing), strict=True):
                if len(self._cache) >= CACHE_SIZE:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[text] = row
        return np.stack([self._cache[t] for t in texts])

    def semantic_scores(self, texts: list[str]) -> list[dict[str, float]]:
        """For each text, intent → mean cosine similarity to its TOP_K nearest examples."""
        import numpy as np

        matrix = self._ensure()
        sims = self._vectors(texts) @ matrix.T
        out = []
        for row in np.atleast_2d(sims):
            per: dict[str, list[float]] = {}
            for label, value in zip(self._labels, row.tolist(), strict=True):
                per.setdefault(label, []).append(value)
            out.append({k: float(np.mean(sorted(v, reverse=True)[:TOP_K])) for k, v in per.items()})
        return out

    def classify(self, text: str, entities: Entities | None = None) -> Classification:
        """The intents of `text`: the best one, plus any other that a clause or a close score backs."""
        ent = entities if entities is not None else extract_entities(text)
        clauses = split_clauses(text)
        batch = [text, *clauses] if len(clauses) > 1 else [text]
        semantic = self.semantic_scores(batch)
        whole = _combine(semantic[0], cue_boosts(text, ent))
        chosen: list[str] = []
        best = whole[0]
        if best.score >= MIN_SCORE or best.intent in _EXCLUSIVE:
            chosen.append(best.intent)
        for other in whole[1:]:
            if best.intent in _EXCLUSIVE or other.intent in _EXCLUSIVE:
                break
            if (
                other.score >= max(MIN_SCORE, best.score - SECOND_MARGIN)
                and other.cue >= EXPLICIT_CUE
            ):
                chosen.append(other.intent)
        for clause, sem in zip(clauses if len(batch) > 1 else [], semantic[1:], strict=False):
            clause_ent = extract_entities(clause)
            scores = _combine(sem, cue_boosts(clause, clause_ent))
            top = scores[0]
            if top.intent in _EXCLUSIVE or top.intent in chosen:
                continue
            if top.score >= CLAUSE_MIN and top.cue >= EXPLICIT_CUE:
                chosen.append(top.intent)
        if not chosen:
            chosen.append("corpus_only")
        if any(i in tool_intents() for i in chosen):
            chosen = [i for i in chosen if i not in _EXCLUSIVE]
        return Classification(intents=chosen, scores=whole, entities=ent)


def _combine(semantic: dict[str, float], cues: dict[str, float]) -> list[IntentScore]:
    scores = [
        IntentScore(intent=k, score=v + cues.get(k, 0.0), semantic=v, cue=cues.get(k, 0.0))
        for k, v in semantic.items()
    ]
    return sorted(scores, key=lambda s: -s.score)


def split_clauses(text: str) -> list[str]:
    """The question's clauses (at least three words each), for multi-intent questions."""
    parts = [p.strip(" ,.") for p in _CLAUSE_SPLIT.split(text) if p and p.strip(" ,.")]
    return [p for p in parts if len(p.split()) >= 3][:MAX_CLAUSES]


_default: IntentClassifier | None = None
_default_lock = threading.Lock()


def get_classifier() -> IntentClassifier:
    """The process-wide classifier over the configured embedding model (built on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = IntentClassifier()
        return _default


def classify(text: str, entities: Entities | None = None) -> Classification:
    return get_classifier().classify(text, entities)
