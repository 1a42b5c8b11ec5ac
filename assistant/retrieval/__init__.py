"""Retrieval over the corpus: chunking, embeddings, the Chroma index and hybrid search.

    from assistant.retrieval import search, build_index
    hits = search("how much is an H100 per hour?", k=3)

Importing this package loads nothing heavy; the model and the index open on the first search.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from assistant.retrieval.models import IndexReport, SearchHit

if TYPE_CHECKING:
    from assistant.retrieval.hybrid import HybridRetriever

__all__ = ["IndexReport", "SearchHit", "build_index", "get_retriever", "reset_retriever", "search"]

_retrievers: dict[tuple[str, str, str, str], HybridRetriever] = {}
_lock = threading.Lock()


def get_retriever() -> HybridRetriever:
    """The process-wide retriever for the current settings (one per model, index and corpus)."""
    from assistant.retrieval.hybrid import HybridRetriever
    from assistant.settings import get_settings

    settings = get_settings()
    key = (
        settings.embedding_model,
        str(settings.index_dir),
        settings.chroma_url or "",
        str(settings.resolved_corpus_dir()) + "|" + settings.collection,
    )
    with _lock:
        retriever = _retrievers.get(key)
        if retriever is None:
            retriever = _retrievers[key] = HybridRetriever(settings)
        return retriever


def reset_retriever() -> None:
    """Forget cached retrievers (tests, or after the settings changed)."""
    with _lock:
        _retrievers.clear()


def search(query: str, k: int = 5) -> list[SearchHit]:
    """The k passages of the corpus that best answer `query`, best first; [] when none is relevant.

    Works for French and English questions. The index is built on first use if needed.
    """
    return get_retriever().search(query, k)


def build_index(rebuild: bool = False, progress: bool = True) -> IndexReport:
    """Index the corpus (incrementally unless `rebuild`) and report what was done."""
    from assistant.retrieval.index import build_index as _build

    report = _build(rebuild=rebuild, progress=progress)
    reset_retriever()
    return report
