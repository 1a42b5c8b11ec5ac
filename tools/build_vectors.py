"""Regenerate the precomputed vectors shipped with the package (or check that they are complete).

    python tools/build_vectors.py            # rebuild assistant/retrieval/data/vectors.*  (make vectors)
    python tools/build_vectors.py --check    # how many texts the shipped store lacks; exit 1 if any

It does not list texts itself: it records every text the code embeds while it indexes the corpus
(every chunk of every document, knowledge entries included) and answers sample questions in
English and French through the offline backend (which embeds all of its example questions, and
the relevance floor's background topics), in a throwaway home. Texts already in the store reuse
their vectors; only new ones are embedded. Vectors no longer used are dropped.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# Questions that make the offline backend load everything it embeds; any question would do, but
# several kinds in both languages also cover parts that load lazily.
SAMPLE_QUESTIONS = (
    "Can my RTX 4090 do megakernels?",
    "How much does an H100 cost for 100 hours?",
    "Will Llama 3 70B fit in 24 GB?",
    "What is the newest CUDA toolkit that supports a GTX 1080?",
    "J'ai 200 €, je loue ou j'achète ?",
    "Quelle carte pour générer des images avec FLUX ?",
    "Bonjour",
)


def collect(dry_run: bool, progress: bool = True) -> object:
    """Index the corpus and answer the sample questions in a fresh home, recording every text
    embedded. `dry_run`: texts missing from the store are not embedded (placeholders)."""
    from assistant.retrieval import vector_store

    with tempfile.TemporaryDirectory(prefix="gpu-advisor-vectors-") as home:
        os.environ["GPU_ADVISOR_HOME"] = home
        os.environ["GPU_ADVISOR_LLM"] = "offline"
        from assistant.retrieval import build_index, reset_retriever
        from assistant.settings import reset_settings

        reset_settings()
        reset_retriever()
        recording = vector_store.start_recording(dry_run=dry_run)
        try:
            build_index(progress=progress)
            from assistant import ask

            for question in SAMPLE_QUESTIONS:
                ask(question)
        finally:
            vector_store.stop_recording()
            reset_retriever()
    return recording


def _verify_against_model(recording: object, sample: int = 8) -> int:
    """Embed a few stored texts afresh: a store built with another model would disagree."""
    import numpy as np

    from assistant.retrieval import vector_store
    from assistant.retrieval.embeddings import get_embedder

    assert isinstance(recording, vector_store.Recording)
    embedder = get_embedder()
    stored = vector_store.stored_vectors(embedder.store_id)
    if stored is None:
        return 0
    found = [d for d in sorted(recording.vectors.get(stored.model_id, {})) if d in stored.rows]
    pairs = []
    for digest in found[:: max(1, len(found) // sample)][:sample]:
        text = recording.texts[digest]
        is_query = text.startswith(embedder.query_prefix) and embedder.query_prefix
        prefix = embedder.query_prefix if is_query else embedder.passage_prefix
        inner = embedder.inner.embed_queries if is_query else embedder.inner.embed_documents  # type: ignore[attr-defined]
        live = np.asarray(inner([text[len(prefix) :]]), dtype=np.float32)[0]
        pairs.append(float(live @ stored.get(digest).astype(np.float32)))  # type: ignore[union-attr]
    worst = min(pairs, default=1.0)
    print(f"{stored.model_id}: {len(pairs)} stored vectors re-embedded, lowest cosine {worst:.4f}")
    if worst < 0.995:
        print("the shipped vectors were not made by this model")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="count missing texts; exit 1 if any")
    p.add_argument(
        "--out", type=Path, default=None, help="write the store here (default: the package's)"
    )
    args = p.parse_args(argv)
    for name, value in {
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "TOKENIZERS_PARALLELISM": "false",
    }.items():
        os.environ.setdefault(name, value)

    from assistant.retrieval import vector_store

    started = time.perf_counter()
    recording = collect(dry_run=args.check, progress=not args.check)
    assert isinstance(recording, vector_store.Recording)
    if not recording.vectors:
        print("nothing was embedded: is the embedding model a local folder?", file=sys.stderr)
        return 1
    if args.check:
        bad = 0
        for model_id, rows in sorted(recording.vectors.items()):
            missing = recording.missing.get(model_id, set())
            stored = vector_store.stored_vectors(model_id)
            unused = len(stored.rows.keys() - rows.keys()) if stored else 0
            print(
                f"{model_id}: {len(missing)} of {len(rows)} texts embedded at run time are missing"
                f" from the shipped vectors ({unused} stored vectors are no longer used)"
            )
            for digest in sorted(missing)[:5]:
                print(f"  missing: {recording.texts[digest][:100]!r}")
            bad += len(missing)
        bad += _verify_against_model(recording)
        if bad:
            print("run `make vectors` (python tools/build_vectors.py) and commit the result")
        return 1 if bad else 0
    folder = args.out or vector_store.store_dir()
    by_model = {m: dict(rows) for m, rows in recording.vectors.items()}
    for model_id, kept in vector_store.load_store(str(folder)).items():
        if model_id not in by_model:  # another model's vectors stay as they were
            by_model[model_id] = {d: kept.vectors[i] for d, i in kept.rows.items()}
    about = {"built_by": "tools/build_vectors.py", "sample_questions": list(SAMPLE_QUESTIONS)}
    path = vector_store.write_store(folder, by_model, about)
    for model_id, rows in sorted(recording.vectors.items()):
        new = len(recording.missing.get(model_id, set()))
        print(f"{model_id}: {len(rows)} texts, {new} newly embedded")
    print(f"wrote {path} in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
