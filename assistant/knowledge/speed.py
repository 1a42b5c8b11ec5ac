"""The data behind the speed estimate: per-backend efficiencies fitted on published measurements
(`speed_rules.toml`) and the measurements themselves (`measured_speed.csv`), each validated here."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from assistant.knowledge.sources import Source

Backend = Literal["llama.cpp", "exllamav2", "mlc", "mlx", "vllm"]
Platform = Literal["cuda", "metal", "rocm", "vulkan"]
Split = Literal["tensor", "layer"]
Interconnect = Literal["nvlink", "pcie"]

RULES_FILE = "speed_rules.toml"
MEASURED_FILE = "measured_speed.csv"
BACKENDS: tuple[Backend, ...] = ("llama.cpp", "exllamav2", "mlc", "mlx", "vllm")


class BackendEfficiency(BaseModel):
    """How close one backend on one platform gets to the memory-bandwidth bound, as fitted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Backend
    platform: Platform
    efficiency: float = Field(
        gt=0, le=1.2, description="Fraction of peak memory bandwidth reached while decoding"
    )
    overhead_ms_per_32_layers: float = Field(
        ge=0, le=100, description="Fixed time per token (kernel launches, sync) per 32 layers, ms"
    )
    fitted_rows: int = Field(ge=0, description="Measured rows the two figures were fitted on")
    gpus: int = Field(ge=0, description="Different GPUs among those rows")
    default_split: Split = "layer"
    note: str | None = None


class SpeedRules(BaseModel):
    """Every constant the speed estimate uses, from speed_rules.toml."""

    model_config = ConfigDict(frozen=True)

    backends: list[BackendEfficiency]
    default_backend: Backend
    default_precision: str
    default_context_tokens: int = Field(gt=0)
    default_prompt_tokens: int = Field(gt=0)
    generic_layers_at_7b: float = Field(gt=0)
    generic_layers_exponent: float = Field(gt=0, lt=2)
    kv_cache_bits: float = Field(gt=0)
    prefill_utilisation: float = Field(gt=0, le=1)
    allreduce_latency_us: dict[Interconnect, float]
    layer_split_hop_ms: float = Field(ge=0)
    ram_bandwidth_gbs: float = Field(gt=0)
    cpu_efficiency: float = Field(gt=0, le=1)
    tolerance_fraction: float = Field(gt=0, lt=1)
    typical_error_fraction: float = Field(gt=0, lt=1)
    sources: dict[str, list[Source]]
    notes: dict[str, str] = Field(default_factory=dict)

    def backend(self, backend: Backend, platform: Platform) -> BackendEfficiency | None:
        """The fitted figures for a backend on a platform, or on its nearest fitted platform."""
        exact = [b for b in self.backends if b.backend == backend and b.platform == platform]
        if exact:
            return exact[0]
        same = [b for b in self.backends if b.backend == backend]
        return max(same, key=lambda b: b.fitted_rows) if same else None


class MeasuredSpeed(BaseModel):
    """A published single-stream decode speed with what reproduces it with the estimator."""

    model_config = ConfigDict(frozen=True)

    id: str
    gpu: str
    gpu_ref: str | None = Field(default=None, description="The GPU catalog's card, if any")
    bandwidth_gbs: float | None = Field(default=None, gt=0)
    bandwidth_source: str | None = None
    gpu_count: int = Field(ge=1)
    split: Split | None = None
    model: str
    model_ref: str | None = None
    params_b: float = Field(gt=0)
    quant: str
    bits_per_param: float = Field(gt=0, le=32)
    format_ref: str | None = None
    quant_note: str | None = None
    backend: Backend | Literal["other"]
    platform: Platform
    backend_detail: str
    test: str
    context_tokens: int = Field(ge=0)
    decode_tps: float | None = Field(default=None, gt=0)
    prefill_tps: float | None = Field(default=None, gt=0)
    comparable: bool
    not_comparable_reason: str | None = None
    check: Literal["primary", "secondary-crosschecked", "secondary"]
    source_url: str
    source_title: str
    date: str

    @model_validator(mode="after")
    def _check(self) -> MeasuredSpeed:
        if not self.comparable and not self.not_comparable_reason:
            raise ValueError(f"{self.id}: a row that is not comparable must say why")
        if self.comparable and self.gpu_ref is None and self.bandwidth_gbs is None:
            raise ValueError(f"{self.id}: a comparable row needs gpu_ref or bandwidth_gbs")
        if self.bandwidth_gbs is not None and not self.bandwidth_source:
            raise ValueError(f"{self.id}: bandwidth_gbs needs bandwidth_source")
        if self.gpu_count > 1 and self.split is None:
            raise ValueError(f"{self.id}: several GPUs need a split (tensor or layer)")
        return self

    @property
    def key(self) -> str:
        """'backend/platform': what the row was measured with and on."""
        return f"{self.backend}/{self.platform}"


@lru_cache(maxsize=1)
def load_speed_rules() -> SpeedRules:
    """The constants of speed_rules.toml, validated."""
    from assistant.knowledge.loader import read_toml_table

    doc = read_toml_table(RULES_FILE)
    return SpeedRules(
        backends=[BackendEfficiency.model_validate(b) for b in doc["backend"]],
        **doc["defaults"],
        **doc["prefill"],
        **{k: v for k, v in doc["multi_gpu"].items()},
        **doc["offload"],
        **doc["calibration"],
        sources={
            name: [Source.model_validate(s) for s in section]
            for name, section in doc["sources"].items()
        },
        notes=doc.get("notes", {}),
    )


@lru_cache(maxsize=1)
def load_measured_speed() -> tuple[MeasuredSpeed, ...]:
    """Every row of measured_speed.csv, validated."""
    from assistant.knowledge.loader import read_csv_rows

    return tuple(read_csv_rows(MEASURED_FILE, MeasuredSpeed))
