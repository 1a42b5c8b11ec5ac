"""Run every benchmark, each in its own process, and write bench-results/latest.json.

    python tools/bench_all.py            # full runs (tens of minutes on a small machine)
    python tools/bench_all.py --quick    # smoke runs
    python tools/bench_all.py --only search,index

Prints a summary table with each target and whether it was met.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _bench_common import REPO, child_env, machine, parser, say

BENCHMARKS = ("cold_start", "ask", "search", "index", "chat_load")
TOOLS = Path(__file__).resolve().parent


def _run(name: str, quick: bool, timeout_s: float) -> dict[str, Any]:
    command = [sys.executable, str(TOOLS / f"bench_{name}.py")] + (["--quick"] if quick else [])
    say(f"== bench_{name}{' --quick' if quick else ''}")
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            stdout=subprocess.PIPE,
            stderr=None,
            env=child_env(),
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"benchmark": name, "error": f"timed out after {timeout_s:.0f} s"}
    if done.returncode != 0:
        return {"benchmark": name, "error": f"exit status {done.returncode}"}
    record = dict(json.loads(done.stdout))
    record["process_wall_s"] = round(time.perf_counter() - started, 1)
    return record


def summary(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per target: what was measured against what was asked."""
    rows = []

    def row(target: str, value: Any, unit: str, met: Any) -> None:
        rows.append({"target": target, "value": value, "unit": unit, "met": met})

    if "ask" in results and "latency" in results["ask"]:
        r = results["ask"]
        row("warm offline ask p95 < 200 ms", r["latency"]["p95_ms"], "ms", r["target"]["met"])
    if "search" in results and "target" in results["search"]:
        t = results["search"]["target"]
        for location, p95 in t["hybrid_p95_ms"].items():
            row(
                f"search p95 < 50 ms at {t['at_chunks']} chunks ({location})",
                p95,
                "ms",
                (p95 or 1e9) < 50,
            )
    if "index" in results and "ratio_build_to_raw" in results["index"]:
        r = results["index"]
        row(
            "index build >= 80% of raw encode", r["ratio_build_to_raw"], "ratio", r["target"]["met"]
        )
    if "chat_load" in results and "errors" in results["chat_load"]:
        r = results["chat_load"]
        row(
            f"zero errors, {r['users']} concurrent chat users",
            r["errors"],
            "errors",
            r["errors"] == 0,
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--only", default=None, help="comma-separated names: " + ", ".join(BENCHMARKS))
    p.add_argument("--timeout-s", type=float, default=3600.0, help="per benchmark (default 3600)")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        p.error(f"unknown benchmark(s): {', '.join(unknown)}")

    results = {name: _run(name, args.quick, args.timeout_s) for name in names}
    record = {
        "benchmark": "all",
        "quick": bool(args.quick),
        "machine": machine(),
        "summary": summary(results),
        "results": results,
        "peak_rss_mb": {
            name: r.get("peak_rss_mb") for name, r in results.items() if "peak_rss_mb" in r
        },
    }
    text = json.dumps(record, ensure_ascii=False, indent=2)
    out = args.out or (REPO / "bench-results" / ("quick.json" if args.quick else "latest.json"))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    print(text)
    for r in record["summary"]:
        say(f"{'met ' if r['met'] else 'MISS'}  {r['target']}: {r['value']} {r['unit']}")
    failed = [name for name, r in results.items() if "error" in r]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
