"""Premises a question states in figures that the catalog can check before any entry is chosen.

Memory added up across cards: 'next to my 4070 Ti Super, will ComfyUI see 28 GB?', 'T4 x2, so
32 GB for my model?'. The figure asked is the sum of the cards' own memories, larger than any one
of them: the question is whether memory pools, whatever words it uses (premises.toml names the
entries that answer it)."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities

# '28 Go', '32GB', '48 gb of vram'
_MEMORY_FIGURE = re.compile(r"(?<![\d.,])(\d{1,3})\s*(?:gb|go|gib|g)\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    text = resources.files("assistant.agent.offline").joinpath("premises.toml").read_text("utf-8")
    return {k: tuple(v["entries"]) for k, v in tomllib.loads(text).items()}


def pooled_memory(text: str, ent: Entities) -> bool:
    """Whether the question asks a memory figure that is its cards' memories added up (at least
    two cards, the figure above the largest card's own memory)."""
    from assistant.knowledge.matching import match_gpu

    memories: list[float] = []
    sums: set[float] = set()
    for name in ent.gpus:
        card = match_gpu(name).gpu
        if card is None or not card.vram_gb:
            return False
        count = ent.count_of(name) or 1
        memories += [float(card.vram_gb)] * count
        if count > 1:  # 'T4 x2 … or the P100?': the pair's own sum
            sums.add(float(card.vram_gb) * count)
    if len(memories) < 2:
        return False
    sums.add(sum(memories))
    return any(
        any(abs(float(m.group(1)) - total) < 1 for total in sums)
        and float(m.group(1)) > max(memories)
        for m in _MEMORY_FIGURE.finditer(text)
    )


def premise_entries(text: str, ent: Entities) -> tuple[str, ...]:
    """The knowledge entries that answer the premise the question states, if it states one."""
    return _table()["pooled_memory"] if pooled_memory(text, ent) else ()
