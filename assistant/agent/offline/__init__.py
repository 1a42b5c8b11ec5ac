"""The offline backend: a deterministic chat model that plans tool calls and writes answers.

It reads the question (entities + a semantic intent classifier), asks for the tools through the
same agent loop as any LLM, then writes the answer from the tool results and the passages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.agent.offline.model import OfflineChatModel

__all__ = ["OfflineChatModel"]


def __getattr__(name: str) -> Any:
    if name == "OfflineChatModel":
        from assistant.agent.offline.model import OfflineChatModel

        return OfflineChatModel
    raise AttributeError(name)
