"""`gpu-advisor gpu ...`: exit codes, JSON keys, human tables."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["gpu", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_gpu_5090_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "5090", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["found"] is True
    gpu = data["gpu"]
    assert gpu["compute_capability"] == "12.0"
    assert gpu["arch_target"].startswith("sm_120")
    assert gpu["vram_gb"] == 32
    assert {"shared_memory_per_sm_kb", "bandwidth_gbs", "sources", "aliases"} <= gpu.keys()
    features = {f["key"]: f for f in data["features"]}
    if features:  # present once the feature matrix is in the tree
        assert features["wgmma"]["supported"] is False
        assert features["tcgen05"]["supported"] is False


def test_gpu_human_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "RTX", "4090")  # unquoted words are one name
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "GeForce RTX 4090"
    assert any(line.split() == ["Compute", "capability", "8.9"] for line in lines)
    assert any(line.split() == ["VRAM", "24", "GB"] for line in lines)
    assert "Sources:" in out


def test_gpu_compare(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "3090", "4090", "--json")
    assert code == 0
    data = json.loads(out)
    assert [c["name"] for c in data["cards"]] == ["GeForce RTX 3090", "GeForce RTX 4090"]
    assert {"rows", "notes", "unknown", "sources"} <= data.keys()


def test_gpu_compare_human(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "RTX 3090", "vs", "RTX 4090")
    assert code == 0
    header = out.splitlines()[0]
    assert "GeForce RTX 3090" in header and "GeForce RTX 4090" in header
    assert any(line.startswith("Bandwidth") and "936 GB/s" in line for line in out.splitlines())


def test_gpu_unknown_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "RTX", "9090")
    assert code == 2
    assert out == ""
    assert "not in the GPU catalog" in err and "GeForce RTX 4090" in err


def test_gpu_unknown_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "RTX 9090", "--json")
    assert code == 2
    data = json.loads(out)
    assert data["found"] is False and "GeForce RTX 3090" in data["suggestions"]


def test_gpu_compare_all_unknown_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "4090", "9090")
    assert code == 2
    assert "'9090' is not in the GPU catalog" in err


def test_gpu_console_script_imports_nothing_heavy() -> None:
    code = (
        "import sys; from assistant.cli import main; rc = main(['gpu', '4090', '--json']);"
        "heavy = [m for m in ('torch', 'langchain', 'langchain_core', 'chromadb', 'gradio',"
        " 'sentence_transformers') if m in sys.modules]; print(heavy); sys.exit(rc)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
