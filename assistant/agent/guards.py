"""Input at the edge: clean the question and the history before any model sees them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assistant.log import redact

_SURROGATES = re.compile(r"[\ud800-\udfff]")
_ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
}

EMPTY_QUESTION_TEXT = (
    "Please type a question about GPUs — for example: *Can an RTX 3060 run FP8?*, "
    "*How much does an H100 cost for 100 hours?* or *Will Llama 3 8B fit on 16 GB?*\n\n"
    "Posez une question sur les GPU — par exemple : *Combien coûte une A100 pendant 50 heures ?*"
)


@dataclass
class CleanInput:
    """The question and history as the model will see them, and what had to be changed."""

    question: str
    history: list[dict[str, str]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when nothing is left of the question after cleaning."""
        return not self.question


def clean_text(text: str | bytes) -> str:
    """Text without control characters, broken bytes (invalid UTF-8 becomes U+FFFD) or secrets."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    text = _SURROGATES.sub("\ufffd", str(text)).replace("\r\n", "\n").replace("\r", "\n")
    kept = [c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc"]
    # a key pasted into a message must not travel on to the model, the tools or the answer
    return redact("".join(kept)).strip()


def _clip(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[:limit].rstrip(), True


def _history_items(history: Iterable[Any]) -> list[dict[str, str]]:
    items = []
    for entry in history:
        if isinstance(entry, Mapping):
            role, content = entry.get("role"), entry.get("content")
        elif isinstance(entry, list | tuple) and len(entry) == 2:
            role, content = entry
        else:
            continue
        role = _ROLES.get(str(role).lower())
        if role is None or not isinstance(content, str | bytes):
            continue  # files, images and system entries are not part of the conversation
        content = clean_text(content)
        if content:
            items.append({"role": role, "content": content})
    return items


def clean_input(
    question: str | bytes | None,
    history: Iterable[Any] | None,
    *,
    max_chars: int,
    max_turns: int,
) -> CleanInput:
    """Clean the question, clip it to `max_chars`, and keep the last `max_turns` turns.

    A turn is one message; entries that are not user or assistant text are dropped.
    """
    notices: list[str] = []
    text = clean_text(question or "")
    text, clipped = _clip(text, max_chars)
    if clipped:
        notices.append(
            f"Your message was longer than {max_chars} characters; "
            f"only the first {max_chars} were read."
        )
    items = _history_items(history or [])
    if len(items) > max_turns:
        notices.append(
            f"The conversation had {len(items)} earlier messages; only the last {max_turns} were kept."
        )
        items = items[len(items) - max_turns :] if max_turns else []
    items = [{"role": i["role"], "content": _clip(i["content"], max_chars)[0]} for i in items]
    return CleanInput(question=text, history=items, notices=notices)
