"""Calibration: every comparable measured peak is estimated within the stated tolerance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.knowledge.models import load_measured_vram, load_memory_rules
from assistant.tools.fit.calibration import calibrate, calibrate_row, tolerance_gb

ROWS = {row.id: row for row in load_measured_vram()}


def test_stated_tolerance() -> None:
    rules = load_memory_rules()
    assert (rules.calibration_tolerance_fraction, rules.calibration_tolerance_gb) == (0.25, 2.0)
    assert tolerance_gb(40.0) == 10.0  # 25% of 40
    assert tolerance_gb(4.0) == 2.0  # the 2 GB floor


@pytest.mark.parametrize("row_id", sorted(r.id for r in ROWS.values() if r.comparable))
def test_comparable_row_within_tolerance(row_id: str) -> None:
    result = calibrate_row(ROWS[row_id])
    assert result.estimated_gb is not None, result.reason
    assert result.within, (
        f"{row_id}: estimated {result.estimated_gb} GB vs measured {result.measured_gb} GB "
        f"({result.error_pct:+.1f}%, tolerance ±{result.tolerance_gb} GB, check {result.check})"
    )


@pytest.mark.parametrize("row_id", sorted(r.id for r in ROWS.values() if not r.comparable))
def test_non_comparable_row_records_why(row_id: str) -> None:
    result = calibrate_row(ROWS[row_id])
    assert result.within is None and result.estimated_gb is None
    assert result.reason and len(result.reason) > 20


def test_enough_rows_are_compared() -> None:
    rows = calibrate()
    assert len(rows) == len(ROWS)
    compared = [r for r in rows if r.within is not None]
    assert len(compared) >= 18
    kinds = {r.compare_to for r in compared}
    assert kinds == {"total", "total_without_context", "weights", "kv_cache", "overhead"}


def test_closest_rows_are_close() -> None:
    # figures that follow from arithmetic alone land within 1%
    for row_id in (
        "vllm-llama31-8b-bf16-weights",
        "vllm-llama31-8b-bf16-kv",
        "vllm-llama31-70b-w8a8-weights",
    ):
        result = calibrate_row(ROWS[row_id])
        assert result.error_pct is not None and abs(result.error_pct) < 1.0, row_id


def test_calibration_script_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "calibrate_fit.py"
    spec = importlib.util.spec_from_file_location("calibrate_fit", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["comparable"] == out["summary"]["within"] >= 18
    assert len(out["rows"]) == len(ROWS)
    assert module.main([]) == 0
    assert "not comparable" in capsys.readouterr().out


def test_docs_state_the_current_calibration() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "fit.md").read_text(encoding="utf-8")
    rows = [r for r in calibrate() if r.within is not None]
    worst = max(abs(r.error_pct or 0.0) for r in rows)
    line = f"{sum(1 for r in rows if r.within)}/{len(rows)} comparable rows within tolerance; largest error {worst:.1f} %."
    assert line in doc
    for row in rows:
        assert f"| {row.id} |" in doc
