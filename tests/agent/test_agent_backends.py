"""Backend names, their configuration errors, and the public exports."""

from __future__ import annotations

import pytest

import assistant
from assistant.agent.api import ask
from assistant.agent.backends import BackendConfigError, make_chat_model, normalize_backend


def test_names_are_normalised() -> None:
    assert normalize_backend(" OpenAI:gpt-4o-mini ") == "openai:gpt-4o-mini"
    assert normalize_backend("offline") == "offline"
    assert normalize_backend("ollama:llama3.1:8b") == "ollama:llama3.1:8b"


def test_the_setting_is_the_default(monkeypatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_LLM", "ollama:qwen2.5")
    assert normalize_backend(None) == "ollama:qwen2.5"


def test_unknown_backend_names_the_choices() -> None:
    with pytest.raises(
        BackendConfigError, match="use one of: offline, openai:<model>, ollama:<model>"
    ):
        normalize_backend("mystery:3")


def test_openai_model_carries_timeout_retries_and_base_url(monkeypatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_LLM_TIMEOUT_S", "7.5")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    model = make_chat_model("openai:qwen")
    assert (model.model_name, model.request_timeout, model.max_retries) == ("qwen", 7.5, 1)
    assert model.openai_api_base == "http://127.0.0.1:8000/v1"


def test_ollama_model_reads_ollama_host(monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:9")
    model = make_chat_model("ollama:llama3.1")
    assert (model.model, model.base_url) == ("llama3.1", "http://127.0.0.1:9")


@pytest.mark.slow  # falls back to the real offline backend
def test_unreachable_ollama_falls_back_to_offline(monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    answer = ask("What is an H100?", backend="ollama:llama3.1")
    assert answer.backend == "offline"
    assert answer.notices == ["The ollama:llama3.1 backend failed (unreachable); answered offline."]


@pytest.mark.slow  # falls back to the real offline backend
def test_a_backend_without_a_model_name_falls_back_with_the_reason() -> None:
    answer = ask("What is an H100?", backend="openai:")
    assert answer.notices == [
        "The openai: backend failed (openai backend needs a model name, e.g. openai:gpt-4o-mini); "
        "answered offline."
    ]


def test_probe_export_returns_the_probe_report() -> None:
    from assistant.tools.probe import ProbeReport

    report = assistant.probe()
    assert isinstance(report, ProbeReport)


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        assistant.nothing_here  # noqa: B018
