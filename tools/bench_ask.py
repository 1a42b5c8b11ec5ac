"""Warm offline `ask` latency over the golden question set: p50 / p95, overall and per category.

    python tools/bench_ask.py            # every golden question, 3 timed rounds
    python tools/bench_ask.py --quick    # 6 questions, 1 round

The index is built and every question asked once before timing (warm process, warm caches).
"""

from __future__ import annotations

import time
from collections import defaultdict

from _bench_common import REPO, finish, isolated_home, offline_env, parser, progress, say, stats

TARGET_P95_MS = 150.0  # warm `ask` p95 on an idle machine


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=None, help="timed rounds over the set (default 3)")
    args = p.parse_args(argv)
    offline_env()
    rounds = args.rounds or (1 if args.quick else 3)

    from assistant.agent.offline.evaluation import load_cases

    cases = load_cases(REPO / "tests" / "golden" / "golden.yaml")
    if args.quick:
        cases = cases[:: max(1, len(cases) // 6)][:6]

    with isolated_home():
        from assistant import ask
        from assistant.retrieval import build_index

        started = time.perf_counter()
        build_index(progress=False)
        index_s = time.perf_counter() - started
        started = time.perf_counter()
        for case in progress(cases, "warm-up"):
            ask(case.question, history=case.history or None)
        warmup_s = time.perf_counter() - started

        samples: list[float] = []
        by_category: dict[str, list[float]] = defaultdict(list)
        in_answer: list[float] = []
        for _ in range(rounds):
            for case in progress(cases, "timed asks"):
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
        ["offline backend, in-process, after one warm-up pass over the same questions"],
    )


if __name__ == "__main__":
    raise SystemExit(main())
