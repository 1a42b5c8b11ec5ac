"""One turn embeds its question once: the router, the knowledge lead and the search share it."""

from __future__ import annotations

import numpy as np

from assistant.retrieval.embeddings import RECENT_QUERIES, StoredVectorsEmbedder


class CountingEmbedder:
    key = "fake"
    dim = 4
    max_tokens = 64
    query_prefix = "query: "
    passage_prefix = "passage: "
    store_id = None

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.array([[len(t), 1.0, 0.0, 0.0] for t in texts], dtype=np.float32)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self.embed_queries(texts)


def test_a_question_asked_twice_is_embedded_once() -> None:
    inner = CountingEmbedder()
    embedder = StoredVectorsEmbedder(inner)
    first = embedder.embed_queries(["which CUDA does my 5090 need?"])
    again = embedder.embed_queries(["which CUDA does my 5090 need?"])
    assert inner.seen == ["which CUDA does my 5090 need?"]
    assert np.array_equal(first, again)
    again[0, 0] = 99.0  # a caller's copy: the remembered vector is not changed
    assert embedder.embed_queries(["which CUDA does my 5090 need?"])[0, 0] != 99.0


def test_only_the_last_questions_are_kept() -> None:
    inner = CountingEmbedder()
    embedder = StoredVectorsEmbedder(inner)
    for i in range(RECENT_QUERIES + 1):
        embedder.embed_queries([f"question {i}"])
    embedder.embed_queries(["question 0"])
    assert inner.seen.count("question 0") == 2
    assert inner.seen.count(f"question {RECENT_QUERIES}") == 1


def test_batches_are_not_remembered() -> None:
    inner = CountingEmbedder()
    embedder = StoredVectorsEmbedder(inner)
    embedder.embed_queries(["a", "b"])
    embedder.embed_queries(["a", "b"])
    assert inner.seen == ["a", "b", "a", "b"]
