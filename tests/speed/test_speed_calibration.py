"""The calibration target of the speed estimate, and the measured data behind it."""

from __future__ import annotations

import pytest

from assistant.knowledge.gpus import load_catalog
from assistant.knowledge.speed import load_measured_speed, load_speed_rules
from assistant.tools.speed.calibration import calibrate, fit_backends, holdout

APPLE = ("M1", "M2", "M3", "M4")


def _target(rows: list) -> tuple[int, set[str]]:  # type: ignore[type-arg]
    ok = [r for r in rows if r.within and r.gpu_count == 1]
    return len(ok), {r.gpu for r in ok}


def test_at_least_25_rows_on_10_gpus_nvidia_and_apple_within_30_percent() -> None:
    rows = calibrate()
    n, gpus = _target(rows)
    assert n >= 25 and len(gpus) >= 10
    assert any(g.startswith(APPLE) for g in gpus)
    assert any(g.startswith(("RTX", "A100", "H100")) for g in gpus)
    checked = [r for r in rows if r.within is not None]
    assert sum(1 for r in checked if r.within) / len(checked) >= 0.9


def test_generalises_to_gpus_left_out_of_the_fit() -> None:
    rows = holdout()
    n, gpus = _target(rows)
    assert n >= 25 and len(gpus) >= 10
    assert sum(1 for r in rows if r.within) / len(rows) >= 0.9


def test_every_row_that_is_not_comparable_says_why() -> None:
    for r in calibrate():
        assert r.comparable or r.reason


def test_stored_figures_are_the_fit_of_the_stored_rows() -> None:
    rules = load_speed_rules()
    for refit in fit_backends(list(load_measured_speed()), rules):
        stored = rules.backend(refit.backend, refit.platform)
        assert stored is not None
        assert stored.efficiency == pytest.approx(refit.efficiency, abs=0.002)
        assert stored.overhead_ms_per_32_layers == pytest.approx(
            refit.overhead_ms_per_32_layers, abs=0.002
        )
        assert stored.fitted_rows == refit.fitted_rows


def test_measured_rows_name_real_cards_and_sources() -> None:
    catalog = load_catalog()
    rows = load_measured_speed()
    assert len({r.id for r in rows}) == len(rows)
    for r in rows:
        assert r.source_url.startswith("https://")
        if r.gpu_ref:
            card = catalog.by_name(r.gpu_ref)
            assert card is not None and card.bandwidth_gbs, r.id
        if r.check == "secondary":
            assert r.source_title.startswith("[SECONDARY COPY")
