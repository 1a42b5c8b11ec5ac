"""Model sizes, memory rules and measured VRAM peaks: the data behind the workload-fit estimate.

Three packaged files, each validated by a schema here: `models.toml` (parameters per component and
attention shapes), `memory_rules.toml` (bytes per parameter, KV-cache, optimizer and overhead rules)
and `measured_vram.csv` (real peaks the estimate is calibrated against). Name matching lives in
`assistant.knowledge.model_matching`, which reads this module (never the other way round).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from assistant.knowledge.sources import Source

ModelKind = Literal[
    "llm", "llm-moe", "diffusion-image", "diffusion-video", "speech", "text-encoder", "vae"
]
ComponentRole = Literal["denoiser", "text_encoder", "vae"]
CompareTo = Literal["total", "total_without_context", "weights", "kv_cache", "overhead"]

MODELS_FILE = "models.toml"
RULES_FILE = "memory_rules.toml"
MEASURED_FILE = "measured_vram.csv"


class ModelComponent(BaseModel):
    """One separately loaded part of a pipeline (a diffusion transformer, a text encoder, a VAE)."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=2)
    role: ComponentRole
    params_b: float = Field(gt=0, le=10_000, description="Billions of parameters")


class ModelSpec(BaseModel):
    """A model (or pipeline) with what a memory estimate needs, and where each figure came from."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=2)
    family: str
    kind: ModelKind
    params_b: float = Field(
        gt=0, le=10_000, description="Total parameters in billions (all experts)"
    )
    active_params_b: float | None = Field(default=None, gt=0)
    num_layers: int | None = Field(default=None, gt=0)
    hidden_size: int | None = Field(default=None, gt=0)
    num_attention_heads: int | None = Field(default=None, gt=0)
    num_kv_heads: int | None = Field(default=None, gt=0)
    head_dim: int | None = Field(default=None, gt=0)
    kv_values_per_token_per_layer: int | None = Field(
        default=None,
        gt=0,
        description="Override for non-standard caches (MLA): values stored per token and layer",
    )
    max_context: int | None = Field(default=None, gt=0)
    max_context_extended: int | None = Field(default=None, gt=0)
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_layers: int | None = Field(default=None, ge=0)
    vocab_size: int | None = Field(default=None, gt=0)
    tied_embeddings: bool | None = None
    native_precision: str | None = None
    default_resolution: int | None = Field(default=None, gt=0)
    latent_downscale: int | None = Field(
        default=None, gt=0, description="Pixels per latent token side"
    )
    text_tokens: int | None = Field(default=None, gt=0)
    components: list[ModelComponent] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    note: str | None = None
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.components:
            total = sum(c.params_b for c in self.components)
            if abs(total - self.params_b) > 0.01:
                raise ValueError(
                    f"{self.name}: params_b {self.params_b} != sum of components {total:.3f}"
                )
        if self.sliding_layers and (not self.num_layers or self.sliding_layers > self.num_layers):
            raise ValueError(f"{self.name}: sliding_layers exceeds num_layers")
        if self.sliding_layers and not self.sliding_window:
            raise ValueError(f"{self.name}: sliding_layers without sliding_window")
        return self

    @property
    def is_diffusion(self) -> bool:
        """True for an image or video diffusion model (a `diffusion*` kind)."""
        return self.kind.startswith("diffusion")

    @property
    def is_llm(self) -> bool:
        """True for a language model (an `llm*` kind)."""
        return self.kind.startswith("llm")

    @property
    def embedding_params_b(self) -> float:
        """Input embedding plus output matrix (once if tied), in billions; 0 when unknown."""
        if not self.vocab_size or not self.hidden_size:
            return 0.0
        copies = 1 if self.tied_embeddings else 2
        return self.vocab_size * self.hidden_size * copies / 1e9

    def kv_values_per_token(self, context_tokens: int) -> float:
        """Average K+V values cached per token over all layers at this context length (0 if unknown)."""
        if self.kv_values_per_token_per_layer and self.num_layers:
            return float(self.kv_values_per_token_per_layer * self.num_layers)
        if not (self.num_layers and self.num_kv_heads and self.head_dim):
            return 0.0
        per_layer = 2 * self.num_kv_heads * self.head_dim
        sliding = self.sliding_layers or 0
        full = self.num_layers - sliding
        if sliding and self.sliding_window and context_tokens > self.sliding_window:
            capped = sliding * self.sliding_window / context_tokens
            return per_layer * (full + capped)
        return float(per_layer * self.num_layers)


class PrecisionFormat(BaseModel):
    """A weight storage format and its cost per parameter, constants included."""

    model_config = ConfigDict(frozen=True)

    name: str
    bits_per_param: float = Field(gt=0, le=32)
    keeps_embeddings_16bit: bool = False
    aliases: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    needs_feature: str | None = Field(
        default=None, description="features.toml key of the tensor-core math it runs on"
    )
    weight_only_min_cc: str | None = Field(
        default=None,
        description="Without that feature, from this CC the weights still load (weight-only)",
    )
    kernel_min_cc: str | None = Field(
        default=None, description="Oldest CC the common kernels for this format support"
    )
    use_instead: list[str] = Field(default_factory=list, description="Formats to suggest instead")
    runtime: str | None = Field(
        default=None, description="The runtime that loads this format, when it is one alone"
    )
    support_sources: list[Source] = Field(default_factory=list)

    @property
    def bytes_per_param(self) -> float:
        """Bytes each parameter takes in this format."""
        return self.bits_per_param / 8

    @property
    def is_quantized(self) -> bool:
        """True below 16 bits per parameter."""
        return self.bits_per_param < 16


class OptimizerRule(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    state_bytes_fp32: float = Field(ge=0)
    state_bytes_16bit: float = Field(ge=0)
    note: str | None = None


class MemoryRules(BaseModel):
    """Every constant the estimate uses, from memory_rules.toml."""

    model_config = ConfigDict(frozen=True)

    formats: list[PrecisionFormat]
    optimizers: list[OptimizerRule]
    bytes_per_gb: float
    bytes_per_gib: float
    card_sizes_are_gib: bool
    kv_default_precision: str
    cuda_context_gb: float
    llama_cpp_context_gb: float
    inference_prefill_chunk_tokens: int
    activation_bytes_per_token_per_hidden: float
    mixed_weight_bytes: float
    mixed_grad_bytes: float
    lora_adapter_bytes_per_param: float
    lora_all_linear_params_per_rank_layer_hidden: float
    lora_attention_params_per_rank_layer_hidden: float
    checkpointed_bytes_per_token_per_layer_hidden: float
    logits_bytes: float
    diffusion_activation_gb_per_megapixel: float
    unet_training_activation_factor: float
    unet_training_activation_factor_no_checkpointing: float
    large_text_encoder_min_params_b: float
    fits_below_fraction: float
    tight_below_fraction: float
    calibration_tolerance_fraction: float
    calibration_tolerance_gb: float
    sources: dict[str, list[Source]]
    precision_choices: dict[str, list[str]] = Field(default_factory=dict)
    precision_choice_sources: list[Source] = Field(default_factory=list)
    multi_gpu_notes: dict[str, str] = Field(default_factory=dict)
    multi_gpu_sources: list[Source] = Field(default_factory=list)
    offload_ram_fraction: float = Field(default=0.75, gt=0, le=1)
    offload_sources: list[Source] = Field(default_factory=list)
    unified_gpu_share: float = Field(default=1.0, gt=0, le=1)
    unified_gpu_share_small: float = Field(default=1.0, gt=0, le=1)
    unified_small_up_to_gb: float = 0.0
    unified_sources: list[Source] = Field(default_factory=list)

    def unified_share(self, memory_gb: float) -> float:
        """The share of a Mac's unified memory its GPU may use by default."""
        small = memory_gb <= self.unified_small_up_to_gb
        return self.unified_gpu_share_small if small else self.unified_gpu_share

    def format(self, name: str) -> PrecisionFormat | None:
        """The format called `name` or one of its aliases (case and separators ignored)."""
        key = _fmt_key(name)
        for fmt in self.formats:
            if key == _fmt_key(fmt.name) or key in {_fmt_key(a) for a in fmt.aliases}:
                return fmt
        return None

    def optimizer(self, name: str) -> OptimizerRule:
        """The optimizer rule called `name`; KeyError when the data has none."""
        for opt in self.optimizers:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def from_decimal_gb(self, decimal_gb: float) -> float:
        """A size given in decimal GB (1e9 bytes), in the unit of every estimate."""
        return decimal_gb * 1e9 / self.bytes_per_gb

    def card_capacity_gb(self, vram_gb: float) -> float:
        """Memory held by a card sold as `vram_gb`, in the unit of every estimate (the same number
        when, as here, that unit is the binary GB cards are sold in)."""
        return vram_gb * (
            self.bytes_per_gib / self.bytes_per_gb if self.card_sizes_are_gib else 1.0
        )


def _fmt_key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch == ".")


class MeasuredVram(BaseModel):
    """A real peak-memory report, in the source's unit, with how to reproduce it with the estimator."""

    model_config = ConfigDict(frozen=True)

    id: str
    workload: str
    model: str
    precision_or_method: str
    gpu: str
    value: float = Field(gt=0)
    unit: Literal["GB", "GiB", "MiB"]
    value_gb: float = Field(
        gt=0, description="value converted to binary GB (2^30 bytes), the unit of every estimate"
    )
    unit_note: str | None = None
    notes: str | None = None
    source: str
    model_ref: str | None = None
    params_b: float | None = Field(default=None, gt=0)
    task: str | None = None
    precision: str | None = None
    context_tokens: int | None = Field(default=None, gt=0)
    batch_size: int | None = Field(default=None, gt=0)
    resolution: str | None = None
    offload: Literal["none", "model", "sequential"] | None = None
    text_encoders_on_gpu: bool | None = None
    quantize_text_encoders: bool | None = None
    optimizer: str | None = None
    lora_rank: int | None = Field(default=None, gt=0)
    lora_targets: Literal["attention", "all_linear"] | None = None
    num_gpus: int | None = Field(
        default=None, ge=1, description="GPUs sharing the model (per-GPU figure)"
    )
    compare_to: CompareTo = "total"
    check: Literal["within", "at_most"] = "within"
    comparable: bool
    not_comparable_reason: str | None = None

    @model_validator(mode="after")
    def _check(self) -> MeasuredVram:
        factor = {"GB": 1e9 / 2**30, "GiB": 1.0, "MiB": 1 / 1024}[self.unit]
        if abs(self.value * factor - self.value_gb) > 0.01:
            raise ValueError(
                f"{self.id}: value_gb {self.value_gb} != {self.value} {self.unit} converted"
            )
        if (
            self.comparable
            and not (self.model_ref or self.params_b)
            and self.compare_to != "overhead"
        ):
            raise ValueError(f"{self.id}: a comparable row needs model_ref or params_b")
        if not self.comparable and not self.not_comparable_reason:
            raise ValueError(f"{self.id}: a row that is not comparable must say why")
        return self


@lru_cache(maxsize=1)
def load_models() -> tuple[ModelSpec, ...]:
    """Every model in models.toml, validated; names and aliases are unique after normalisation."""
    from assistant.knowledge.loader import read_toml_rows

    return tuple(read_toml_rows(MODELS_FILE, "model", ModelSpec))


def get_model(name: str) -> ModelSpec | None:
    """The model whose canonical name is exactly `name`."""
    return next((m for m in load_models() if m.name == name), None)


@lru_cache(maxsize=1)
def load_memory_rules() -> MemoryRules:
    """The constants of memory_rules.toml, validated."""
    from assistant.knowledge.loader import read_toml_table

    doc = read_toml_table(RULES_FILE)
    unified = doc.get("unified_memory", {})
    sections = ("kv_cache", "overhead", "training", "diffusion")
    return MemoryRules(
        formats=[PrecisionFormat.model_validate(f) for f in doc["format"]],
        optimizers=[OptimizerRule.model_validate(o) for o in doc["optimizer"]],
        **{k: v for k, v in doc["units"].items()},
        kv_default_precision=doc["kv_cache"]["default_precision"],
        **{k: v for k, v in doc["overhead"].items() if k != "sources"},
        **{k: v for k, v in doc["training"].items() if k != "sources"},
        diffusion_activation_gb_per_megapixel=doc["diffusion"][
            "inference_activation_gb_per_megapixel"
        ],
        **{
            k: v
            for k, v in doc["diffusion"].items()
            if k not in {"sources", "inference_activation_gb_per_megapixel"}
        },
        **doc["verdict"],
        sources={
            s: [Source.model_validate(x) for x in doc[s].get("sources", [])] for s in sections
        },
        precision_choices={
            k: v for k, v in doc.get("precision_choices", {}).items() if k != "sources"
        },
        precision_choice_sources=[
            Source.model_validate(x) for x in doc.get("precision_choices", {}).get("sources", [])
        ],
        multi_gpu_notes={k: v for k, v in doc.get("multi_gpu", {}).items() if k != "sources"},
        multi_gpu_sources=[
            Source.model_validate(x) for x in doc.get("multi_gpu", {}).get("sources", [])
        ],
        offload_ram_fraction=doc.get("offload", {}).get("ram_fraction", 0.75),
        offload_sources=[
            Source.model_validate(x) for x in doc.get("offload", {}).get("sources", [])
        ],
        unified_gpu_share=unified.get("gpu_share", 1.0),
        unified_gpu_share_small=unified.get("gpu_share_small", 1.0),
        unified_small_up_to_gb=unified.get("small_up_to_gb", 0.0),
        unified_sources=[Source.model_validate(x) for x in unified.get("sources", [])],
    )


@lru_cache(maxsize=1)
def load_measured_vram() -> tuple[MeasuredVram, ...]:
    """Every row of measured_vram.csv, validated."""
    from assistant.knowledge.loader import read_csv_rows

    return tuple(read_csv_rows(MEASURED_FILE, MeasuredVram))
