"""Build the agent: a chat model, every tool and the system prompt, wired by `create_agent`."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


# Tools that read the machine this runs on: offered only when the asker sits at it.
LOCAL_TOOLS = frozenset({"probe_gpus"})


def build_agent_for_model(model: BaseChatModel, at_machine: bool = True) -> Any:
    """A fresh agent graph over `model` (not cached: tests and notebooks pass their own model).

    Without `at_machine` (a shared interface: Discord, a public chat) the local probe is left out, so
    "my GPU" is never answered with the server's card.
    """
    from langchain.agents import create_agent

    from assistant.agent.prompts import system_prompt
    from assistant.agent.toolset import build_tools

    tools = [t for t in build_tools() if at_machine or t.name not in LOCAL_TOOLS]
    return create_agent(model, tools, system_prompt=system_prompt())


@lru_cache(maxsize=8)
def build_agent(backend: str, at_machine: bool = True) -> Any:
    """The agent for a backend name (`offline`, `openai:<model>`, ...), built once per name."""
    from assistant.agent.backends import make_chat_model

    return build_agent_for_model(make_chat_model(backend), at_machine)


def clear_agent_cache() -> None:
    """Forget built agents (after a settings or environment change)."""
    build_agent.cache_clear()
    from assistant.agent.toolset import build_tools

    build_tools.cache_clear()
