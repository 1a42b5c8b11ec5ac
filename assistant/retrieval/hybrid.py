"""Hybrid search: dense (Chroma) and BM25 rankings fused by reciprocal rank, with a relevance floor.

English questions reach the French passages through the glossary, in both rankings: BM25 gets the
French (and English) ways of saying the query's terms as extra words; the dense ranking adds the
vectors of the glossary rows the query touches (embedded once per process) to the query's own
vector, so a question costs one embedding however many terms it expands to. A query that neither
ranking finds close enough to any passage returns nothing rather than noise.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from assistant.knowledge.tokens import tokenize
from assistant.language import sentences
from assistant.log import get_logger
from assistant.retrieval import glossary
from assistant.retrieval.corpus import corpus_files
from assistant.retrieval.embeddings import get_embedder, model_key
from assistant.retrieval.lexical import LexicalIndex
from assistant.retrieval.models import SearchHit
from assistant.retrieval.relevance import DEFAULT_FLOOR, FLOORS, Floor, background_similarity
from assistant.settings import Settings, get_settings

if TYPE_CHECKING:
    import numpy as np

log = get_logger(__name__)

Mode = Literal["hybrid", "dense", "lexical"]
RRF_K = 15  # small: a passage ranked first by one side should win over ones ranked 5th by both
LEXICAL_WEIGHT = 0.5  # BM25 counts half as much as meaning in the fusion
DENSE_CANDIDATES = 40
EXPANSION_WEIGHT = 0.5
# The dense query: its own vector + GLOSSARY_VECTOR_WEIGHT x the mean vector of the glossary rows it
# touches (French phrases). Against embedding the query with every expanded term written out, on
# tools/eval_retrieval.py (e5, hybrid): MRR 0.846 vs 0.848 EN and 0.877 vs 0.886 FR, holdout and
# knowledge R@3 100 % both, EN R@3 94.1 vs 97.1 %, with one short embedding instead of a text of
# up to ~650 characters (25 ms instead of up to 300 ms). 0.5 and 1.2 ranked worse.
GLOSSARY_VECTOR_WEIGHT = 0.8


_glossary_lock = threading.Lock()


@lru_cache(maxsize=2)
def _glossary_matrix(key: str) -> np.ndarray:
    return get_embedder(key).embed_queries(list(glossary.french_rows()))


def glossary_vectors(key: str) -> np.ndarray:
    """One query vector per glossary row (its French phrases), embedded once per model."""
    with _glossary_lock:
        return _glossary_matrix(key)


@dataclass
class _Corpus:
    ids: list[str]
    texts: list[str]
    metas: list[dict[str, Any]]
    lexical: LexicalIndex


def _signature(settings: Settings) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in corpus_files(settings.resolved_corpus_dir()):
        try:
            stat = path.stat()
        except OSError:
            continue
        out.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(out)


class HybridRetriever:
    """Search over the indexed corpus; builds or repairs the index when it needs to."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        mode: Mode = "hybrid",
        expand_dense: bool = True,
        floor: Floor | None = None,
        progress: bool = True,
    ) -> None:
        self.settings = settings or get_settings()
        self.key = model_key(self.settings.embedding_model)
        self.mode: Mode = mode
        self.expand_dense = expand_dense
        self.floor = floor or FLOORS.get(self.key, DEFAULT_FLOOR)
        self.progress = progress
        self._collection: Any = None
        self._corpus: _Corpus | None = None
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._lock = threading.RLock()

    # -- index state ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Build the index if the corpus changed, then reload the passages for BM25."""
        from assistant.retrieval.index import build_index, get_all, open_collection, plan_build

        with self._lock:
            signature = _signature(self.settings)
            collection = open_collection(self.settings, self.key)
            meta = collection.metadata or {}
            if (
                meta.get("embedding_model") != self.key
                or not plan_build(collection, self.settings).up_to_date
            ):
                build_index(progress=self.progress, settings=self.settings)
                collection = open_collection(self.settings, self.key)
            got = get_all(collection, ["documents", "metadatas"])
            metas = [dict(m or {}) for m in got["metadatas"] or []]
            texts = list(got["documents"] or [])
            lexical_texts = [
                f"{m.get('section', '')}\n{t}" for m, t in zip(metas, texts, strict=True)
            ]
            self._corpus = _Corpus(list(got["ids"]), texts, metas, LexicalIndex(lexical_texts))
            self._collection = collection
            self._signature = signature

    def _ready(self) -> _Corpus:
        if self._corpus is None or self._signature != _signature(self.settings):
            self.refresh()
        assert self._corpus is not None
        return self._corpus

    # -- search --------------------------------------------------------------------------------
    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """The k most relevant passages, best first; empty when nothing is relevant."""
        query = " ".join(query.split())
        if not query or k <= 0:
            return []
        try:
            return self._search(query, k)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # the index vanished or broke under us: repair once, retry
            from assistant.retrieval.index import IndexUnavailable, forget_clients

            if isinstance(exc, IndexUnavailable):
                raise
            log.warning("search failed (%s: %s); reopening the index", type(exc).__name__, exc)
            forget_clients()
            self._corpus = None
            return self._search(query, k)

    def _dense(self, corpus: _Corpus, vector: np.ndarray) -> dict[int, float]:
        if not corpus.ids:
            return {}
        got = self._collection.query(
            query_embeddings=vector.reshape(1, -1),
            n_results=min(DENSE_CANDIDATES, len(corpus.ids)),
            include=["distances"],
        )
        position = {cid: i for i, cid in enumerate(corpus.ids)}
        return {
            position[cid]: 1.0 - float(dist)
            for cid, dist in zip(got["ids"][0], got["distances"][0], strict=True)
            if cid in position
        }

    def _lexical(
        self, corpus: _Corpus, query: str, expansion: glossary.Expansion
    ) -> tuple[np.ndarray, np.ndarray]:
        own = corpus.lexical.scores(tokenize(query))
        extra = corpus.lexical.scores(tokenize(expansion.as_text())) if expansion.added else own * 0
        return own, own + EXPANSION_WEIGHT * extra

    def _search(self, query: str, k: int) -> list[SearchHit]:
        corpus = self._ready()
        if not corpus.ids:
            return []
        expansion = glossary.expand(query)
        own, lexical = self._lexical(corpus, query, expansion)
        rankings: list[tuple[list[int], float]] = []
        if self.mode == "lexical":
            if float(lexical.max(initial=0.0)) < self.floor.lexical:
                return []
        else:
            raw_vec = self._embed_query(query)
            raw = self._dense(corpus, raw_vec)
            if (
                max(raw.values(), default=0.0) - background_similarity(self.key, raw_vec)
                < self.floor.margin
            ):
                return []
            rows = expansion.rows if self.expand_dense else ()
            dense = self._dense(corpus, self._expanded_vector(raw_vec, rows)) if rows else raw
            rankings.append((sorted(dense, key=lambda i: -dense[i]), 1.0))
        if self.mode != "dense":
            order = [int(i) for i in lexical.argsort()[::-1] if lexical[i] > 0]
            rankings.append(
                (order[:DENSE_CANDIDATES], LEXICAL_WEIGHT if self.mode == "hybrid" else 1.0)
            )
        fused: dict[int, float] = {}
        for ranking, weight in rankings:
            for rank, i in enumerate(ranking):
                fused[i] = fused.get(i, 0.0) + weight / (RRF_K + rank + 1)
        top = sum(weight for _, weight in rankings) / (RRF_K + 1)
        ordered = _one_per_entry(sorted(fused, key=lambda i: (-fused[i], i)), corpus.metas)[:k]
        terms = set(tokenize(query)) | set(tokenize(expansion.as_text()))
        return [self._hit(corpus, i, fused[i] / top, terms) for i in ordered]

    def _embed_query(self, query: str) -> np.ndarray:
        """The query's own vector: one short embedding, which the rest of the turn shares. A
        query that is the turn's question plus a few search words takes the question's vector
        (those words still reach the keyword ranking and the glossary rows the vector moves to)."""
        embedder = get_embedder(self.key)
        remembered = getattr(embedder, "remembered_prefix", None)
        vector = remembered(query) if remembered is not None else None
        if vector is not None:
            return vector  # type: ignore[no-any-return]
        return embedder.embed_queries([query])[0]  # type: ignore[no-any-return]

    def _expanded_vector(self, vector: np.ndarray, rows: tuple[int, ...]) -> np.ndarray:
        """The query's vector moved towards the glossary rows it touches, L2-normalised."""
        import numpy as np

        moved = vector + GLOSSARY_VECTOR_WEIGHT * glossary_vectors(self.key)[list(rows)].mean(0)
        return moved / float(np.linalg.norm(moved))  # type: ignore[no-any-return]

    def _hit(self, corpus: _Corpus, i: int, score: float, terms: set[str]) -> SearchHit:
        meta = corpus.metas[i]
        text = corpus.texts[i]
        return SearchHit(
            chunk_id=corpus.ids[i],
            document=str(meta.get("doc_id", "")),
            title=str(meta.get("title", "")),
            section=str(meta.get("section", "")),
            text=text,
            snippet=make_snippet(text, terms),
            score=round(min(1.0, score), 4),
            start=int(meta.get("start", 0)),
            end=int(meta.get("end", 0)),
            language=str(meta.get("language", "")),
            source=str(meta.get("source", "")),
            kind=str(meta.get("kind", "document")),
            url=str(meta.get("url", "")),
            entry_id=str(meta.get("entry_id", "")),
        )


def _one_per_entry(order: list[int], metas: list[dict[str, Any]]) -> list[int]:
    """The ranking with each knowledge entry once: its English and French versions say the same
    thing, so the lower-ranked one gives its place to the next passage."""
    seen: set[str] = set()
    out = []
    for i in order:
        entry = str(metas[i].get("entry_id") or "")
        if entry:
            if entry in seen:
                continue
            seen.add(entry)
        out.append(i)
    return out


# HTML comments (a knowledge entry's id line and its matched-only phrasings) are never shown.
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def make_snippet(text: str, terms: set[str], limit: int = 280) -> str:
    """The passage's sentences that share most words with the query, in order, within `limit`."""
    text = _COMMENT.sub("", text)
    parts = [p.strip(" |#>-*") for p in sentences(text)]
    parts = [p for p in parts if p and not set(p) <= set("-| ")]
    if not parts:
        return text[:limit]
    scored = sorted(range(len(parts)), key=lambda j: (-len(terms & set(tokenize(parts[j]))), j))
    chosen: list[int] = []
    length = 0
    for j in scored:
        if length + len(parts[j]) > limit and chosen:
            break
        chosen.append(j)
        length += len(parts[j]) + 1
    snippet = " … ".join(parts[j] for j in sorted(chosen))
    return snippet if len(snippet) <= limit else snippet[: limit - 1].rstrip() + "…"
