"""Measure retrieval on the labelled query set: recall@1, recall@3 and MRR per language, for each
embedding model and each ranking (dense only, BM25 only, hybrid), plus off-topic rejection.

    python tools/eval_retrieval.py                 # Markdown table
    python tools/eval_retrieval.py --json          # one JSON object
    python tools/eval_retrieval.py --write docs/retrieval.md
    python tools/eval_retrieval.py --models e5 --modes hybrid --diagnose

Each model gets its own throw-away index (built from the corpus), so runs never touch the user's.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.retrieval.evaluation import evaluate, load_queries  # noqa: E402
from assistant.retrieval.hybrid import HybridRetriever  # noqa: E402
from assistant.retrieval.index import build_index  # noqa: E402
from assistant.settings import Settings  # noqa: E402

QUERIES = ROOT / "tests" / "retrieval" / "queries.json"
MODES = ("dense", "lexical", "hybrid")


def run(models: list[str], modes: list[str], diagnose: bool) -> dict[str, object]:
    queries = load_queries(QUERIES)
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="gpu-advisor-eval-") as tmp:
        for model in models:
            settings = Settings(home=Path(tmp) / model, embedding_model=model, chroma_url=None)
            started = time.perf_counter()
            report = build_index(progress=False, settings=settings)
            build_s = time.perf_counter() - started
            for mode in modes:
                retriever = HybridRetriever(settings, mode=mode, progress=False)  # type: ignore[arg-type]
                started = time.perf_counter()
                scores = evaluate(queries, retriever.search, k=5)
                per_query_ms = 1000 * (time.perf_counter() - started) / len(queries)
                per_query = scores.pop("per_query")
                if diagnose:
                    _diagnose(queries, per_query, f"{model}/{mode}")
                results.append(
                    {
                        "model": model,
                        "mode": mode,
                        "chunks": report.chunks,
                        "index_build_s": round(build_s, 2),
                        "ms_per_query": round(per_query_ms, 1),
                        **scores,
                    }
                )
    return {
        "queries": {
            "en": sum(q.language == "en" and not q.off_topic for q in queries),
            "fr": sum(q.language == "fr" and not q.off_topic for q in queries),
            "off_topic": sum(q.off_topic for q in queries),
            "holdout": sum(q.split == "holdout" and not q.off_topic for q in queries),
            "knowledge": sum(q.split == "knowledge" and not q.off_topic for q in queries),
        },
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "results": results,
    }


def _diagnose(queries: list, per_query: dict, label: str) -> None:
    print(f"== {label}", file=sys.stderr)
    for q in queries:
        rank, top = per_query[q.id]["rank"], per_query[q.id]["top"]
        good = (rank is not None and rank <= 3) if q.sections else not top
        if not good:
            print(f"MISS {q.id} rank={rank} {q.query}", file=sys.stderr)
            for line in top:
                print(f"      {line[:90]}", file=sys.stderr)


def _pct(value: object) -> str:
    return f"{100 * float(value):.1f}" if isinstance(value, int | float) else "-"


def markdown(data: dict[str, object]) -> str:
    counts = data["queries"]
    assert isinstance(counts, dict)
    lines = [
        f"Labelled queries: {counts['en']} English, {counts['fr']} French, "
        f"{counts['off_topic']} off-topic (`tests/retrieval/queries.json`); {counts['holdout']} of the "
        "on-topic ones are a holdout written after the set-up was chosen, and "
        f"{counts.get('knowledge', 0)} ask what only the knowledge base answers (its own column). "
        "A hit counts when its section is one that answers the query.",
        "",
        "| model | ranking | EN R@1 | EN R@3 | EN MRR | FR R@1 | FR R@3 | FR MRR | holdout R@3 "
        "| knowledge R@3 | off-topic rejected |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    results = data["results"]
    assert isinstance(results, list)
    for r in results:
        en, fr, off, held = r["en"], r["fr"], r["off_topic"], r["holdout"]
        kb = r.get("knowledge", {"recall@3": None})
        lines.append(
            f"| {r['model']} | {r['mode']} | {_pct(en['recall@1'])} | {_pct(en['recall@3'])} | "
            f"{en['mrr']:.3f} | {_pct(fr['recall@1'])} | {_pct(fr['recall@3'])} | {fr['mrr']:.3f} | "
            f"{_pct(held['recall@3'])} | {_pct(kb['recall@3'])} | {_pct(off['rejected'])} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", nargs="+", default=["minilm", "e5"], help="embedding models")
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES, help="rankings")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--diagnose", action="store_true", help="per-query ranks on stderr")
    parser.add_argument("--write", type=Path, help="also write the Markdown table into this file")
    args = parser.parse_args(argv)
    data = run(args.models, args.modes, args.diagnose)
    table = markdown(data)
    print(json.dumps(data, ensure_ascii=False, indent=2) if args.json else table)
    if args.write:
        _write_table(args.write, table)
    return 0


def _write_table(path: Path, table: str) -> None:
    """Replace the text between the table markers of `path` (or create the file)."""
    start, end = "<!-- eval-table:start -->", "<!-- eval-table:end -->"
    block = f"{start}\n{table}{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else f"# Retrieval\n\n{start}\n{end}\n"
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end) :]
    else:
        text += "\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
