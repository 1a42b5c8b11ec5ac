"""Cold start to first answer: a fresh `gpu-advisor ask` process, in a fresh home, with a prebuilt
index and with none.

    python tools/bench_cold_start.py                 # 3 runs of each, on this checkout
    python tools/bench_cold_start.py --quick         # 1 run of each
    python tools/bench_cold_start.py --installed     # on the wheel built from this checkout
    python tools/bench_cold_start.py --venv DIR      # on the `gpu-advisor` installed in DIR

`ask_fresh_home` is the first answer after an install: an empty GPU_ADVISOR_HOME each run (no
index, no cached vectors), the package's precomputed vectors only. `--installed` builds the wheel
(`python -m build --no-isolation`), installs it without dependencies into a folder of its own and
runs it from outside the checkout with only that folder on the path, so importlib.resources reads
the packaged data, not the source tree. Also times `gpu-advisor --help` (no torch, no model) as a
floor.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _bench_common import (
    OFFLINE_ENV,
    REPO,
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
CLI_MAIN = "import sys; from assistant.cli import main; sys.exit(main())"


@dataclass
class Target:
    """What runs `gpu-advisor`: its command, environment (home excluded) and folder."""

    command: list[str]
    env: dict[str, str]
    cwd: Path
    where: str

    cpu_ms: list[float] = field(default_factory=list)  # each run's CPU time (user + system)

    def run(self, args: list[str], home: Path) -> tuple[float, dict[str, Any] | None]:
        env = {**self.env, "GPU_ADVISOR_HOME": str(home)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [*self.command, *args],
            capture_output=True,
            env=env,
            cwd=self.cwd,
            timeout=900,
            check=False,
        )
        wall_ms = (time.perf_counter() - started) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu_ms.append(
            1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"gpu-advisor {' '.join(args)} failed: {done.stderr.decode()[-800:]}"
            )
        record = None
        if "--json" in args:
            lines = done.stdout.decode("utf-8").strip().splitlines()
            record = json.loads(lines[-1]) if lines else None
        return wall_ms, record


def _user_env() -> dict[str, str]:
    """A user's environment: no checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GPU_ADVISOR_HOME")}
    env.update(OFFLINE_ENV)
    return env


def checkout_target() -> Target:
    return Target(cli(), child_env(), REPO, "checkout")


def venv_target(venv: Path, outside: Path) -> Target:
    script = venv / "bin" / "gpu-advisor"
    if not script.is_file():
        raise SystemExit(f"no gpu-advisor in {venv}/bin")
    return Target([str(script)], _user_env(), outside, f"venv {venv}")


def installed_target(workdir: Path) -> Target:
    """The wheel of this checkout, installed (no dependencies) into a folder of its own."""
    dist = workdir / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), "."],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    wheel = next(dist.glob("*.whl"))
    site = workdir / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    env = {**_user_env(), "PYTHONPATH": str(site)}
    outside = workdir / "outside"
    outside.mkdir()
    return Target([sys.executable, "-c", CLI_MAIN], env, outside, f"wheel {wheel.name}")


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=None, help="runs of each case (default 3)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--installed", action="store_true", help="on this checkout's wheel")
    where.add_argument("--venv", type=Path, default=None, help="on DIR's installed gpu-advisor")
    args = p.parse_args(argv)
    offline_env()
    runs = args.runs or (1 if args.quick else 3)

    workdir = Path(tempfile.mkdtemp(prefix="gpu-advisor-cold-"))
    try:
        if args.installed:
            target = installed_target(workdir)
        elif args.venv is not None:
            (workdir / "outside").mkdir()
            target = venv_target(args.venv, workdir / "outside")
        else:
            target = checkout_target()
        return _measure(target, runs, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _measure(target: Target, runs: int, args: Any) -> int:
    results: dict[str, Any] = {"runs": runs, "question": QUESTION, "target": target.where}
    with isolated_home() as home:
        results["help"] = stats([target.run(["--help"], home)[0] for _ in range(runs)])
        fresh, fresh_in_process = [], []
        target.cpu_ms.clear()
        for i in progress(range(runs), "ask, fresh home"):
            wall, record = target.run(["ask", "--json", QUESTION], home / f"fresh-{i}")
            fresh.append(wall)
            fresh_in_process.append(float((record or {}).get("elapsed_ms") or 0))
        fresh_cpu = list(target.cpu_ms)
        target.run(["index", "--json"], home)
        with_index, in_process = [], []
        for _ in progress(range(runs), "ask, index built"):
            wall, record = target.run(["ask", "--json", QUESTION], home)
            with_index.append(wall)
            in_process.append(float((record or {}).get("elapsed_ms") or 0))
        no_index = []
        for _ in progress(range(runs), "ask, no index"):
            shutil.rmtree(Path(home) / "index", ignore_errors=True)
            no_index.append(target.run(["ask", "--json", QUESTION], home)[0])
    results["ask_fresh_home"] = stats(fresh)
    results["ask_fresh_home_in_process"] = stats(fresh_in_process)
    results["ask_fresh_home_cpu"] = stats(fresh_cpu)
    results["ask_with_prebuilt_index"] = stats(with_index)
    results["ask_with_prebuilt_index_in_process"] = stats(in_process)
    results["ask_with_no_index"] = stats(no_index)
    results["children_peak_rss_mb"] = peak_rss_mb(children=True)
    say(
        f"first answer in a fresh home p50: {results['ask_fresh_home']['p50_ms']} ms; "
        f"with an index {results['ask_with_prebuilt_index']['p50_ms']} ms ({target.where})"
    )
    return finish(
        "cold_start",
        args,
        results,
        [
            "wall time of a fresh process until it exits after printing the first answer",
            "'fresh home': an empty GPU_ADVISOR_HOME, as right after an install: the index is "
            "built from the corpus with the package's precomputed vectors",
            "'in_process' is the answer's own elapsed_ms: the rest is interpreter start, imports "
            "and loading the embedding model",
            "'cpu' is the process's CPU time (user + system): what the wall time would be on idle "
            "cores, whatever else the machine runs",
            "'no index' rebuilds the index (the home's other caches stay)",
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
