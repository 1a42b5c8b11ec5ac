"""`gpu-advisor coverage GPU|PLATFORM [--budget N]`: which parts of the guide a card or platform covers."""

from __future__ import annotations

import argparse
from typing import Any

from assistant.cli._common import add_json_flag, finish, given_flags
from assistant.money import CURRENCIES

MARKS = {"full": "yes   ", "partly": "partly", "not": "no    ", "unknown": "?     "}


def register(sub: Any) -> None:
    """Add the `coverage` command."""
    p = sub.add_parser(
        "coverage",
        help="which parts of the guide a GPU, a platform (Colab, Kaggle, a Mac, AMD) or a budget covers",
        description=(
            "For a card, a platform (free Colab T4, Kaggle P100 or 2 x T4, SageMaker Studio Lab, a Mac, "
            "an AMD card), this machine (--here) or a purchase budget (--budget): the parts of the "
            "guide it can follow fully, partly or not at all, each with the reasons and what is "
            "missing, from the topics' requirements. --missing lists only what it cannot follow fully."
        ),
        epilog=(
            "examples: gpu-advisor coverage 'Kaggle P100' --missing | gpu-advisor coverage 'free colab' | "
            "gpu-advisor coverage 'a Mac' | gpu-advisor coverage 'RTX 3060' --topic 'fp8 training' | "
            "gpu-advisor coverage --budget 500 --json | gpu-advisor coverage --here"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("target", nargs="*", metavar="GPU|PLATFORM", help="a card or a platform")
    p.add_argument("--budget", type=float, metavar="N", help="a purchase budget instead of a card")
    p.add_argument("--currency", choices=CURRENCIES, help="currency of the budget")
    p.add_argument("--here", action="store_true", help="probe this machine and assess its GPU")
    p.add_argument("--topic", nargs="+", metavar="T", help="topics to assess besides the parts")
    p.add_argument("--missing", action="store_true", help="only what it cannot follow fully")
    add_json_flag(p)
    p.set_defaults(func=run)


def build_query(args: argparse.Namespace) -> Any:
    """The coverage query from the command line: a card, a platform, this machine or a budget."""
    from assistant.knowledge.platforms import find_platform
    from assistant.tools.coverage import CoverageQuery

    fields: dict[str, Any] = {"only_missing": args.missing}
    text = " ".join(args.target).strip()
    if args.here:
        from assistant.tools.probe import probe_local_gpus

        fields["machine"] = probe_local_gpus()
    elif text:
        fields["platform" if find_platform(text) else "gpu"] = text
    given_flags(args, (("budget", "budget"), ("currency", "currency"), ("topic", "topics")), fields)
    return CoverageQuery.model_validate(fields)


def run(args: argparse.Namespace) -> int:
    """Print what the card, platform or budget covers of the guide."""
    from assistant.tools.coverage import coverage

    result = coverage(build_query(args))
    return finish(
        result,
        args.json,
        lambda: render(result),
        found=result.gpu is not None,
        message=result.message,
        suggestions=result.suggestions,
    )


def render(result: Any) -> str:
    """Each part of the guide, its mark and reasons, then assumptions and sources, for people."""
    lines = [result.message, ""]
    for part in result.parts:
        why = "; ".join(part.reasons[:2])
        lines.append(f"  {MARKS[part.coverage]}  {part.name}")
        if part.coverage != "full" and why:
            lines.append(f"            {why}")
        if part.coverage != "full" and part.cheapest_alternative:
            lines.append(f"            cheapest way: {part.cheapest_alternative}")
    lines.append("\nAssumptions:")
    lines += [f"  - {a}" for a in result.assumptions]
    lines.append("\nSources:")
    lines += [f"  - {s.label()}" + (f" ({s.note})" if s.note else "") for s in result.sources[:8]]
    return "\n".join(lines)
