"""Electricity as people write it: a bill's 'unit' is a kWh, '24x7' is always on, one run of a
few hours is priced as that run; memory another program already holds is not the model's."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities


def test_a_bills_unit_is_a_kwh_when_power_is_drawn() -> None:
    ent = extract_entities(
        "the whole PC pulls around 260 watts from the wall 24x7. my slab is about Rs 8 per unit."
    )
    assert ent.electricity_price is not None and ent.electricity_price.amount == 8.0
    assert ent.electricity_price.currency == "INR" and ent.always_on
    # a price per unit with no power drawn is no electricity price
    assert extract_entities("The RTX 4090 costs $1600 per unit").electricity_price is None


def test_a_price_per_kwh_is_enough_to_price_the_electricity() -> None:
    answer = ask(
        "if i leave lc0 running 24x7 the whole PC pulls around 260 watts from the wall. "
        "my slab is about Rs 8 per unit. how much per month is that?"
    )
    power = [c for c in answer.tool_calls if c.name == "power_cost"]
    assert power and power[0].arguments["hours_per_day"] == 24.0
    assert answer.text.startswith(
        "**The machine at 260 W for 24 h a day, at ₹8.00/kWh: ₹1,498 a month**"
    )


def test_one_run_of_some_hours_is_priced_as_that_run() -> None:
    answer = ask(
        "My rig draws 600 W. A training run takes 5 h. What does the electricity cost at 0.30 €/kWh?"
    )
    assert answer.text.startswith("**One 5 h run at 600 W: 3 kWh, €0.90.**")
    assert "8 h a day" not in answer.text
    fr = ask("Une session de vol de 3 h, je mesure ~650 W, à 0,7562 €/kWh : ça coûte combien ?")
    assert fr.text.startswith("**Une séance de 3 h à 650 W : 1,95 kWh, 1,47\u00a0€.**")


def test_memory_a_simulator_holds_is_not_the_models() -> None:
    ent = extract_entities(
        "je vole sur MSFS 2024 avec une RTX 4080 Super 16 Go. Le simu prend déjà 12 à 14 Go de VRAM."
    )
    assert ent.memory_in_use_gb == 14.0


def test_a_replaced_card_leaves_the_supply() -> None:
    from assistant.agent.offline.planner import tool_calls_for
    from assistant.agent.offline.reading import Conversation, read_turn

    def power_calls(question: str) -> list[dict]:
        calls = tool_calls_for(read_turn(Conversation(question)))
        return [c.args for c in calls if c.name == "power_cost"]

    both = power_calls("Is my 850 W PSU enough for an RTX 4080 Super plus an RTX 3060?")
    assert both and both[0]["other_gpus"] == ["GeForce RTX 3060 12GB"]
    replaced = power_calls(
        "Une RTX 5090 pour remplacer la P4000 dans la même tour : mon alim de 650 W suffit ?"
    )
    assert (
        replaced and replaced[0]["gpu"] == "GeForce RTX 5090" and not replaced[0].get("other_gpus")
    )


def test_items_a_month_times_the_length_of_one_is_the_use() -> None:
    """'a dossier takes ~2 minutes … 300 dossiers a month' is 10 h a month, not a default day."""
    answer = ask(
        "Côté coûts : un dossier prend ~2 minutes à résumer, portable à ~45 W. 300 dossiers par "
        "mois, électricité ~0,20 €/kWh. Ça fait combien ?"
    )
    power = [c for c in answer.tool_calls if c.name == "power_cost"]
    assert power and abs(power[0].arguments["hours_per_day"] * 365 / 12 - 10) < 0.01
    assert "0,09\u00a0€ par mois" in answer.text.split("\n\n")[0], answer.text


def test_a_price_per_kwh_without_a_currency_is_used() -> None:
    ent = extract_entities("power is 0.30 per kWh and the card draws 350 W")
    assert ent.electricity_price is None and ent.bare_kwh_price == 0.30
    answer = ask("My card draws 350 W, 4 h a day, power is 0.30 per kWh. What does it cost?")
    assert "0.30/kWh" in answer.text.split("\n\n")[0], answer.text


def test_a_tiny_figure_keeps_its_digits() -> None:
    from assistant.agent.offline.texts import money, num

    assert num(0.0015, "en", 2) == "0.0015"
    assert money(0.0003, "EUR", "en") == "€0.0003"
    assert num(0, "en", 1) == "0" and money(0, "USD", "en") == "$0"


def test_no_passage_is_quoted_under_a_calculation_on_the_asker_s_figures() -> None:
    answer = ask("My 4090 runs 6 hours a day, electricity 0.25 €/kWh, how much a month?")
    assert "From the knowledge base" not in answer.text and "From the guide" not in answer.text


def test_the_draw_settled_on_is_priced_first() -> None:
    """'configurable from 450 to 1000 W; count 900 W on average': 900 W leads, 1000 W follows."""
    answer = ask(
        "Un GH200 est configurable de 450 à 1000 W. Si on compte 900 W en moyenne, 720 h par "
        "mois, 0,15 €/kWh, ça donne quoi ?"
    )
    watts = [c.arguments.get("power_w") for c in answer.tool_calls if c.name == "power_cost"]
    assert watts[:1] == [900.0], watts


def test_a_machines_draw_times_the_machines_counted() -> None:
    from assistant import ask

    text = ask(
        "the mini pulls maybe 70W when busy, if I run two minis 8h a day at NT$4.5/kWh, how much "
        "per month?"
    ).text
    assert text.startswith("**2 machines at 70 W each (140 W in all) for 8 h a day"), text
    assert "NT$151 a month" in text.split("\n\n")[0]
