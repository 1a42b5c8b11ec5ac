"""'Spot' the instance, not the verb; a spot discount on a stated rate; a whole machine's idle
draw; a share of the hours spent working; two cards' bills in the order they were named."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.concepts import concepts_in


@pytest.mark.parametrize(
    ("text", "spot"),
    [
        ("A spot instance at $0.80/h or a dedicated one?", True),
        ("Les instances spot valent-elles le coup ?", True),
        ("if we just moved to spot at ~65% off?", True),
        ("spot g5.xlarge is like 60% cheaper", True),
        ("Is spot worth it for learning?", True),
        ("count bees and spot varroa on their backs", False),
        ("can you spot the difference between the two logs?", False),
        ("System interrupts gets very high CPU, then the PC shuts down", False),
    ],
)
def test_spot_is_the_instance_not_the_verb(text: str, spot: bool) -> None:
    assert ("spot" in concepts_in(text)) is spot


def test_a_spot_discount_on_the_stated_on_demand_rate() -> None:
    answer = ask(
        "On-demand is $1.20/h. Spot at ~65% off: worth it for a 10 h job with checkpoints?"
    )
    call = next(c for c in answer.tool_calls if c.name == "spot_vs_dedicated")
    assert call.arguments["dedicated_rate"] == 1.2
    assert call.arguments["spot_rate"] == pytest.approx(0.42)


def test_no_spot_calculator_for_a_question_about_something_else() -> None:
    answer = ask(
        "Jetson Orin Nano Super: can it do YOLO at 30 fps to count bees and spot varroa on their backs?"
    )
    assert "spot_vs_dedicated" not in [c.name for c in answer.tool_calls]


def test_an_idle_draw_below_the_rest_of_the_machine_is_the_whole_machines() -> None:
    answer = ask(
        "We pay 0.27 CHF/kWh. The box (600W card + 250W rest of system) runs 10h a day and idles "
        "at ~120W the rest of the time (left on 24/7). What's the yearly bill?"
    )
    call = next(c for c in answer.tool_calls if c.name == "power_cost")
    assert call.arguments["system_idle_w"] == 120 and call.arguments["idle_w"] == 0
    # 850 W × 10 h + 120 W × 14 h = 10.18 kWh a day
    assert "10.18 kWh a day" in answer.text and "idle at 120 W" in answer.text


def test_a_share_of_the_hours_spent_generating() -> None:
    answer = ask(
        "About EUR 0.36/kWh. The GPU pulls ~250W while generating. I work 4h a day but it is only "
        "generating maybe 25% of that time; the rest it idles at ~20W. Cost per month (30 days)?"
    )
    # 250 W × 1 h + 20 W × 3 h = 0.31 kWh a day × 30 × €0.36 = €3.35
    assert answer.text.startswith("**") and "€3.35 a month" in answer.text.split("\n")[0]


def test_the_second_card_is_priced_against_the_first() -> None:
    answer = ask(
        "EDF à 0,1952 €/kWh. Le PC (B570 150 W + le reste ~100 W) tourne 3 h/jour en charge et "
        "5 h/jour en idle à ~60 W. Ça coûte combien par an ? Et si je passe à une B580 (190 W) ?"
    )
    head = answer.text.split("\n")[0]
    assert "Arc B580 (190 W) coûte" in head and "de plus" in head
    assert "74,81\u00a0€" in answer.text  # the idle hours counted: 1,05 kWh a day
