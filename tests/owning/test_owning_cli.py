"""`gpu-advisor power | price | job`: JSON, settings filled at the edge, bad input exits 2."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main
from assistant.settings import reset_settings


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_power_takes_the_configured_electricity_price(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH", "0.5")
    monkeypatch.setenv("GPU_ADVISOR_CURRENCY", "EUR")
    reset_settings()
    try:
        code, out, _ = run(capsys, "power", "3090", "--hours", "10", "--json")
    finally:
        reset_settings()
    data = json.loads(out)
    assert code == 0 and data["electricity_price_per_kwh"] == 0.5
    assert data["cost_per_day"] == pytest.approx(0.35 * 10 * 0.5)


def test_price_and_job_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "price", "used", "3090", "--currency", "USD", "--json")
    assert code == 0 and json.loads(out)["used"]["low"] == 500
    code, out, _ = run(
        capsys,
        "job",
        "8B",
        "--tokens",
        "1B",
        "--gpu",
        "H100",
        "--gpus",
        "8",
        "--rate",
        "2",
        "--json",
    )
    data = json.loads(out)
    assert (
        code == 0
        and data["tokens"] == 1e9
        and data["total_cost"] == pytest.approx(2 * data["gpu_hours"])
    )


@pytest.mark.parametrize(
    "argv, words",
    [
        (("price", "Voodoo 5"), "No purchase price"),
        (("job", "8B", "--tokens", "lots", "--gpu", "H100"), "--tokens"),
        (("power", "Voodoo 5"), "power_w"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_power_idle_hours_and_rent_rate_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # (300 W x 5 h + 25 W x 19 h) / 1000 = 1.975 kWh a day x 0.20 = 0.395 a day
    code, out, _ = run(
        capsys, "power", "3090", "--watts", "300", "--idle-watts", "25", "--hours", "5",
        "--idle-hours", "19", "--kwh-price", "0.20", "--rent-rate", "0.40", "--currency", "USD",
        "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["kwh_per_day"] == pytest.approx(1.975)
    assert data["cost_per_day"] == pytest.approx(0.395)
    assert data["rent_rate"] == 0.4 and data["rent_rate_given"] is True


def test_cost_rent_gpus_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # 6 x 50 h x $2 = $600
    code, out, _ = run(
        capsys, "cost", "rent", "H100", "--gpus", "6", "--hours", "50", "--rate", "2",
        "--currency", "USD", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["gpu_count"] == 6 and data["cost_typical"] == pytest.approx(600)
