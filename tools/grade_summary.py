"""Summarise a reader's grades of a graded question set: good, partial and bad, with causes.

    python tools/grade_summary.py tests/golden/grades/real_questions-first-run.yaml
    python tools/grade_summary.py GRADES.yaml --json

A grades file is a list of {id, grade: good|partial|bad, cause: text}; the cause of a partial or
bad answer says what was wrong (a different question answered, a wrong figure, missing fact...).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

GRADES = ("good", "partial", "bad")


def load_grades(path: Path) -> list[dict[str, Any]]:
    """The grades of a file, each checked to be good, partial or bad."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for item in data:
        if item.get("grade") not in GRADES:
            raise SystemExit(f"{path}: {item.get('id')} has grade {item.get('grade')!r}")
    return list(data)


def summarize(grades: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and shares per grade, and per language when ids carry one."""
    counts = Counter(g["grade"] for g in grades)
    total = len(grades) or 1
    by_language: dict[str, Counter[str]] = {}
    for g in grades:
        by_language.setdefault(str(g.get("language") or "?"), Counter())[g["grade"]] += 1
    return {
        "total": len(grades),
        **{k: counts.get(k, 0) for k in GRADES},
        **{f"{k}_share": round(100 * counts.get(k, 0) / total, 1) for k in GRADES},
        "by_language": {lang: dict(c) for lang, c in sorted(by_language.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grades", type=Path)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    summary = summarize(load_grades(args.grades))
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['total']} graded: {summary['good']} good ({summary['good_share']} %), "
            f"{summary['partial']} partial ({summary['partial_share']} %), "
            f"{summary['bad']} bad ({summary['bad_share']} %)"
        )
        for lang, counts in summary["by_language"].items():
            print(f"  {lang}: {counts}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except BrokenPipeError:  # piped into `head`: the reader has what they wanted
        sys.stderr.close()
        raise SystemExit(0) from None
