"""Pure conversions from answers and stream events to chat messages and Markdown.

Nothing here imports Gradio: a chat message is the plain dict the Chatbot accepts
(`{"role", "content", "metadata"}`), so every function is testable without a UI.
A message whose metadata has a `title` shows as a collapsible step; `status: "done"`
starts it closed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from assistant.answer import Answer, StreamEvent, ToolCall

ChatDict = dict[str, Any]

TOOL_ICON = "🔧"
SOURCES_ICON = "📚"
NOTICE_PREFIX = "> ℹ️ "
BADGE_PREFIX = "<sub>backend: "
MAX_RESULT_CHARS = 1800
MAX_SNIPPET_CHARS = 280

_LABELS = {
    "en": {"args": "Arguments", "result": "Result", "error": "Error", "sources": "Sources"},
    "fr": {"args": "Arguments", "result": "Résultat", "error": "Erreur", "sources": "Sources"},
}


def _labels(language: str) -> dict[str, str]:
    return _LABELS.get(language, _LABELS["en"])


def compact_json(value: Any, limit: int = MAX_RESULT_CHARS, line_limit: int = 160) -> str:
    """A tool result for people: one `key: value` line per top-level field (values as JSON,
    long ones cut), the whole cut at `limit` characters with a marker."""
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            line = f"{key}: {json.dumps(item, ensure_ascii=False, default=str)}"
            lines.append(line if len(line) <= line_limit else line[: line_limit - 1] + "…")
        text = "\n".join(lines)
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > limit:
        text = text[:limit].rstrip() + "\n… (truncated)"
    return text


def _fence(text: str, lang: str = "json") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}"


def _without_sources(result: Any) -> Any:
    """Sources are listed once under the answer; the step shows the rest of the result."""
    if isinstance(result, dict):
        return {k: _without_sources(v) for k, v in result.items() if k != "sources"}
    if isinstance(result, list):
        return [_without_sources(v) for v in result]
    return result


def tool_step_message(call: ToolCall, language: str = "en") -> ChatDict:
    """One tool call as a closed, collapsible step titled with the tool's name."""
    labels = _labels(language)
    args = json.dumps(call.arguments, ensure_ascii=False, default=str)
    parts = [f"**{labels['args']}**", _fence(args)]
    if call.error:
        parts += [f"**{labels['error']}**", call.error]
        title = f"{TOOL_ICON} {call.name} — {labels['error'].lower()}"
    else:
        parts += [
            f"**{labels['result']}**",
            _fence(compact_json(_without_sources(call.result)), "yaml"),
        ]
        title = f"{TOOL_ICON} {call.name}"
    return {
        "role": "assistant",
        "content": "\n\n".join(parts),
        "metadata": {"title": title, "status": "done"},
    }


def _tool_sources(calls: Iterable[ToolCall]) -> list[str]:
    """Distinct 'title — note (url)' lines from every tool result's `sources`."""
    seen: set[str] = set()
    lines: list[str] = []
    for call in calls:
        result = call.result if isinstance(call.result, dict) else {}
        for src in result.get("sources") or []:
            if not isinstance(src, dict) or not src.get("title"):
                continue
            title = str(src["title"])
            line = f"[{title}]({src['url']})" if src.get("url") else title
            if src.get("note"):
                line += f" — {src['note']}"
            if line not in seen:
                seen.add(line)
                lines.append(line)
    return lines


def _clip(text: str, limit: int = MAX_SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def source_entries(answer: Answer, snippets: bool = True) -> list[str]:
    """Corpus passages first (document, section, snippet), then the data sources of tool
    results; repeated entries once."""
    entries: list[str] = []
    for cite in answer.citations:
        entry = f"*{cite.document}* — {cite.section}"
        if cite.url:
            entry += f" ({cite.url})"
        if snippets and cite.snippet.strip():
            entry += f"\n   > {_clip(cite.snippet)}"
        entries.append(entry)
    entries += _tool_sources(answer.tool_calls)
    return list(dict.fromkeys(entries))


def sources_markdown(answer: Answer, snippets: bool = True) -> str:
    """The sources as a numbered Markdown list."""
    return "\n".join(f"{i}. {e}" for i, e in enumerate(source_entries(answer, snippets), 1))


def source_count(answer: Answer, snippets: bool = True) -> int:
    """How many sources `sources_markdown` lists for this answer."""
    return len(source_entries(answer, snippets))


def sources_message(answer: Answer) -> ChatDict | None:
    """The answer's sources as a closed, expandable block; None when there are none."""
    body = sources_markdown(answer)
    if not body:
        return None
    title = f"{SOURCES_ICON} {_labels(answer.language)['sources']} ({source_count(answer)})"
    return {"role": "assistant", "content": body, "metadata": {"title": title, "status": "done"}}


def backend_badge(backend: str, elapsed_ms: float | None = None) -> str:
    """The small line under an answer naming its backend (and its time)."""
    timing = f" · {elapsed_ms / 1000:.1f} s" if elapsed_ms is not None else ""
    return f"{BADGE_PREFIX}{backend}{timing}</sub>"


def answer_body(
    text: str,
    notices: Sequence[str] = (),
    backend: str | None = None,
    elapsed_ms: float | None = None,
) -> str:
    """The visible answer: notices as quoted lines, the text, then the backend badge."""
    parts = [f"{NOTICE_PREFIX}{n}" for n in notices]
    if text.strip():
        parts.append(text.strip())
    if backend:
        parts.append(backend_badge(backend, elapsed_ms))
    return "\n\n".join(parts)


def answer_messages(answer: Answer) -> list[ChatDict]:
    """A finished answer as chat messages: tool steps, the answer, its sources."""
    messages = [tool_step_message(call, answer.language) for call in answer.tool_calls]
    body = answer_body(answer.text, answer.notices, answer.backend, answer.elapsed_ms)
    messages.append({"role": "assistant", "content": body})
    sources = sources_message(answer)
    if sources is not None:
        messages.append(sources)
    return messages


class TurnView:
    """Folds the stream events of one question into the messages shown so far."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self.steps: list[ChatDict] = []
        self.notices: list[str] = []
        self.text = ""
        self.answer: Answer | None = None

    def add(self, event: StreamEvent) -> None:
        """Fold one stream event into the turn."""
        if event.kind == "tool_call" and event.tool_call is not None:
            self.steps.append(tool_step_message(event.tool_call, self.language))
        elif event.kind == "text" and event.text:
            self.text += event.text
        elif event.kind == "notice" and event.text and event.text not in self.notices:
            self.notices.append(event.text)
        elif event.kind == "done" and event.answer is not None:
            self.answer = event.answer

    def messages(self) -> list[ChatDict]:
        """The chat messages of the turn so far (the final ones once it is done)."""
        if self.answer is not None:
            answer = self.answer.model_copy(
                update={"notices": list(dict.fromkeys([*self.notices, *self.answer.notices]))}
            )
            return answer_messages(answer)
        shown = [*self.steps]
        body = answer_body(self.text, self.notices)
        if body:
            shown.append({"role": "assistant", "content": body})
        return shown

    @property
    def final_text(self) -> str:
        """The answer's text: the final answer's once done, else what streamed."""
        return self.answer.text if self.answer is not None else self.text


_BADGE_RE = re.compile(r"\n*<sub>backend: [^\n]*</sub>\s*$")


def message_text(content: Any) -> str:
    """The text of a Chatbot message's content (a string, or a list of text parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return str(content.get("text") or "")
    if isinstance(content, list):
        return "\n".join(t for t in (message_text(part) for part in content) if t)
    return ""


def history_for_ask(chat: Sequence[Any]) -> list[dict[str, str]]:
    """The conversation as `ask()` wants it: user and answer turns, without steps, sources,
    notices or badges."""
    turns: list[dict[str, str]] = []
    for msg in chat:
        if not isinstance(msg, dict):
            msg = {
                "role": getattr(msg, "role", ""),
                "content": getattr(msg, "content", ""),
                "metadata": getattr(msg, "metadata", None),
            }
        if (msg.get("metadata") or {}).get("title"):
            continue
        role = msg.get("role")
        if role not in ("user", "assistant"):
            continue
        text = message_text(msg.get("content"))
        if role == "assistant":
            text = _BADGE_RE.sub("", text)
            kept = [p for p in text.split("\n\n") if not p.startswith(NOTICE_PREFIX)]
            text = "\n\n".join(kept)
        text = text.strip()
        if text:
            turns.append({"role": role, "content": text})
    return turns
