"""`gpu-advisor ask`: one answer, or one JSON line per stdin question."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from assistant.cli import main
from tests.conftest import REPO_ROOT

RECORD_KEYS = {
    "question",
    "answer",
    "language",
    "citations",
    "tool_calls",
    "backend",
    "elapsed_ms",
    "notices",
}


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.slow  # falls back to the real offline backend
def test_stdin_jsonl_gives_one_record_per_question(monkeypatch, capsys) -> None:
    _stdin(monkeypatch, b"What is an H100?\n\n  \nCombien co\xc3\xbbte une A100 ?\n")

    assert main(["ask", "--json", "-"]) == 0

    lines = capsys.readouterr().out.strip().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["question"] for r in records] == ["What is an H100?", "Combien coûte une A100 ?"]
    assert [r["language"] for r in records] == ["en", "fr"]
    for record in records:
        assert set(record) == RECORD_KEYS
        assert record["backend"] == "offline"
        assert record["answer"].strip()


@pytest.mark.slow  # falls back to the real offline backend
def test_invalid_utf8_on_stdin_is_answered_not_crashed(monkeypatch, capsys) -> None:
    _stdin(monkeypatch, b"RTX \xff 4090?\n")
    assert main(["ask", "--json", "-"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["question"] == "RTX \ufffd 4090?"


def test_unknown_backend_is_a_clear_error_with_exit_2(capsys) -> None:
    assert main(["ask", "--backend", "gemini:pro", "hi"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "gpu-advisor: unknown backend 'gemini:pro'; use one of: offline, openai:<model>, ollama:<model>"
    )


def test_blank_question_is_a_clear_error(capsys) -> None:
    assert main(["ask", "--json", "   "]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": err.strip().removeprefix("gpu-advisor: ")}
    assert "question is empty" in err


def test_help_shows_the_stdin_form(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["ask", "--help"])
    assert exit_info.value.code == 0
    assert "gpu-advisor ask --json - < questions.txt" in capsys.readouterr().out


def test_import_assistant_stays_light() -> None:
    code = (
        "import sys, assistant; "
        "heavy = [m for m in ('langchain', 'langchain_core', 'langgraph', 'torch', 'chromadb', 'gradio') "
        "if m in sys.modules]; print(heavy); "
        "from assistant.agent.api import ask; assert assistant.ask is ask; "
        "assert callable(assistant.ask_stream) and assistant.Answer.__name__ == 'Answer'"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
