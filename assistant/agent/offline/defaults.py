"""The values the offline model assumes when a question leaves them out (package data)."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

from assistant.money import Currency


class RentDefaults(BaseModel):
    hours: float
    source: str


class SpotDefaults(BaseModel):
    spot_rate: float
    dedicated_rate: float
    currency: Currency
    job_hours: float
    source: str
    job_source: str


class StorageDefaults(BaseModel):
    gb: float
    source: str


class CardDefault(BaseModel):
    gpu: str
    source: str


class BudgetDefault(BaseModel):
    amount: float
    currency: Currency
    source: str


class Defaults(BaseModel):
    rent: RentDefaults
    spot: SpotDefaults
    storage: StorageDefaults
    forgotten: CardDefault
    buy: CardDefault
    small_budget: BudgetDefault


@lru_cache(maxsize=1)
def defaults() -> Defaults:
    """The defaults of `defaults.toml`, validated."""
    text = resources.files("assistant.agent.offline").joinpath("defaults.toml").read_text("utf-8")
    return Defaults.model_validate(tomllib.loads(text))
