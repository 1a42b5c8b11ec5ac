"""Exact values of each calculator, computed by hand in the comments."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy
from assistant.tools.cost import (
    ForgottenQuery,
    RentQuery,
    StorageQuery,
    forgotten_instance,
    rent_cost,
    storage_cost,
)
from assistant.tools.spot import SpotQuery, spot_vs_dedicated

USD = {"currency": "USD", "usd_per_eur": 1.08}
EUR = {"currency": "EUR", "usd_per_eur": 1.08}


def test_rent_with_a_given_rate() -> None:
    r = rent_cost(RentQuery(hours=12, rate_per_hour=2.5, **USD))
    assert r.found
    assert (r.cost_low, r.cost_typical, r.cost_high) == (30.0, 30.0, 30.0)
    assert r.sources == []
    assert any("1 EUR = 1.08 USD" in a for a in r.assumptions)


def test_rent_several_gpus_at_a_given_rate() -> None:
    # 4 GPUs x 336 h x $1.60 = $2,150.40
    r = rent_cost(RentQuery(gpu="A100", hours=336, rate_per_hour=1.6, gpu_count=4, **USD))
    assert r.gpu_count == 4
    assert r.cost_typical == pytest.approx(2150.4)
    assert r.rate_typical == 1.6  # the rate stays per GPU-hour
    assert "$2,150.40" in r.summary


def test_rent_several_gpus_from_the_price_data() -> None:
    one = rent_cost(RentQuery(gpu="H100", hours=10, **USD))
    three = rent_cost(RentQuery(gpu="H100", hours=10, gpu_count=3, **USD))
    assert three.cost_low == pytest.approx(3 * (one.cost_low or 0))
    assert three.cost_typical == pytest.approx(3 * (one.cost_typical or 0))


def test_rent_from_the_corpus_range_in_euros() -> None:
    # H100 2–5 $/h; 20 h → 40–100 $ → 37.04–92.59 € at 1.08
    r = rent_cost(RentQuery(gpu="H100", hours=20, kind="indicative", **EUR))
    assert r.found and r.gpu == "H100 SXM5 80GB"
    assert r.cost_low == pytest.approx(40 / 1.08)
    assert r.cost_high == pytest.approx(100 / 1.08)
    assert r.cost_typical == pytest.approx(70 / 1.08)
    assert r.currency == "EUR"
    assert r.sources and "000_6b3728bf6a0ed216" in r.sources[0].title


def test_rent_unknown_gpu_is_a_value_with_suggestions() -> None:
    r = rent_cost(RentQuery(gpu="H900", hours=3))
    assert not r.found
    assert r.message == "Unknown GPU 'H900'."
    assert "H100 SXM5 80GB" in r.suggestions
    assert r.cost_typical is None


def test_rent_known_gpu_without_prices() -> None:
    r = rent_cost(RentQuery(gpu="GTX 1660", hours=3))
    assert not r.found
    assert r.gpu == "GeForce GTX 1660"
    assert r.message == "No rental price data for GeForce GTX 1660; give a rate per hour."


def test_rent_needs_a_gpu_or_a_rate() -> None:
    with pytest.raises(ValidationError, match="give a GPU name or a rate per hour"):
        RentQuery(hours=3)


def test_currency_spelled_loosely() -> None:
    assert RentQuery(hours=1, rate_per_hour=1, currency="€").currency == "EUR"
    assert RentQuery(hours=1, rate_per_hour=1, currency="s$").currency == "SGD"
    with pytest.raises(ValidationError):
        RentQuery(hours=1, rate_per_hour=1, currency="doubloons")


def test_spot_without_checkpoints() -> None:
    # λ = 0.05/h, R = 0.1 h, W = 24 h, one stretch: E[T] = (1/λ + R)(e^{λW} − 1) = 20.1 × (e^1.2 − 1)
    r = spot_vs_dedicated(SpotQuery(job_hours=24, spot_rate=0.8, dedicated_rate=2.5, **USD))
    expected_hours = 20.1 * (math.exp(1.2) - 1)
    assert r.spot.expected_hours == pytest.approx(expected_hours)  # 46.634 h
    assert r.spot.expected_cost == pytest.approx(0.8 * expected_hours)  # 37.31 $
    assert r.spot.expected_interruptions == pytest.approx(math.exp(1.2) - 1)
    assert r.spot.expected_lost_work_h == pytest.approx(20 * (math.exp(1.2) - 1) - 24)
    assert r.spot.p_interrupted == pytest.approx(1 - math.exp(-1.2))
    assert r.dedicated.expected_cost == 60.0
    assert r.dedicated.expected_lost_work_h == 0.0


def test_spot_with_checkpoints() -> None:
    # 48 stretches of 0.5 h: E[T] = 48 × 20.1 × (e^0.025 − 1) = 24.424 h; cost 19.539 $
    r = spot_vs_dedicated(
        SpotQuery(job_hours=24, spot_rate=0.8, dedicated_rate=2.5, checkpoint_interval_h=0.5, **USD)
    )
    hours = 48 * 20.1 * math.expm1(0.025)
    assert r.spot.expected_hours == pytest.approx(hours)
    assert r.spot.expected_cost == pytest.approx(0.8 * hours)
    assert r.spot.expected_lost_work_h == pytest.approx(48 * (20 * math.expm1(0.025) - 0.5))
    assert r.verdict == "spot_with_checkpoints"
    assert r.savings_factor == pytest.approx(60 / (0.8 * hours))


def test_spot_checkpoint_interval_not_dividing_the_job() -> None:
    # 2.5 h with checkpoints every 1 h: stretches 1 + 1 + 0.5
    r = spot_vs_dedicated(
        SpotQuery(job_hours=2.5, spot_rate=1, dedicated_rate=2, checkpoint_interval_h=1, interruptions_per_hour=0.1,
                  restart_overhead_h=0, **USD)
    )  # fmt: skip
    assert r.spot.expected_hours == pytest.approx(10 * (2 * math.expm1(0.1) + math.expm1(0.05)))


def test_spot_with_no_interruptions_is_just_cheaper() -> None:
    r = spot_vs_dedicated(
        SpotQuery(job_hours=10, spot_rate=1, dedicated_rate=3, interruptions_per_hour=0, **USD)
    )
    assert r.spot.expected_cost == 10.0
    assert r.verdict == "spot"
    assert r.savings_factor == 3.0


def test_spot_that_never_finishes() -> None:
    # λ = 1/h over 1000 h without checkpoints: e^1000 restarts. With a checkpoint every 0.5 h:
    # 2000 stretches × (e^0.5 − 1) = 1297.4 restarts; 1297.4 h redone-or-worked + 129.7 h restarting
    r = spot_vs_dedicated(
        SpotQuery(job_hours=1000, spot_rate=1, dedicated_rate=3, interruptions_per_hour=1, **USD)
    )
    assert not r.spot.finishes
    assert r.spot.expected_cost is None
    assert r.verdict_as_given == "dedicated"
    assert r.verdict == "spot_with_checkpoints"
    assert r.spot_with_checkpoints is not None
    assert r.spot_with_checkpoints.expected_hours == pytest.approx(2000 * math.expm1(0.5) * 1.1)


def test_dedicated_when_checkpoints_do_not_pay() -> None:
    # same job, dedicated at 1.2/h = 1200 < 1427 on spot with checkpoints
    r = spot_vs_dedicated(
        SpotQuery(job_hours=1000, spot_rate=1, dedicated_rate=1.2, interruptions_per_hour=1, **USD)
    )
    assert (r.verdict, r.verdict_as_given, r.savings_factor) == ("dedicated", "dedicated", None)


def test_spot_short_interactive_job() -> None:
    # 2 h: P(interrupted) = 1 − e^{−0.1} = 9.5 % < 25 %: spot wins
    r = spot_vs_dedicated(SpotQuery(job_hours=2, spot_rate=0.8, dedicated_rate=2.5, **USD))
    assert r.verdict == "spot"


def test_rent_vs_buy_break_even() -> None:
    # electricity 450 W × 0.25 €/kWh = 0.1125 €/h; saving 0.5 − 0.1125 = 0.3875 €/h;
    # 2000 / 0.3875 = 5161.29 h; at 8 h/day = 645.16 days = 21.505 months (30-day months)
    r = rent_vs_buy(
        RentVsBuyQuery(
            purchase_price=2000, rent_rate=0.5, power_w=450, electricity_price_per_kwh=0.25, **EUR
        )
    )
    assert r.electricity_per_hour == pytest.approx(0.1125)
    assert r.break_even_hours == pytest.approx(2000 / 0.3875)
    assert r.break_even_days == pytest.approx(2000 / 0.3875 / 8)
    assert r.break_even_months == pytest.approx(2000 / 0.3875 / 8 / 30)


def test_rent_vs_buy_with_resale() -> None:
    # net 2000 − 50 % = 1000; saving 0.5 − 0.1125 → 2580.65 h; 4 h/day → 21.505 months
    r = rent_vs_buy(
        RentVsBuyQuery(
            purchase_price=2000,
            rent_rate=0.5,
            power_w=450,
            resale_fraction=0.5,
            hours_per_day=4,
            **EUR,
        )
    )
    assert r.net_purchase == 1000
    assert r.break_even_hours == pytest.approx(1000 / 0.3875)
    assert r.break_even_months == pytest.approx(1000 / 0.3875 / 4 / 30)


def test_rent_vs_buy_default_electricity_converted_to_dollars() -> None:
    # 0.25 €/kWh = 0.27 $/kWh; 1000 W → 0.27 $/h
    r = rent_vs_buy(RentVsBuyQuery(purchase_price=1000, rent_rate=1.27, power_w=1000, **USD))
    assert r.electricity_price_per_kwh == pytest.approx(0.27)
    assert r.break_even_hours == pytest.approx(1000.0)


def test_rent_vs_buy_never_pays_off() -> None:
    r = rent_vs_buy(RentVsBuyQuery(purchase_price=1000, rent_rate=0.1, power_w=450, **EUR))
    assert r.break_even_hours is None
    assert "never" in r.summary


def test_rent_vs_buy_from_gpu_uses_catalog_power() -> None:
    r = rent_vs_buy(RentVsBuyQuery(gpu="RTX 4090", purchase_price=1800, rent_rate=0.4, **EUR))
    assert r.power_w == 450
    assert r.break_even_hours == pytest.approx(1800 / (0.4 - 0.1125))


def test_rent_vs_buy_rejects_resale_above_price() -> None:
    with pytest.raises(ValidationError, match="resale_value cannot exceed"):
        RentVsBuyQuery(purchase_price=100, rent_rate=1, resale_value=200)


def test_rent_vs_buy_unknown_gpu() -> None:
    r = rent_vs_buy(RentVsBuyQuery(gpu="Voodoo 5"))
    assert not r.found and r.break_even_hours is None


def test_forgotten_instance_given_rate() -> None:
    # 8 GPUs × 48 h × 2 $/h = 768 $
    r = forgotten_instance(ForgottenQuery(rate_per_hour=2, gpu_count=8, **USD))
    assert r.hours == 48 and r.cost_typical == 768.0


def test_storage_billed_while_stopped() -> None:
    # 500 GB × 0.08 $/GB-month / 30 days = 1.3333 $/day
    r = storage_cost(StorageQuery(gb=500, days=1, **USD))
    assert r.cost_per_day == pytest.approx(500 * 0.08 / 30)
    assert r.cost == pytest.approx(4 / 3)
    r = storage_cost(StorageQuery(gb=2000, price_per_gb_month=0.10, days=45, **USD))
    assert r.cost == pytest.approx(300.0)


def test_rent_vs_buy_rents_as_many_cards_as_it_buys() -> None:
    one = rent_vs_buy(
        RentVsBuyQuery(purchase_price=300_000, rent_rate=2.5, power_w=5600, currency="USD")
    )
    eight = rent_vs_buy(
        RentVsBuyQuery(
            purchase_price=300_000, rent_rate=2.5, power_w=5600, currency="USD", gpu_count=8
        )
    )
    assert one.rent_rate == pytest.approx(2.5)
    assert eight.rent_rate == pytest.approx(20.0)  # a rate per card, for eight cards
    assert eight.break_even_hours is not None and one.break_even_hours is not None
    assert eight.break_even_hours < one.break_even_hours
    assert any("per card × 8 cards" in a for a in eight.assumptions)


def test_a_supply_is_checked_against_every_card_of_the_machine() -> None:
    from assistant.tools.power import PowerQuery, power_cost

    both = power_cost(PowerQuery(gpu="RTX 4080 Super", psu_w=850, other_gpus=["RTX 3060 12GB"]))
    assert both.psu is not None and both.psu.cards_w == 320 + 170
    assert both.psu.basis == "estimate" and both.psu.verdict != "enough"
    assert both.other_gpus == ["GeForce RTX 3060 12GB"]
    alone = power_cost(PowerQuery(gpu="RTX 4080 Super", psu_w=850))
    assert alone.psu is not None and alone.psu.verdict == "enough" and alone.other_gpus == []
