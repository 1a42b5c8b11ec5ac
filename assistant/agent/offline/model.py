"""`OfflineChatModel`: a LangChain chat model that needs no LLM service.

It goes through the same agent loop as any other backend. On a new question it answers with
tool calls (planned from the entities and intents it reads); once the tool results are back, it
writes the answer from them. Its replies depend only on the conversation, never on chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from assistant.agent.offline.planner import Conversation, ToolResult, plan_tool_calls
from assistant.agent.offline.writer import write_answer

BACKEND_NAME = "offline"


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def _tool_name(tool: Any) -> str | None:
    if isinstance(tool, dict):
        fn = tool.get("function")
        if isinstance(fn, dict):
            return str(fn.get("name"))
        return str(tool.get("name")) if tool.get("name") else None
    name = getattr(tool, "name", None) or getattr(tool, "__name__", None)
    return str(name) if name else None


def read_conversation(
    messages: Sequence[BaseMessage],
) -> tuple[Conversation, list[ToolResult] | None]:
    """The question, the earlier turns, and the tool results of this turn (None before any call)."""
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    question = _text(messages[last_human]) if last_human >= 0 else ""
    history: list[tuple[str, str]] = []
    for message in messages[: max(last_human, 0)]:
        if isinstance(message, HumanMessage):
            history.append(("user", _text(message)))
        elif isinstance(message, AIMessage) and not message.tool_calls and _text(message).strip():
            history.append(("assistant", _text(message)))
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    results: list[ToolResult] = []
    for message in messages[last_human + 1 :]:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                calls[str(call.get("id"))] = (call["name"], dict(call.get("args") or {}))
        elif isinstance(message, ToolMessage):
            name, args = calls.get(str(message.tool_call_id), (message.name or "?", {}))
            results.append(ToolResult.from_content(name, args, _text(message)))
    planned = any(isinstance(m, AIMessage) and m.tool_calls for m in messages[last_human + 1 :])
    return Conversation(question=question, history=history), (results if planned else None)


class OfflineChatModel(BaseChatModel):
    """The deterministic backend: entity extraction + a semantic intent classifier, no LLM."""

    model_name: str = BACKEND_NAME
    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "gpu-advisor-offline"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> OfflineChatModel:  # type: ignore[override]
        """A copy that knows which tools it may call (the agent loop runs them)."""
        names = tuple(n for n in (_tool_name(t) for t in tools) if n)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        conversation, results = read_conversation(
            [m for m in messages if not isinstance(m, SystemMessage)]
        )
        if results is None:
            calls = plan_tool_calls(conversation, set(self.tool_names))
            if calls:
                tool_calls = [
                    {
                        "name": c.name,
                        "args": c.args,
                        "id": f"offline_{i}_{c.name}",
                        "type": "tool_call",
                    }
                    for i, c in enumerate(calls)
                ]
                message = AIMessage(content="", tool_calls=tool_calls)
                return ChatResult(generations=[ChatGeneration(message=message)])
            results = []
        text = write_answer(conversation, results)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
