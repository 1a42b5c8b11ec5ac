"""The query and result models of the workload-fit tool, at the bottom of the package: every other
module of `assistant.tools.fit` imports from here, and this imports nothing from them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from assistant.knowledge.model_matching import MAX_PARAMS_B
from assistant.knowledge.models import MeasuredVram, load_memory_rules
from assistant.knowledge.sources import Source
from assistant.tools.probe.models import ProbeReport
from assistant.tools.query import NullsMeanDefaults

Task = Literal["inference", "lora", "qlora", "full_finetune", "image_generation"]
Offload = Literal["none", "model", "sequential"]
LoraTargets = Literal["attention", "all_linear"]
Verdict = Literal["fits", "tight", "does_not_fit", "unknown"]


def precision_name(value: str) -> str:
    """A precision's canonical name ('mixed' or a format of memory_rules.toml); unknown: an error."""
    if value.strip().lower() == "mixed":
        return "mixed"
    fmt = load_memory_rules().format(value)
    if fmt is None:
        names = ", ".join(f.name for f in load_memory_rules().formats)
        raise ValueError(f"unknown precision {value!r}; known: {names}, mixed")
    return fmt.name


class FitQuery(NullsMeanDefaults):
    """A workload to size against a GPU (by catalog name) or a memory size."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    model: str = Field(
        min_length=1,
        max_length=200,
        description="Model name as written ('Llama 3.1 70B', 'flux dev', 'sdxl') or a size ('70B', '13 milliards')",
    )
    params_b: float | None = Field(
        default=None,
        gt=0,
        le=MAX_PARAMS_B,
        description="Parameter count in billions, for a model not in the table",
    )
    gpu: str | None = Field(
        default=None,
        max_length=200,
        description="GPU name from the catalog ('RTX 4090', 'H100 SXM'); its memory is used",
    )
    vram_gb: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Card memory in GB as sold (binary GB), instead of a GPU name",
    )
    in_use_gb: float | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="Memory other programs already hold on each card (a game, the desktop, "
        "another model): the workload gets the rest",
    )
    task: Task = Field(
        default="inference",
        description="inference (LLM serving), lora, qlora, full_finetune, or image_generation (diffusion)",
    )
    precision: str | None = Field(
        default=None,
        max_length=40,
        description="Weight format: fp32, bf16, fp16, fp8, int8, int4 (AWQ/GPTQ), nf4, nf4_dq, mxfp4, q8_0, q6_k, q5_k_m, q4_k_m, q4_1, q4_0; 'mixed' for mixed-precision full fine-tuning. Default: bf16 (nf4_dq for QLoRA, mixed for full fine-tuning, the model's native format when it has one)",
    )
    context_tokens: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Tokens per sequence: context for inference (default 4096, capped at the model's maximum), sequence length for training (default 2048)",
    )
    batch_size: int = Field(
        default=1,
        ge=1,
        le=100_000,
        description="Concurrent sequences (LLM) or images per batch (diffusion)",
    )
    longest_context: bool = Field(
        default=False,
        description="Inference: also find the longest context of one sequence that fits the "
        "card(s) (max_context_tokens in the result)",
    )
    kv_precision: str | None = Field(
        default=None,
        max_length=40,
        description="KV-cache format: bf16 (default), fp16, fp8, int8, int4",
    )
    optimizer: Literal["adamw", "adamw8bit", "sgd", "adafactor"] = Field(
        default="adamw", description="Optimizer for training tasks"
    )
    lora_rank: int = Field(default=16, ge=1, le=4096, description="LoRA rank for lora/qlora")
    lora_targets: LoraTargets | None = Field(
        default=None,
        description="Layers given adapters: all_linear (LLM default) or attention (diffusion default)",
    )
    gradient_checkpointing: bool = Field(
        default=True, description="Recompute activations in the backward pass (training)"
    )
    width_px: int | None = Field(
        default=None,
        ge=64,
        le=16_384,
        description="Image width in pixels (diffusion; default the model's native size)",
    )
    height_px: int | None = Field(
        default=None,
        ge=64,
        le=16_384,
        description="Image height in pixels (diffusion; default the model's native size)",
    )
    offload: Offload = Field(
        default="none",
        description="Diffusion CPU offload: none, model (one component at a time), sequential (layer by layer)",
    )
    text_encoders_on_gpu: bool | None = Field(
        default=None,
        description="Diffusion text encoders resident on the GPU (default: yes for generation, no for training, where embeddings and latents are cached)",
    )
    num_gpus: int = Field(
        default=1,
        ge=1,
        le=1024,
        description="How many of `gpu` (or of `vram_gb`-sized cards); figures are for the fullest card",
    )
    gpus: list[str] | None = Field(
        default=None,
        max_length=64,
        description="Several cards, identical or not: ['4x A10G'], ['RTX 3090', 'RTX 4090'] or "
        "['RTX 3090 + RTX 4090']; replaces gpu and num_gpus",
    )
    multi_gpu: Literal["shard", "equal", "replicate"] = Field(
        default="shard",
        description="With several cards: shard one model across them, each card's share in "
        "proportion to its memory (llama.cpp layer split, accelerate); equal: shard in equal "
        "shares, so the smallest card limits (tensor parallel in vLLM, SGLang, TensorRT-LLM); or "
        "replicate: one full copy per card",
    )
    machine: ProbeReport | None = Field(
        default=None,
        description="The probed machine (the probe_gpus result): its GPUs' free memory, not their "
        "total, and a MIG slice when MIG is on, are used instead of gpu/gpus/vram_gb",
    )
    quantize_text_encoders: bool = Field(
        default=True,
        description="For generation at a quantized precision, quantize the large (T5-class) text encoders too",
    )

    @field_validator("gpus")
    @classmethod
    def _card_names(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        names = [v.strip() for v in value if v and v.strip()]
        if any(len(v) > 200 for v in names):
            raise ValueError("a GPU name is at most 200 characters")
        return names or None

    @field_validator("precision", "kv_precision")
    @classmethod
    def _known_format(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return precision_name(value)


class MemoryLine(BaseModel):
    item: str = Field(
        description="weights, text_encoders, vae, kv_cache, activations, gradients, optimizer_states, adapters, overhead"
    )
    gb: float = Field(description="Binary GB (2^30 bytes), the unit cards are sold in")
    detail: str


class FitOption(BaseModel):
    change: str = Field(description="What to change, e.g. 'precision int4'")
    total_gb: float
    verdict: Verdict
    precision: str | None = Field(
        default=None, description="The weights' precision, when the change sets another"
    )
    task: str | None = Field(
        default=None, description="The method, when the change sets another (LoRA, QLoRA)"
    )


Runs = Literal["yes", "weight_only", "no", "unknown"]


class PrecisionSupport(BaseModel):
    """Whether one weight format runs on one card, why, and what to use instead."""

    precision: str
    gpu: str
    compute_capability: str | None = None
    runs: Runs = Field(
        description="yes; weight_only (the weights load and are unpacked to 16-bit, no speed-up "
        "from the format); no; unknown (not an NVIDIA card, or its CC is not in the data)"
    )
    reason: str
    reason_fr: str
    use_instead: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)


class CardLoad(BaseModel):
    """One card of several and its share of the workload."""

    gpu: str
    vram_gb: float = Field(description="Memory the workload may use on it (free memory if probed)")
    load_gb: float = Field(description="What it would hold: its share plus its own overhead")
    verdict: Verdict
    note: str | None = None


class MultiGpu(BaseModel):
    """How several cards share (or each hold) the workload, and what that means."""

    mode: Literal["shard", "equal", "replicate"]
    cards: int
    total_vram_gb: float = Field(description="Sum over the cards; not one pool")
    sharded_gb: float = Field(description="Weights, KV cache, optimizer states... split over cards")
    per_card_gb: float = Field(description="Kept on every card: activations and CUDA context")
    whole_gb: float = Field(description="Everything on all cards together")
    interconnect: Literal["nvlink", "pcie", "unknown"]
    notes: list[str] = Field(default_factory=list)
    notes_fr: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)


class PrecisionOption(BaseModel):
    """One precision of the side-by-side comparison."""

    precision: str
    total_gb: float | None
    verdict: Verdict
    runs: str = Field(description="yes, weight_only, no or unknown on the card(s)")
    note: str | None = None


class FitResult(BaseModel):
    """The estimate, its parts, its assumptions and sources, and whether it fits the card."""

    query: FitQuery
    model: str | None = Field(
        description="The table's model name, None for a generic or unknown model"
    )
    model_found: bool
    params_b: float | None
    task: Task
    precision: str | None
    context_tokens: int | None
    gpu: str | None = Field(description="The catalog card matched, if any")
    vram_gb: float | None = Field(description="Card memory as sold (binary GB)")
    capacity_gb: float | None = Field(
        description="Memory the estimate is compared with, in the same binary GB (free memory for a probed machine)"
    )
    verdict: Verdict
    total_gb: float | None
    headroom_gb: float | None
    breakdown: list[MemoryLine] = Field(default_factory=list)
    fits_with: list[FitOption] = Field(
        default_factory=list, description="Changes that bring it within the card"
    )
    bigger_cards: list[str] = Field(
        default_factory=list, description="Smallest catalog cards it fits"
    )
    nearest_measured: MeasuredVram | None = None
    assumptions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    message: str
    suggestions: list[str] = Field(
        default_factory=list, description="Near names when the model or GPU is unknown"
    )
    message_fr: str = Field(default="", description="The message in French")
    unit: str = Field(
        default="GB = binary gigabyte (2^30 bytes = 1 GiB), the unit cards are sold in",
        description="The one memory unit of every figure",
    )
    formula: str = Field(
        default="", description="How the total is computed, with the inputs of this estimate"
    )
    cards: list[CardLoad] = Field(
        default_factory=list, description="Each card and what it would hold (several cards)"
    )
    multi_gpu: MultiGpu | None = None
    precision_support: list[PrecisionSupport] = Field(
        default_factory=list, description="Whether the precision runs on each card"
    )
    by_precision: list[PrecisionOption] = Field(
        default_factory=list,
        description="The common precisions side by side, when the question named none",
    )
    cards_needed: int | None = Field(
        default=None,
        description="How many cards like the one named hold the workload sharded, by memory alone "
        "(identical cards; None when no card is named or more than 1,024 would be needed)",
    )
    max_sequences: int | None = Field(
        default=None,
        description="Inference: how many sequences of context_tokens the card(s) hold at once "
        "(each has its own KV cache and activations); None when not one fits or no card is named",
    )

    max_context_tokens: int | None = Field(
        default=None,
        description="Inference, when the query asks for it (longest_context): the longest context "
        "of one sequence that fits the card(s), up to the model's maximum (to within 64 tokens); "
        "None when not one fits or no card is named",
    )

    def summary(self) -> str:
        """The one-paragraph answer (`message`)."""
        return self.message
