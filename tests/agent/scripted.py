"""A scripted chat model: queued replies, every prompt remembered, `bind_tools` returns itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult


class ScriptedChatModel(FakeMessagesListChatModel):
    """Replies with queued messages in order and remembers every prompt it was sent."""

    seen: list[list[BaseMessage]] = []
    bound_tools: list[str] = []

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        self.bound_tools = [getattr(t, "name", t) for t in tools]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def tool_call(name: str, args: dict[str, Any], call_id: str = "call_1") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def scripted(*responses: BaseMessage | str) -> ScriptedChatModel:
    messages = [AIMessage(content=r) if isinstance(r, str) else r for r in responses]
    return ScriptedChatModel(responses=messages, seen=[])
