"""Workload fit: will a model run, or train, in a card's memory? Weights at a precision, KV cache,
optimizer states, gradients, activations, text encoders and VAE, overhead; with the assumptions
stated, the nearest measured figure, and what would make it fit."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.knowledge.models import MeasuredVram, MemoryRules, ModelSpec, load_memory_rules
from assistant.knowledge.sources import Source
from assistant.tools.fit_estimate import Estimate, LoraTargets, Offload, Setup, Task, estimate
from assistant.tools.fit_resolve import (
    assumptions_for,
    bigger_cards,
    fit_options,
    nearest_measured,
    resolve_gpu,
    resolve_model,
    resolve_setup,
    sources_for,
    verdict_for,
)

Verdict = Literal["fits", "tight", "does_not_fit", "unknown"]


class FitQuery(BaseModel):
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
        le=10_000,
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
        description="GPUs of this kind sharing the model; weights, KV cache, gradients and optimizer states are split evenly and every figure is per GPU",
    )
    quantize_text_encoders: bool = Field(
        default=True,
        description="For generation at a quantized precision, quantize the large (T5-class) text encoders too",
    )

    @model_validator(mode="before")
    @classmethod
    def _nulls_mean_defaults(cls, data: Any) -> Any:
        """A tool call may send null for a setting it leaves alone: use the default then."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data

    @field_validator("precision", "kv_precision")
    @classmethod
    def _known_format(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if value.strip().lower() == "mixed":
            return "mixed"
        fmt = load_memory_rules().format(value)
        if fmt is None:
            names = ", ".join(f.name for f in load_memory_rules().formats)
            raise ValueError(f"unknown precision {value!r}; known: {names}, mixed")
        return fmt.name


class MemoryLine(BaseModel):
    item: str = Field(
        description="weights, text_encoders, vae, kv_cache, activations, gradients, optimizer_states, adapters, overhead"
    )
    gb: float = Field(description="Decimal GB")
    detail: str


class FitOption(BaseModel):
    change: str = Field(description="What to change, e.g. 'precision int4'")
    total_gb: float
    verdict: Verdict


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
    capacity_gb: float | None = Field(description="Card memory in decimal GB")
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

    def summary(self) -> str:
        return self.message


def _unknown(query: FitQuery, message: str, suggestions: list[str], **known: object) -> FitResult:
    base: dict[str, object] = dict(
        query=query,
        model=None,
        model_found=False,
        params_b=None,
        task=query.task,
        precision=query.precision,
        context_tokens=query.context_tokens,
        gpu=None,
        vram_gb=query.vram_gb,
        capacity_gb=None,
        verdict="unknown",
        total_gb=None,
        headroom_gb=None,
        message=message,
        suggestions=suggestions,
    )
    base.update(known)
    return FitResult.model_validate(base)


def estimate_fit(query: FitQuery) -> FitResult:
    """Estimate the GPU memory a model needs for a task (inference, LoRA, QLoRA, full fine-tuning,
    image generation) and say whether it fits a catalog GPU or a memory size: fits, tight,
    does_not_fit, or unknown. Returns the breakdown, assumptions, sources, the nearest measured
    figure, and changes that would make it fit. Unknown model or GPU names come back as a message
    with near names, never an exception."""
    rules = load_memory_rules()
    spec, params_b, model_suggestions = resolve_model(query)
    if spec is None and params_b is None:
        return _unknown(
            query,
            f"Unknown model {query.model!r}: give a parameter count (e.g. params_b=7) or a known name.",
            model_suggestions,
        )
    card, vram_gb, gpu_suggestions = resolve_gpu(query)
    if query.gpu and card is None and query.vram_gb is None:
        return _unknown(
            query,
            f"Unknown GPU {query.gpu!r}: not in the catalog.",
            gpu_suggestions,
            model=spec.name if spec else None,
            model_found=spec is not None,
            params_b=params_b,
        )
    setup, problem = resolve_setup(query, spec, params_b or 0.0, rules)
    if setup is None:
        return _unknown(
            query,
            problem,
            [],
            model=spec.name if spec else None,
            model_found=spec is not None,
            params_b=params_b,
        )
    est = estimate(setup, rules)
    capacity = rules.card_capacity_gb(vram_gb) if vram_gb else None
    verdict = verdict_for(est, capacity, rules)
    options = fit_options(setup, rules, capacity) if verdict in ("tight", "does_not_fit") else []
    cards = (
        bigger_cards(est.total_gb, rules, exclude=card.name if card else None)
        if verdict != "fits" and est.complete
        else []
    )
    name = spec.name if spec else f"generic {params_b:g}B model"
    return FitResult(
        query=query,
        model=spec.name if spec else None,
        model_found=spec is not None,
        params_b=setup.params_b,
        task=setup.task,
        precision=setup.precision,
        context_tokens=setup.context_tokens if _uses_tokens(setup) else None,
        gpu=card.name if card else None,
        vram_gb=vram_gb,
        capacity_gb=round(capacity, 2) if capacity else None,
        verdict=verdict,
        total_gb=est.total_gb,
        headroom_gb=round(capacity - est.total_gb, 2) if capacity else None,
        breakdown=[MemoryLine(item=x.item, gb=x.gb, detail=x.detail) for x in est.lines],
        fits_with=[FitOption(change=c, total_gb=t, verdict=v) for c, t, v in options],
        bigger_cards=cards,
        nearest_measured=nearest_measured(spec, setup, card.name if card else None),
        assumptions=assumptions_for(setup, est, rules),
        sources=sources_for(spec, setup, rules),
        message=_message(name, setup, est, verdict, capacity, card.name if card else vram_gb),
    )


def _uses_tokens(setup: Setup) -> bool:
    return not (setup.spec is not None and setup.spec.is_diffusion)


def _message(
    name: str, setup: Setup, est: Estimate, verdict: str, capacity: float | None, where: object
) -> str:
    what = f"{name}, {setup.task.replace('_', ' ')} at {setup.precision}"
    each = " per GPU" if setup.num_gpus > 1 else ""
    total = f"about {est.total_gb:.1f} GB{each}"
    if not est.complete:
        total = f"at least {est.total_gb:.1f} GB{each} (weights and overhead; video activations not modelled)"
    if capacity is None:
        return f"{what}: {total}. Give a GPU or a memory size for a verdict."
    card = f"{where} GB" if isinstance(where, float | int) else str(where)
    if setup.num_gpus > 1:
        card = f"{setup.num_gpus} x {card}"
    words = {
        "fits": "fits",
        "tight": "is tight on",
        "does_not_fit": "does not fit",
        "unknown": "may or may not fit",
    }[verdict]
    return f"{what}: {total}; {words} {card} ({capacity:.1f} GB usable{each})."


def fits_in(vram_gb: float, query: FitQuery) -> bool:
    """True when the workload fits (verdict 'fits') a card of `vram_gb` (as sold)."""
    result = estimate_fit(query.model_copy(update={"gpu": None, "vram_gb": vram_gb}))
    return result.verdict == "fits"


def minimum_vram_gb(query: FitQuery, rules: MemoryRules | None = None) -> float | None:
    """The smallest card size (GB as sold) on which the workload gets the verdict 'fits'; None if unknown."""
    rules = rules or load_memory_rules()
    result = estimate_fit(query.model_copy(update={"gpu": None, "vram_gb": None}))
    if result.total_gb is None:
        return None
    per_card_gb = rules.card_capacity_gb(1.0)
    return round(result.total_gb / rules.fits_below_fraction / per_card_gb, 2)


__all__ = [
    "FitOption",
    "FitQuery",
    "FitResult",
    "MemoryLine",
    "ModelSpec",
    "estimate_fit",
    "fits_in",
    "minimum_vram_gb",
]
