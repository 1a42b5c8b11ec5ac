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


def test_a_turn_s_text_and_clauses_are_remembered_one_by_one() -> None:
    # the router embeds the text with its clauses; the knowledge lead then asks for the text alone
    inner = CountingEmbedder()
    embedder = StoredVectorsEmbedder(inner)
    both = embedder.embed_queries(["a question?", "a clause"])
    alone = embedder.embed_queries(["a question?"])
    assert inner.seen == ["a question?", "a clause"]
    assert np.array_equal(both[0], alone[0])
    embedder.embed_queries(["a clause", "a clause", "new"])
    assert inner.seen == ["a question?", "a clause", "new"]


def test_a_large_batch_is_not_remembered() -> None:
    inner = CountingEmbedder()
    embedder = StoredVectorsEmbedder(inner)
    many = [f"text {i}" for i in range(RECENT_QUERIES + 1)]
    embedder.embed_queries(many)
    embedder.embed_queries(["text 0"])
    assert inner.seen.count("text 0") == 2
