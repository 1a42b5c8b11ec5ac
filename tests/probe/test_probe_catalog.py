"""The probe against the real catalog: names exactly as drivers report them must find their card."""

from __future__ import annotations

import sys

import pytest
from probe_fakes import fixture_text

from assistant.tools.probe import ProbeOptions, probe_local_gpus


@pytest.fixture
def real_catalog(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delitem(sys.modules, "assistant.knowledge.matching", raising=False)
    from assistant.knowledge.matching import match_gpu

    return match_gpu


# (name as NVML / nvidia-smi print it, compute capability the driver reports)
DRIVER_NAMES = [
    ("NVIDIA GeForce RTX 4090", "8.9"),
    ("NVIDIA GeForce RTX 5090", "12.0"),
    ("NVIDIA GeForce RTX 3060", "8.6"),
    ("Tesla T4", "7.5"),
    ("Tesla P100-PCIE-16GB", "6.0"),
    ("NVIDIA L4", "8.9"),
    ("NVIDIA L40S", "8.9"),
    ("NVIDIA A10G", "8.6"),
    ("NVIDIA RTX 6000 Ada Generation", "8.9"),
    ("NVIDIA H100 PCIe", "9.0"),
    ("NVIDIA B200", "10.0"),
    ("NVIDIA H100 80GB HBM3", "9.0"),
    ("NVIDIA A100-SXM4-80GB", "8.0"),
    ("NVIDIA A100-SXM4-40GB", "8.0"),
    ("Tesla V100-SXM2-16GB", "7.0"),
]


@pytest.mark.parametrize(
    ("name", "cc"),
    DRIVER_NAMES,
)
def test_driver_name_finds_a_card_with_the_same_compute_capability(real_catalog, name, cc):
    match = real_catalog(name)
    assert match.gpu is not None, f"{name!r} matched nothing; suggestions {match.suggestions}"
    assert match.gpu.compute_capability == cc


def test_probe_attaches_the_real_card(real_catalog, fake_tool, no_driver):
    fake_tool(
        "nvidia-smi",
        query=fixture_text("nvidia-smi-query-rtx4090.csv"),
        banner=fixture_text("nvidia-smi-banner-rtx4090.txt"),
    )
    report = probe_local_gpus(ProbeOptions(timeout_s=5))
    match = report.gpus[0].catalog_match
    assert match is not None
    assert (match.name, match.compute_capability, match.arch_target, match.vram_gb) == (
        "GeForce RTX 4090",
        "8.9",
        "sm_89",
        24.0,
    )
    assert report.warnings == []
