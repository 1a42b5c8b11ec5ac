"""What a power, spot or fit question says beyond a card: the rest of the machine, servers and a
PUE, thousands of GPU-hours, how often spot jobs are taken back, a deadline, how many cards or
requests, and a follow-up that leaves out what the previous turn said."""

from __future__ import annotations

import math

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.quantities import interruption_share, read_machines, read_pue


def _call(answer, name: str) -> dict:  # type: ignore[no-untyped-def]
    return next(c.arguments for c in answer.tool_calls if c.name == name)


def test_the_rest_of_the_pc_is_not_a_second_card_draw() -> None:
    ent = extract_entities("my 3 RTX 3080 rig: ~280 W per card + 90 W for the rest of the PC")
    assert ent.power_w == 280 and ent.rest_w == 90 and ent.power_options == [280]
    fr = extract_entities("je mesure 200 W par carte et 100 W pour le reste, élec 0,20 €/kWh")
    assert fr.power_w == 200 and fr.rest_w == 100


def test_servers_a_count_of_them_and_a_pue_are_read() -> None:
    text = "three 8x A100 SXM nodes in our colo, PUE 1.3, $0.09/kWh: yearly bill?"
    assert read_pue(text) == 1.3 and read_pue("un PUE de 1,5") == 1.5 and read_pue("PUE") is None
    assert read_machines(text)[0] == 3
    assert read_machines("2 x 4090 in one of our servers") == (None, None)
    ent = extract_entities(text)
    assert ent.servers and ent.machines == 3 and ent.counts_per_machine


def test_a_server_bill_counts_every_card_the_servers_and_the_pue() -> None:
    answer = ask(
        "what would 2 DGX-type servers with 8x H100 SXM each cost in power per year at $0.12/kWh, PUE 1.5?"
    )
    args = _call(answer, "power_cost")
    assert args["gpu_count"] == 16 and args["servers"] and args["pue"] == 1.5
    # 2 x 10.2 kW x 1.5 x 8,760 h x $0.12
    assert "$32,167 a year" in answer.text.split("\n")[0]


def test_gpu_hours_and_thousands_are_one_duration() -> None:
    assert [d.hours for d in parse_durations("about 3,000 GPU-hours in all")] == [3000.0]
    assert [d.hours for d in parse_durations("1 500 heures GPU")] == [1500.0]
    assert [d.hours for d in parse_durations("3,5 heures")] == [3.5]
    assert [d.per_day for d in parse_durations("6 hours every night")] == [6.0]
    assert [d.per_day for d in parse_durations("8 h par nuit")] == [8.0]


def test_a_share_of_spot_jobs_taken_back_becomes_a_rate() -> None:
    assert interruption_share("roughly 10% of spot jobs get interrupted") == (0.1, None)
    assert interruption_share("5 % interrompues par heure") == (0.05, 1.0)
    assert interruption_share("spot is 60% cheaper") is None
    answer = ask(
        "2,000 GPU-hours of independent 30 min jobs. spot $0.90/h vs on-demand $2.20/h, about 20% "
        "of spot jobs get preempted. which?"
    )
    args = _call(answer, "spot_vs_dedicated")
    assert args["job_hours"] == 2000
    assert args["interruptions_per_hour"] == pytest.approx(-math.log(0.8) / 0.5)


def test_a_deadline_makes_dedicated_the_choice() -> None:
    answer = ask(
        "client delivery due tonight: a 4 h LoRA run, spot at $0.30/h or on-demand at $0.70/h?"
    )
    assert _call(answer, "spot_vs_dedicated")["deadline"] is True
    first = answer.text.split("\n")[0]
    assert first.startswith("**For a job of 4 h: Dedicated.**") and "deadline" in first
    relaxed = ask("a 4 h LoRA run, spot at $0.30/h or on-demand at $0.70/h?")
    assert "Dedicated.**" not in relaxed.text.split("\n")[0]


def test_how_many_cards_and_how_many_requests_are_answered_in_the_headline() -> None:
    cards = ask("how many RTX 4090 do I need for Llama 3.1 70B in int4?")
    assert "By memory" in cards.text.split("\n")[0]
    served = ask("how many concurrent 8k-token requests fit for Llama 3.1 8B on one L40S?")
    head = served.text.split("\n")[0]
    assert _call(served, "workload_fit")["context_tokens"] == 8192
    assert head.startswith("**About ") and "sequences of 8,192 tokens at once" in head


def test_a_follow_up_that_names_nothing_takes_the_previous_turn() -> None:
    history = [
        {"role": "user", "content": "my 3090 box pulls 480W at the wall while training"},
        {"role": "assistant", "content": "That is typical for a 3090 plus the CPU and the rest."},
    ]
    answer = ask(
        "what does that cost per month if it runs 10 hours every night at 0.30 €/kWh?",
        history=history,
    )
    args = _call(answer, "power_cost")
    assert args["power_w"] == 480 and args["hours_per_day"] == 10
    assert args["electricity_price_per_kwh"] == 0.3


@pytest.mark.parametrize(
    ("question", "psu", "power"),
    [
        ("Can a 250W PSU run an RX 6600 XT?", 250, None),
        ("Mon alimentation de 550 W suffit pour une RTX 3060 ?", 550, None),
        ("4090 draws 450W, PSU is 850W, what does it cost per month?", 850, 450),
        ("同样的电脑型号,250w的电源可以带动RX6600XT显卡吗?", 250, None),
    ],
)
def test_a_power_supply_rating_is_not_a_draw(
    question: str, psu: float, power: float | None
) -> None:
    ent = extract_entities(question)
    assert ent.psu_w == psu and ent.power_w == power


def test_a_power_supply_question_opens_with_the_verdict_and_no_bill() -> None:
    answer = ask("Can a 250W PSU run an RX 6600 XT?")
    first = answer.text.split("\n\n")[0]
    assert first.startswith("**No: a 250 W power supply is too small"), answer.text
    assert "500 W" in first
    assert "a month" not in answer.text and "kWh" not in answer.text
    french = ask("Mon alimentation de 550 W suffit pour une RTX 3060 ?").text
    assert french.startswith("**Oui : une alimentation de 550 W suffit"), french
