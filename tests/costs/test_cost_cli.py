"""`gpu-advisor cost …`: exit codes, JSON, and messages on bad input."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rent_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "rent", "H100", "--hours", "20", "--kind", "indicative",
                       "--currency", "USD", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert (data["cost_low"], data["cost_high"], data["currency"]) == (40.0, 100.0, "USD")
    assert data["assumptions"] and data["sources"]


def test_rent_rate_with_its_currency(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "rent", "--rate", "2,50 $/h", "--hours", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["currency"], data["cost_typical"]) == ("USD", 10.0)


def test_rent_unknown_gpu_exits_1_with_suggestions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "rent", "H900", "--hours", "3")
    assert code == 1
    assert "did you mean" in out and "H100" in out


@pytest.mark.parametrize(
    "argv",
    [
        ("cost", "rent", "--hours", "-3", "--rate", "2"),
        ("cost", "rent", "--hours", "nan", "--rate", "2"),
        ("cost", "rent", "--hours", "3"),
        ("cost", "rent", "--hours", "3", "--rate", "abc"),
        ("cost", "spot", "--hours", "24", "--spot", "0.8", "--dedicated", "inf"),
        ("cost", "budget", "1e12"),
        ("cost", "storage", "--gb", "0"),
        ("cost", "buy", "--price", "100", "--rent", "1", "--resale", "500"),
        ("cost",),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("gpu-advisor: ")
    assert "Traceback" not in err


def test_bad_input_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "rent", "--hours", "-1", "--rate", "2", "--json")
    assert code == 2
    assert "hours" in json.loads(out)["error"]


def test_spot_quiz(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "cost",
        "spot",
        "--hours",
        "24",
        "--spot",
        "$0.80/h",
        "--dedicated",
        "2.50",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert (data["verdict"], data["verdict_as_given"]) == ("spot_with_checkpoints", "dedicated")
    assert data["currency"] == "USD"
    assert data["spot_with_checkpoints"]["expected_cost"] == pytest.approx(19.539, abs=1e-3)


def test_budget_human(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "budget", "200 €")
    assert code == 0
    assert "€100.00  Hopper / Blackwell hours" in out
    assert "22–54 h of H100" in out
    assert "assumption: Exchange rate assumed: 1 EUR = 1.08 USD" in out


def test_buy_storage_forgotten(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", "buy", "--price", "2000", "--rent", "0.5", "--power", "450",
                       "--kwh", "0.25", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["break_even_hours"] == pytest.approx(2000 / 0.3875)
    code, out, _ = run(
        capsys, "cost", "storage", "--gb", "500", "--days", "1", "--currency", "USD", "--json"
    )
    assert code == 0 and json.loads(out)["cost"] == pytest.approx(4 / 3)
    code, out, _ = run(capsys, "cost", "forgotten", "H100", "--currency", "USD")
    assert code == 0 and "about $400" in out and "$8.3/h over 48 h" in out


@pytest.mark.parametrize("name", ["rent", "spot", "buy", "forgotten", "storage", "budget"])
def test_every_calculator_has_help_with_examples(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["cost", name, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and f"gpu-advisor cost {name}" in out
    assert "--json" in out and "--currency" in out
