"""tools/check_data.py finds every loader, validates its file, and fails loudly on a bad one."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from types import ModuleType

import pytest

from assistant.knowledge.gpus import load_catalog
from tests.conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "tools" / "check_data.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_data", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_data_json() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--json"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["ok"] is True
    catalog = data["loaders"]["assistant.knowledge.gpus.load_catalog"]
    assert catalog == {"ok": True, "counts": {"gpus": len(load_catalog().gpus)}}
    layers = data["loaders"]["gpu layers (curated + long tail)"]
    assert layers["ok"] is True
    assert layers["counts"]["curated"] == len(load_catalog().gpus)
    assert layers["counts"]["long_tail"] > 1000


def test_gpu_layers_fail_on_a_curated_card_served_from_the_long_tail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from assistant.knowledge import longtail

    tail = longtail.load_long_tail()
    b200 = next(c for c in load_catalog().gpus if c.name == "B200")
    leaked = tail.model_copy(update={"cards": [*tail.cards, b200]})
    monkeypatch.setattr(longtail, "load_long_tail", lambda: leaked)
    result = _module().check_gpu_layers()
    assert result["ok"] is False
    assert "also served from the long tail: ['B200']" in result["error"]


def test_discovers_catalog_loader() -> None:
    names = [name for name, _ in _module().discover_loaders()]
    assert "assistant.knowledge.gpus.load_catalog" in names
    assert all(name.rsplit(".", 1)[1].startswith("load_") for name in names)


def test_failing_loader_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _module()

    def broken() -> None:
        raise ValueError("gpus.toml row 3: bad")

    monkeypatch.setattr(module, "discover_loaders", lambda: [("fake.load_broken", broken)])
    assert module.main([]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^FAIL  fake\.load_broken +ValueError: gpus\.toml row 3: bad$", out, re.M)
