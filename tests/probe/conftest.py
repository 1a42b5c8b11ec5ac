"""Probe test fixtures: fake NVML in sys.modules, fake tools on PATH, a fixed small catalog."""

from __future__ import annotations

import shutil
import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from probe_fakes import fake_match_gpu, make_fake_nvml

from assistant.tools.probe import nvidia


@pytest.fixture(autouse=True)
def _isolated_probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with no GPU tools on PATH, no torch loaded, NVML not marked as hung and a
    small fixed catalog (tests of the real catalog remove it)."""
    matching = types.ModuleType("assistant.knowledge.matching")
    matching.match_gpu = fake_match_gpu  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "assistant.knowledge.matching", matching)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(nvidia, "_nvml_wedged", False)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    for name in (
        "CUDA_VISIBLE_DEVICES",
        "COLAB_RELEASE_TAG",
        "KAGGLE_KERNEL_RUN_TYPE",
        "KAGGLE_URL_BASE",
    ):
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
