"""Score the answers of a backend (offline by default) over a question set.

    python tools/eval_answers.py                      # the golden set
    python tools/eval_answers.py --set heldout        # the held-out set (never tuned on)
    python tools/eval_answers.py --set path/to/cases.yaml --json
    python tools/eval_answers.py --verbose            # print every failing answer

Prints the score overall, per category and per language; exits 1 when a case fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SETS = {
    "golden": REPO / "tests" / "golden" / "golden.yaml",
    "heldout": REPO / "tests" / "golden" / "heldout.yaml",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", default="golden", help="golden, heldout, or a path to a YAML case file"
    )
    parser.add_argument("--backend", default="offline", help="backend name (default: offline)")
    parser.add_argument(
        "--only", default=None, help="run only the cases whose id contains this text"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="print failing answers in full")
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    sys.path.insert(0, str(REPO))
    from assistant import ask
    from assistant.agent.offline.evaluation import format_failures, load_cases, run_cases, summarize

    path = SETS.get(args.set, Path(args.set))
    cases = load_cases(path)
    if args.only:
        cases = [c for c in cases if args.only in c.id]
    ask(cases[0].question, backend=args.backend)  # warm up: model, index, classifier

    def run(question: str, history: list[dict[str, str]] | None = None):  # type: ignore[no-untyped-def]
        return ask(question, history=history, backend=args.backend)

    results = run_cases(cases, run)
    report = summarize(results)
    report["set"] = str(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    report["backend"] = args.backend
    report["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        overall = report["overall"]
        print(
            f"{report['set']} — backend {args.backend}: {overall['passed']}/{overall['total']} ({overall['score']:.0%})"
        )
        for group in ("by_category", "by_language"):
            print(f"\n{group.replace('_', ' ')}:")
            for key, value in report[group].items():
                print(f"  {key:<12} {value['passed']:>3}/{value['total']:<3} {value['score']:.0%}")
        print(
            f"\nlatency p50 {report['latency_ms']['p50']:.0f} ms, p95 {report['latency_ms']['p95']:.0f} ms"
        )
        if report["failures"]:
            print(
                "\nfailures:\n" + (format_failures(results, limit=100_000 if args.verbose else 500))
            )
    return 0 if report["overall"]["passed"] == report["overall"]["total"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
