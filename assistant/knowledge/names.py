"""One name index for cards, models and topics: one `fold`, one alias table, one way to suggest
near names. It knows nothing about GPUs or models itself; the catalogs hand it their names.

Suggestions are edit distances on the normalised name, never string-ratio guesses, so "GTX 1080
Ti" comes out near "GTX 1080" and "GTX 1070 Ti", and far from "RTX 3090 Ti".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Lower case, accents and typographic quotes out, spaces collapsed (remembered: the same
    names are folded again and again)."""
    text = text.replace("’", "'").replace("‘", "'")
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", plain).strip()


def fold_keep_length(text: str) -> str:
    """Like `fold` (without collapsing spaces), one output character per input character, so
    offsets in the folded text are offsets in the original."""
    out = []
    for ch in text:
        if ch in "’‘":
            out.append("'")
            continue
        base = unicodedata.normalize("NFKD", ch.lower())
        kept = "".join(c for c in base if not unicodedata.combining(c))
        out.append(kept[:1] if kept else ch)
    return "".join(out)


def edit_distance(a: str | tuple[str, ...], b: str | tuple[str, ...], cap: int = 99) -> int:
    """Levenshtein distance between two strings (or token tuples); stops early past `cap`."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > cap:
            return cap + 1
        prev = cur
    return prev[-1]


@dataclass
class AliasIndex(Generic[K, T]):
    """Normalised key → item. The first item to claim a key keeps it; `clashes` records the rest."""

    entries: dict[K, tuple[T, str]] = field(default_factory=dict)
    clashes: list[tuple[K, str, str]] = field(default_factory=list)

    def add(self, key: K, item: T, alias: str, name: Callable[[T], str] = str) -> None:
        """Register `alias` (already normalised to `key`) for `item`."""
        have = self.entries.get(key)
        if have is None:
            self.entries[key] = (item, alias)
        elif name(have[0]) != name(item):
            self.clashes.append((key, name(have[0]), name(item)))

    def get(self, key: K) -> tuple[T, str] | None:
        """(item, alias as written) for a normalised key, or None."""
        return self.entries.get(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def items(self) -> Iterable[tuple[K, tuple[T, str]]]:
        """(key, (item, alias as written)) pairs, in the order they were added."""
        return self.entries.items()


def nearest(
    query: str,
    names: Iterable[tuple[str, str]],
    limit: int = 5,
    max_ratio: float = 0.34,
) -> list[str]:
    """Display names whose normalised key is within an edit distance of the normalised query.

    `names` yields (normalised key, display name). A key is near when its distance is at most
    `max_ratio` of the longer string's length; results come closest first, each name once.
    """
    if not query:
        return []
    best: dict[str, float] = {}
    for key, display in names:
        longest = max(len(query), len(key))
        cap = int(longest * max_ratio)
        dist = edit_distance(query, key, cap)
        if dist <= cap:
            score = dist / longest
            if display not in best or score < best[display]:
                best[display] = score
    return [n for n, _ in sorted(best.items(), key=lambda kv: kv[1])[:limit]]
