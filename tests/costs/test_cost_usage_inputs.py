"""The cost tools' usage inputs: a utilisation share and a speed-up for a rental, days of use a
month, a utilisation share and a period for rent vs buy, a GPU count for spot, working days for
power. Exact values, computed by hand in the comments."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy
from assistant.tools.cost import RentQuery, rent_cost
from assistant.tools.power import PowerQuery, power_cost
from assistant.tools.spot import SpotQuery, spot_vs_dedicated


def test_rent_hours_paid_follow_utilisation_and_speedup() -> None:
    # 1,000 h x 50 % / 2 = 250 h x 2 GPUs x $3 = $1,500
    r = rent_cost(
        RentQuery(hours=1000, rate_per_hour=3, gpu_count=2, utilisation=0.5, speedup=2,
                  currency="USD")
    )  # fmt: skip
    assert (r.hours, r.hours_billed, r.cost_typical) == (1000, 250, 1500)
    assert any("1000 h × 50% in use ÷ 2" in a for a in r.assumptions)


def test_a_slower_card_pays_more_hours() -> None:
    # 18 h taking 2.5 times as long = 45 h x $1.79
    r = rent_cost(RentQuery(hours=18, rate_per_hour=1.79, speedup=0.4, currency="USD"))
    assert r.hours_billed == pytest.approx(45) and r.cost_typical == pytest.approx(80.55)
    assert any("× 2.5 (that much slower)" in a for a in r.assumptions)


@pytest.mark.parametrize("field", [{"utilisation": 0}, {"utilisation": 1.5}, {"speedup": 0}])
def test_rent_rejects_a_share_or_speedup_out_of_range(field: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        RentQuery(hours=10, rate_per_hour=1, **field)


def test_rent_vs_buy_counts_working_days() -> None:
    # 10 h x 22 days x $2 = $440 a month; no power: 4,400 / 2 = 2,200 h = 10 months
    r = rent_vs_buy(
        RentVsBuyQuery(purchase_price=4400, rent_rate=2, hours_per_day=10, days_per_month=22,
                       power_w=0, currency="USD")
    )  # fmt: skip
    assert r.rent_per_month == pytest.approx(440)
    assert r.break_even_hours == pytest.approx(2200)
    assert r.break_even_months == pytest.approx(10)


def test_rent_vs_buy_totals_a_period_at_a_utilisation_share() -> None:
    # 1 year = 8,760 h; 24 h x 50 % = 12 h a day x 365 days = 4,380 h x 1 € = 4,380 € of rent;
    # owning: 5,000 € + 4,380 h x 0.5 kW x 0.2 €/kWh = 5,438 €
    r = rent_vs_buy(
        RentVsBuyQuery(purchase_price=5000, rent_rate=1, hours_per_day=24, utilisation=0.5,
                       period_hours=8760, power_w=500, electricity_price_per_kwh=0.2,
                       currency="EUR")
    )  # fmt: skip
    assert r.hours_per_day == 12
    assert r.hours_used == pytest.approx(4380)
    assert r.rent_total == pytest.approx(4380)
    assert r.own_total == pytest.approx(5438)


def test_rent_vs_buy_period_counts_only_working_days() -> None:
    # 1 year = 365 days x (20 / (365/12)) = 240 working days x 8 h = 1,920 h
    r = rent_vs_buy(
        RentVsBuyQuery(purchase_price=5000, rent_rate=1, hours_per_day=8, days_per_month=20,
                       period_hours=8760, power_w=0, currency="EUR")
    )  # fmt: skip
    assert r.hours_used == pytest.approx(1920)


def test_spot_costs_cover_every_gpu() -> None:
    one = spot_vs_dedicated(SpotQuery(job_hours=50, spot_rate=1, dedicated_rate=3, currency="USD"))
    eight = spot_vs_dedicated(
        SpotQuery(job_hours=50, spot_rate=1, dedicated_rate=3, gpu_count=8, currency="USD")
    )
    assert eight.gpu_count == 8
    assert eight.dedicated.expected_cost == pytest.approx(8 * 150)
    assert eight.spot.expected_cost == pytest.approx(8 * (one.spot.expected_cost or 0))


def test_power_year_of_working_days() -> None:
    # 1 kW x 10 h = 10 kWh a day x 0.2 = 2 € a day; 22 days a month x 12 = 264 days = 528 € a year
    r = power_cost(
        PowerQuery(power_w=1000, hours_per_day=10, days_per_month=22,
                   electricity_price_per_kwh=0.2, currency="EUR")
    )  # fmt: skip
    assert r.cost_per_month == pytest.approx(44)
    assert r.cost_per_year == pytest.approx(528)


def test_cli_passes_the_usage_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from assistant.cli import main

    assert main(["cost", "rent", "--hours", "300", "--rate", "2", "--speedup", "3",
                 "--utilisation", "0.5", "--currency", "USD", "--json"]) == 0  # fmt: skip
    rent = json.loads(capsys.readouterr().out)
    assert (rent["hours_billed"], rent["cost_typical"]) == (50, 100)
    assert main(["cost", "spot", "--hours", "10", "--spot", "1", "--dedicated", "2",
                 "--gpus", "4", "--currency", "USD", "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["dedicated"]["expected_cost"] == 80
    assert main(["cost", "buy", "--price", "1000", "--rent", "1", "--power", "0",
                 "--hours-per-day", "5", "--days-per-month", "20", "--currency", "EUR",
                 "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["break_even_months"] == 10
    assert main(["cost", "rent", "--hours", "10", "--rate", "1", "--utilisation", "2"]) == 2
