"""`gpu-advisor search` and `gpu-advisor index`: passages of the guide, and the index behind them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from assistant.cli._common import EXIT_FAILED, CommandError, add_json_flag, emit

if TYPE_CHECKING:
    from assistant.retrieval.models import IndexReport, SearchHit

MAX_K = 50


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `search` and `index` commands."""
    search = sub.add_parser(
        "search",
        help="find the passages of the guide that answer a question (French or English)",
        description=(
            "Hybrid search (meaning + keywords) over the corpus documents. Prints each passage's "
            "document, section, score and an excerpt; nothing when no passage is relevant. "
            "With '-' as the query, reads one query per line from stdin and prints one JSON list "
            "of hits per line (an empty list when nothing is relevant). The index is built on "
            "first use."
        ),
        epilog=(
            "examples:\n"
            '  gpu-advisor search "spot or dedicated instance for a long training run?"\n'
            '  gpu-advisor search --k 3 --json "combien coûte une H100 à l\'heure"\n'
            "  gpu-advisor search --json - < queries.txt > hits.jsonl"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    search.add_argument("query", nargs="+", metavar="QUERY", help="the question, or '-' for stdin")
    search.add_argument(
        "--k", type=int, default=5, metavar="N", help=f"passages to return, 1..{MAX_K} (default 5)"
    )
    add_json_flag(search)
    search.set_defaults(func=run_search)

    index = sub.add_parser(
        "index",
        help="build or update the search index of the corpus",
        description=(
            "Index the corpus documents. Only new or changed passages are embedded; passages of "
            "removed documents are deleted; --rebuild embeds everything afresh. A progress bar "
            "shows on a terminal."
        ),
    )
    index.add_argument("--rebuild", action="store_true", help="drop the index and embed everything")
    add_json_flag(index)
    index.set_defaults(func=run_index)


def _check_k(k: int) -> int:
    if not 1 <= k <= MAX_K:
        raise CommandError(f"--k must be between 1 and {MAX_K}, got {k}")
    return k


def _human(hits: list[SearchHit]) -> str:
    if not hits:
        return "No passage of the corpus is relevant to this query."
    lines = []
    for n, hit in enumerate(hits, 1):
        lines.append(f"{n}. [{hit.score:.2f}] {hit.title} — {hit.section}")
        lines.append(f"   {hit.document} chars {hit.start}-{hit.end}")
        lines.append(f"   {hit.snippet}")
    return "\n".join(lines)


def run_search(args: argparse.Namespace) -> int:
    """Print the passages that answer the query (or each query read from stdin)."""
    from assistant.retrieval import search
    from assistant.retrieval.embeddings import EmbeddingUnavailable
    from assistant.retrieval.index import IndexUnavailable

    k = _check_k(args.k)
    try:
        if args.query == ["-"]:
            for raw in sys.stdin.buffer:
                line = raw.decode("utf-8", errors="replace").strip()
                if not line:
                    continue
                hits = search(line, k)
                print(json.dumps([h.model_dump(mode="json") for h in hits], ensure_ascii=False))
                sys.stdout.flush()
            return 0
        query = " ".join(args.query).strip()
        if not query:
            raise CommandError("the query is empty")
        hits = search(query, k)
    except (IndexUnavailable, EmbeddingUnavailable) as exc:
        raise CommandError(str(exc), exit_code=EXIT_FAILED) from None
    emit(hits, args.json, _human(hits))
    return 0


def _report_text(report: IndexReport) -> str:
    kind = f"full rebuild ({report.reason})" if report.full_rebuild else "incremental update"
    return (
        f"Index at {report.location} ({report.model}): {kind}\n"
        f"  {report.documents} documents, {report.chunks} chunks; embedded {report.embedded}, "
        f"unchanged {report.skipped}, moved {report.updated}, removed {report.removed} "
        f"in {report.elapsed_s:.1f} s"
    )


def run_index(args: argparse.Namespace) -> int:
    """Build or update the search index and print what was done."""
    from assistant.retrieval import build_index
    from assistant.retrieval.embeddings import EmbeddingUnavailable
    from assistant.retrieval.index import IndexUnavailable

    try:
        report = build_index(rebuild=args.rebuild, progress=True)
    except (IndexUnavailable, EmbeddingUnavailable) as exc:
        raise CommandError(str(exc), exit_code=EXIT_FAILED) from None
    emit(report, args.json, _report_text(report))
    return 0
