"""`gpu-advisor can GPU TOPIC`: can this card do this (a guide part, a technique, a CUDA feature)?"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from assistant.cli._common import EXIT_BAD_INPUT, CommandError, add_json_flag, emit

if TYPE_CHECKING:
    from assistant.tools.capability import CapabilityVerdict

_MARK = {"yes": "YES", "partial": "PARTIAL", "no": "NO", "unknown": "UNKNOWN"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `can` command."""
    parser = sub.add_parser(
        "can",
        help="can GPU do TOPIC? yes / partial / no, with reasons and sources",
        description=(
            "Check a GPU against a topic or CUDA feature: a part of the guide ('partie 4'), a "
            "technique (megakernels, 'FP8 training', Triton, ROCm) or a feature (TMA, wgmma, "
            "tcgen05, FP4). Prints the verdict, its reasons and sources; exits 2 when the GPU "
            "or topic is unknown, with near names."
        ),
        epilog='example: gpu-advisor can "RTX 4090" megakernels --json',
    )
    parser.add_argument("gpu", nargs="?", metavar="GPU", help="GPU name, e.g. 'RTX 4090'")
    parser.add_argument(
        "topic", nargs="*", metavar="TOPIC", help="topic or feature, e.g. megakernels, tcgen05"
    )
    parser.add_argument(
        "--list-topics", action="store_true", help="list the known topics and features"
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the capability verdict for a card and a topic."""
    from assistant.tools.capability import CapabilityQuery, check_capability, list_topics

    if args.list_topics:
        topics = list_topics()
        lines = [f"{t.key:<24} {t.kind:<8} {t.name}" for t in topics]
        emit(topics, args.json, "\n".join(lines))
        return 0
    topic = " ".join(args.topic).strip()
    if not args.gpu or not args.gpu.strip() or not topic:
        raise CommandError("give a GPU and a topic, e.g. gpu-advisor can 'RTX 4090' megakernels")
    verdict = check_capability(CapabilityQuery(gpu=args.gpu, topic=topic))
    emit(verdict, args.json, render(verdict))
    if verdict.verdict == "unknown":
        if not args.json:
            print(f"gpu-advisor: {verdict.reasons[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def render(v: CapabilityVerdict) -> str:
    """The verdict as a few lines for people."""
    cc = f" (CC {v.compute_capability}, {v.arch_target})" if v.compute_capability else ""
    lines = [f"{_MARK[v.verdict]}: {v.gpu}{cc} × {v.topic_name or v.topic}"]
    lines += [f"  - {r}" for r in v.reasons]
    if v.missing:
        lines.append("missing: " + ", ".join(v.missing))
    if v.corpus_note:
        lines.append(f"corpus differs: {v.corpus_note}")
    if v.cheapest_alternative:
        lines.append(f"cheapest way to get it: {v.cheapest_alternative}")
    if v.suggestions:
        lines.append("did you mean: " + ", ".join(v.suggestions))
    if v.sources:
        lines.append("sources:")
        for s in v.sources:
            where = f" — {s.url}" if s.url else ""
            note = f" ({s.note})" if s.note else ""
            lines.append(f"  · {s.label()}{note}{where}")
    return "\n".join(lines)
