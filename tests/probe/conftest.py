"""Fakes for the probe: an NVML module put in sys.modules and command-line tools put on PATH."""

from __future__ import annotations

import shutil
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from assistant.tools.probe import nvidia

FIXTURES = Path(__file__).parent / "fixtures"
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


def _fake_match_gpu(text: str) -> Any:
    row = FAKE_CATALOG.get(text)
    if row is None:
        return types.SimpleNamespace(gpu=None, score=0.0, suggestions=[])
    name, cc, target, vram = row
    card = types.SimpleNamespace(
        name=name, vendor="nvidia", architecture="test", compute_capability=cc,
        arch_target=target, vram_gb=vram,
    )
    return types.SimpleNamespace(gpu=card, score=1.0, suggestions=[])


@pytest.fixture(autouse=True)
def _isolated_probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with no GPU tools on PATH, no torch loaded, NVML not marked as hung and a
    small fixed catalog (tests of the real catalog remove it)."""
    matching = types.ModuleType("assistant.knowledge.matching")
    matching.match_gpu = _fake_match_gpu  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "assistant.knowledge.matching", matching)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(nvidia, "_nvml_wedged", False)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    for name in ("CUDA_VISIBLE_DEVICES", "COLAB_RELEASE_TAG", "KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"):
        monkeypatch.delenv(name, raising=False)
    return bin_dir


@pytest.fixture
def use_nvml(monkeypatch: pytest.MonkeyPatch) -> Callable[[types.ModuleType], None]:
    def install(module: types.ModuleType) -> None:
        monkeypatch.setitem(sys.modules, "pynvml", module)

    return install


@pytest.fixture
def no_driver(use_nvml: Callable[[types.ModuleType], None]) -> None:
    """NVML as it behaves on a machine without an NVIDIA driver."""
    use_nvml(make_fake_nvml([], init_error="NVML Shared Library Not Found"))


@pytest.fixture
def release_hangs() -> Iterator[threading.Event]:
    """An event blocked fakes wait on; set at teardown so no thread is left sleeping."""
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def fake_tool(_isolated_probe: Path) -> Callable[..., Path]:
    """Put an executable shell script named `name` on PATH.

    `query` is printed for calls with arguments that mention --query-gpu (or for any call when
    `banner` is None), `banner` for calls without arguments; `body` replaces the script's body.
    """

    def write(
        name: str,
        query: str | None = None,
        banner: str | None = None,
        exit_code: int = 0,
        body: str | None = None,
    ) -> Path:
        cat = shutil.which("cat", path="/usr/bin:/bin")
        script = _isolated_probe / name
        query_file = _isolated_probe / f"{name}.query"
        banner_file = _isolated_probe / f"{name}.banner"
        query_file.write_text(query or "")
        banner_file.write_text(banner if banner is not None else (query or ""))
        if body is None:
            body = (
                f'if [ "$#" -gt 0 ]; then {cat} "{query_file}"; '
                f'else {cat} "{banner_file}"; fi\nexit {exit_code}\n'
            )
        script.write_text("#!/bin/sh\n" + body)
        script.chmod(0o755)
        return script

    return write


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text()
