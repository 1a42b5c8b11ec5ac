"""What every interface receives: an answer with its evidence, and the events that stream it."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from assistant.language import Lang

Language = Lang


class Citation(BaseModel):
    """A passage of a corpus document that backs part of the answer."""

    document: str = Field(description="Document title or file name")
    section: str = Field(
        description="Section path inside the document, e.g. '1.3 La location à l'heure'"
    )
    snippet: str = Field(description="The passage, or its most relevant part")
    score: float | None = None
    chunk_id: str | None = None
    url: str | None = Field(default=None, description="Knowledge entries: their source's address")


class ToolCall(BaseModel):
    """One deterministic tool the agent called, with its arguments and JSON result."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    error: str | None = None


class Answer(BaseModel):
    """A grounded answer: Markdown text plus the tool results and passages behind it."""

    question: str
    text: str
    language: Language = "en"
    citations: list[Citation] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    backend: str = "offline"
    elapsed_ms: float = 0.0
    notices: list[str] = Field(
        default_factory=list, description="Fallbacks, truncations, limits hit"
    )

    def to_markdown(self) -> str:
        """The answer, then its tool steps and sources, as one Markdown document."""
        parts = [self.text.strip()]
        for notice in self.notices:
            parts.append(f"> {notice}")
        if self.tool_calls:
            lines = ["**Tools**" if self.language == "en" else "**Outils**"]
            for call in self.tool_calls:
                args = json.dumps(call.arguments, ensure_ascii=False)
                lines.append(
                    f"- `{call.name}({args})`" + (f" — error: {call.error}" if call.error else "")
                )
            parts.append("\n".join(lines))
        if self.citations:
            lines = ["**Sources**"]
            for i, cite in enumerate(self.citations, 1):
                lines.append(f"{i}. *{cite.document}* — {cite.section}")
            parts.append("\n".join(lines))
        parts.append(f"<sub>backend: {self.backend} · {self.elapsed_ms:.0f} ms</sub>")
        return "\n\n".join(parts)

    def _repr_markdown_(self) -> str:  # rich display in Jupyter / Colab
        return self.to_markdown()

    def to_record(self) -> dict[str, Any]:
        """The JSON-lines record the CLI writes for `ask --json`."""
        return {
            "question": self.question,
            "answer": self.text,
            "language": self.language,
            "citations": [c.model_dump() for c in self.citations],
            "tool_calls": [t.model_dump(mode="json") for t in self.tool_calls],
            "backend": self.backend,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "notices": self.notices,
        }


class StreamEvent(BaseModel):
    """One step of a streamed answer: a tool call finished, some text, a notice, or the end."""

    kind: Literal["tool_call", "text", "notice", "done"]
    tool_call: ToolCall | None = None
    text: str | None = None
    answer: Answer | None = None
