"""The openai backend: the real ChatOpenAI client over real HTTP against a local stub server."""

from __future__ import annotations

import logging

import pytest

from assistant.agent.api import ask, ask_stream
from assistant.tools.cost import StorageQuery, storage_cost
from tests.agent.openai_stub import HANG, reply_text, reply_tool_call

KEY = "sk-test-SECRET-1234567890"
pytestmark = pytest.mark.slow  # a local server, and fallbacks to the real offline backend


def expected_storage(**args: object) -> dict:
    return storage_cost(StorageQuery.model_validate(args)).model_dump(mode="json")


def test_tool_call_over_http_then_final_answer(openai_stub, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    openai_stub.script = [
        reply_tool_call("storage_cost", {"gb": 500, "days": 30}),
        reply_text("About that much."),
    ]

    answer = ask("What do 500 GB cost for a month?", backend="openai:stub-model")

    assert answer.backend == "openai:stub-model"
    assert answer.notices == []
    assert answer.text == "About that much."
    assert [(c.name, c.arguments, c.error) for c in answer.tool_calls] == [
        ("storage_cost", {"gb": 500, "days": 30}, None)
    ]
    assert answer.tool_calls[0].result == expected_storage(gb=500, days=30)
    # The client sent the key, the tools and, on the second request, the tool result.
    assert openai_stub.headers[0]["authorization"] == f"Bearer {KEY}"
    assert openai_stub.requests[0]["model"] == "stub-model"
    assert "storage_cost" in {t["function"]["name"] for t in openai_stub.requests[0]["tools"]}
    tool_msg = openai_stub.requests[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "call_1"


def test_streaming_over_http_yields_text_pieces_and_tool_events(openai_stub) -> None:
    openai_stub.script = [
        reply_tool_call("storage_cost", {"gb": 100}),
        reply_text("One hundred gigabytes cost little."),
    ]

    events = list(ask_stream("100 GB?", backend="openai:stub-model"))

    kinds = [e.kind for e in events]
    assert kinds[0] == "tool_call" and kinds[-1] == "done"
    assert (
        "".join(e.text or "" for e in events if e.kind == "text")
        == "One hundred gigabytes cost little."
    )
    assert sum(1 for k in kinds if k == "text") >= 2  # streamed in pieces, not at once
    assert openai_stub.requests[0]["stream"] is True
    assert events[-1].answer.text == "One hundred gigabytes cost little."
    assert events[-1].answer.backend == "openai:stub-model"


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ([500, 500], "HTTP 500"),
        (
            [reply_tool_call("storage_cost", "{gb: 12,")],
            "malformed tool call: arguments for 'storage_cost' are not valid JSON",
        ),
        (
            [reply_tool_call("format_disk", {"all": True})],
            "malformed tool call: unknown tool 'format_disk'",
        ),
        ([HANG, HANG], "timed out"),
    ],
    ids=["server-error", "bad-json-arguments", "unknown-tool", "hang"],
)
def test_failing_server_falls_back_to_offline(
    openai_stub, monkeypatch, caplog, script, reason
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("GPU_ADVISOR_LLM_TIMEOUT_S", "0.5")
    openai_stub.script = list(script)
    caplog.set_level(logging.DEBUG)

    answer = ask("How much is an H100 per hour?", backend="openai:stub-model")

    assert answer.backend == "offline"
    assert answer.notices == [f"The openai:stub-model backend failed ({reason}); answered offline."]
    assert answer.text.strip()
    assert len(openai_stub.requests) == len(script)  # one retry at most, then give up
    everything = (
        answer.model_dump_json() + caplog.text + "".join(r.getMessage() for r in caplog.records)
    )
    assert KEY not in everything
    assert "Traceback" not in everything


def test_unreachable_server_falls_back(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on port 9

    answer = ask("What is an H100?", backend="openai:stub-model")

    assert answer.backend == "offline"
    assert answer.notices == [
        "The openai:stub-model backend failed (unreachable); answered offline."
    ]


def test_missing_key_for_the_public_api_is_named() -> None:
    answer = ask("What is an H100?", backend="openai:gpt-4o-mini")

    assert answer.backend == "offline"
    assert len(answer.notices) == 1
    assert answer.notices[0].startswith(
        "The openai:gpt-4o-mini backend failed (OPENAI_API_KEY is not set"
    )


def test_local_server_needs_no_key(openai_stub) -> None:
    openai_stub.script = [reply_text("Hello from a local server.")]

    answer = ask("hello", backend="openai:local")

    assert answer.backend == "openai:local"
    assert answer.text == "Hello from a local server."
    assert openai_stub.headers[0]["authorization"] == "Bearer no-key"


def test_streaming_failure_emits_notice_then_offline_answer(openai_stub) -> None:
    openai_stub.script = [500, 500]

    events = list(ask_stream("What is an H100?", backend="openai:stub-model"))

    notices = [e.text for e in events if e.kind == "notice"]
    assert notices == ["The openai:stub-model backend failed (HTTP 500); answered offline."]
    assert events[-1].kind == "done" and events[-1].answer.backend == "offline"
