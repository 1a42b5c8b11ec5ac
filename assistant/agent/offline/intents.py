"""The intent classifier: labelled example questions, embedded once, and a fitted router.

Each intent's similarity is the mean cosine of the question to its k nearest examples (k-NN).
The router (router.py, weights fitted by tools/fit_router.py) turns those similarities, the
concepts the question names and its filled entity slots into one probability per intent; an
intent's `cue` is how much the question's explicit words and slots raise it. Without a usable
router the k-NN similarity alone decides. A question is also cut into clauses ("compare X and Y,
and what does renting Y cost?") and each clause is classified too, so several intents in one
question each get their tool.
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

from assistant.agent.offline.entities import Entities, extract_entities
from assistant.agent.offline.router import Router, features, load_router
from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

log = get_logger(__name__)

EXAMPLES_FILE = "intents.toml"
ROUTES_FILE = "entry_routes.toml"
TOP_K = 3
# Scores are probabilities. Below this one the question is not confidently about any tool.
MIN_SCORE = 0.3
# A second intent is kept when the whole question gives it at least this probability ...
SECOND_MIN = 0.2
# ... or when a clause of its own lands on it with at least this one.
CLAUSE_MIN = 0.55
# A second intent also needs the question to name what it is about, not only to resemble it.
EXPLICIT_CUE = 0.1
# A clause that lands on an intent this surely names less of it ('Does Qwen2.5 14B fit on it?').
SURE_CLAUSE = 0.85
CLAUSE_CUE = 0.05
# Without a router, similarities become probabilities at this temperature (k-NN alone).
KNN_TEMPERATURE = 0.02
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
        """The top intent, or 'corpus_only' when none was chosen."""
        return self.intents[0] if self.intents else "corpus_only"


def tool_intents() -> tuple[str, ...]:
    """The intents answered by a tool: one per skill."""
    from assistant.agent.offline.skills import all_skills

    return tuple(all_skills())


@lru_cache(maxsize=1)
def load_examples() -> dict[str, list[str]]:
    """intent → example questions: each skill's, the tool-less intents' (intents.toml), then the
    knowledge entries' questions routed by entry_routes.toml."""
    from assistant.agent.offline.skills import all_skills

    examples = {name: list(skill.examples.all) for name, skill in all_skills().items()}
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(EXAMPLES_FILE).read_text("utf-8")
    )
    examples.update({intent: list(table["examples"]) for intent, table in data.items()})
    for intent, texts in entry_examples().items():
        if intent not in examples:
            raise ValueError(f"{ROUTES_FILE}: unknown intent {intent!r}")
        seen = {" ".join(t.lower().split()) for t in examples[intent]}
        for text in texts:
            folded = " ".join(text.lower().split())
            if folded not in seen:
                seen.add(folded)
                examples[intent].append(text)
    return examples


def entry_routes() -> tuple[dict[str, str], dict[str, str]]:
    """(topic file → intent, entry id → intent), as entry_routes.toml gives them."""
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(ROUTES_FILE).read_text("utf-8")
    )
    return dict(data.get("topics", {})), dict(data.get("entries", {}))


def entry_examples() -> dict[str, list[str]]:
    """intent → the knowledge entries' titles and phrasings routed to it, both languages."""
    from assistant.knowledge.entries import load_entries

    by_topic, by_entry = entry_routes()
    entries = load_entries()
    known = {e.id for e in entries}
    unknown = sorted(set(by_entry) - known)
    if unknown:
        raise ValueError(f"{ROUTES_FILE}: no knowledge entry {', '.join(unknown)}")
    out: dict[str, list[str]] = {}
    for entry in entries:
        intent = by_entry.get(entry.id, by_topic.get(entry.topic))
        if intent and intent != "none":
            out.setdefault(intent, []).extend([entry.title, *entry.asked])
    return out


class IntentClassifier:
    """k-NN over embedded examples; `embed` maps texts to L2-normalised rows."""

    def __init__(
        self, embed: object | None = None, examples: dict[str, list[str]] | None = None
    ) -> None:
        self._embed = embed
        self._caller_embed = embed is not None
        self._examples = examples or load_examples()
        self._labels: list[str] = []
        self._matrix: np.ndarray | None = None
        self._lock = threading.Lock()
        self._cache: dict[str, np.ndarray] = {}
        self._router: Router | None = None
        self._router_loaded = False

    def router(self) -> Router | None:
        """The fitted router for these examples and this embedding, or None (k-NN alone)."""
        with self._lock:
            if not self._router_loaded:
                self._router_loaded = True
                if not self._caller_embed:
                    from assistant.retrieval.embeddings import model_key

                    self._router = load_router(self._examples, model_key())
                else:
                    log.info("intent router not used with a caller's own embedding: k-NN alone")
            return self._router

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

        if self._caller_embed:  # a caller's own embedding function: nothing to cache
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
        """Query vectors, remembered per text (a turn reads the same clauses more than once).
        The package's embedder remembers a turn's texts itself, for the knowledge lead and the
        search too, so it is asked every time; a caller's own function is remembered here."""
        import numpy as np

        if not self._caller_embed:
            return self._encode(texts)
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

    def scores(self, texts: list[str], entities: list[Entities]) -> list[list[IntentScore]]:
        """For each text, every intent's score (a probability), best first."""
        import numpy as np

        semantic = self.semantic_scores(texts)
        router = self.router()
        if router is None:
            return [_knn_only(sem) for sem in semantic]
        rows = np.array(
            [
                features(text, ent, sem, router.labels)
                for text, ent, sem in zip(texts, entities, semantic, strict=True)
            ]
        )
        probs, evidence = router.probabilities(rows), router.evidence(rows)
        out = []
        for sem, p, ev in zip(semantic, probs, evidence, strict=True):
            row = [
                IntentScore(intent=k, score=float(pk), semantic=sem.get(k, 0.0), cue=float(ek))
                for k, pk, ek in zip(router.labels, p, ev, strict=True)
            ]
            out.append(sorted(row, key=lambda s: -s.score))
        return out

    def classify(self, text: str, entities: Entities | None = None) -> Classification:
        """The intents of `text`: the best one, plus any other that a clause or the router backs."""
        ent = entities if entities is not None else extract_entities(text)
        clauses = split_clauses(text)
        batch = [text, *clauses] if len(clauses) > 1 else [text]
        batch_ent = [ent, *with_stated_models([extract_entities(c) for c in batch[1:]])]
        scored = self.scores(batch, batch_ent)
        whole = scored[0]
        if whole[0].intent == "greeting" and _more_than_a_greeting(ent):
            # "Hello! Has anyone used a P40 for 7B models?": the greeting opens a question
            rest = " ".join(clauses[1:]) if len(clauses) > 1 else text
            whole = [s for s in self.scores([rest], [ent])[0] if s.intent != "greeting"]
        chosen: list[str] = []
        best = whole[0]
        if best.score >= MIN_SCORE or best.intent in _EXCLUSIVE:
            chosen.append(best.intent)
        for other in whole[1:]:
            if best.intent in _EXCLUSIVE or other.intent in _EXCLUSIVE:
                continue
            if other.score >= SECOND_MIN and other.cue >= EXPLICIT_CUE:
                chosen.append(other.intent)
        for scores in scored[1:]:
            top = scores[0]
            if top.intent in _EXCLUSIVE or top.intent in chosen:
                continue
            cue = CLAUSE_CUE if top.score >= SURE_CLAUSE else EXPLICIT_CUE
            if top.score >= CLAUSE_MIN and top.cue >= cue:
                chosen.append(top.intent)
        if not chosen:
            chosen.append("corpus_only")
        if any(i in tool_intents() for i in chosen):
            chosen = [i for i in chosen if i not in _EXCLUSIVE]
        return Classification(intents=chosen, scores=whole, entities=ent)


def with_stated_models(clauses: list[Entities]) -> list[Entities]:
    """Each clause's entities, a clause that names no model taking the model an earlier clause
    named ('We are thinking about Mistral 7B. On an L4, does it fit in full precision?': the
    second clause asks about Mistral 7B)."""
    out: list[Entities] = []
    stated: Entities | None = None
    for ent in clauses:
        if ent.models or ent.model_size_b:
            stated = ent
        elif stated is not None:
            ent = ent.model_copy(
                update={"models": stated.models, "model_size_b": stated.model_size_b}
            )
        out.append(ent)
    return out


def _more_than_a_greeting(ent: Entities) -> bool:
    """A message that names something to work with (a card, a model, a figure...): the greeting
    only opens it. "Hey there, what can you help with?" stays a greeting."""
    return ent.has_facts() or ent.model_size_b is not None


def _knn_only(semantic: dict[str, float]) -> list[IntentScore]:
    """Scores from the similarities alone: a softmax over intents, no explicit evidence."""
    import numpy as np

    names = list(semantic)
    sims = np.array([semantic[k] for k in names]) / KNN_TEMPERATURE
    probs = np.exp(sims - sims.max())
    probs /= probs.sum()
    scores = [
        IntentScore(intent=k, score=float(p), semantic=semantic[k], cue=0.0)
        for k, p in zip(names, probs, strict=True)
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
    """The intents chosen for a question, best first, by the shared classifier."""
    return get_classifier().classify(text, entities)
