"""A recognisable key set in the environment never shows up in answers, events, logs or errors."""

from __future__ import annotations

import json
import logging

import pytest

from assistant.agent.api import ask, ask_stream, describe_failure
from assistant.agent.backends import BackendError
from assistant.cli import main
from tests.agent.openai_stub import reply_tool_call

KEY = "sk-test-SECRET-1234567890"
TOKEN = "discord-test-TOKEN-abcdefghijkl"


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("GPU_ADVISOR_DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("GPU_ADVISOR_LLM_TIMEOUT_S", "0.5")
    caplog.set_level(logging.DEBUG)


def _assert_clean(*texts: str) -> None:
    for text in texts:
        assert KEY not in text
        assert "SECRET-1234" not in text
        assert TOKEN not in text


@pytest.mark.slow  # falls back to the real offline backend
@pytest.mark.usefixtures("secrets")
def test_no_secret_in_any_output_of_a_failing_backend(openai_stub, caplog, capfd) -> None:
    openai_stub.script = [401, 500, 500, reply_tool_call("nope", {})]

    answer = ask("What is an H100?", backend="openai:m")
    events = list(ask_stream("What is an H100?", backend="openai:m"))
    code = main(["ask", "--json", "--backend", "openai:m", "What is an H100?"])

    out, err = capfd.readouterr()
    assert code == 0
    assert answer.notices == [
        "The openai:m backend failed (HTTP 401: the API key was refused (OPENAI_API_KEY)); answered offline."
    ]
    assert json.loads(out)["backend"] == "offline"
    logs = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    _assert_clean(
        answer.model_dump_json(),
        answer.to_markdown(),
        "".join(e.model_dump_json() for e in events),
        out,
        err,
        logs,
    )
    assert len(openai_stub.requests) == 4  # 401 (no retry), 500 + retry, unknown tool
    assert openai_stub.headers[0]["authorization"] == f"Bearer {KEY}"  # the key was really in use


def test_failure_reasons_are_redacted(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert describe_failure(BackendError(f"key {KEY} refused")) == "key *** refused"
    assert describe_failure(RuntimeError(f"oops {KEY}")) == "RuntimeError: oops ***"
    assert describe_failure(ValueError("sk-abcdefghijklmnop leaked")) == "ValueError: *** leaked"
