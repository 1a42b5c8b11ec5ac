"""Off the grid: how long a battery runs the machine, and what a generator's fuel costs."""

from __future__ import annotations

import pytest

from assistant.tools.power import PowerQuery, power_cost


def test_battery_runtime_is_its_watt_hours_after_losses_over_the_draw() -> None:
    r = power_cost(PowerQuery(power_w=230, battery_wh=1024))
    assert r.battery is not None
    assert r.battery.hours_ideal == pytest.approx(1024 / 230)
    assert r.battery.hours == pytest.approx(1024 * r.battery.efficiency / 230)
    assert 0 < r.battery.efficiency < 1
    assert any(s.url.startswith("https://") for s in r.sources)


def test_the_battery_feeds_every_card_and_the_rest_of_the_machine() -> None:
    r = power_cost(
        PowerQuery(gpu="RTX 3090", gpu_count=2, power_w=350, system_w=150, battery_wh=1000)
    )
    assert r.battery is not None and r.battery.load_w == pytest.approx(850)


def test_generator_fuel_per_hour_and_per_kwh() -> None:
    r = power_cost(PowerQuery(power_w=300, fuel_l_per_h=1.2, fuel_price_per_l=1.6, currency="USD"))
    assert r.generator is not None
    assert r.generator.cost_per_hour == pytest.approx(1.92)
    assert r.generator.cost_per_kwh == pytest.approx(6.4)


@pytest.mark.parametrize(
    ("text", "battery_wh", "fuel"),
    [
        ("I run off an EcoFlow Delta 2 (1024 Wh) during blackouts", 1024.0, None),
        ("un onduleur de 1,5 kWh pour ma 4090", 1500.0, None),
        ("my meter says 5,600 kWh a year", None, None),
        ("le groupe consomme ~1,2 L/h de gasoil", None, 1.2),
        ("it burns about 0.8 litres per hour", None, 0.8),
    ],
)
def test_battery_and_fuel_are_read(text: str, battery_wh: float | None, fuel: float | None) -> None:
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities(text)
    assert (ent.battery_wh, ent.fuel_l_per_h) == (battery_wh, fuel)


def test_a_price_per_litre_is_read_before_or_after_the_amount() -> None:
    from assistant.money import parse_money

    assert [(p.amount, p.per) for p in parse_money("le litre me coute ~1,6 USD")] == [
        (1.6, "litre")
    ]
    assert [(p.amount, p.per) for p in parse_money("diesel is $1.20 per litre")] == [(1.2, "litre")]
    assert [p.per for p in parse_money("0,50 € l'heure-GPU")] == ["hour"]


def test_asked_how_long_the_battery_lasts_the_answer_leads_with_the_runtime() -> None:
    from assistant import ask

    answer = ask(
        "when power is out I run off an EcoFlow Delta 2 (1024 Wh). my laptop pulls ~230 W at "
        "the wall when training. how long does it last?"
    )
    assert "power_cost" in [c.name for c in answer.tool_calls]
    assert "runs the machine at 230 W for about 3.8 h" in answer.text, answer.text


def test_on_a_generator_the_answer_gives_its_hour_and_kwh() -> None:
    from assistant import ask

    text = (
        ask(
            "Avec les coupures je tourne sur groupe électrogène : il consomme ~1,2 L/h de gasoil, le "
            "litre me coûte ~1,6 USD. Mon PC avec RTX 3060 tire ~300 W. Ça me revient à combien de "
            "l'heure, et par kWh ?"
        )
        .text.replace("\u202f", " ")
        .replace("\xa0", " ")
    )
    assert "1,92 $ de l'heure" in text and "6,40 $ par kWh" in text, text


def test_the_runtime_is_set_against_the_outage_asked_about() -> None:
    from assistant import ask

    text = ask(
        "My PC draws about 450 W at the wall. Outages here last 2 hours: will a 1,500 Wh power "
        "station keep it running?"
    ).text
    assert "about 2.8 h: a 2 h outage is covered" in text, text  # 1500 × 0.85 ÷ 450


def test_a_saving_is_also_given_at_the_rate_the_question_states() -> None:
    from assistant import ask

    text = ask(
        "I pay ARS 120/kWh. The 4090 box pulls ~550 W, the 4070 Ti SUPER box ~350 W, 24/7 for a "
        "year: what's the difference (use ~ARS 1,200 per USD)?"
    ).text
    assert "ARS 210,240 (≈ $175 at the rate you give)" in text, text
