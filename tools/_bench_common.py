"""Shared pieces of the benchmarks: the machine record, percentiles, peak RSS, isolated homes.

Every benchmark prints one JSON object on stdout with at least `benchmark`, `machine`, `quick`,
`peak_rss_mb` and its own results; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

T = TypeVar("T")

OFFLINE_ENV = {
    "GRADIO_ANALYTICS_ENABLED": "False",
    "ANONYMIZED_TELEMETRY": "False",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "GPU_ADVISOR_LLM": "offline",
}


def offline_env() -> None:
    """Nothing downloads, nothing phones home, the offline backend answers."""
    os.environ.update(OFFLINE_ENV)
    os.environ.pop("OPENAI_API_KEY", None)


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true", help="a small, fast run (smoke test)")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON to this file")
    return p


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gb() -> float | None:
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
        return round(pages * size / 1024**3, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    """What the numbers were measured on, including how busy the machine was."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "ram_gb": _ram_gb(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "torch": _version("torch"),
        "chromadb": _version("chromadb"),
        "sentence_transformers": _version("sentence-transformers"),
        "gradio": _version("gradio"),
        "git_commit": _git_commit(),
        "load_average_1_5_15": load,
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident memory of this process (or of its finished children), in MiB."""
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    peak = resource.getrusage(who).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def stats(samples_ms: list[float]) -> dict[str, Any]:
    """p50 / p95 / mean / min / max of latencies in milliseconds (nearest-rank percentiles)."""
    if not samples_ms:
        return {
            "n": 0,
            "p50_ms": None,
            "p95_ms": None,
            "mean_ms": None,
            "min_ms": None,
            "max_ms": None,
        }
    ordered = sorted(samples_ms)

    def rank(q: float) -> float:
        index = max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 1)) - 1))
        return round(ordered[index], 2)

    return {
        "n": len(ordered),
        "p50_ms": rank(0.50),
        "p95_ms": rank(0.95),
        "mean_ms": round(statistics.fmean(ordered), 2),
        "min_ms": round(ordered[0], 2),
        "max_ms": round(ordered[-1], 2),
    }


def progress(items: Iterable[T], desc: str, total: int | None = None) -> Iterator[T]:
    """A progress bar on stderr (plain iteration when tqdm is missing)."""
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        yield from items
        return
    yield from tqdm(items, desc=desc, total=total, file=sys.stderr, leave=False, mininterval=1.0)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextlib.contextmanager
def isolated_home(corpus: Path | None = None) -> Iterator[Path]:
    """A throwaway GPU_ADVISOR_HOME (and optional corpus), selected for this process and children."""
    saved = {k: os.environ.get(k) for k in ("GPU_ADVISOR_HOME", "GPU_ADVISOR_CORPUS_DIR")}
    home = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
    os.environ["GPU_ADVISOR_HOME"] = str(home)
    if corpus is not None:
        os.environ["GPU_ADVISOR_CORPUS_DIR"] = str(corpus)
    _reset()
    try:
        yield home
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _reset()
        shutil.rmtree(home, ignore_errors=True)


def _reset() -> None:
    if "assistant.settings" in sys.modules:
        from assistant.settings import reset_settings

        reset_settings()
    if "assistant.retrieval" in sys.modules:
        from assistant.retrieval import reset_retriever

        reset_retriever()


def cli() -> list[str]:
    """The `gpu-advisor` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("gpu-advisor")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "assistant.cli"]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(OFFLINE_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def finish(name: str, args: argparse.Namespace, results: dict[str, Any], notes: list[str]) -> int:
    """Print (and optionally write) the benchmark's JSON record."""
    record = {
        "benchmark": name,
        "quick": bool(args.quick),
        "machine": machine(),
        **results,
        "peak_rss_mb": peak_rss_mb(),
        "notes": notes,
    }
    text = json.dumps(record, ensure_ascii=False, indent=2)
    print(text, flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0
