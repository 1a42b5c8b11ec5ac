"""Figures for the running cost of an owned card: default hours and idle draw, and per-card typical
draws where a source gives one (data/running_costs.toml)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.sources import Source

RUNNING_FILE = "running_costs.toml"


class CardDraw(BaseModel):
    """A card's sourced typical or idle draw, in watts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gpu: str = Field(min_length=2, description="Catalog name")
    typical_w: float | None = Field(default=None, gt=0, le=5000)
    idle_w: float | None = Field(default=None, ge=0, le=1000)
    source: Source


class RunningCosts(BaseModel):
    """The defaults and the per-card rows."""

    model_config = ConfigDict(frozen=True)

    hours_per_day: float = Field(gt=0, le=24)
    idle_w: float = Field(ge=0)
    idle_source: Source
    cards: list[CardDraw]

    def card(self, name: str) -> CardDraw | None:
        """The power-draw row of the card with this catalog name, or None."""
        return next((c for c in self.cards if c.gpu == name), None)


@lru_cache(maxsize=1)
def load_running_costs() -> RunningCosts:
    """The running-cost figures, validated."""
    from assistant.knowledge.loader import read_toml_table

    doc = read_toml_table(RUNNING_FILE)
    return RunningCosts(**doc["defaults"], cards=[CardDraw.model_validate(c) for c in doc["card"]])
