"""The agent loop with a scripted chat model: tool call -> real tool result -> answer."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from assistant.agent.api import ask, ask_stream
from assistant.agent.toolset import TOOL_NAMES
from assistant.tools.cost import RentQuery, StorageQuery, rent_cost, storage_cost
from tests.agent.scripted import scripted, tool_call


def test_tool_call_then_answer_records_arguments_and_real_result() -> None:
    model = scripted(tool_call("rent_cost", {"hours": 10, "rate_per_hour": 2.5}), "It costs 25.")

    answer = ask("How much for 10 hours at 2.5 an hour?", backend=model)

    expected = rent_cost(RentQuery(hours=10, rate_per_hour=2.5)).model_dump(mode="json")
    assert answer.text == "It costs 25."
    assert answer.language == "en"
    assert answer.backend == "ScriptedChatModel"
    assert len(answer.tool_calls) == 1
    call = answer.tool_calls[0]
    assert (call.name, call.arguments, call.error) == (
        "rent_cost",
        {"hours": 10, "rate_per_hour": 2.5},
        None,
    )
    assert call.result == expected
    assert call.result["cost_typical"] == 25.0
    assert answer.citations == []
    assert answer.elapsed_ms > 0
    # The model saw the system prompt first and the tool's JSON on its second turn.
    first, second = model.seen
    assert isinstance(first[0], SystemMessage) and "never" in first[0].text.lower()
    assert (
        isinstance(first[-1], HumanMessage)
        and first[-1].text == "How much for 10 hours at 2.5 an hour?"
    )
    assert isinstance(second[-1], ToolMessage)
    assert json.loads(second[-1].text) == expected


def test_every_registered_tool_is_offered_to_the_model() -> None:
    model = scripted("Hi.")
    ask("hello", backend=model)
    assert model.bound_tools == list(TOOL_NAMES)


def test_invalid_tool_arguments_come_back_as_an_error_the_model_can_relay() -> None:
    model = scripted(
        tool_call("rent_cost", {"hours": -3, "rate_per_hour": 2}), "Hours must be positive."
    )

    answer = ask("rent for -3 hours", backend=model)

    call = answer.tool_calls[0]
    assert call.result is None
    assert call.error == "invalid arguments — hours: Input should be greater than 0"
    assert json.loads(model.seen[1][-1].text) == {"error": call.error}
    assert answer.text == "Hours must be positive."
    assert answer.notices == []


def test_nan_and_huge_arguments_are_refused_not_crashed() -> None:
    model = scripted(
        AIMessage(
            content="",
            tool_calls=[
                {"name": "storage_cost", "args": {"gb": float("nan")}, "id": "a"},
                {"name": "storage_cost", "args": {"gb": 1e12}, "id": "b"},
            ],
        ),
        "Those sizes are not valid.",
    )

    answer = ask("storage for NaN GB and 10^12 GB", backend=model)

    assert [c.name for c in answer.tool_calls] == ["storage_cost", "storage_cost"]
    assert all(c.error and c.error.startswith("invalid arguments — gb:") for c in answer.tool_calls)
    assert answer.text == "Those sizes are not valid."


def test_two_tool_calls_in_one_turn_are_both_recorded_in_order() -> None:
    model = scripted(
        AIMessage(
            content="",
            tool_calls=[
                {"name": "storage_cost", "args": {"gb": 100}, "id": "a"},
                {"name": "rent_cost", "args": {"hours": 4, "rate_per_hour": 1}, "id": "b"},
            ],
        ),
        "Both done.",
    )

    answer = ask("storage and rent", backend=model)

    assert [(c.name, c.arguments) for c in answer.tool_calls] == [
        ("storage_cost", {"gb": 100}),
        ("rent_cost", {"hours": 4, "rate_per_hour": 1}),
    ]
    assert answer.tool_calls[0].result == storage_cost(StorageQuery(gb=100)).model_dump(mode="json")


def test_history_is_passed_to_the_model_before_the_follow_up() -> None:
    model = scripted("And the 3090 is cheaper.")
    history = [
        {"role": "user", "content": "How much is a 4090 per hour?"},
        {"role": "assistant", "content": "About 0.7 per hour."},
    ]

    answer = ask("and the 3090?", history=history, backend=model)

    sent = model.seen[0]
    assert [type(m).__name__ for m in sent] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
    ]
    assert [m.text for m in sent[1:]] == [
        "How much is a 4090 per hour?",
        "About 0.7 per hour.",
        "and the 3090?",
    ]
    assert answer.question == "and the 3090?"


def test_stream_events_come_in_order_tool_then_text_then_done() -> None:
    model = scripted(tool_call("rent_cost", {"hours": 2, "rate_per_hour": 3}), "Six.")

    events = list(ask_stream("2 h at 3/h?", backend=model))

    assert [e.kind for e in events] == ["tool_call", "text", "done"]
    assert events[0].tool_call is not None and events[0].tool_call.name == "rent_cost"
    assert events[1].text == "Six."
    done = events[2].answer
    assert done is not None and done.text == "Six."
    assert done.tool_calls == [events[0].tool_call]


def test_french_question_gets_french_language() -> None:
    answer = ask("Combien coûte une location de 10 heures ?", backend=scripted("Environ 25 €."))
    assert answer.language == "fr"
    assert answer.to_record()["language"] == "fr"


@pytest.mark.slow
def test_a_model_that_loops_on_tools_is_stopped_and_falls_back(monkeypatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_LLM_MAX_STEPS", "2")
    model = scripted(*[tool_call("storage_cost", {"gb": 1}, f"c{i}") for i in range(10)])

    answer = ask("loop", backend=model)

    assert answer.backend == "offline"
    assert answer.notices == [
        "The ScriptedChatModel backend failed (too many tool steps); answered offline."
    ]


@pytest.mark.slow
def test_an_empty_final_answer_counts_as_a_failure() -> None:
    answer = ask("hello", backend=scripted(""))
    assert answer.backend == "offline"
    assert answer.notices == [
        "The ScriptedChatModel backend failed (empty answer); answered offline."
    ]
