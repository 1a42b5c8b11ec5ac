"""Cloud GPU instances and hosted-notebook tiers: package data with a source and a date on every row.

`cloud_instances.csv` lists instance types and rental offers (GPU model × count, memory, vCPU, RAM,
on-demand price of the whole instance with its date and source); `notebook_tiers.csv` lists notebook
offers (Colab, Kaggle, Studio Lab...) with their price, GPUs, quotas and session limits. GPU names
must resolve to the GPU catalog, so a row cannot name a card the other tools do not know.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.knowledge.loader import DataFileError, read_csv_rows
from assistant.knowledge.sources import Source

INSTANCES_FILE = "cloud_instances.csv"
NOTEBOOKS_FILE = "notebook_tiers.csv"
AS_OF_PATTERN = r"^\d{4}(-\d{2}(-\d{2})?)?$"


def _yes_no(value: object) -> object:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("yes", "true", "1"):
            return True
        if word in ("no", "false", "0"):
            return False
    return value


def _exact_date(as_of: str | None) -> date | None:
    return date.fromisoformat(as_of) if as_of and len(as_of) == 10 else None


class CloudInstance(BaseModel):
    """One instance type or rental offer: its GPUs, memory, CPU, RAM and dated on-demand price."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    instance: str = Field(
        min_length=2, description="Instance type or offer name, e.g. p4d.24xlarge"
    )
    provider: str = Field(min_length=2, description="AWS, GCP, Azure, Lambda, RunPod, Vast.ai...")
    kind: str = Field(min_length=2, description="instance, on-demand offer, community cloud pod...")
    gpu: str = Field(min_length=2, description="GPU catalog name")
    gpu_count: int = Field(ge=1, le=64)
    vram_gb: float = Field(gt=0, description="Memory per GPU, GB as sold")
    vcpu: int | None = Field(default=None, ge=1)
    ram_gb: float | None = Field(default=None, gt=0, description="System memory of the instance")
    price_usd_per_hour: float | None = Field(
        default=None, gt=0, description="On-demand price of the whole instance, USD per hour"
    )
    region: str | None = Field(default=None, description="Region the price is for, if regional")
    price_as_of: str | None = Field(default=None, pattern=AS_OF_PATTERN)
    price_source: str | None = None
    price_url: str | None = None
    spot: bool = Field(description="Whether an interruptible (spot) price exists for it")
    spec_source: str = Field(min_length=3)
    spec_url: str = Field(pattern=r"^https?://\S+$")
    note: str | None = None
    note_fr: str | None = None

    @field_validator("spot", mode="before")
    @classmethod
    def _spot_word(cls, value: object) -> object:
        return _yes_no(value)

    @model_validator(mode="after")
    def _priced_rows_are_sourced(self) -> CloudInstance:
        if self.price_usd_per_hour is not None and not (self.price_as_of and self.price_source):
            raise ValueError(f"{self.instance}: a price needs price_as_of and price_source")
        if (self.note is None) != (self.note_fr is None):
            raise ValueError(f"{self.instance}: note and note_fr go together")
        return self

    @property
    def total_vram_gb(self) -> float:
        """GPU memory of the whole instance: one card's VRAM times the GPU count."""
        return self.vram_gb * self.gpu_count

    @property
    def price_per_gpu_hour(self) -> float | None:
        """The hourly price divided by the GPU count, or None without a price."""
        if self.price_usd_per_hour is None:
            return None
        return round(self.price_usd_per_hour / self.gpu_count, 4)

    def sources(self) -> list[Source]:
        """Where the specification came from, and the price page when the row has a price."""
        found = [Source(title=self.spec_source, url=self.spec_url, note="GPUs, vCPU and memory")]
        if self.price_usd_per_hour is not None and self.price_source:
            where = f" in {self.region}" if self.region else ""
            found.append(
                Source(
                    title=self.price_source,
                    url=self.price_url,
                    date=_exact_date(self.price_as_of),
                    note=f"on-demand price{where} as of {self.price_as_of}",
                )
            )
        return found


class NotebookTier(BaseModel):
    """One hosted-notebook offer: price, GPUs, quotas, session limits, with its source and date."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    provider: str = Field(min_length=2)
    tier: str = Field(min_length=2)
    price_usd: float | None = Field(default=None, ge=0, description="Per billing period")
    billing: str = Field(min_length=3, description="free, per month, per 100 compute units...")
    billing_fr: str = Field(min_length=3)
    gpus: str = Field(min_length=2, description="GPUs offered, as the provider describes them")
    gpus_fr: str = Field(min_length=2)
    compute_units: int | None = Field(default=None, ge=1)
    max_session_hours: float | None = Field(default=None, gt=0)
    idle_timeout_minutes: float | None = Field(default=None, gt=0)
    weekly_gpu_hours: float | None = Field(default=None, gt=0)
    at_zero: str | None = Field(
        default=None, description="What happens when quota or units run out"
    )
    at_zero_fr: str | None = None
    notes: str | None = None
    notes_fr: str | None = None
    source: str = Field(min_length=3)
    url: str = Field(pattern=r"^https?://\S+$")
    as_of: str = Field(pattern=AS_OF_PATTERN)

    @model_validator(mode="after")
    def _both_languages(self) -> NotebookTier:
        for en, fr in (("at_zero", "at_zero_fr"), ("notes", "notes_fr")):
            if (getattr(self, en) is None) != (getattr(self, fr) is None):
                raise ValueError(f"{self.provider} {self.tier}: {en} and {fr} go together")
        return self

    def text(self, field: str, lang: str) -> str | None:
        """A text column in the reader's language ('fr' reads the *_fr column)."""
        value = getattr(self, f"{field}_fr" if lang == "fr" else field)
        return value if isinstance(value, str) else None

    def to_source(self) -> Source:
        """The tier's page as a Source, dated when `as_of` is a full date."""
        return Source(
            title=self.source, url=self.url, date=_exact_date(self.as_of), note=f"seen {self.as_of}"
        )


def _check_gpu_names(rows: list[CloudInstance]) -> None:
    from assistant.knowledge.matching import match_gpu

    unknown = sorted({r.gpu for r in rows if match_gpu(r.gpu).gpu is None})
    if unknown:
        raise DataFileError(f"{INSTANCES_FILE}: GPU names not in the catalog: {unknown}")
    seen: set[str] = set()
    for row in rows:
        key = row.instance.lower()
        if key in seen:
            raise DataFileError(f"{INSTANCES_FILE}: instance {row.instance!r} appears twice")
        seen.add(key)


@lru_cache(maxsize=1)
def load_cloud_instances() -> tuple[CloudInstance, ...]:
    """Every cloud instance row, validated; GPU names must be catalog names."""
    rows = read_csv_rows(INSTANCES_FILE, CloudInstance)
    _check_gpu_names(rows)
    return tuple(rows)


def instance_key(text: str) -> str:
    """An instance name folded for matching: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1)
def instances_by_key() -> dict[str, CloudInstance]:
    """Every instance by its folded name ('h1001-80g' → the H100-1-80G row); an Azure size also
    without its 'Standard_' prefix, as people write it ('NC96ads_A100_v4')."""
    rows: dict[str, CloudInstance] = {}
    for row in load_cloud_instances():
        key = instance_key(row.instance)
        rows[key] = row
        if row.instance.startswith("Standard_"):
            rows.setdefault(key.removeprefix("standard"), row)
    return rows


# A word that may be an instance's name: letters, digits and '_.-', with a digit somewhere.
_INSTANCE_WORD = re.compile(r"[A-Za-z0-9_.\-]*\d[A-Za-z0-9_.\-]*")


def instances_in(text: str) -> list[tuple[int, int, CloudInstance]]:
    """Each catalog instance a text names, and where: (start, end, row), in the order named."""
    rows = instances_by_key()
    return [
        (m.start(), m.end(), row)
        for m in _INSTANCE_WORD.finditer(text)
        if (row := rows.get(instance_key(m.group(0)))) is not None
    ]


@lru_cache(maxsize=1)
def load_notebook_tiers() -> tuple[NotebookTier, ...]:
    """Every notebook tier row, validated."""
    rows = read_csv_rows(NOTEBOOKS_FILE, NotebookTier)
    keys = [(r.provider.lower(), r.tier.lower()) for r in rows]
    if len(keys) != len(set(keys)):
        raise DataFileError(f"{NOTEBOOKS_FILE}: a provider and tier appear twice")
    return tuple(rows)
