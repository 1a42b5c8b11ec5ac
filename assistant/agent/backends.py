"""Chat-model backends: `offline`, `openai:<model>` and `ollama:<model>`, chosen by name.

Every import of a provider package happens inside the function that needs it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

OFFLINE = "offline"
MAX_RETRIES = 1
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


class BackendError(Exception):
    """A backend that cannot be built or that failed during a run; the message is user-facing."""


class BackendConfigError(BackendError):
    """A backend name or its configuration is wrong (unknown prefix, missing key, no model)."""


BackendFactory = Callable[[str], "BaseChatModel"]


def _offline(_model: str) -> BaseChatModel:
    from assistant.agent.offline import OfflineChatModel

    return OfflineChatModel()


def _openai(model: str, api_key: str | None = None) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    from assistant.settings import get_settings

    if not model:
        raise BackendConfigError("openai backend needs a model name, e.g. openai:gpt-4o-mini")
    base_url = os.environ.get("OPENAI_BASE_URL") or None
    key = api_key or os.environ.get("OPENAI_API_KEY") or None
    if key is None:
        if base_url is None:
            raise BackendConfigError(
                "OPENAI_API_KEY is not set: set it for the OpenAI API, or set OPENAI_BASE_URL "
                "to an OpenAI-compatible server that needs no key"
            )
        key = "no-key"  # local servers (vLLM, llama.cpp, LM Studio) accept any key
    return ChatOpenAI(
        model=model,
        api_key=key,  # type: ignore[arg-type]
        base_url=base_url,
        timeout=get_settings().llm_timeout_s,
        max_retries=MAX_RETRIES,
        temperature=0,
    )


def _ollama(model: str) -> BaseChatModel:
    from langchain_ollama import ChatOllama

    from assistant.settings import get_settings

    if not model:
        raise BackendConfigError("ollama backend needs a model name, e.g. ollama:llama3.1")
    host = os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST
    if "://" not in host:
        host = f"http://{host}"
    return ChatOllama(
        model=model,
        base_url=host,
        temperature=0,
        client_kwargs={"timeout": get_settings().llm_timeout_s},
    )


_FACTORIES: dict[str, BackendFactory] = {"offline": _offline, "openai": _openai, "ollama": _ollama}


def register_backend(prefix: str, factory: BackendFactory) -> None:
    """Add a backend family: `prefix:<model>` names then build their model with `factory(model)`."""
    _FACTORIES[prefix] = factory


def unregister_backend(prefix: str) -> None:
    """Remove a backend family added with `register_backend`; the built-in ones stay."""
    if prefix in ("offline", "openai", "ollama"):
        raise ValueError(f"{prefix} is built in")
    _FACTORIES.pop(prefix, None)


def normalize_backend(name: str | None) -> str:
    """The backend name to use: the one given, else the `GPU_ADVISOR_LLM` setting."""
    if name is None or not name.strip():
        from assistant.settings import get_settings

        name = get_settings().llm
    name = name.strip()
    prefix, _, model = name.partition(":")
    prefix = prefix.strip().lower()
    if prefix not in _FACTORIES:
        known = ", ".join(f"{p}:<model>" if p != OFFLINE else p for p in _FACTORIES)
        raise BackendConfigError(f"unknown backend {name!r}; use one of: {known}")
    return prefix if prefix == OFFLINE else f"{prefix}:{model.strip()}"


def make_chat_model(name: str) -> BaseChatModel:
    """Build the chat model for a backend name such as `offline` or `openai:gpt-4o-mini`."""
    name = normalize_backend(name)
    prefix, _, model = name.partition(":")
    return _FACTORIES[prefix](model)
