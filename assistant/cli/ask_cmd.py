"""`gpu-advisor ask`: one question (or one per stdin line) answered with evidence."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from assistant.cli._common import CommandError, add_json_flag

if TYPE_CHECKING:
    from assistant.answer import Answer


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `ask` command."""
    parser = sub.add_parser(
        "ask",
        help="ask a question in English or French; the answer cites its tools and sources",
        description=(
            "Answer a question about GPUs with tool results (specs, costs, memory fit, the local "
            "probe) and cited passages from the guide. Use '-' to read one question per line from "
            "stdin; with --json each answer is one JSON line with the keys question, answer, "
            "language, citations, tool_calls, backend, elapsed_ms and notices."
        ),
        epilog=(
            "examples:\n"
            '  gpu-advisor ask "Can an RTX 3060 run FP8?"\n'
            '  gpu-advisor ask --backend openai:gpt-4o-mini "Combien coûte une H100 pour 100 h ?"\n'
            "  gpu-advisor ask --json - < questions.txt > answers.jsonl"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "question", nargs="+", metavar="QUESTION", help="the question, or '-' for stdin"
    )
    parser.add_argument(
        "--backend",
        metavar="B",
        default=None,
        help="offline, openai:<model> or ollama:<model> (default: GPU_ADVISOR_LLM, offline)",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer the question(s) and print them as Markdown or JSON."""
    from assistant.agent.api import ask
    from assistant.agent.backends import BackendConfigError, normalize_backend

    try:
        backend = normalize_backend(args.backend)
    except BackendConfigError as exc:
        raise CommandError(str(exc)) from None
    if args.question == ["-"]:
        for raw in sys.stdin.buffer:
            if not raw.strip():
                continue
            _print(ask(raw, backend=backend), args.json)
            sys.stdout.flush()
        return 0
    question = " ".join(args.question)
    if not question.strip():
        raise CommandError('the question is empty; try: gpu-advisor ask "Can an RTX 3060 run FP8?"')
    _print(ask(question, backend=backend), args.json)
    return 0


def _print(answer: Answer, as_json: bool) -> None:
    if as_json:
        print(json.dumps(answer.to_record(), ensure_ascii=False))
    else:
        print(answer.to_markdown() + "\n")
