"""A draw no one card could make is the machine's; the rest of the time is idle time; a cost with
a draw is an electricity question; a currency with a fixed parity or none on record is read; a
reported failure never gets a how-to as its nearest question."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.concepts import concepts_in, reports_failure
from assistant.agent.offline.entities import extract_entities


def _calls(answer, name: str) -> list[dict]:
    return [c.arguments for c in answer.tool_calls if c.name == name]


def test_a_server_draw_in_kilowatts_is_the_whole_machine_not_each_card() -> None:
    answer = ask(
        "The lab's DGX H100 is rated 10.2 kW. Running 24/7 at about 7 kW on average, at "
        "0.20 EUR per kWh, what is the monthly bill?"
    )
    calls = _calls(answer, "power_cost")
    assert calls and all(c.get("gpu") is None and c.get("gpu_count", 1) == 1 for c in calls)
    assert "7,000 W" in answer.text and "56,000" not in answer.text


def test_one_cards_draw_for_several_cards_is_still_each_cards() -> None:
    calls = _calls(ask("4 RTX 4090 at 450 W each, 8 h a day at 0.30 EUR/kWh: cost?"), "power_cost")
    assert calls[0]["gpu_count"] == 4 and calls[0]["power_w"] == 450


def test_the_rest_of_the_time_is_idle_time_not_the_rest_of_the_machine() -> None:
    calls = _calls(
        ask(
            "My PC draws 500 W while rendering 2 h a day and 80 W the rest of the time, and I "
            "leave it on. What does it cost per month at 0.20 EUR/kWh?"
        ),
        "power_cost",
    )
    assert calls[0]["idle_w"] == 80 and not calls[0].get("system_w")


def test_a_cost_next_to_a_draw_is_about_electricity() -> None:
    assert "electricity" in concepts_in("combien ce PC me coûte par mois ? Il tire ~400 W")
    assert "electricity" not in concepts_in("How much does a used RTX 3090 cost?")


def test_cfp_francs_and_tenge_are_read() -> None:
    cfp = extract_entities("le courant coûte 30 XPF le kWh")
    assert cfp.money and cfp.money[0].currency == "XPF"
    tenge = extract_entities("we pay 40 tenge per kWh")
    assert tenge.money and tenge.money[0].currency == "KZT"


def test_a_price_in_a_currency_with_no_rate_never_ends_the_answer() -> None:
    answer = ask(
        "power is 30 tenge per kWh; 2x RTX 3090 24/7 at 350 W, and renting two at $0.5/h "
        "each with $1 = 500 KZT: which is cheaper per month?"
    )
    assert "could not produce an answer" not in answer.text
    assert "₸" in answer.text


def test_a_shutdown_is_a_failure_report() -> None:
    assert reports_failure("my workstation shuts down whenever I train on both cards")
    assert reports_failure("le PC redémarre tout seul pendant l'entraînement")


def test_a_shutdown_on_two_cards_never_gets_a_launch_how_to() -> None:
    answer = ask(
        "Whole machine powers off after a few minutes when training on my two RTX 3090s, "
        "one card alone is fine. Ubuntu 22.04."
    )
    assert "How do I start a training script on two GPUs" not in answer.text
    assert "power" in answer.text.lower()


def test_a_power_budget_with_no_bill_or_battery_capacity_is_no_electricity_bill() -> None:
    answer = ask("Our drone's Jetson Orin NX has a 20 W budget for compute: which power mode fits?")
    assert not _calls(answer, "power_cost")


def test_a_battery_with_its_capacity_still_gets_its_runtime() -> None:
    calls = _calls(ask("A 200 Wh battery feeds my Jetson at 30 W: how many hours?"), "power_cost")
    assert calls and calls[0]["battery_wh"] == 200
