"""Out-of-range tool arguments from an LLM: a clear error text, never a traceback, and the
process keeps answering. Checked on the LangChain tools themselves and through a chat model
served over HTTP that sends exactly those arguments."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import assistant
from tests.agent.openai_stub import StubOpenAI, reply_text, reply_tool_call

BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    (
        "rent_cost",
        {"gpu": "H100", "hours": -5},
        "invalid arguments — hours: Input should be greater than 0",
    ),
    (
        "rent_cost",
        {"gpu": "H100", "hours": math.nan},
        "invalid arguments — hours: Input should be a finite number",
    ),
    (
        "budget_plan",
        {"budget": 1e12, "currency": "EUR"},
        "invalid arguments — budget: 1e+12 EUR is more than 1,000,000,000 EUR",
    ),
    (
        "workload_fit",
        {"model": "Llama 3 8B", "vram_gb": -24},
        "invalid arguments — vram_gb: Input should be greater than 0",
    ),
    (
        "forgotten_instance",
        {"gpu": "H100", "hours": math.inf},
        "invalid arguments — hours: Input should be a finite number",
    ),
]


def _tools() -> dict[str, Any]:
    from assistant.agent.toolset import build_tools

    return {t.name: t for t in build_tools()}


@pytest.mark.parametrize(("name", "args", "error"), BAD_CALLS, ids=lambda v: str(v)[:30])
def test_out_of_range_arguments_are_a_clear_error_value(name, args, error) -> None:
    text = _tools()[name].invoke(args)
    assert json.loads(text) == {"error": error}
    assert "Traceback" not in text and 'File "' not in text


def test_an_unknown_gpu_is_a_result_with_suggestions_not_an_error() -> None:
    result = json.loads(_tools()["gpu_lookup"].invoke({"name": "RTX 9999 Ultra"}))
    assert result["found"] is False and result["gpu"] is None
    assert result["message"].startswith("'RTX 9999 Ultra' is not in the GPU catalog. Did you mean:")
    assert len(result["suggestions"]) == 5

    cost = json.loads(_tools()["rent_cost"].invoke({"gpu": "Voodoo 5 6000", "hours": 10}))
    assert cost["found"] is False
    assert cost["cost_typical"] is None
    assert cost["suggestions"]


def test_a_model_sending_bad_arguments_over_http_gets_errors_and_the_process_keeps_serving(
    monkeypatch,
) -> None:
    stub = StubOpenAI(
        script=[
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{i}",
                        "type": "function",
                        # NaN and Infinity are what a model's JSON can carry for "not a number"
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                    for i, (name, args, _) in enumerate(BAD_CALLS)
                ],
            },
            reply_tool_call("gpu_lookup", {"name": "RTX 9999 Ultra"}, "call_x"),
            reply_text("Those inputs were out of range; the card is unknown."),
            reply_text("Still here."),
        ]
    ).start()
    try:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        answer = assistant.ask("cost of -5 h, NaN h, 10^12 €?", backend="openai:stub")
        again = assistant.ask("hello again", backend="openai:stub")
    finally:
        stub.stop()

    assert answer.backend == "openai:stub" and answer.notices == []
    # the tools of one turn run concurrently, so they finish in any order
    assert sorted((c.name, c.error) for c in answer.tool_calls[: len(BAD_CALLS)]) == sorted(
        (name, error) for name, _, error in BAD_CALLS
    )
    unknown = answer.tool_calls[-1]
    assert unknown.name == "gpu_lookup" and unknown.result["found"] is False
    assert answer.text == "Those inputs were out of range; the card is unknown."
    # the model was shown each error as its tool result, so it can relay it
    tool_messages = [m for m in stub.requests[1]["messages"] if m["role"] == "tool"]
    by_id = {m["tool_call_id"]: json.loads(m["content"]) for m in tool_messages}
    assert by_id == {f"call_{i}": {"error": error} for i, (_, _, error) in enumerate(BAD_CALLS)}
    assert again.text == "Still here." and again.backend == "openai:stub"
    assert "Traceback" not in answer.model_dump_json()
