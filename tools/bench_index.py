"""Index build throughput against raw `model.encode` throughput on the same chunks.

    python tools/bench_index.py            # the corpus copied twice (~90 chunks), best of 2
    python tools/bench_index.py --quick    # the corpus once, 1 run

`raw` is the embedder's own encode call on exactly the texts the index embeds, in the index's
batch size; `build` is `build_index(rebuild=True)` into a fresh home: chunking, embedding,
Chroma writes and the manifest. The ratio build/raw says how much the indexing around the model
costs (target: build at 80% or more of raw).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from _bench_common import finish, isolated_home, offline_env, parser, progress, say

TARGET_RATIO = 0.80


def _corpus_copies(copies: int) -> Path:
    from assistant.settings import get_settings

    source = get_settings().resolved_corpus_dir()
    folder = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-corpus-"))
    for i in range(copies):
        for path in sorted(source.iterdir()):
            if path.is_file() and path.suffix in {".md", ".txt", ".markdown"}:
                shutil.copy(path, folder / f"{path.stem}-copy{i:02d}{path.suffix}")
    return folder


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--copies", type=int, default=None, help="copies of the corpus (default 2)")
    p.add_argument("--runs", type=int, default=None, help="runs of each (default 2; best is kept)")
    args = p.parse_args(argv)
    offline_env()
    copies = args.copies or (1 if args.quick else 2)
    runs = args.runs or (1 if args.quick else 2)

    from assistant.retrieval import vector_store
    from assistant.retrieval.chunking import chunk_corpus
    from assistant.retrieval.corpus import load_corpus
    from assistant.retrieval.embeddings import get_embedder, model_key
    from assistant.retrieval.index import EMBED_BATCH, build_index
    from assistant.settings import get_settings

    # Both sides go through the model: the shipped precomputed vectors would answer the raw
    # encode and the build from a table, and the ratio would measure lookups, not indexing.
    vector_store.stored_vectors = lambda model_id: None  # type: ignore[assignment]
    corpus = _corpus_copies(copies)
    try:
        chunks = chunk_corpus(load_corpus(corpus))
        texts = [c.embedding_text() for c in chunks]
        key = model_key(get_settings().embedding_model)
        embedder = get_embedder(key)
        embedder.embed_documents(texts[:8])  # load and warm the model
        with isolated_home(corpus):  # import Chroma and open a client once, outside the timing
            from assistant.retrieval.index import open_client

            open_client(get_settings())

        raw_s: list[float] = []
        build_s: list[float] = []
        reports: list[Any] = []
        for _ in progress(range(runs), "raw encode / build"):
            started = time.perf_counter()
            for i in range(0, len(texts), EMBED_BATCH):
                embedder.embed_documents(texts[i : i + EMBED_BATCH])
            raw_s.append(time.perf_counter() - started)
            with isolated_home(corpus):
                started = time.perf_counter()
                reports.append(build_index(rebuild=True, progress=False, settings=get_settings()))
                build_s.append(time.perf_counter() - started)
    finally:
        shutil.rmtree(corpus, ignore_errors=True)

    n = len(chunks)
    assert all(r.embedded == n for r in reports), [r.embedded for r in reports]
    raw_rate = n / min(raw_s)
    build_rate = n / min(build_s)
    ratio = build_rate / raw_rate
    say(f"raw {raw_rate:.1f} chunks/s, build {build_rate:.1f} chunks/s, ratio {ratio:.2f}")
    return finish(
        "index",
        args,
        {
            "embedding_model": key,
            "chunks": n,
            "corpus_copies": copies,
            "runs": runs,
            "raw_encode_s": [round(x, 3) for x in raw_s],
            "build_s": [round(x, 3) for x in build_s],
            # four significant figures: a slow machine's rates (under one chunk a second) keep
            # enough digits for their ratio
            "raw_chunks_per_s": float(f"{raw_rate:.4g}"),
            "build_chunks_per_s": float(f"{build_rate:.4g}"),
            "ratio_build_to_raw": round(ratio, 3),
            "target": {"ratio_at_least": TARGET_RATIO, "met": ratio >= TARGET_RATIO},
        },
        [
            "best of the runs for each (the machine is shared, the best run is the least disturbed)",
            "Chroma is imported and a client opened before timing: steady-state throughput",
            "raw = the embedder's encode on the same texts in the index's batch size",
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
