"""Answer a graded question set and write the answers for a reader to grade.

Graded sets (`tests/golden/blind_*.yaml`, `tests/golden/real_questions.yaml`) carry key facts
instead of regular expressions: a reader who has not seen the code grades each answer good,
partial or bad against them. This script produces what the reader sees.

    python tools/answer_batch.py tests/golden/blind_batch_4.yaml --out answers.jsonl
    python tools/answer_batch.py tests/golden/real_questions.yaml --out - --backend offline

The askers of graded questions are elsewhere, so "my GPU" is never this machine's unless
`--at-machine` says so.

Each output line: id, language, question, history, key_facts, must_not, answer (the text),
tools (names and arguments), citations (document and section), elapsed_ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def load_items(path: Path) -> list[dict[str, Any]]:
    """The items of a graded set: each has at least an id and a question."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a list of questions")
    ids = [str(item.get("id")) for item in data]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"{path}: duplicate ids")
    for item in data:
        if not item.get("question"):
            raise SystemExit(f"{path}: item {item.get('id')} has no question")
    return data


def history_of(item: dict[str, Any]) -> list[dict[str, str]] | None:
    """A set item's earlier turns as chat messages: a bare string is a message of the user."""
    turns = item.get("history") or []
    return [
        t if isinstance(t, dict) else {"role": "user", "content": str(t)} for t in turns
    ] or None


def answer_record(item: dict[str, Any], answer: Any) -> dict[str, Any]:
    """What the grader reads for one question."""
    return {
        "id": item["id"],
        "language": item.get("language"),
        "question": item["question"],
        "history": item.get("history") or [],
        "key_facts": item.get("key_facts") or [],
        "must_not": item.get("must_not") or [],
        "source": item.get("source"),
        "answer": answer.text,
        "tools": [{"name": c.name, "arguments": c.arguments} for c in answer.tool_calls],
        "citations": [f"{c.document} · {c.section}" for c in answer.citations],
        "elapsed_ms": round(answer.elapsed_ms, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a graded YAML set")
    parser.add_argument("--out", default="-", help="output JSONL file, or - for stdout")
    parser.add_argument("--backend", default="offline", help="backend name (default: offline)")
    parser.add_argument("--only", default=None, help="only the ids containing this text")
    parser.add_argument(
        "--at-machine",
        action="store_true",
        help="ask as if the asker sat at this machine (probe it for 'my GPU'); by default the "
        "asker is elsewhere, as every graded question's author is",
    )
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    sys.path.insert(0, str(REPO))
    from tqdm import tqdm

    from assistant import ask

    items = load_items(args.set)
    if args.only:
        items = [i for i in items if args.only in str(i["id"])]
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for item in tqdm(items, desc="answering", unit="q", disable=args.out == "-"):
            answer = ask(
                item["question"],
                history=history_of(item),
                backend=args.backend,
                at_machine=args.at_machine,
            )
            out.write(json.dumps(answer_record(item, answer), ensure_ascii=False) + "\n")
            out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
