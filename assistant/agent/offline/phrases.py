"""The word lists of quantities.toml, read once, and how a list becomes a regex alternation: the
lowest layer of the quantity readers, so that the number parser can use them too."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources

from assistant.language import has_cjk


@lru_cache(maxsize=1)
def tables() -> dict[str, dict[str, list[str]]]:
    """quantities.toml, read and parsed once: each table's word lists."""
    text = resources.files("assistant.agent.offline").joinpath("quantities.toml").read_text("utf-8")
    return tomllib.loads(text)


def alternation(phrases: list[str]) -> str:
    """A regex alternation of phrases, longest first, spaces flexible."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "|".join(r"\s*".join(map(re.escape, p.split())) for p in ordered)


def any_of(table: str) -> str:
    """A regex alternation of a quantities.toml table's `words`: words whole, signs ('~', '+') as
    written."""
    words = tables()[table]["words"]
    signs = [w for w in words if not w[0].isalnum()]
    named = [w for w in words if w[0].isalnum()]
    parts = [alternation(signs)] if signs else []
    if named:
        parts.append(rf"\b(?:{alternation(named)})(?!\w)")
    return "(?:" + "|".join(parts) + ")"


def whole_phrases(phrases: list[str], edge: str = r"[\w/]") -> str:
    """An alternation of phrases that each stand as whole words (no `edge` character right before
    or after); Chinese and Japanese phrases match anywhere, those scripts putting no space between
    words."""
    spaced = [p for p in phrases if not has_cjk(p)]
    joined = [p for p in phrases if has_cjk(p)]
    parts = [rf"(?<!{edge})(?:{alternation(spaced)})(?!{edge})"] if spaced else []
    parts += [f"(?:{alternation(joined)})"] if joined else []
    return "|".join(parts)


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with these spans replaced by spaces (positions kept)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@lru_cache(maxsize=1)
def _negation() -> tuple[re.Pattern[str], re.Pattern[str]]:
    table = tables()["negation"]
    guard = "".join(rf"(?<!\b{w} )" for w in table["not_after"])
    words = guard + f"(?:{whole_phrases(table['phrases'])})"
    return (
        re.compile(rf"(?:{words})\s+(?P<what>\w+(?:[.-]\w+)*)", re.IGNORECASE),
        # 'sans NVLink', '(not LoRA)', 'rather than a LoRA', 'pas en LoRA'
        re.compile(rf"(?:{words})\s*[(«\"']?\s*(?:(?:an?|une?|de)\s+)?$", re.IGNORECASE),
    )


NEGATION_SPAN = 16  # how far before a term its negation may start: 'pas de (', 'without '


def negated_words(text: str) -> set[str]:
    """The words right after a negation, lower-cased ('sans NVLink' → 'nvlink')."""
    return {m.group("what").lower() for m in _negation()[0].finditer(text)}


def negated_at(text: str, at: int) -> bool:
    """Whether a negation ends right before position `at` ('(pas de wsl)' at 'wsl')."""
    # searched in place, so that a word cut at the window's start keeps its real neighbours
    return bool(_negation()[1].search(text, max(0, at - NEGATION_SPAN), at))
