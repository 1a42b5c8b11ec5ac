"""`gpu-advisor probe`: on this machine for real, and against fakes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from probe_fakes import ORIGINAL_PATH, fixture_text

from assistant.cli import main

GPU_TOOLS = ("nvidia-smi", "rocm-smi", "amd-smi")


def _path_without_gpu_tools() -> str:
    keep = [
        d
        for d in ORIGINAL_PATH.split(os.pathsep)
        if d and not any((Path(d) / tool).exists() for tool in GPU_TOOLS)
    ]
    return os.pathsep.join(keep)


def _real_environment() -> dict[str, str]:
    env = dict(os.environ, PATH=_path_without_gpu_tools())
    for name in ("COLAB_RELEASE_TAG", "KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"):
        env.pop(name, None)
    return env


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "gpu-advisor"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from assistant.cli import main; sys.exit(main())"]


def test_probe_json_on_this_machine_says_no_gpu_and_exits_0():
    """Runs the real chain in a fresh process: the real nvidia-ml-py, no GPU tools on PATH."""
    done = subprocess.run(
        [*_cli(), "probe", "--json"],
        capture_output=True,
        text=True,
        env=_real_environment(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["available"], report["method"], report["gpus"]) == (False, None, [])
    assert report["summary"] == "no GPU found"
    attempts = {a["method"]: a for a in report["attempts"]}
    assert attempts["nvml"]["ok"] is False
    assert attempts["nvml"]["detail"].startswith(
        ("NVML could not start", "nvidia-ml-py is not installed")
    )
    assert attempts["nvidia-smi"]["detail"] == "nvidia-smi not found on PATH"
    assert "T4 GPU" in report["hint"]


def test_probe_human_output_on_this_machine():
    done = subprocess.run(
        [*_cli(), "probe"], capture_output=True, text=True, env=_real_environment(), timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "no GPU found"
    assert lines[1].startswith("hint: No GPU visible.")
    assert lines[-1].startswith("tried: nvml (failed: ")


def test_probing_does_not_import_torch():
    code = (
        "import sys; from assistant.tools.probe import probe_local_gpus; "
        "probe_local_gpus(); print('torch' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_real_environment(),
        timeout=120,
    )
    assert done.stdout.strip() == "False", done.stderr


def test_probe_reports_a_fake_colab_t4(fake_tool, no_driver, capsys):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-t4-colab.csv"),
        banner=fixture_text("nvidia-smi-banner-t4-colab.txt"),
    )
    assert main(["probe", "--timeout", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:8] == [
        "GPU 0: Tesla T4  (via nvidia-smi)",
        "  driver: 535.104.05",
        "  CUDA (driver): 12.2",
        "  compute capability: 7.5",
        "  memory: 15 GB (15360 MiB), 14.7 GB free",
        "  utilisation: 0 %",
        "  catalog: Tesla T4, sm_75",
        "tried: nvml (failed: NVML could not start: NVML Shared Library Not Found (is an NVIDIA "
        "driver installed?)), nvidia-smi (ok: found 1 GPU(s))",
    ]


def test_probe_json_with_a_fake_gpu(fake_tool, no_driver, capsys):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-rtx4090.csv"),
        banner=fixture_text("nvidia-smi-banner-rtx4090.txt"),
    )
    assert main(["probe", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["available"] is True
    assert report["gpus"][0]["catalog_match"]["arch_target"] == "sm_89"
    assert report["sources"][0]["title"] == "Live probe of this machine (nvidia-smi)"


def test_bad_timeout_exits_2(capsys):
    assert main(["probe", "--timeout", "0", "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {
        "error": "--timeout must be a number of seconds above 0 and at most 120"
    }
    assert "gpu-advisor: --timeout must be" in captured.err
