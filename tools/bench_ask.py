"""Warm offline `ask` latency on questions the process has not seen: p50 / p95, overall and per
category.

    python tools/bench_ask.py            # every held-out question, 3 timed rounds
    python tools/bench_ask.py --quick    # 6 questions, 1 round

The index is built and the golden questions are asked first (a warm process: models, indexes and
example vectors loaded). The timed questions are the held-out set's, which the shipped vector
store does not hold, and before each timed ask the process forgets the questions it has read and
embedded, so every timed ask is a first ask: the question is embedded once, as a user's is.
"""

from __future__ import annotations

import time
from collections import defaultdict

from _bench_common import REPO, finish, isolated_home, offline_env, parser, progress, say, stats

TARGET_P95_MS = 150.0  # warm `ask` p95 on an idle machine


def forget_questions() -> None:
    """Forget every question read or embedded so far: the next ask is a first ask."""
    from assistant.agent.offline.reading import forget_readings
    from assistant.retrieval.embeddings import get_embedder

    forget_readings()
    get_embedder().forget_recent()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=None, help="timed rounds over the set (default 3)")
    args = p.parse_args(argv)
    offline_env()
    rounds = args.rounds or (1 if args.quick else 3)

    from assistant.agent.offline.evaluation import load_cases

    warm = load_cases(REPO / "tests" / "golden" / "golden.yaml")
    cases = load_cases(REPO / "tests" / "golden" / "heldout.yaml")
    if args.quick:
        warm = warm[:6]
        cases = cases[:: max(1, len(cases) // 6)][:6]

    with isolated_home():
        from assistant import ask
        from assistant.retrieval import build_index

        started = time.perf_counter()
        build_index(progress=False)
        index_s = time.perf_counter() - started
        started = time.perf_counter()
        for case in progress(warm, "warm-up"):
            ask(case.question, history=case.history or None)
        warmup_s = time.perf_counter() - started

        samples: list[float] = []
        by_category: dict[str, list[float]] = defaultdict(list)
        in_answer: list[float] = []
        for _ in range(rounds):
            for case in progress(cases, "timed asks"):
                forget_questions()
                t0 = time.perf_counter()
                answer = ask(case.question, history=case.history or None)
                ms = (time.perf_counter() - t0) * 1000
                samples.append(ms)
                in_answer.append(answer.elapsed_ms)
                by_category[case.category].append(ms)
    overall = stats(samples)
    say(f"warm ask p50 {overall['p50_ms']} ms, p95 {overall['p95_ms']} ms over {len(samples)}")
    return finish(
        "ask",
        args,
        {
            "questions": len(cases),
            "rounds": rounds,
            "index_build_s": round(index_s, 2),
            "warmup_s": round(warmup_s, 2),
            "latency": overall,
            "latency_reported_by_answer": stats(in_answer),
            "by_category": {k: stats(v) for k, v in sorted(by_category.items())},
            "target": {
                "p95_ms_below": TARGET_P95_MS,
                "met": (overall["p95_ms"] or 1e9) < TARGET_P95_MS,
            },
        },
        [
            "offline backend, in-process, after a warm-up pass over the golden questions; "
            "held-out questions timed, each as a first ask (no remembered reading or vector)"
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
