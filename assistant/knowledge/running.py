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
    psu_w: float | None = Field(
        default=None,
        gt=0,
        le=5000,
        description="The vendor's recommended power supply for a desktop with this card",
    )
    source: Source


class SystemDraw(BaseModel):
    """A vendor's server built around one card: how many it holds and the most the whole system
    draws, the figure a power budget or an electricity bill of a server starts from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=2)
    gpu: str = Field(min_length=2, description="Catalog name of its cards")
    gpus: int = Field(ge=1, le=72)
    max_w: float = Field(gt=0, le=200_000)
    stands_for: list[str] = Field(
        default_factory=list,
        description="Cards whose servers have no vendor rating in the data: the rest of such a "
        "server (beyond its cards) is estimated as this one's",
    )
    source: Source


class RunningCosts(BaseModel):
    """The defaults, the per-card rows and the servers."""

    model_config = ConfigDict(frozen=True)

    hours_per_day: float = Field(gt=0, le=24)
    idle_w: float = Field(ge=0)
    idle_source: Source
    psu_rest_w: float = Field(
        gt=0, description="What a typical desktop's rest draws, as vendors' PSU figures imply"
    )
    psu_floor_w: float = Field(
        gt=0, description="The least the rest of a desktop draws under load (a modest CPU)"
    )
    psu_source: Source
    battery_efficiency: float = Field(
        gt=0, le=1, description="The share of a battery's rated Wh that reaches the machine"
    )
    battery_source: Source
    cards: list[CardDraw]
    systems: list[SystemDraw] = Field(default_factory=list)

    def system(self, gpu: str) -> SystemDraw | None:
        """The vendor server built around this card, or None."""
        return next((s for s in self.systems if s.gpu == gpu), None)

    def stand_in(self, gpu: str) -> SystemDraw | None:
        """The vendor server whose rest estimates that of a server of this card, or None."""
        return next((s for s in self.systems if gpu in s.stands_for), None)

    def card(self, name: str) -> CardDraw | None:
        """The power-draw row of the card with this catalog name, or None."""
        return next((c for c in self.cards if c.gpu == name), None)


@lru_cache(maxsize=1)
def load_running_costs() -> RunningCosts:
    """The running-cost figures, validated."""
    from assistant.knowledge.loader import read_toml_table

    doc = read_toml_table(RUNNING_FILE)
    return RunningCosts(
        **doc["defaults"],
        cards=[CardDraw.model_validate(c) for c in doc["card"]],
        systems=[SystemDraw.model_validate(s) for s in doc.get("system", [])],
    )
