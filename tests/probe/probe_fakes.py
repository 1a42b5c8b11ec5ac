"""Fakes for the probe tests: an NVML module, a tiny catalog and the fixture files."""

from __future__ import annotations

import os
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
# PATH as the test run found it, before any test replaced it.
ORIGINAL_PATH = os.environ.get("PATH", "")
MIB = 1024 * 1024


class FakeNVMLError(Exception):
    """Stands in for pynvml.NVMLError, whose str() is the driver's message."""


@dataclass
class FakeGpu:
    name: str
    total_bytes: int
    free_bytes: int
    capability: tuple[int, int]
    uuid: str = "GPU-00000000-0000-0000-0000-000000000000"
    mig: tuple[int, int] | None = None  # (current, pending); None: MIG not supported
    mig_instances: int = 0
    utilization: int | None = 0
    fail_on: set[str] = field(default_factory=set)  # NVML functions that raise for this GPU


def make_fake_nvml(
    gpus: list[FakeGpu],
    driver: str = "550.90.07",
    cuda: int = 12040,
    init_error: str | None = None,
    init_blocks: threading.Event | None = None,
) -> types.ModuleType:
    """A module with the pynvml functions the probe calls, answering for the given GPUs."""
    nvml = types.ModuleType("pynvml")
    nvml.NVMLError = FakeNVMLError  # type: ignore[attr-defined]
    nvml.NVML_DEVICE_MIG_ENABLE = 1  # type: ignore[attr-defined]
    state = {"initialised": False, "shutdowns": 0}
    nvml.state = state  # type: ignore[attr-defined]

    def check(gpu: FakeGpu, function: str) -> None:
        if function in gpu.fail_on:
            raise FakeNVMLError("Unknown Error")

    def nvmlInit() -> None:
        if init_blocks is not None:
            init_blocks.wait()
        if init_error:
            raise FakeNVMLError(init_error)
        state["initialised"] = True

    def handle(index: int) -> FakeGpu:
        if index >= len(gpus):
            raise FakeNVMLError("Invalid Argument")
        check(gpus[index], "nvmlDeviceGetHandleByIndex")
        return gpus[index]

    def memory(gpu: FakeGpu) -> Any:
        check(gpu, "nvmlDeviceGetMemoryInfo")
        used = gpu.total_bytes - gpu.free_bytes
        return types.SimpleNamespace(total=gpu.total_bytes, free=gpu.free_bytes, used=used)

    def mig_mode(gpu: FakeGpu) -> list[int]:
        if gpu.mig is None:
            raise FakeNVMLError("Not Supported")
        return list(gpu.mig)

    def mig_handle(gpu: FakeGpu, slot: int) -> object:
        if slot >= gpu.mig_instances:
            raise FakeNVMLError("Not Found")
        return object()

    def utilization(gpu: FakeGpu) -> Any:
        if gpu.utilization is None:
            raise FakeNVMLError("Not Supported")
        return types.SimpleNamespace(gpu=gpu.utilization, memory=0)

    def shutdown() -> None:
        state["shutdowns"] += 1

    functions: dict[str, Callable[..., Any]] = {
        "nvmlInit": nvmlInit,
        "nvmlShutdown": shutdown,
        "nvmlSystemGetDriverVersion": lambda: driver,
        "nvmlSystemGetCudaDriverVersion": lambda: cuda,
        "nvmlDeviceGetCount": lambda: len(gpus),
        "nvmlDeviceGetHandleByIndex": handle,
        "nvmlDeviceGetName": lambda g: (check(g, "nvmlDeviceGetName"), g.name)[1],
        "nvmlDeviceGetUUID": lambda g: g.uuid,
        "nvmlDeviceGetMemoryInfo": memory,
        "nvmlDeviceGetCudaComputeCapability": lambda g: g.capability,
        "nvmlDeviceGetMigMode": mig_mode,
        "nvmlDeviceGetMaxMigDeviceCount": lambda g: 7 if g.mig else 0,
        "nvmlDeviceGetMigDeviceHandleByIndex": mig_handle,
        "nvmlDeviceGetUtilizationRates": utilization,
    }
    for name, function in functions.items():
        setattr(nvml, name, function)
    return nvml


# Driver-reported names the fake catalog knows, with the fields the probe copies.
FAKE_CATALOG = {
    "NVIDIA H100 80GB HBM3": ("H100 SXM", "9.0", "sm_90a", 80.0),
    "NVIDIA GeForce RTX 4090": ("GeForce RTX 4090", "8.9", "sm_89", 24.0),
    "Tesla T4": ("Tesla T4", "7.5", "sm_75", 16.0),
    "NVIDIA GeForce RTX 3090": ("GeForce RTX 3090", "8.0", "sm_80", 24.0),  # wrong CC on purpose
}


def fake_match_gpu(text: str) -> Any:
    row = FAKE_CATALOG.get(text)
    if row is None:
        return types.SimpleNamespace(gpu=None, score=0.0, suggestions=[])
    name, cc, target, vram = row
    card = types.SimpleNamespace(
        name=name,
        vendor="nvidia",
        architecture="test",
        compute_capability=cc,
        arch_target=target,
        vram_gb=vram,
    )
    return types.SimpleNamespace(gpu=card, score=1.0, suggestions=[])


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text()
