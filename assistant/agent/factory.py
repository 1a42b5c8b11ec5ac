"""Build the agent: a chat model, every tool and the system prompt, wired by `create_agent`."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


def build_agent_for_model(model: BaseChatModel) -> Any:
    """A fresh agent graph over `model` (not cached: tests and notebooks pass their own model)."""
    from langchain.agents import create_agent

    from assistant.agent.prompts import system_prompt
    from assistant.agent.toolset import build_tools

    return create_agent(model, list(build_tools()), system_prompt=system_prompt())


@lru_cache(maxsize=8)
def build_agent(backend: str) -> Any:
    """The agent for a backend name (`offline`, `openai:<model>`, ...), built once per name."""
    from assistant.agent.backends import make_chat_model

    return build_agent_for_model(make_chat_model(backend))


def clear_agent_cache() -> None:
    """Forget built agents (after a settings or environment change)."""
    build_agent.cache_clear()
    from assistant.agent.toolset import build_tools

    build_tools.cache_clear()
