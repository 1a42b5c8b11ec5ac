"""Scale: an index holding more chunks than one SQLite statement can name (~32k) is still read,
planned and cleaned. Found by the search benchmark at 100k chunks, where one `get()` of the
whole collection failed with "too many SQL variables"."""

from __future__ import annotations

import pytest

from tests.reliability.conftest import TmpHome

pytestmark = pytest.mark.slow  # 40k vectors into Chroma on disk, then the real embedding model

N = 40_000


def _fill_with_foreign_chunks(collection, n: int) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((n, collection_dim(collection))).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for start in range(0, n, 5000):
        ids = range(start, min(start + 5000, n))
        collection.add(
            ids=[f"gone:{i:06d}" for i in ids],
            embeddings=vectors[start : start + len(ids)],
            documents=[f"old passage {i}" for i in ids],
            metadatas=[{"doc_id": "gone", "ordinal": i} for i in ids],
        )


def collection_dim(collection) -> int:
    from assistant.retrieval.embeddings import get_embedder

    del collection
    return int(get_embedder().dim)


def test_more_chunks_than_one_sqlite_statement_can_name(guide_home: TmpHome) -> None:
    from assistant.retrieval import build_index, search
    from assistant.retrieval.embeddings import model_key
    from assistant.retrieval.index import get_all, get_collection, open_client, plan_build
    from assistant.settings import get_settings

    settings = get_settings()
    key = model_key(settings.embedding_model)
    collection = get_collection(open_client(settings), settings, key)
    _fill_with_foreign_chunks(collection, N)

    everything = get_all(collection, ["documents", "metadatas"])
    assert len(everything["ids"]) == len(set(everything["ids"])) == N
    assert len(everything["documents"]) == len(everything["metadatas"]) == N

    plan = plan_build(collection, settings)
    assert len(plan.to_remove) == N and len(plan.to_embed) == len(plan.chunks) > 0

    report = build_index(progress=False)
    assert report.removed == N and report.embedded == len(plan.chunks)
    hits = search("prix indicatif H100 à l'heure", k=3)
    assert hits and all(h.document == "obtenir-un-gpu" for h in hits)
