"""Every benchmark runs in --quick mode and prints the JSON record it promises (no timing asserts:
speed is what the benchmarks report, not what tests check)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.reliability.conftest import subprocess_env

pytestmark = pytest.mark.slow  # each starts processes and loads the embedding model

TOOLS = REPO_ROOT / "tools"
MACHINE_KEYS = {
    "cpu_model",
    "cores",
    "ram_gb",
    "os",
    "python",
    "torch",
    "chromadb",
    "sentence_transformers",
    "gradio",
    "git_commit",
    "load_average_1_5_15",
    "measured_at",
}
STATS_KEYS = {"n", "p50_ms", "p95_ms", "mean_ms", "min_ms", "max_ms"}


def run_quick(name: str, tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    done = subprocess.run(
        [sys.executable, str(TOOLS / f"bench_{name}.py"), "--quick", "--out", str(out), *extra],
        capture_output=True,
        timeout=840,
        env=subprocess_env(),
        cwd=REPO_ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-3000:]
    printed = json.loads(done.stdout)
    assert json.loads(out.read_text(encoding="utf-8")) == printed
    assert printed["quick"] is True
    assert set(printed["machine"]) == MACHINE_KEYS
    assert printed["machine"]["cores"] >= 1 and printed["machine"]["python"].startswith("3.")
    assert isinstance(printed["peak_rss_mb"], float) and printed["peak_rss_mb"] > 0
    assert isinstance(printed["notes"], list) and printed["notes"]
    return printed


def assert_stats(value: dict[str, Any], n: int) -> None:
    assert set(value) == STATS_KEYS
    assert value["n"] == n
    assert 0 < value["min_ms"] <= value["p50_ms"] <= value["p95_ms"] <= value["max_ms"]


@pytest.mark.timeout(900)
def test_bench_cold_start(tmp_path: Path) -> None:
    r = run_quick("cold_start", tmp_path)
    assert r["benchmark"] == "cold_start" and r["runs"] == 1
    for key in ("help", "ask_with_prebuilt_index", "ask_with_no_index"):
        assert_stats(r[key], 1)
    assert r["children_peak_rss_mb"] > 0


@pytest.mark.timeout(900)
def test_bench_ask(tmp_path: Path) -> None:
    r = run_quick("ask", tmp_path)
    assert r["benchmark"] == "ask" and r["questions"] == 6 and r["rounds"] == 1
    assert_stats(r["latency"], 6)
    assert sum(v["n"] for v in r["by_category"].values()) == 6
    assert r["target"]["p95_ms_below"] == 150.0 and isinstance(r["target"]["met"], bool)


@pytest.mark.timeout(900)
def test_bench_search(tmp_path: Path) -> None:
    r = run_quick("search", tmp_path)
    assert r["benchmark"] == "search" and r["queries"] == 10
    assert set(r["results"]) == {"disk_1000", "server_1000"}
    for entry in r["results"].values():
        assert entry["chunks"] == 1000
        for key in ("dense_query", "hybrid_search", "hybrid_search_query_vector_cached"):
            assert_stats(entry[key], 10)
    assert r["target"]["at_chunks"] == 1000
    assert set(r["target"]["hybrid_p95_ms"]) == {"disk", "server"}
    assert any("synthetic" in note and "real" in note for note in r["notes"])


@pytest.mark.timeout(900)
def test_bench_index(tmp_path: Path) -> None:
    r = run_quick("index", tmp_path)
    assert r["benchmark"] == "index" and r["corpus_copies"] == 1 and r["runs"] == 1
    assert r["chunks"] > 0
    assert r["raw_chunks_per_s"] > 0 and r["build_chunks_per_s"] > 0
    assert r["ratio_build_to_raw"] == pytest.approx(
        r["build_chunks_per_s"] / r["raw_chunks_per_s"], rel=0.01
    )


@pytest.mark.timeout(900)
def test_bench_chat_load(tmp_path: Path) -> None:
    pytest.importorskip("gradio")
    r = run_quick("chat_load", tmp_path)
    assert r["benchmark"] == "chat_load" and r["users"] == 4 and r["requests"] == 4
    assert r["errors"] + r["latency"]["n"] == 4
    assert r["target"] == {"errors": 0, "met": r["errors"] == 0}


def test_bench_all_summary_rows_name_every_target() -> None:
    sys.path.insert(0, str(TOOLS))
    try:
        import bench_all
    finally:
        sys.path.remove(str(TOOLS))
    rows = bench_all.summary(
        {
            "ask": {"latency": {"p95_ms": 150.0}, "target": {"met": True}},
            "search": {
                "target": {"at_chunks": 100000, "hybrid_p95_ms": {"disk": 40.0, "server": 70.0}}
            },
            "index": {"ratio_build_to_raw": 0.9, "target": {"met": True}},
            "chat_load": {"users": 20, "errors": 2},
        }
    )
    assert [(r["target"], r["met"]) for r in rows] == [
        ("warm offline ask p95 < 200 ms", True),
        ("search p95 < 50 ms at 100000 chunks (disk)", True),
        ("search p95 < 50 ms at 100000 chunks (server)", False),
        ("index build >= 80% of raw encode", True),
        ("zero errors, 20 concurrent chat users", False),
    ]
