"""Cold start to first answer: a fresh `gpu-advisor ask` process, with a prebuilt index and with none.

    python tools/bench_cold_start.py            # 3 runs of each
    python tools/bench_cold_start.py --quick    # 1 run of each

Also times `gpu-advisor --help` (the light path: no torch, no model) as a floor.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from _bench_common import (
    child_env,
    cli,
    finish,
    isolated_home,
    offline_env,
    parser,
    peak_rss_mb,
    progress,
    say,
    stats,
)

QUESTION = "How much does an H100 cost for 100 hours?"


def _timed(args: list[str]) -> tuple[float, dict[str, Any] | None]:
    started = time.perf_counter()
    done = subprocess.run(
        [*cli(), *args], capture_output=True, env=child_env(), timeout=900, check=False
    )
    wall_ms = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"gpu-advisor {' '.join(args)} failed: {done.stderr.decode()[-800:]}")
    record = None
    if "--json" in args:
        lines = done.stdout.decode("utf-8").strip().splitlines()
        record = json.loads(lines[-1]) if lines else None
    return wall_ms, record


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=None, help="runs of each case (default 3)")
    args = p.parse_args(argv)
    offline_env()
    runs = args.runs or (1 if args.quick else 3)

    help_ms = [_timed(["--help"])[0] for _ in progress(range(runs), "--help")]
    results: dict[str, Any] = {"runs": runs, "question": QUESTION, "help": stats(help_ms)}
    with isolated_home() as home:
        _timed(["index", "--json"])
        with_index, in_process = [], []
        for _ in progress(range(runs), "ask, index built"):
            wall, record = _timed(["ask", "--json", QUESTION])
            with_index.append(wall)
            in_process.append(float((record or {}).get("elapsed_ms") or 0))
        no_index = []
        for _ in progress(range(runs), "ask, no index"):
            shutil.rmtree(Path(home) / "index", ignore_errors=True)
            no_index.append(_timed(["ask", "--json", QUESTION])[0])
    results["ask_with_prebuilt_index"] = stats(with_index)
    results["ask_with_prebuilt_index_in_process"] = stats(in_process)
    results["ask_with_no_index"] = stats(no_index)
    results["children_peak_rss_mb"] = peak_rss_mb(children=True)
    say(
        f"cold ask p50: {results['ask_with_prebuilt_index']['p50_ms']} ms with an index, "
        f"{results['ask_with_no_index']['p50_ms']} ms without"
    )
    return finish(
        "cold_start",
        args,
        results,
        [
            "wall time of a fresh process until it exits after printing the first answer",
            "'in_process' is the answer's own elapsed_ms: the rest is interpreter start, imports "
            "and loading the embedding model",
            "'no index' embeds the whole corpus before answering",
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
