"""Input and result models of the speed estimate (kept apart so every module can import them)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.sources import Source
from assistant.knowledge.speed import Backend, Interconnect, Platform, Split

MAX_CONTEXT = 2_000_000


class SpeedQuery(BaseModel):
    """How fast will a model generate text on a card (one request at a time)?"""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    model: str | None = Field(
        default=None,
        max_length=200,
        description="Model name as people write it ('Llama 3.1 70B', 'Qwen3 30B-A3B') or a size ('32B')",
    )
    params_b: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Total parameters in billions (overrides the model's)",
    )
    active_params_b: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Parameters used per token, in billions, for a mixture-of-experts model",
    )
    precision: str | None = Field(
        default=None,
        max_length=40,
        description="Weight format: q4_k_m, q8_0, q4_0, fp16, bf16, fp8, int8, int4/awq/gptq, nf4... (default q4_k_m)",
    )
    bits_per_param: float | None = Field(
        default=None,
        gt=0,
        le=32,
        description="Stored bits per weight, scales included (overrides precision)",
    )
    gpu: str | None = Field(
        default=None, max_length=200, description="The card, e.g. 'RTX 4090', 'M2 Ultra', 'H100'"
    )
    gpu_count: int = Field(default=1, ge=1, le=64, description="How many identical cards")
    bandwidth_gbs: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Memory bandwidth per card in GB/s (for a card not in the catalog, or to override it)",
    )
    fp16_tflops: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Dense FP16 tensor TFLOPS per card, for the prefill estimate (default: the catalog's)",
    )
    backend: Backend | None = Field(
        default=None,
        description="llama.cpp (default), exllamav2, mlc, mlx (Apple only) or vllm",
    )
    split: Split | None = Field(
        default=None,
        description="With several cards: 'tensor' (tensor parallel) or 'layer' (layers shared out)",
    )
    interconnect: Interconnect | None = Field(
        default=None,
        description="Between several cards: nvlink or pcie (default: NVLink if the card has it)",
    )
    context_tokens: int | None = Field(
        default=None,
        ge=0,
        le=MAX_CONTEXT,
        description="Tokens already in the context while generating",
    )
    prompt_tokens: int | None = Field(
        default=None, ge=1, le=MAX_CONTEXT, description="Prompt length for the time to first token"
    )
    offload_fraction: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Fraction of the layers kept in system RAM and run there (partial CPU offload)",
    )
    ram_bandwidth_gbs: float | None = Field(
        default=None, gt=0, le=10_000, description="System RAM bandwidth in GB/s, for offload"
    )
    concurrent_requests: int = Field(
        default=1,
        ge=1,
        le=4096,
        description="Requests generated together by a server (vLLM, llama.cpp's parallel slots): "
        "each request's speed and the total are estimated",
    )


class SpeedEstimate(BaseModel):
    """Estimated decode and prefill speed, with the formula, every input and the assumptions."""

    found: bool = Field(description="False when the card or the model could not be resolved")
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    gpu: str | None = None
    gpu_count: int = 1
    model: str | None = None
    model_kind: str | None = Field(
        default=None, description="Set when the model is not a language model (no estimate)"
    )
    backend: Backend | None = None
    platform: Platform | None = None
    params_b: float | None = None
    active_params_b: float | None = None
    precision: str | None = None
    bits_per_param: float | None = None
    bandwidth_gbs: float | None = Field(default=None, description="Per card, GB/s (10^9 bytes)")
    efficiency: float | None = Field(
        default=None, description="Fraction of peak bandwidth the backend reaches (fitted)"
    )
    overhead_ms_per_token: float | None = None
    weights_read_gb: float | None = Field(
        default=None, description="Weights read per generated token, GB (10^9 bytes)"
    )
    kv_cache_read_gb: float | None = Field(
        default=None, description="KV cache read per generated token at the context, GB"
    )
    bytes_per_token_gb: float | None = None
    context_tokens: int | None = None
    decode_tokens_per_s: float | None = None
    decode_low: float | None = Field(
        default=None, description="Low end at the calibration's typical error"
    )
    decode_high: float | None = None
    ms_per_token: float | None = None
    split: Split | None = None
    interconnect: Interconnect | None = None
    communication_ms_per_token: float | None = None
    offload_fraction: float = 0.0
    ram_bandwidth_gbs: float | None = None
    offload_share_of_time: float | None = Field(
        default=None, description="Share of each token's time spent on the layers in system RAM"
    )
    prefill_tokens_per_s: float | None = None
    prompt_tokens: int | None = None
    time_to_first_token_s: float | None = None
    concurrent_requests: int = 1
    per_request_tokens_per_s: float | None = Field(
        default=None, description="With several requests at once: each one's decode speed"
    )
    total_tokens_per_s: float | None = Field(
        default=None, description="With several requests at once: all of them together"
    )
    batch_compute_bound: bool | None = Field(
        default=None,
        description="With several requests at once: whether the card's arithmetic, not its "
        "memory bandwidth, limits each step",
    )
    weights_fit: bool | None = Field(
        default=None,
        description="Whether the weights (less the offloaded share) fit the cards' memory; None "
        "when the card's memory is unknown. A speed where they do not assumes they did.",
    )
    formula: str = ""
    formula_fr: str = ""
    inputs: dict[str, Any] = Field(default_factory=dict)
    summary: str = ""
    summary_fr: str = ""
    notes: list[str] = Field(default_factory=list)
    notes_fr: list[str] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
