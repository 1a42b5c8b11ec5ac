"""`gpu-advisor support` and `gpu-advisor explain`: software support per card, and concepts."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assistant.cli._common import EXIT_BAD_INPUT, add_json_flag, emit, finish


def register(sub: Any) -> None:
    """Add the `support` and `explain` commands."""
    p = sub.add_parser(
        "support",
        help="does a CUDA toolkit or a PyTorch build support this GPU? yes/no, versions and fix",
        description=(
            "Check a GPU (a name or a compute capability such as 6.1 or sm_120) against a CUDA "
            "toolkit version or a PyTorch build. Says yes, no or partial, the first and last "
            "versions that support the card, the minimum driver of the toolkit, which PyTorch "
            "wheels (cu118 … cu132) ship kernels for it, and the fix, with sources."
        ),
        epilog=(
            "examples: gpu-advisor support 'GTX 1080' 'CUDA 13' | gpu-advisor support 'RTX 5090' "
            "cu124 | gpu-advisor support sm_61 'PyTorch 2.8' --json"
        ),
    )
    p.add_argument(
        "gpu", help="GPU name ('RTX 5090', 'V100') or compute capability ('6.1', 'sm_120')"
    )
    p.add_argument(
        "software",
        help="'CUDA 13', 'CUDA 12.4', '12.8', 'PyTorch 2.5', 'torch 2.7 cu128', 'cu124', '2.6.0+cu124'",
    )
    add_json_flag(p)
    p.set_defaults(func=run_support)

    e = sub.add_parser(
        "explain",
        help="explain a GPU/CUDA concept, or the difference between two, with sources",
        description=(
            "Explain a concept from the sourced knowledge base (compute capability, PTX vs SASS, "
            "sm_90a, TMA, DSMEM, wgmma, tcgen05, TMEM, TF32, BF16, FP8, FP4, shared memory, MIG, "
            "HBM vs GDDR, ECC, occupancy...), or compare two with --vs. English or French."
        ),
        epilog=(
            "examples: gpu-advisor explain DSMEM | gpu-advisor explain sm_90 --vs sm_90a | "
            "gpu-advisor explain 'mémoire partagée' --lang fr --json"
        ),
    )
    e.add_argument("term", help="the concept, e.g. 'DSMEM', 'compute capability', 'PTX'")
    e.add_argument("--vs", dest="other", metavar="TERM", help="a second concept to compare with")
    e.add_argument(
        "--lang", choices=("en", "fr"), default="en", help="answer language (default en)"
    )
    add_json_flag(e)
    e.set_defaults(func=run_explain)


def run_support(args: argparse.Namespace) -> int:
    """Print whether the software supports the GPU."""
    from assistant.tools.software import SoftwareSupportQuery, software_support

    result = software_support(SoftwareSupportQuery(gpu=args.gpu, software=args.software))
    return finish(
        result,
        args.json,
        lambda: render_support(result),
        found=not (result.supported == "unknown" and result.compute_capability is None),
        message=result.reason,
        suggestions=result.suggestions,
    )


def render_support(result: Any) -> str:
    """The verdict, versions and fix, for people."""
    cc = f" (CC {result.compute_capability})" if result.compute_capability else ""
    lines = [f"{result.gpu}{cc} + {result.software}: {result.supported.replace('_', ' ')}"]
    lines.append(result.reason)
    if result.minimum:
        lines.append(f"First supporting version: {result.minimum}")
    if result.last:
        lines.append(f"Last supporting version: {result.last}")
    if result.driver_linux:
        lines.append(
            f"Minimum driver: {result.driver_linux} (Linux), {result.driver_windows} (Windows)"
        )
    if result.fix:
        lines.append(f"Fix: {result.fix}")
    if result.sources:
        lines.append("\nSources:")
        lines += [f"  - {s.title}" + (f" <{s.url}>" if s.url else "") for s in result.sources]
    return "\n".join(lines)


def run_explain(args: argparse.Namespace) -> int:
    """Print the entry (or entries) that explain the term."""
    from assistant.tools.explain import ExplainQuery, explain

    result = explain(ExplainQuery(term=args.term, other_term=args.other, language=args.lang))
    if not result.found:
        if args.json:
            emit(result, True)
        known = (
            f" Known concepts include: {', '.join(result.suggestions)}."
            if result.suggestions
            else ""
        )
        print(f"gpu-advisor: {result.message}{known}", file=sys.stderr)
        return EXIT_BAD_INPUT
    emit(result, args.json, human=render_explain(result))
    return 0


def render_explain(result: Any) -> str:
    """Each entry's question, text and sources, for people."""
    parts = []
    for entry in result.entries:
        sources = "\n".join(f"  - {s.title} <{s.url}>" for s in entry.sources)
        parts.append(
            f"## {entry.question}\n\n{entry.details}\n\n({entry.document}, {entry.date})\n{sources}"
        )
    if result.missing:
        parts.append(result.message)
    return "\n\n".join(parts)
