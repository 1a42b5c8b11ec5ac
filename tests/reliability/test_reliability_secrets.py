"""Issue 6 §4: a recognisable API key in the environment, an OpenAI backend that cannot be reached,
and every output grepped for the key: answers, JSON records, stderr of the CLI process, logs at
DEBUG (ours and the libraries'), tool errors, and the chat page."""

from __future__ import annotations

import json
import logging
import socket
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

import assistant
from tests.reliability.conftest import COST_QUESTION, run_cli

pytestmark = pytest.mark.slow  # falls back to the real offline backend

KEY = "sk-live-TESTSECRET-9f8e7d6c5b4a"
FRAGMENTS = (KEY, "TESTSECRET", "9f8e7d6c5b4a")
NOTICE = "The openai:gpt-x backend failed (unreachable); answered offline."


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def assert_no_key(where: str, text: str) -> None:
    for fragment in FRAGMENTS:
        assert fragment not in text, f"{fragment!r} leaked into {where}"


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = {
        "OPENAI_API_KEY": KEY,
        "GPU_ADVISOR_LLM": "openai:gpt-x",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1",
        "GPU_ADVISOR_LLM_TIMEOUT_S": "2",
        "GPU_ADVISOR_LOG_LEVEL": "DEBUG",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture
def every_log_record() -> Iterator[list[logging.LogRecord]]:
    """Every record at DEBUG from any logger, ours included, before any redaction."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    loggers = [logging.getLogger(), logging.getLogger("assistant")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    yield records
    for lg, level in zip(loggers, levels, strict=True):
        lg.removeHandler(handler)
        lg.setLevel(level)


def _formatted(records: list[logging.LogRecord]) -> str:
    out = []
    for record in records:
        out.append(record.getMessage())
        if record.exc_info and record.exc_info[1] is not None:
            out.append(repr(record.exc_info[1]))
    return "\n".join(out)


@pytest.mark.usefixtures("secret_env")
def test_no_key_in_answers_events_or_debug_logs_of_a_failing_backend(
    every_log_record: list[logging.LogRecord],
) -> None:
    answer = assistant.ask(COST_QUESTION)
    events = list(assistant.ask_stream("Can my RTX 4090 do megakernels?"))
    pasted = assistant.ask(f"My key {KEY} gives an error, what is an H100?")

    assert answer.backend == "offline" and answer.notices == [NOTICE]
    assert [c.name for c in answer.tool_calls][:1] == ["rent_cost"]
    assert events[0].kind == "notice" and events[0].text == NOTICE
    assert every_log_record, "DEBUG logging captured nothing"
    for where, text in {
        "answer": answer.model_dump_json(),
        "markdown": answer.to_markdown(),
        "record": json.dumps(answer.to_record()),
        "events": "".join(e.model_dump_json() for e in events),
        "answer to a question holding the key": pasted.text + pasted.to_markdown(),
        "logs": _formatted(every_log_record),
    }.items():
        assert_no_key(where, text)


def test_no_key_in_stdout_or_stderr_of_the_cli_process(secret_env: dict[str, str]) -> None:
    questions = [COST_QUESTION, "What is the VRAM of an RTX 4090?", "nonsense ???", ""]
    done = run_cli(
        ["ask", "--json", "-"], stdin="\n".join(questions).encode() + b"\n", **secret_env
    )
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err[-2000:]
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 3
    assert all(r["backend"] == "offline" and r["notices"] == [NOTICE] for r in records)
    # one redacted warning per question, through the package's log format (level from settings)
    warnings = [line for line in err.splitlines() if " WARNING assistant.agent.api: " in line]
    assert len(warnings) == 3, err[-2000:]
    assert all(line.endswith("backend openai:gpt-x failed: unreachable") for line in warnings)
    assert_no_key("stdout", out)
    assert_no_key("stderr", err)

    # a failing command's error message
    bad = run_cli(["ask", "--backend", f"openai:{KEY}", "hello"], **secret_env)
    assert_no_key("stdout of a bad command", bad.stdout.decode("utf-8", "replace"))
    assert_no_key("stderr of a bad command", bad.stderr.decode("utf-8", "replace"))


def test_no_key_in_tool_errors(secret_env: dict[str, str]) -> None:
    from assistant.agent.toolset import build_tools

    tools = {t.name: t for t in build_tools()}
    outputs = [
        tools["rent_cost"].invoke({"gpu": KEY, "hours": -1}),
        tools["search_corpus"].invoke({"query": KEY * 100}),
        tools["gpu_compare"].invoke({"names": [KEY]}),
    ]
    for text in outputs:
        assert json.loads(text)["error"].startswith("invalid arguments — ")
        assert_no_key("tool error", text)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read().decode("utf-8", errors="replace")


@pytest.mark.usefixtures("secret_env")
def test_no_key_on_the_chat_page_its_config_or_its_answers(
    every_log_record: list[logging.LogRecord],
) -> None:
    pytest.importorskip("gradio")
    from gradio_client import Client

    from assistant.ui.gradio_app import launch

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    demo: Any = launch(host="127.0.0.1", port=port, block=False)
    try:
        url = str(demo.local_url)
        outputs = {
            "page": _get(url),
            "config": _get(url + "config"),
            "api info": _get(url + "gradio_api/info"),
        }
        assert "openai:gpt-x" in outputs["config"]  # the backend is shown, its key never
        client = Client(url, verbose=False)
        outputs["answer"] = client.predict(COST_QUESTION, api_name="/chat")
        outputs["pasted"] = client.predict(f"is {KEY} my key?", api_name="/chat")
        assert "H100" in outputs["answer"]
    finally:
        demo.close()
    outputs["logs"] = _formatted(every_log_record)
    for where, text in outputs.items():
        assert_no_key(where, str(text))
