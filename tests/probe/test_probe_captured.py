"""The probe on output captured from real hardware: one H200 SXM (driver 580.159.04, CUDA 13.0).

The fixtures `nvidia-smi-query-h200.csv`, `nvidia-smi-banner-h200.txt` and `h200-nvml-torch.json`
were read on the machine itself (see fixtures/README.md). The nvidia-smi path runs the real parser
on the real text; the NVML and torch paths replay the values the libraries returned there. All three
must describe the same card, and the catalog card the probe attaches must agree with what the
driver reported.
"""

from __future__ import annotations

import json
import sys
import types

import pytest
from probe_fakes import FIXTURES, MIB, FakeGpu, fixture_text, make_fake_nvml

from assistant.tools.probe import ProbedGpu, ProbeOptions, probe_local_gpus

CAPTURE = json.loads((FIXTURES / "h200-nvml-torch.json").read_text())
NVML = CAPTURE["nvml"]
TORCH = CAPTURE["torch_device_properties"]


@pytest.fixture
def real_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "assistant.knowledge.matching", raising=False)


def _replayed_nvml() -> types.ModuleType:
    gpu = NVML["gpus"][0]
    fake = FakeGpu(
        name=gpu["name"],
        total_bytes=gpu["memory"]["total"],
        free_bytes=gpu["memory"]["free"],
        capability=tuple(gpu["cuda_compute_capability"]),
        uuid=gpu["uuid"],
        mig=tuple(gpu["mig_mode"]),
        utilization=gpu["utilization_gpu"],
    )
    return make_fake_nvml([fake], driver=NVML["driver"], cuda=NVML["cuda_driver_version"])


def _smi_gpu(fake_tool) -> ProbedGpu:
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-h200.csv"),
        banner=fixture_text("nvidia-smi-banner-h200.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=["nvidia-smi"]))
    assert report.method == "nvidia-smi" and report.available
    (gpu,) = report.gpus
    return gpu


def test_real_nvidia_smi_output_is_read(fake_tool):
    gpu = _smi_gpu(fake_tool)
    assert gpu.name == "NVIDIA H200"
    assert (gpu.driver_version, gpu.cuda_version, gpu.compute_capability) == (
        "580.159.04",
        "13.0",
        "9.0",
    )
    assert (gpu.memory_total_mib, gpu.memory_free_mib) == (143771, 143156)
    assert gpu.mig_mode == "disabled"
    assert gpu.utilization_percent == 0
    assert gpu.error is None


def test_nvml_and_nvidia_smi_agree_on_the_same_machine(fake_tool, use_nvml):
    from_smi = _smi_gpu(fake_tool)
    use_nvml(_replayed_nvml())
    report = probe_local_gpus(ProbeOptions(timeout_s=5, methods=["nvml"]))
    assert report.method == "nvml"
    (from_nvml,) = report.gpus
    fields = (
        "name",
        "uuid",
        "driver_version",
        "cuda_version",
        "compute_capability",
        "memory_total_mib",
        "memory_total_gb",
        "mig_mode",
    )
    assert {f: getattr(from_nvml, f) for f in fields} == {f: getattr(from_smi, f) for f in fields}


def test_torch_reads_the_memory_cuda_can_allocate(no_driver, monkeypatch):
    """torch's total_memory is what CUDA can hand out (143155 MiB here), below the driver's
    143771 MiB total: the probe reports what torch saw, and says it could not read the driver."""
    torch = types.ModuleType("torch")
    torch.__version__ = TORCH["torch"]  # type: ignore[attr-defined]
    torch.version = types.SimpleNamespace(cuda=TORCH["cuda"], hip=None)  # type: ignore[attr-defined]
    props = types.SimpleNamespace(
        name=TORCH["name"],
        total_memory=TORCH["total_memory"],
        major=TORCH["cc"][0],
        minor=TORCH["cc"][1],
    )
    torch.cuda = types.SimpleNamespace(  # type: ignore[attr-defined]
        is_available=lambda: True, device_count=lambda: 1, get_device_properties=lambda i: props
    )
    monkeypatch.setitem(sys.modules, "torch", torch)
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    assert report.method == "torch"
    (gpu,) = report.gpus
    assert (gpu.name, gpu.compute_capability) == ("NVIDIA H200", "9.0")
    assert gpu.memory_total_mib == TORCH["total_memory"] // MIB == 143155


def test_the_attached_card_agrees_with_the_hardware(real_catalog, fake_tool, no_driver):
    """The catalog's H200 against the driver's own figures: compute capability, build target,
    shared memory (per SM and the opt-in per block), SM count, and memory: the marketed 141 GB is
    within 1 % of the driver's 143771 MiB read in binary units (140.4 GiB)."""
    from assistant.knowledge.matching import match_gpu

    gpu = _smi_gpu(fake_tool)
    match = gpu.catalog_match
    assert match is not None
    assert (match.name, match.compute_capability, match.arch_target) == (
        "H200 SXM 141GB",
        "9.0",
        "sm_90a",
    )
    card = match_gpu(gpu.name).gpu
    assert card is not None and card.name == match.name
    assert card.shared_memory_per_sm_kb * 1024 == TORCH["smem_per_sm"]
    assert card.shared_memory_per_block_kb * 1024 == TORCH["smem_per_block_optin"]
    assert card.sm_count == TORCH["sm"]
    driver_bytes = NVML["gpus"][0]["memory"]["total"]
    assert abs(card.vram_gb * 2**30 - driver_bytes) / driver_bytes < 0.01
