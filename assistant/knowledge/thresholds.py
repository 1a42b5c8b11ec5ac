"""VRAM thresholds from the corpus that the recommendation applies (vram_thresholds.toml)."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, Field

from assistant.knowledge.loader import DataFileError, read_toml_rows
from assistant.knowledge.sources import Source

THRESHOLDS_FILE = "vram_thresholds.toml"


class VramThreshold(BaseModel):
    """A memory size a rule of the corpus names, what it is used for, and where it comes from."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    vram_gb: float = Field(gt=0, description="GB as the card is sold")
    label: str
    label_fr: str
    use: str
    sources: list[Source] = Field(min_length=1)


@cache
def load_vram_thresholds() -> dict[str, VramThreshold]:
    """Every threshold by key."""
    rows = read_toml_rows(THRESHOLDS_FILE, "threshold", VramThreshold)
    out = {row.key: row for row in rows}
    if len(out) != len(rows):
        raise DataFileError(f"{THRESHOLDS_FILE}: duplicate key")
    return out


def vram_threshold(key: str) -> VramThreshold:
    """One threshold; a missing key is a data error, named."""
    found = load_vram_thresholds().get(key)
    if found is None:
        raise DataFileError(f"{THRESHOLDS_FILE}: no threshold {key!r}")
    return found
