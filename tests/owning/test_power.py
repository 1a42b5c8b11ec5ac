"""Running cost of an owned card, from hand calculations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.tools.power import PowerQuery, power_cost

EUR = {"currency": "EUR", "usd_per_eur": 1.08}


def test_3090_by_hand() -> None:
    # 350 W x 8 h = 2.8 kWh a day; x 0.40 €/kWh = 1.12 € a day, 33.60 € a month;
    # idle 20 W: (350 - 20) / 1000 x 8 x 0.40 = 1.056 € a day more than idle
    r = power_cost(
        PowerQuery(gpu="RTX 3090", hours_per_day=8, electricity_price_per_kwh=0.40, **EUR)
    )
    assert r.found and r.power_w == 350 and r.power_basis == "TDP"
    assert r.kwh_per_day == pytest.approx(2.8)
    assert r.cost_per_day == pytest.approx(1.12)
    assert r.cost_per_month == pytest.approx(33.6)
    assert r.extra_over_idle_per_day == pytest.approx(1.056)
    assert r.cost_per_hour == pytest.approx(0.14)
    assert r.rent_rate is not None and r.electricity_share_of_rent == pytest.approx(
        0.14 / r.rent_rate
    )
    assert "€33.60 a month" in r.summary and "33,60\u00a0€ par mois" in r.summary_fr
    assert r.formula and r.inputs["watts"] == 350


def test_a_sourced_typical_draw_wins_over_tdp() -> None:
    r = power_cost(PowerQuery(gpu="RTX 4060", electricity_price_per_kwh=0.25, **EUR))
    assert r.power_w == 110 and r.power_basis == "typical"
    assert any("typical draw" in a for a in r.assumptions)


def test_several_cards_and_given_watts() -> None:
    r = power_cost(PowerQuery(gpu="H100", gpu_count=8, power_w=700, idle_w=70, hours_per_day=24,
                              electricity_price_per_kwh=0.1, currency="USD", usd_per_eur=1.08))  # fmt: skip
    # 8 x 700 W x 24 h = 134.4 kWh a day x $0.10 = $13.44
    assert r.cost_per_day == pytest.approx(13.44)
    assert r.extra_over_idle_per_day == pytest.approx(8 * 630 / 1000 * 24 * 0.1)


def test_unknown_card_needs_watts() -> None:
    r = power_cost(PowerQuery(gpu="Voodoo 5", electricity_price_per_kwh=0.2, **EUR))
    assert not r.found and "power_w" in (r.message or "")
    ok = power_cost(PowerQuery(gpu="Voodoo 5", power_w=60, electricity_price_per_kwh=0.2, **EUR))
    assert ok.found and ok.cost_per_day == pytest.approx(60 / 1000 * 8 * 0.2)


@settings(max_examples=40, deadline=None)
@given(h1=st.floats(0.1, 24), h2=st.floats(0.1, 24), price=st.floats(0, 5))
def test_more_hours_never_cost_less(h1: float, h2: float, price: float) -> None:
    h1, h2 = sorted((h1, h2))
    a = power_cost(
        PowerQuery(gpu="RTX 4090", hours_per_day=h1, electricity_price_per_kwh=price, **EUR)
    )
    b = power_cost(
        PowerQuery(gpu="RTX 4090", hours_per_day=h2, electricity_price_per_kwh=price, **EUR)
    )
    assert (b.cost_per_month or 0) >= (a.cost_per_month or 0)
    assert (b.extra_over_idle_per_month or 0) >= (a.extra_over_idle_per_month or 0) >= 0


def test_an_always_on_card_pays_its_idle_hours_too() -> None:
    # 300 W x 5 h + 20 W x 19 h = 1.88 kWh a day; x 0.30 = 0.564 a day, 16.92 a month (30 days),
    # 205.86 a year (365 days)
    r = power_cost(
        PowerQuery(
            gpu="RTX 3090",
            power_w=300,
            idle_w=20,
            hours_per_day=5,
            idle_hours_per_day=19,
            electricity_price_per_kwh=0.30,
            **EUR,
        )  # fmt: skip
    )
    assert r.idle_hours_per_day == 19
    assert r.kwh_per_day == pytest.approx(1.88)
    assert r.kwh_per_month == pytest.approx(56.4)
    assert r.cost_per_day == pytest.approx(0.564)
    assert r.cost_per_month == pytest.approx(16.92)
    assert r.cost_per_year == pytest.approx(205.86)
    assert r.inputs["idle_hours_per_day"] == 19


def test_idle_hours_never_exceed_the_rest_of_the_day() -> None:
    r = power_cost(
        PowerQuery(
            gpu="RTX 3090",
            power_w=300,
            idle_w=20,
            hours_per_day=10,
            idle_hours_per_day=20,
            electricity_price_per_kwh=0.30,
            **EUR,
        )  # fmt: skip
    )
    assert r.idle_hours_per_day == 14
    assert r.kwh_per_day == pytest.approx(3.0 + 0.28)


def test_the_rest_of_the_machine_is_counted_once_per_machine() -> None:
    # (6 x 170 W + 120 W) x 24 h = 27.36 kWh a day; x 0.2276 €/kWh x 30 days = 186.82 €
    r = power_cost(
        PowerQuery(
            gpu="RTX 3070",
            gpu_count=6,
            power_w=170,
            system_w=120,
            hours_per_day=24,
            electricity_price_per_kwh=0.2276,
            **EUR,
        )  # fmt: skip
    )
    assert r.total_w == 1140 and r.system_w == 120 and r.machines == 1
    assert r.kwh_per_day == pytest.approx(27.36)
    assert r.cost_per_month == pytest.approx(27.36 * 0.2276 * 30)


def test_servers_take_the_rest_from_the_vendor_rating_and_run_all_day() -> None:
    # 4 DGX H100: 32 x 700 W + 4 x (10,200 - 8 x 700) W = 40.8 kW; x 1.4 PUE x 8,760 h x $0.11
    r = power_cost(
        PowerQuery(
            gpu="H100 SXM",
            gpu_count=32,
            servers=True,
            pue=1.4,
            electricity_price_per_kwh=0.11,
            currency="USD",
        )  # fmt: skip
    )
    assert r.machines == 4 and r.system_w == 4600 and r.system == "NVIDIA DGX H100"
    assert r.hours_per_day == 24 and r.total_w == 40_800
    assert r.cost_per_year == pytest.approx(40.8 * 1.4 * 24 * 365 * 0.11)
    assert any("servers usually run" in a for a in r.assumptions)


def test_a_card_rated_only_in_its_server_takes_its_share() -> None:
    r = power_cost(PowerQuery(gpu="B200", gpu_count=8, servers=True, hours_per_day=10,
                              electricity_price_per_kwh=0.2, currency="USD"))  # fmt: skip
    assert r.found and r.power_basis == "system"
    assert r.power_w == pytest.approx(14_300 / 8) and r.system_w == 0
    # without the server, the card has no power figure and the tool asks for one
    alone = power_cost(PowerQuery(gpu="B200", electricity_price_per_kwh=0.2, currency="USD"))
    assert not alone.found and "power_w" in (alone.message or "")


def test_a_pue_scales_the_whole_bill() -> None:
    base = dict(gpu="RTX 4090", power_w=400, hours_per_day=10, electricity_price_per_kwh=0.3, **EUR)
    plain = power_cost(PowerQuery(**base))  # type: ignore[arg-type]
    cooled = power_cost(PowerQuery(**base, pue=1.5))  # type: ignore[arg-type]
    assert cooled.cost_per_day == pytest.approx(plain.cost_per_day * 1.5)  # type: ignore[operator]


def test_a_power_supply_is_checked_against_the_vendor_figure_else_an_estimate() -> None:
    # AMD recommends 500 W for an RX 6600 XT (160 W): 250 W cannot run it under load
    small = power_cost(PowerQuery(gpu="Radeon RX 6600 XT", psu_w=250)).psu
    assert small is not None and small.basis == "vendor" and small.recommended_w == 500
    assert small.verdict == "short"
    # NVIDIA: 850 W for a 4090; 750 W is below it, yet above the card + a modest rest
    tight = power_cost(PowerQuery(gpu="RTX 4090", psu_w=750)).psu
    assert tight is not None and tight.verdict == "tight" and tight.recommended_w == 850
    # two 3090s (2 x 350 W) + 375 W for the rest = 1,075 W, rounded up to 1,100 W
    two = power_cost(PowerQuery(gpu="RTX 3090", gpu_count=2, psu_w=1200)).psu
    assert two is not None and two.basis == "estimate" and two.recommended_w == 1100
    assert two.cards_w == 700 and two.verdict == "enough"
    assert power_cost(PowerQuery(gpu="RTX 3090")).psu is None


def test_a_power_supply_is_never_checked_against_a_bare_wattage() -> None:
    # 'my 1000 W supply: will the PC draw 1 kW all day?' names no card: nothing to check it against
    assert power_cost(PowerQuery(power_w=1000, psu_w=1000)).psu is None


def test_a_server_of_a_card_without_a_vendor_rating_borrows_a_similar_servers_rest() -> None:
    # No MI300X server rating in the data: the rest of each 8-card server is the DGX H100's,
    # 10,200 - 8 x 700 = 4,600 W, whatever an MI300X draws; 32 x 750 W + 4 x 4,600 W = 42.4 kW.
    r = power_cost(
        PowerQuery(
            gpu="MI300X", gpu_count=32, servers=True, pue=1.4, electricity_price_per_kwh=0.12, **EUR
        )  # fmt: skip
    )
    assert r.machines == 4 and r.system_w == 4600 and r.system_estimated
    assert r.total_w == 42_400
    assert r.cost_per_year == pytest.approx(42.4 * 1.4 * 24 * 365 * 0.12)
    assert any("no vendor rating" in a for a in r.assumptions)
    # a card with its own vendor server is not an estimate
    own = power_cost(PowerQuery(gpu="H200", gpu_count=8, servers=True, **EUR))
    assert own.system == "NVIDIA DGX H200" and not own.system_estimated
    # outside servers nothing is borrowed
    assert power_cost(PowerQuery(gpu="MI300X", gpu_count=8, **EUR)).system_w == 0


def test_every_server_and_stand_in_names_a_catalog_card() -> None:
    from assistant.knowledge.gpus import load_catalog
    from assistant.knowledge.running import load_running_costs

    names = {card.name for card in load_catalog().gpus}
    for system in load_running_costs().systems:
        assert system.gpu in names, system.name
        assert set(system.stands_for) <= names, system.name
        assert system.gpu not in system.stands_for, system.name
