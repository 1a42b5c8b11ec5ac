"""The rest of the chain: torch, AMD tools, Apple, hints, catalog matching, options."""

from __future__ import annotations

import json
import sys
import types

import pytest
from probe_fakes import FakeGpu, fixture_text, make_fake_nvml
from pydantic import ValidationError

from assistant.tools.probe import ALL_METHODS, ProbeOptions, ProbeReport, probe_local_gpus
from assistant.tools.probe import core as probe_core

MIB = 1024 * 1024


def test_no_gpu_anywhere_is_a_normal_report(no_driver):
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert (report.available, report.method, report.gpus, report.summary) == (
        False,
        None,
        [],
        "no GPU found",
    )
    assert [a.method for a in report.attempts] == list(ALL_METHODS)
    assert not any(a.ok for a in report.attempts)
    by_method = {a.method: a for a in report.attempts}
    assert by_method["torch"].skipped is True
    assert by_method["rocm-smi"].detail == "rocm-smi not found on PATH"
    assert by_method["amd-smi"].detail == "amd-smi not found on PATH"
    if sys.platform != "darwin":
        assert (by_method["apple"].skipped, by_method["apple"].detail) == (True, "not macOS")
    assert "Colab: Runtime → Change runtime type → T4 GPU" in (report.hint or "")
    assert "Kaggle: Settings → Accelerator" in (report.hint or "")
    assert report.sources == []
    ProbeReport.model_validate_json(report.model_dump_json())  # the JSON round-trips


def test_colab_gets_its_own_hint(no_driver, monkeypatch):
    monkeypatch.setenv("COLAB_RELEASE_TAG", "release-colab_20261120-060000")
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert (
        report.hint == "On Colab: Runtime → Change runtime type → T4 GPU, then run the probe again."
    )


def test_kaggle_gets_its_own_hint(no_driver, monkeypatch):
    monkeypatch.setenv("KAGGLE_KERNEL_RUN_TYPE", "Interactive")
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.hint is not None and report.hint.startswith("On Kaggle: Settings → Accelerator")


def test_catalog_match_is_attached_and_disagreement_is_warned(use_nvml):
    cards = [
        FakeGpu("NVIDIA GeForce RTX 4090", 24564 * MIB, 24000 * MIB, (8, 9)),
        FakeGpu("NVIDIA GeForce RTX 3090", 24576 * MIB, 24000 * MIB, (8, 6)),
        FakeGpu("NVIDIA Imaginary 9999", 1024 * MIB, 1024 * MIB, (9, 9)),
    ]
    use_nvml(make_fake_nvml(cards))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    first = report.gpus[0].catalog_match
    assert first is not None
    assert (
        first.name,
        first.compute_capability,
        first.arch_target,
        first.vram_gb,
        first.score,
    ) == ("GeForce RTX 4090", "8.9", "sm_89", 24.0, 1.0)
    assert report.gpus[2].catalog_match is None
    assert report.warnings == [
        "GPU 1 reports compute capability 8.6, the catalog's GeForce RTX 3090 has 8.0",
        "'NVIDIA Imaginary 9999' is not in the catalog",
    ]


def test_broken_catalog_is_a_warning(use_nvml, monkeypatch):
    broken = types.ModuleType("assistant.knowledge.matching")

    def match_gpu(text: str) -> None:
        raise RuntimeError("missing data file gpus.toml")

    broken.match_gpu = match_gpu  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "assistant.knowledge.matching", broken)
    use_nvml(make_fake_nvml([FakeGpu("NVIDIA L4", 23034 * MIB, 22000 * MIB, (8, 9))]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.available is True
    assert report.gpus[0].catalog_match is None
    assert report.warnings == ["catalog lookup failed for 'NVIDIA L4': missing data file gpus.toml"]


def test_absent_catalog_module_gives_no_match(use_nvml, monkeypatch):
    monkeypatch.setitem(sys.modules, "assistant.knowledge.matching", None)
    use_nvml(make_fake_nvml([FakeGpu("Tesla T4", 15360 * MIB, 15101 * MIB, (7, 5))]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.gpus[0].catalog_match is None
    assert report.warnings == []


def test_cuda_visible_devices_is_mentioned(use_nvml, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    use_nvml(make_fake_nvml([FakeGpu("Tesla T4", 15360 * MIB, 15101 * MIB, (7, 5))]))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.warnings == ["CUDA_VISIBLE_DEVICES='1': CUDA programs may see fewer GPUs"]


def _fake_torch(cuda: str | None, available: bool, hip: str | None = None) -> types.ModuleType:
    torch = types.ModuleType("torch")
    torch.__version__ = "2.13.0"  # type: ignore[attr-defined]
    torch.version = types.SimpleNamespace(cuda=cuda, hip=hip)  # type: ignore[attr-defined]
    props = types.SimpleNamespace(name="NVIDIA L40S", total_memory=46068 * MIB, major=8, minor=9)
    torch.cuda = types.SimpleNamespace(  # type: ignore[attr-defined]
        is_available=lambda: available,
        device_count=lambda: 1,
        get_device_properties=lambda index: props,
    )
    return torch


def test_torch_is_asked_only_when_already_loaded(no_driver, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", _fake_torch("12.8", available=True))
    report = probe_local_gpus(ProbeOptions(timeout_s=2))
    assert report.method == "torch"
    (gpu,) = report.gpus
    assert (gpu.name, gpu.compute_capability, gpu.memory_total_mib, gpu.memory_total_gb) == (
        "NVIDIA L40S",
        "8.9",
        46068,
        45.0,
    )
    assert gpu.memory_free_mib is None
    assert (
        "read through torch (built for CUDA 12.8); free memory and driver not read"
        in report.warnings
    )


def test_cpu_only_torch_is_reported(no_driver, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", _fake_torch(None, available=False))
    report = probe_local_gpus(ProbeOptions(timeout_s=2, methods=["torch"]))
    assert report.attempts[0].detail == "torch 2.13.0 is a CPU-only build"


def test_torch_without_a_usable_gpu_is_reported(no_driver, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", _fake_torch("12.8", available=False))
    report = probe_local_gpus(ProbeOptions(timeout_s=2, methods=["torch"]))
    assert report.attempts[0].detail == "torch.cuda.is_available() is False"


def test_rocm_smi_mi300x(fake_tool, no_driver):
    fake_tool(
        "rocm-smi",
        query="WARNING: AMD GPU device(s) is/are in a low-power state\n"
        + fixture_text("rocm-smi-mi300x.json"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    assert report.method == "rocm-smi"
    (gpu,) = report.gpus
    assert (
        gpu.vendor,
        gpu.name,
        gpu.memory_total_mib,
        gpu.memory_free_mib,
        gpu.memory_total_gb,
    ) == ("amd", "AMD Instinct MI300X OAM", 196288, 196004, 191.7)


def test_rocm_smi_garbage_is_reported(fake_tool, no_driver):
    fake_tool("rocm-smi", query="{not json")
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=["rocm-smi"]))
    detail = report.attempts[0].detail or ""
    assert detail.startswith("output is not valid JSON")


def test_amd_smi_static(fake_tool, no_driver):
    payload = [
        {
            "gpu": 0,
            "asic": {"market_name": "AMD Instinct MI300X", "target_graphics_version": "gfx942"},
            "vram": {"type": "HBM", "size": {"value": 196592, "unit": "MB"}},
        },
        {"gpu": 1, "asic": {"market_name": "AMD Instinct MI300X"}, "vram": {"size": "196592 MB"}},
    ]
    fake_tool("amd-smi", query=json.dumps(payload))
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    assert report.method == "amd-smi"
    assert [(g.index, g.name, g.memory_total_mib, g.memory_total_gb) for g in report.gpus] == [
        (0, "AMD Instinct MI300X", 196592, 192.0),
        (1, "AMD Instinct MI300X", 196592, 192.0),
    ]


def test_unexpected_exception_in_a_step_is_a_value(monkeypatch):
    def explode(timeout_s: float, options: ProbeOptions) -> None:
        raise KeyError("surprise")

    monkeypatch.setitem(probe_core.STEPS, "nvidia-smi", explode)
    report = probe_local_gpus(ProbeOptions(timeout_s=2, methods=["nvidia-smi"]))
    assert report.attempts[0].detail == "KeyError: 'surprise'"


def test_timeout_comes_from_settings(no_driver, fake_tool, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_PROBE_TIMEOUT_S", "1")
    fake_tool("nvidia-smi", body="exec /bin/sleep 60\n")
    report = probe_local_gpus()
    assert report.attempts[1].detail == "nvidia-smi gave no answer within 1 s; stopped it"


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), 1000])
def test_bad_timeout_is_a_validation_error(bad):
    with pytest.raises(ValidationError):
        ProbeOptions(timeout_s=bad)


def test_unknown_method_is_a_validation_error():
    with pytest.raises(ValidationError):
        ProbeOptions(methods=["cuda-magic"])  # type: ignore[list-item]


def test_every_option_is_described():
    for name, field in ProbeOptions.model_fields.items():
        assert field.description, name


def test_unreadable_timeout_setting_falls_back_to_5_s(no_driver, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_PROBE_TIMEOUT_S", "soon")
    report = probe_local_gpus(ProbeOptions(methods=["nvml"]))
    assert report.attempts[0].detail == (
        "NVML could not start: NVML Shared Library Not Found (is an NVIDIA driver installed?)"
    )
