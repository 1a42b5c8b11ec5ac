"""Search latency p50 / p95 at 1k, 10k and 100k synthetic chunks, on disk and on a Chroma server.

    python tools/bench_search.py              # 1k, 10k, 100k; disk and server
    python tools/bench_search.py --quick      # 1k only; disk and server

The synthetic chunks carry precomputed random unit vectors (the dimension of the configured
embedding model) so that building 100k chunks takes minutes, not hours; their texts are random
60-word draws from the corpus's own vocabulary so BM25 has real work. Queries are the first 40
labelled retrieval queries (10 with --quick), embedded by the real model. Two figures per size and location:

- `dense_query`: Chroma's nearest-neighbour query alone (40 candidates, as search asks for),
  with the query vector already computed;
- `hybrid_search`: the whole search path (query embedding, glossary expansion, dense query, BM25
  over every chunk, fusion, snippets), with the relevance floor off so every query goes the full way;
- `hybrid_search_query_vector_cached`: the same with the query's vectors computed beforehand,
  i.e. what the index and BM25 cost on top of the embedding model.

The server is `chroma run` started here on a loopback port.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from _bench_common import (
    REPO,
    child_env,
    finish,
    free_port,
    offline_env,
    parser,
    progress,
    say,
    stats,
)

TARGET_P95_MS = 50.0
WORDS_PER_CHUNK = 60


def _queries(quick: bool) -> list[str]:
    data = json.loads((REPO / "tests" / "retrieval" / "queries.json").read_text(encoding="utf-8"))
    queries = [q["query"] for q in data["queries"] if q.get("sections")]
    return queries[:10] if quick else queries[:40]


def _vocabulary() -> list[str]:
    from assistant.retrieval.corpus import load_corpus
    from assistant.settings import get_settings

    words: list[str] = []
    for doc in load_corpus(get_settings().resolved_corpus_dir()):
        words.extend(re.findall(r"[\wÀ-ÿ'’.-]+", doc.body))
    return words


def _synthetic(n: int, dim: int, vocabulary: list[str], seed: int = 0) -> tuple[Any, list[str]]:
    import numpy as np

    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    picks = rng.integers(0, len(vocabulary), size=(n, WORDS_PER_CHUNK))
    texts = [" ".join(vocabulary[j] for j in row) for row in picks]
    return vectors, texts


def _fill(collection: Any, client: Any, vectors: Any, texts: list[str]) -> float:
    batch = min(5000, int(client.get_max_batch_size()))
    started = time.perf_counter()
    for start in progress(range(0, len(texts), batch), f"adding {len(texts)} chunks"):
        end = min(start + batch, len(texts))
        collection.add(
            ids=[f"synthetic-{i // 50}:{i:08d}" for i in range(start, end)],
            embeddings=vectors[start:end],
            documents=texts[start:end],
            metadatas=[
                {
                    "doc_id": f"synthetic-{i // 50}",
                    "title": f"Synthetic document {i // 50}",
                    "section": f"Section {i % 97}",
                    "language": "fr",
                    "source": "synthetic",
                    "start": 0,
                    "end": len(texts[i]),
                    "ordinal": i % 50,
                    "hash": f"{i:08d}",
                }
                for i in range(start, end)
            ],
        )
    return time.perf_counter() - started


def _hybrid(settings: Any, collection: Any) -> tuple[Any, float]:
    """The real HybridRetriever, pointed at the synthetic collection (its corpus check bypassed)."""
    from assistant.retrieval import hybrid
    from assistant.retrieval.index import get_all
    from assistant.retrieval.lexical import LexicalIndex

    retriever = hybrid.HybridRetriever(settings, progress=False)
    floor = retriever.floor
    retriever.floor = dataclasses.replace(
        floor,
        **{
            f.name: -1e9
            for f in dataclasses.fields(floor)
            if isinstance(getattr(floor, f.name), float)
        },
    )
    started = time.perf_counter()
    got = get_all(collection, ["documents", "metadatas"])
    metas = [dict(m or {}) for m in got["metadatas"] or []]
    texts = list(got["documents"] or [])
    lexical = LexicalIndex(
        [f"{m.get('section', '')}\n{t}" for m, t in zip(metas, texts, strict=True)]
    )
    retriever._corpus = hybrid._Corpus(list(got["ids"]), texts, metas, lexical)
    retriever._collection = collection
    retriever._signature = hybrid._signature(settings)
    return retriever, time.perf_counter() - started


def _measure(
    collection: Any, retriever: Any, queries: list[str], vectors: Any, rounds: int
) -> dict[str, Any]:
    dense_ms, hybrid_ms, cached_ms = [], [], []
    for query, vector in zip(queries, vectors, strict=True):  # warm-up
        collection.query(
            query_embeddings=vector.reshape(1, -1), n_results=40, include=["distances"]
        )
        retriever.search(query, 5)
    from assistant.retrieval.embeddings import get_embedder

    real_embed = retriever._embed_query
    embedder = get_embedder(retriever.key)
    memo: dict[str, Any] = {}

    def recording_embed(query: str) -> Any:
        embedder.forget_recent()  # the embedding is part of what is measured
        memo[query] = real_embed(query)
        return memo[query]

    def cached_embed(query: str) -> Any:
        return memo[query] if query in memo else real_embed(query)

    pairs = list(zip(queries, vectors, strict=True))
    for _ in range(rounds):
        for query, vector in progress(pairs, "queries"):
            t0 = time.perf_counter()
            got = collection.query(
                query_embeddings=vector.reshape(1, -1), n_results=40, include=["distances"]
            )
            dense_ms.append((time.perf_counter() - t0) * 1000)
            assert len(got["ids"][0]) == 40
            retriever._embed_query = recording_embed
            t0 = time.perf_counter()
            hits = retriever.search(query, 5)
            hybrid_ms.append((time.perf_counter() - t0) * 1000)
            assert len(hits) == 5, f"search returned {len(hits)} hits"
            retriever._embed_query = cached_embed
            t0 = time.perf_counter()
            retriever.search(query, 5)
            cached_ms.append((time.perf_counter() - t0) * 1000)
    return {
        "dense_query": stats(dense_ms),
        "hybrid_search": stats(hybrid_ms),
        "hybrid_search_query_vector_cached": stats(cached_ms),
    }


def _start_server(path: Path, port: int) -> subprocess.Popen[bytes]:
    chroma = shutil.which("chroma", path=str(Path(__import__("sys").executable).parent)) or "chroma"
    proc = subprocess.Popen(
        [chroma, "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=child_env(),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("chroma run exited early")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2):
                return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("chroma run did not answer within 120 s")


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument(
        "--sizes", default=None, help="comma-separated chunk counts (default 1000,10000,100000)"
    )
    p.add_argument(
        "--rounds", type=int, default=None, help="timed rounds over the queries (default 1)"
    )
    p.add_argument("--locations", default="disk,server", help="disk, server or both")
    args = p.parse_args(argv)
    offline_env()
    sizes = [
        int(s) for s in (args.sizes or ("1000" if args.quick else "1000,10000,100000")).split(",")
    ]
    rounds = args.rounds or 1
    locations = [x.strip() for x in args.locations.split(",") if x.strip()]

    from assistant.retrieval.embeddings import get_embedder, model_key
    from assistant.retrieval.index import get_collection, open_client
    from assistant.settings import Settings, get_settings

    key = model_key(get_settings().embedding_model)
    embedder = get_embedder(key)
    queries = _queries(args.quick)
    t0 = time.perf_counter()
    query_vectors = embedder.embed_queries(queries)
    embed_ms = (time.perf_counter() - t0) * 1000 / len(queries)
    vocabulary = _vocabulary()

    results: dict[str, Any] = {}
    work = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-search-"))
    server = None
    try:
        if "server" in locations:
            port = free_port()
            server = _start_server(work / "server", port)
        for n in sizes:
            vectors, texts = _synthetic(n, embedder.dim, vocabulary)
            for location in locations:
                say(f"{n} chunks, {location}")
                settings = Settings(
                    home=work / f"home-{n}",
                    collection=f"bench-{n}",
                    embedding_model=get_settings().embedding_model,
                    chroma_url=f"http://127.0.0.1:{port}" if location == "server" else None,
                )
                client = open_client(settings)
                collection = get_collection(client, settings, key)
                build_s = _fill(collection, client, vectors, texts)
                retriever, load_s = _hybrid(settings, collection)
                measured = _measure(collection, retriever, queries, query_vectors, rounds)
                results[f"{location}_{n}"] = {
                    "chunks": n,
                    "location": location,
                    "build_s": round(build_s, 2),
                    "load_for_bm25_s": round(load_s, 2),
                    **measured,
                }
                client.delete_collection(settings.collection)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)

    largest = max(sizes)
    p95s = {loc: results[f"{loc}_{largest}"]["hybrid_search"]["p95_ms"] for loc in locations}
    return finish(
        "search",
        args,
        {
            "embedding_model": key,
            "dimension": embedder.dim,
            "queries": len(queries),
            "rounds": rounds,
            "query_embedding_ms_mean": round(embed_ms, 2),
            "results": results,
            "target": {
                "p95_ms_below": TARGET_P95_MS,
                "at_chunks": largest,
                "hybrid_p95_ms": p95s,
                "met": all((v or 1e9) < TARGET_P95_MS for v in p95s.values()),
            },
        },
        [
            "synthetic chunks: random unit vectors (precomputed, not embedded) and random 60-word texts "
            "drawn from the corpus vocabulary; the queries are real and embedded by the real model",
            "hybrid_search includes embedding the query (and its glossary expansion) on the CPU",
            "the relevance floor is disabled so that every query runs the full path",
            "server = `chroma run` on 127.0.0.1, same machine",
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
