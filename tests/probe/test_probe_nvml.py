"""The NVML step, against a fake pynvml module."""

from __future__ import annotations

import threading
from typing import Any

from probe_fakes import FakeGpu, fixture_text, make_fake_nvml

from assistant.tools.probe import ProbeOptions, probe_local_gpus

MIB = 1024 * 1024

H100 = FakeGpu(
    name="NVIDIA H100 80GB HBM3",
    total_bytes=85520809984,  # 81559 MiB, what an H100 SXM 80 GB reports
    free_bytes=84987740160,  # 81050.6 MiB
    capability=(9, 0),
    uuid="GPU-5d2c8a61-0f3e-4b7a-a1c9-6e8d2f4b0a17",
    mig=(0, 0),
    utilization=3,
)


def test_one_h100_is_read_exactly(use_nvml):
    nvml = make_fake_nvml([H100], driver="550.90.07", cuda=12040)
    use_nvml(nvml)
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.available is True
    assert report.method == "nvml"
    assert report.hint is None
    assert [(a.method, a.ok) for a in report.attempts] == [("nvml", True)]
    assert report.attempts[0].detail == "found 1 GPU(s)"
    (gpu,) = report.gpus
    assert gpu.model_dump(exclude={"catalog_match"}) == {
        "index": 0,
        "name": "NVIDIA H100 80GB HBM3",
        "vendor": "nvidia",
        "uuid": "GPU-5d2c8a61-0f3e-4b7a-a1c9-6e8d2f4b0a17",
        "driver_version": "550.90.07",
        "cuda_version": "12.4",
        "compute_capability": "9.0",
        "memory_total_mib": 81559,
        "memory_free_mib": 81050,
        "memory_total_gb": 79.6,
        "memory_free_gb": 79.2,
        "mig_mode": "disabled",
        "mig_devices": None,
        "utilization_percent": 3,
        "error": None,
    }
    assert nvml.state["shutdowns"] == 1  # NVML is shut down after reading
    assert report.summary.startswith("1 GPU(s) via nvml: GPU 0: NVIDIA H100 80GB HBM3, 79.6 GB")


def test_bytes_names_from_old_bindings_are_decoded(use_nvml):
    name: Any = b"Tesla V100-SXM2-16GB"  # older bindings return bytes
    old = FakeGpu(name, 16 * 1024 * MIB, 0, (7, 0), mig=None, utilization=None)
    driver: Any = b"470.82.01"
    use_nvml(make_fake_nvml([old], driver=driver, cuda=11040))
    (gpu,) = probe_local_gpus(ProbeOptions(timeout_s=2)).gpus
    assert (gpu.name, gpu.driver_version, gpu.cuda_version) == (
        "Tesla V100-SXM2-16GB",
        "470.82.01",
        "11.4",
    )
    assert (gpu.memory_total_mib, gpu.memory_total_gb, gpu.memory_free_gb) == (16384, 16.0, 0.0)
    assert gpu.mig_mode is None  # NVML says "Not Supported": no MIG on this card
    assert gpu.utilization_percent is None


def test_several_gpus_keep_their_order_and_values(use_nvml):
    cards = [
        FakeGpu("NVIDIA GeForce RTX 4090", 24564 * MIB, 23871 * MIB, (8, 9), utilization=2),
        FakeGpu("NVIDIA GeForce RTX 3090", 24576 * MIB, 100 * MIB, (8, 6), utilization=99),
        FakeGpu("NVIDIA GeForce RTX 3060", 12288 * MIB, 12000 * MIB, (8, 6), utilization=None),
    ]
    use_nvml(make_fake_nvml(cards, driver="560.35.03", cuda=12060))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert [
        (g.index, g.name, g.compute_capability, g.memory_total_mib, g.utilization_percent)
        for g in report.gpus
    ] == [
        (0, "NVIDIA GeForce RTX 4090", "8.9", 24564, 2),
        (1, "NVIDIA GeForce RTX 3090", "8.6", 24576, 99),
        (2, "NVIDIA GeForce RTX 3060", "8.6", 12288, None),
    ]
    assert {g.cuda_version for g in report.gpus} == {"12.6"}
    assert report.attempts[0].detail == "found 3 GPU(s)"


def test_utilization_is_not_read_when_not_asked(use_nvml):
    use_nvml(make_fake_nvml([H100]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2, include_utilization=False))
    assert report.gpus[0].utilization_percent is None


def test_mig_enabled_counts_instances_and_warns(use_nvml):
    a100 = FakeGpu(
        "NVIDIA A100-SXM4-80GB", 81920 * MIB, 81299 * MIB, (8, 0), mig=(1, 1), mig_instances=3
    )
    use_nvml(make_fake_nvml([a100], driver="535.161.08", cuda=12020))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    (gpu,) = report.gpus
    assert (gpu.mig_mode, gpu.mig_devices, gpu.memory_total_gb) == ("enabled", 3, 80.0)
    assert (
        "GPU 0 (NVIDIA A100-SXM4-80GB) has MIG enabled: programs see a slice of it, not the whole card"
        in report.warnings
    )


def test_one_failing_gpu_does_not_hide_the_other(use_nvml):
    broken = FakeGpu("NVIDIA H100 80GB HBM3", 0, 0, (9, 0), fail_on={"nvmlDeviceGetMemoryInfo"})
    use_nvml(make_fake_nvml([H100, broken]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.available is True
    first, second = report.gpus
    assert (first.name, first.memory_total_mib, first.error) == (
        "NVIDIA H100 80GB HBM3",
        81559,
        None,
    )
    assert second.index == 1
    assert second.error == "NVML query failed: Unknown Error"
    assert second.memory_total_mib is None
    assert "GPU 1: NVML query failed: Unknown Error" in report.warnings


def test_gpu_whose_handle_fails_is_listed_with_its_error(use_nvml):
    lost = FakeGpu("?", 0, 0, (0, 0), fail_on={"nvmlDeviceGetHandleByIndex"})
    use_nvml(make_fake_nvml([lost, H100]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert [(g.index, g.name, g.error) for g in report.gpus] == [
        (0, None, "NVML query failed: Unknown Error"),
        (1, "NVIDIA H100 80GB HBM3", None),
    ]
    assert report.summary == (
        "2 GPU(s) via nvml: GPU 0: unreadable; GPU 1: NVIDIA H100 80GB HBM3, 79.6 GB, "
        "compute capability 9.0"
    )


def test_no_driver_falls_through_to_nvidia_smi(use_nvml, fake_tool):
    use_nvml(make_fake_nvml([], init_error="Driver Not Loaded"))
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-rtx4090.csv"),
        banner=fixture_text("nvidia-smi-banner-rtx4090.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    assert report.method == "nvidia-smi"
    assert report.attempts[0].method == "nvml"
    assert report.attempts[0].ok is False
    assert report.attempts[0].detail == (
        "NVML could not start: Driver Not Loaded (is an NVIDIA driver installed?)"
    )
    assert [(g.name, g.cuda_version) for g in report.gpus] == [("NVIDIA GeForce RTX 4090", "12.4")]


def test_nvml_without_gpus_is_not_a_find(use_nvml):
    use_nvml(make_fake_nvml([]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2, methods=["nvml"]))
    assert report.available is False
    assert report.attempts[0].detail == "ran, but found no GPU"
    assert report.hint is not None


def test_hanging_nvml_init_is_cut_off_and_not_called_again(use_nvml, release_hangs):
    use_nvml(make_fake_nvml([H100], init_blocks=release_hangs))
    report = probe_local_gpus(ProbeOptions(timeout_s=1, methods=["nvml"]))
    assert report.available is False
    assert report.attempts[0].detail == "no answer within 1 s"
    assert report.attempts[0].elapsed_ms < 10_000
    again = probe_local_gpus(ProbeOptions(timeout_s=1, methods=["nvml"]))
    assert again.attempts[0].skipped is True
    assert again.attempts[0].detail == "an earlier NVML call in this process never returned"


def test_missing_bindings_are_reported(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pynvml", None)  # makes `import pynvml` fail
    report = probe_local_gpus(ProbeOptions(timeout_s=2, methods=["nvml"]))
    assert report.attempts[0].detail.startswith("nvidia-ml-py is not installed")


def test_thread_left_behind_is_a_daemon(use_nvml, release_hangs):
    use_nvml(make_fake_nvml([H100], init_blocks=release_hangs))
    probe_local_gpus(ProbeOptions(timeout_s=1, methods=["nvml"]))
    stuck = [t for t in threading.enumerate() if t.name == "gpu-probe" and t.is_alive()]
    assert stuck and all(t.daemon for t in stuck)  # it cannot keep the process from exiting
