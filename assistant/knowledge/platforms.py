"""Platforms a coverage question can name instead of a card (free Colab, Kaggle, a Mac, an AMD
card), and the catalog cards they stand for (platforms.toml)."""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, Field

from assistant.knowledge.loader import DataFileError, read_toml_rows
from assistant.knowledge.sources import Source
from assistant.knowledge.topics import fold

PLATFORMS_FILE = "platforms.toml"


class Platform(BaseModel):
    """A hosted notebook, or a kind of machine, and the card(s) it gives."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    name_fr: str
    aliases: list[str] = Field(min_length=1)
    cards: list[str] = Field(min_length=1, description="Catalog names, one per GPU")
    notebook: list[str] | None = Field(
        default=None, description="[provider, tier] of a notebook_tiers.csv row"
    )
    note: str
    note_fr: str
    sources: list[Source] = Field(min_length=1)


@lru_cache(maxsize=1)
def load_platforms() -> tuple[Platform, ...]:
    """Every platform, validated; aliases are unique after folding."""
    rows = read_toml_rows(PLATFORMS_FILE, "platform", Platform)
    seen: dict[str, str] = {}
    for row in rows:
        for alias in (row.key, *row.aliases):
            key = fold(alias)
            if seen.setdefault(key, row.key) != row.key:
                raise DataFileError(f"{PLATFORMS_FILE}: alias {alias!r} used twice")
    return tuple(rows)


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text)))


def find_platform(text: str) -> Platform | None:
    """The platform a short text names ('kaggle', 'free colab', 'mon mac'): its longest alias
    found as whole words in the folded text."""
    exact = next((p for p in load_platforms() if p.key == text.strip().lower()), None)
    if exact is not None:
        return exact
    folded = f" {_words(text)} "
    best: tuple[int, Platform] | None = None
    for platform in load_platforms():
        for alias in (platform.key.replace("_", " "), *platform.aliases):
            key = _words(alias)
            if f" {key} " in folded and (best is None or len(key) > best[0]):
                best = (len(key), platform)
    return best[1] if best else None
