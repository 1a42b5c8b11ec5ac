"""Turn an agent run's messages into the pieces of an `Answer`: tool calls, citations, text."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from assistant.agent.backends import BackendError
from assistant.answer import Citation, ToolCall

if TYPE_CHECKING:
    from langchain_core.messages import AIMessage, ToolMessage

SEARCH_TOOL = "search_corpus"


class MalformedToolCall(BackendError):
    """The model asked for a tool that does not exist, or sent arguments that are not JSON."""


def message_text(message: Any) -> str:
    """The plain text of a message or chunk, whatever its content blocks look like."""
    return str(getattr(message, "text", "") or "")


def parse_tool_content(content: Any) -> tuple[Any, str | None]:
    """(result, error) from a tool message's content: JSON when it parses, an error when it says so."""
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False, default=str)
    try:
        value = json.loads(content)
    except ValueError:
        return content, None
    if isinstance(value, dict) and set(value) == {"error"}:
        return None, str(value["error"])
    return value, None


class RunRecorder:
    """Collects what happened in one agent run, message by message."""

    def __init__(self, tool_names: set[str]) -> None:
        self.tool_names = tool_names
        self.requested: dict[str, tuple[str, dict[str, Any]]] = {}
        self._finished: list[tuple[int, ToolCall]] = []
        self.passages: list[Citation] = []
        self.final_text = ""

    def on_model_message(self, message: AIMessage) -> None:
        """Record the model's tool requests; reject malformed ones; keep its last text."""
        invalid = getattr(message, "invalid_tool_calls", None) or []
        if invalid:
            name = invalid[0].get("name") or "?"
            raise MalformedToolCall(
                f"malformed tool call: arguments for {name!r} are not valid JSON"
            )
        for call in message.tool_calls:
            if call["name"] not in self.tool_names:
                raise MalformedToolCall(f"malformed tool call: unknown tool {call['name']!r}")
            self.requested[str(call.get("id"))] = (call["name"], dict(call.get("args") or {}))
        if not message.tool_calls:
            self.final_text = message_text(message)

    def on_tool_message(self, message: ToolMessage) -> ToolCall:
        """Record one finished tool call with its parsed result."""
        key = str(message.tool_call_id)
        name, arguments = self.requested.get(key, (message.name or "?", {}))
        result, error = parse_tool_content(message.content)
        if error is None and getattr(message, "status", "success") == "error":
            result, error = None, message_text(message)
        call = ToolCall(name=name, arguments=arguments, result=result, error=error)
        requested_ids = list(self.requested)
        order = requested_ids.index(key) if key in self.requested else len(requested_ids)
        self._finished.append((order, call))
        if name == SEARCH_TOOL and isinstance(result, dict):
            self._add_passages(result)
        return call

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Finished calls in the order the model asked for them (tools of one turn run in parallel,
        so they finish in any order)."""
        return [call for _, call in sorted(self._finished, key=lambda item: item[0])]

    def _add_passages(self, result: dict[str, Any]) -> None:
        seen = {p.chunk_id for p in self.passages}
        for passage in result.get("passages") or []:
            if not isinstance(passage, dict) or passage.get("chunk_id") in seen:
                continue
            seen.add(passage.get("chunk_id"))
            self.passages.append(
                Citation(
                    document=str(passage.get("title") or passage.get("document") or "?"),
                    section=str(passage.get("section") or ""),
                    snippet=str(passage.get("snippet") or passage.get("text") or ""),
                    score=passage.get("score"),
                    chunk_id=passage.get("chunk_id"),
                    url=passage.get("url") or None,
                )
            )

    def citations(self) -> list[Citation]:
        """The passages the answer names by id; all retrieved passages when it names none."""
        named = [p for p in self.passages if p.chunk_id and p.chunk_id in self.final_text]
        return named or list(self.passages)
