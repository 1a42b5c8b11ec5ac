"""The nvidia-smi step, against fake nvidia-smi scripts on PATH."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from probe_fakes import fixture_text

from assistant.tools.probe import ProbeOptions, probe_local_gpus
from assistant.tools.probe.nvidia import SMI_FIELDS, SMI_FIELDS_OLD

SMI_ONLY = ["nvidia-smi"]


def test_rtx4090_csv_is_parsed_exactly(fake_tool):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-rtx4090.csv"),
        banner=fixture_text("nvidia-smi-banner-rtx4090.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert (report.available, report.method, report.warnings) == (True, "nvidia-smi", [])
    (gpu,) = report.gpus
    assert gpu.model_dump(exclude={"catalog_match"}) == {
        "index": 0,
        "name": "NVIDIA GeForce RTX 4090",
        "vendor": "nvidia",
        "uuid": "GPU-3f6b1c2a-8d4e-4f7a-9b21-5c0e7d9a1b34",
        "driver_version": "550.54.14",
        "cuda_version": "12.4",
        "compute_capability": "8.9",
        "memory_total_mib": 24564,
        "memory_free_mib": 23871,
        "memory_total_gb": 24.0,
        "memory_free_gb": 23.3,
        "mig_mode": None,
        "mig_devices": None,
        "utilization_percent": 2,
        "error": None,
    }


def test_colab_t4_is_parsed_exactly(fake_tool, no_driver):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-t4-colab.csv"),
        banner=fixture_text("nvidia-smi-banner-t4-colab.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    (gpu,) = report.gpus
    assert (gpu.name, gpu.driver_version, gpu.cuda_version, gpu.compute_capability) == (
        "Tesla T4",
        "535.104.05",
        "12.2",
        "7.5",
    )
    assert (gpu.memory_total_mib, gpu.memory_free_mib, gpu.memory_total_gb) == (15360, 15101, 15.0)
    assert (gpu.mig_mode, gpu.utilization_percent) == (None, 0)
    assert [(a.method, a.ok) for a in report.attempts] == [("nvml", False), ("nvidia-smi", True)]


def test_several_gpus_with_mig_on_one(fake_tool):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-4xa100.csv"),
        banner=fixture_text("nvidia-smi-banner-a100.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert [
        (g.index, g.mig_mode, g.memory_free_mib, g.utilization_percent) for g in report.gpus
    ] == [
        (0, "enabled", 81299, 0),
        (1, "disabled", 4410, 97),
        (2, "disabled", 81037, 0),
        (3, "disabled", 81037, 0),
    ]
    assert {
        (g.name, g.compute_capability, g.cuda_version, g.memory_total_gb) for g in report.gpus
    } == {("NVIDIA A100-SXM4-80GB", "8.0", "12.2", 80.0)}
    assert report.warnings[0].startswith("GPU 0 (NVIDIA A100-SXM4-80GB) has MIG enabled")


def test_hanging_nvidia_smi_is_stopped_after_the_timeout(fake_tool, _isolated_probe: Path):
    sleep = shutil.which("sleep", path="/usr/bin:/bin")
    pid_file = _isolated_probe / "child.pid"
    # The script starts a child, so killing only the script would leave the child running.
    fake_tool("nvidia-smi", body=f'{sleep} 60 &\necho $! > "{pid_file}"\nwait\n')
    report = probe_local_gpus(ProbeOptions(timeout_s=1, methods=SMI_ONLY))
    assert report.available is False
    (attempt,) = report.attempts
    assert attempt.detail == "nvidia-smi gave no answer within 1 s; stopped it"
    assert attempt.elapsed_ms < 10_000
    assert _ends(int(pid_file.read_text())), "the hung tool's child process is still running"


def _ends(pid: int) -> bool:
    for _ in range(50):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            return True
        if "State:\tZ" in status:  # killed, waiting to be reaped by init
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            "Segmentation fault\n",
            "unexpected nvidia-smi output (1 columns, expected 9): 'Segmentation fault'",
        ),
        (
            "0, Tesla T4, GPU-x, 535.104.05, lots, 15101, 7.5, [N/A], 0\n",
            "unexpected nvidia-smi output: memory.total is not a number ('lots'): "
            "'0, Tesla T4, GPU-x, 535.104.05, lots, 15101, 7.5, [N/A], 0'",
        ),
        (
            "0, Tesla T4, GPU-x, 535.104.05, 15360, 15101, seven, [N/A], 0\n",
            "unexpected nvidia-smi output: compute_cap is not a version ('seven'): "
            "'0, Tesla T4, GPU-x, 535.104.05, 15360, 15101, seven, [N/A], 0'",
        ),
        (
            "\x00\x01\xff binary junk, , ,\n",
            "unexpected nvidia-smi output (4 columns, expected 9): '\\x00\\x01\ufffd binary junk, , ,'",
        ),
    ],
)
def test_garbage_is_reported_not_raised(fake_tool, tmp_path, output, expected):
    script = fake_tool("nvidia-smi")
    (tmp_path / "bin" / "nvidia-smi.query").write_bytes(output.encode("latin-1"))
    assert script.exists()
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert report.available is False
    assert report.attempts[0].detail == expected


def test_driver_failure_message_is_quoted(fake_tool):
    message = (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
        "Make sure that the latest NVIDIA driver is installed and running.\n"
    )
    fake_tool("nvidia-smi", query=message, exit_code=9)
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert report.attempts[0].detail == "nvidia-smi exited with status 9: " + message.strip()
    assert report.hint is not None


def test_missing_binary_is_reported():
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert report.attempts[0].detail == "nvidia-smi not found on PATH"
    assert report.attempts[0].skipped is False


def test_old_driver_without_compute_cap_is_asked_again(fake_tool, _isolated_probe: Path):
    cat = shutil.which("cat", path="/usr/bin:/bin")
    old_row = "0, Tesla P100-PCIE-16GB, GPU-1, 470.82.01, 16280, 16275, [N/A], 0\n"
    (_isolated_probe / "old.csv").write_text(old_row)
    calls = _isolated_probe / "calls.log"
    body = (
        f'echo "$*" >> "{calls}"\n'
        'case "$*" in\n'
        "  *compute_cap*) echo 'Field \"compute_cap\" is not a valid field to query.'; exit 2;;\n"
        f'  *query-gpu*) {cat} "{_isolated_probe / "old.csv"}";;\n'
        "  *) echo 'CUDA Version: 11.4';;\n"
        "esac\n"
    )
    fake_tool("nvidia-smi", body=body)
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    queries = [
        line.split("--query-gpu=")[1].split()[0]
        for line in calls.read_text().splitlines()
        if "--query-gpu=" in line
    ]
    assert queries == [",".join(SMI_FIELDS), ",".join(SMI_FIELDS_OLD)]  # asked again…
    assert "compute_cap" in queries[0] and "compute_cap" not in queries[1]  # …without it
    (gpu,) = report.gpus
    assert (gpu.name, gpu.compute_capability, gpu.memory_total_mib, gpu.cuda_version) == (
        "Tesla P100-PCIE-16GB",
        None,
        16280,
        "11.4",
    )


def test_banner_without_cuda_version_is_a_warning(fake_tool):
    fake_tool("nvidia-smi", query=fixture_text("nvidia-smi-query-rtx4090.csv"), banner="hello\n")
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert report.gpus[0].cuda_version is None
    assert report.warnings == ["nvidia-smi's banner did not show a CUDA version"]


def test_tool_runs_with_a_neutral_locale(fake_tool, monkeypatch):
    fake_tool("nvidia-smi", body='echo "0, $LC_ALL, u, 1, 2, 1, 8.9, [N/A], 0"\n')
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=SMI_ONLY))
    assert report.gpus[0].name == "C"  # the tool ran with LC_ALL=C…
    assert os.environ["LC_ALL"] == "fr_FR.UTF-8"  # …and our own environment is untouched
