"""Error messages pasted into a question, and the knowledge entries that explain them.

The messages are data (error_messages.toml): the stable part of what the software prints, each
with the entries that explain it and where it is documented or reported. A pasted message is the
surest sign of what a question is about, surer than any likeness of wording: "no kernel image is
available" next to the "CUDA_LAUNCH_BLOCKING=1" line every CUDA error prints is a question about
a missing kernel, not about device-side asserts.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

PACKAGE = "assistant.agent.offline"
DATA_FILE = "error_messages.toml"

_QUOTES = re.compile(r"[`'\"“”‘’«»]")


def fold(text: str) -> str:
    """Lower case, quotes and backticks dropped, runs of white space as one space."""
    return " ".join(_QUOTES.sub("", text).lower().split())


@dataclass(frozen=True)
class ErrorMessage:
    text: str
    entries: tuple[str, ...]
    seen: str


@cache
def messages() -> tuple[ErrorMessage, ...]:
    """Every known message, as the data file lists them."""
    raw = resources.files(PACKAGE).joinpath(DATA_FILE).read_text("utf-8")
    return tuple(
        ErrorMessage(str(m["text"]), tuple(m["entries"]), str(m["seen"]))
        for m in tomllib.loads(raw)["message"]
    )


def pasted(text: str) -> ErrorMessage | None:
    """The message the question pastes first, or None. A message inside a longer one that is also
    there does not count ("MPS backend out of memory" holds "out of memory")."""
    folded = fold(text)
    found: list[tuple[int, int, ErrorMessage]] = []
    for message in messages():
        needle = fold(message.text)
        start = folded.find(needle)
        while start >= 0:
            found.append((start, start + len(needle), message))
            start = folded.find(needle, start + 1)
    kept = [
        (start, end, m)
        for start, end, m in found
        if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in found)
    ]
    return min(kept, key=lambda f: (f[0], -(f[1] - f[0])))[2] if kept else None


def explained_entries() -> frozenset[str]:
    """Every entry that explains one of the messages."""
    return frozenset(entry for message in messages() for entry in message.entries)
