"""'An 8-hour workday' is hours a day; '2x H100 at ~$5/h total' is the price of both cards."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation

QUESTION = (
    "why not rent instead? Say an 8-hour workday, 22 days a month, 2x H100 at ~$5/h total from a "
    "cloud provider, vs buying the ~$40k box which would live 4 years. We pay $0.14/kWh and the "
    "box would pull ~1.5 kW under load and ~300 W idle (it stays on 24/7). Give me a break-even."
)


@pytest.mark.parametrize(
    ("text", "hours"),
    [("an 8-hour workday", 8.0), ("a 10 hour working day", 10.0), ("a 9-hour business day", 9.0)],
)
def test_the_length_of_a_workday_is_hours_a_day(text: str, hours: float) -> None:
    assert extract_entities(text).hours_per_day == hours


def test_a_workday_is_used_over_a_machine_left_on() -> None:
    ent = extract_entities(QUESTION)
    assert ent.hours_per_day == 8.0 and ent.days_per_month == 22.0


def test_a_rate_said_to_be_the_total_is_split_over_the_cards() -> None:
    call = next(
        c for c in plan_tool_calls(Conversation(QUESTION), set()) if c.name == "rent_vs_buy"
    )
    assert call.args["gpu_count"] == 2 and call.args["rent_rate"] == pytest.approx(2.5)
    assert call.args["hours_per_day"] == 8.0
    sentence = QUESTION.replace("$5/h total from a cloud provider", "$5/h. Total cost matters")
    call = next(
        c for c in plan_tool_calls(Conversation(sentence), set()) if c.name == "rent_vs_buy"
    )
    assert call.args["rent_rate"] == pytest.approx(5.0)
    each = QUESTION.replace("$5/h total", "$5/h each")
    call = next(c for c in plan_tool_calls(Conversation(each), set()) if c.name == "rent_vs_buy")
    assert call.args["rent_rate"] == pytest.approx(5.0)


def test_an_amount_already_paid_is_no_budget() -> None:
    ent = extract_entities(
        "I bought an Intel Arc A770 16GB last year for £260. Is IPEX still the way to run PyTorch?"
    )
    assert ent.budgets and ent.budgets[0].paid and not ent.spendable
    assert extract_entities("J'ai acheté une 3090 à 700 €").budgets[0].paid
    assert extract_entities("I have 600 euros for a GPU").spendable[0].amount == 600
    assert extract_entities("I paid $900 for it").budgets[0].paid
    other = extract_entities("I bought a 3090 and now have 500 € for another card")
    assert other.spendable[0].amount == 500
    tools = [c.name for c in plan_tool_calls(Conversation(
        "I bought an Intel Arc A770 16GB last year for £260. Is IPEX still the way to run PyTorch?"
    ), set())]  # fmt: skip
    assert "recommend_gpus" not in tools and "budget_plan" not in tools
    paid = "I bought a 4090 for $1600 last year, should I have rented instead? I use it 3 h a day"
    calls = plan_tool_calls(Conversation(paid), set())
    assert calls[0].name == "rent_vs_buy" and calls[0].args["purchase_price"] == 1600
