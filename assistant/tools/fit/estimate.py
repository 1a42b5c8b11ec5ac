"""The memory arithmetic behind `estimate_fit`: a resolved setup in, breakdown lines out.

Pure functions over `ModelSpec` and `MemoryRules`; every constant comes from memory_rules.toml.
All sizes are in the GB of memory_rules.toml: binary, 2^30 bytes, the unit cards are sold in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from assistant.knowledge.models import MemoryRules, ModelSpec, OptimizerRule, PrecisionFormat
from assistant.tools.fit.models import LoraTargets, Offload, Task

GENERIC_KV_HEADS = 8
GENERIC_HEAD_DIM = 128
GENERIC_VOCAB = 128_000
# Adapter size per rank as a share of the base, when the model's shape is unknown (derived from
# FLUX rank 4 attention: 4,669,440 / 11.9B; Llama 3.1 8B rank 16 on all linear layers: ~42M / 8B).
FALLBACK_ADAPTER_SHARE = {"attention": 0.0001, "all_linear": 0.00033}


@dataclass(frozen=True)
class Setup:
    """Everything the arithmetic needs, already resolved and defaulted."""

    spec: ModelSpec | None
    params_b: float
    task: Task
    precision: str  # a format name, or "mixed" for mixed-precision full fine-tuning
    fmt: PrecisionFormat | None  # None only for "mixed"
    kv_fmt: PrecisionFormat
    context_tokens: int
    batch_size: int
    optimizer: OptimizerRule
    lora_rank: int
    lora_targets: LoraTargets
    gradient_checkpointing: bool
    width_px: int
    height_px: int
    offload: Offload
    text_encoders_on_gpu: bool
    quantize_text_encoders: bool
    num_gpus: int = 1
    shard_fraction: float | None = None  # this card's share of the sharded state (default 1/n)

    def with_(self, **changes: object) -> Setup:
        """A copy of the setup with these fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Line:
    item: str
    gb: float
    detail: str


@dataclass(frozen=True)
class Estimate:
    lines: list[Line]
    total_gb: float
    complete: bool  # False when a part (video activations) is not modelled

    def part(self, item: str) -> float:
        """The GB of every line of the breakdown called `item`, summed."""
        return sum(line.gb for line in self.lines if line.item == item)


def _gb(nbytes: float, rules: MemoryRules) -> float:
    return nbytes / rules.bytes_per_gb


def shape(setup: Setup) -> tuple[int, int, float]:
    """(layers, hidden, vocab) of the model, inferred from the parameter count for a generic one:
    params ~ 12 x layers x hidden^2 with layers ~ hidden / 128."""
    spec = setup.spec
    if spec and spec.num_layers and spec.hidden_size:
        return spec.num_layers, spec.hidden_size, float(spec.vocab_size or GENERIC_VOCAB)
    hidden = (setup.params_b * 1e9 * 128 / 12) ** (1 / 3)
    return max(1, round(hidden / 128)), round(hidden), float(GENERIC_VOCAB)


def kv_bytes_per_token(setup: Setup) -> float:
    """Bytes of K and V cached per token of context, over all layers, at the cache precision."""
    elem = setup.kv_fmt.bytes_per_param
    if setup.spec is not None and setup.spec.is_llm:
        return setup.spec.kv_values_per_token(setup.context_tokens) * elem
    layers, _, _ = shape(setup)
    return 2 * layers * GENERIC_KV_HEADS * GENERIC_HEAD_DIM * elem


def _llm_weight_bytes(setup: Setup, params_b: float, fmt: PrecisionFormat) -> float:
    emb = setup.spec.embedding_params_b if setup.spec else 0.0
    if fmt.is_quantized and fmt.keeps_embeddings_16bit and 0 < emb < params_b:
        return emb * 1e9 * 2 + (params_b - emb) * 1e9 * fmt.bytes_per_param
    return params_b * 1e9 * fmt.bytes_per_param


def _weights(setup: Setup, rules: MemoryRules) -> list[Line]:
    spec = setup.spec
    if setup.task == "full_finetune":
        per = {"mixed": rules.mixed_weight_bytes, "fp32": 4.0}.get(setup.precision, 2.0)
        trained = _denoiser_params(setup)
        detail = f"{trained:.3f}B params x {per:g} B ({setup.precision})"
        lines = [Line("weights", _gb(trained * 1e9 * per, rules), detail)]
        return lines + (_frozen_components(setup, rules) if spec and spec.is_diffusion else [])
    assert setup.fmt is not None
    fmt = setup.fmt
    if spec is None or not spec.components:
        nbytes = _llm_weight_bytes(setup, setup.params_b, fmt)
        detail = f"{setup.params_b:g}B params x {fmt.bits_per_param:g} bits ({fmt.name})"
        if nbytes != setup.params_b * 1e9 * fmt.bytes_per_param:
            detail += f"; embeddings and output layer ({spec.embedding_params_b if spec else 0:.2f}B) kept in 16-bit"
        return [Line("weights", _gb(nbytes, rules), detail)]
    den = _denoiser_params(setup)
    lines = [
        Line(
            "weights",
            _gb(den * 1e9 * fmt.bytes_per_param, rules),
            f"denoiser {den:g}B x {fmt.bits_per_param:g} bits ({fmt.name})",
        )
    ]
    return lines + _frozen_components(setup, rules)


def _denoiser_params(setup: Setup) -> float:
    spec = setup.spec
    if spec is None or not spec.components:
        return setup.params_b
    return sum(c.params_b for c in spec.components if c.role == "denoiser")


def _component_format(setup: Setup, params_b: float, rules: MemoryRules) -> PrecisionFormat:
    fp32 = rules.format("fp32")
    bf16 = rules.format("bf16")
    assert fp32 is not None and bf16 is not None
    if setup.precision == "fp32":
        return fp32
    big = params_b >= rules.large_text_encoder_min_params_b
    if (
        big
        and setup.quantize_text_encoders
        and setup.fmt is not None
        and setup.task == "image_generation"
    ):
        return setup.fmt
    return bf16


def _frozen_components(setup: Setup, rules: MemoryRules) -> list[Line]:
    spec = setup.spec
    assert spec is not None
    training = setup.task != "image_generation"
    lines = []
    for comp in spec.components:
        if comp.role == "denoiser":
            continue
        if not setup.text_encoders_on_gpu and (comp.role == "text_encoder" or training):
            continue
        fmt = _component_format(setup, comp.params_b, rules)
        item = "text_encoders" if comp.role == "text_encoder" else "vae"
        nbytes = comp.params_b * 1e9 * fmt.bytes_per_param
        lines.append(
            Line(
                item,
                _gb(nbytes, rules),
                f"{comp.name} {comp.params_b:g}B x {fmt.bits_per_param:g} bits ({fmt.name})",
            )
        )
    return lines


def _training_activations(setup: Setup, rules: MemoryRules) -> list[Line]:
    spec = setup.spec
    b = setup.batch_size
    if spec is not None and spec.is_diffusion:
        megapixels = setup.width_px * setup.height_px / 1e6
        if not (spec.num_layers and spec.hidden_size):  # a UNet: scale the inference figure
            factor = (
                rules.unet_training_activation_factor
                if setup.gradient_checkpointing
                else rules.unet_training_activation_factor_no_checkpointing
            )
            gb = factor * rules.diffusion_activation_gb_per_megapixel * megapixels * b
            return [
                Line(
                    "activations",
                    gb,
                    f"{factor:g} x {rules.diffusion_activation_gb_per_megapixel:g} GB per megapixel x {megapixels:.2f} MP x {b} (UNet heuristic)",
                )
            ]
        down = spec.latent_downscale or 16
        tokens = (setup.width_px // down) * (setup.height_px // down) + (spec.text_tokens or 0)
        return [
            _transformer_activations(setup, rules, tokens, spec.num_layers, spec.hidden_size, b)
        ]
    layers, hidden, vocab = shape(setup)
    s = setup.context_tokens
    lines = [_transformer_activations(setup, rules, s, layers, hidden, b)]
    logits = b * s * vocab * rules.logits_bytes
    lines.append(
        Line(
            "activations",
            _gb(logits, rules),
            f"logits {b} x {s} tokens x {vocab:.0f} vocab x {rules.logits_bytes:g} B",
        )
    )
    return lines


def _transformer_activations(
    setup: Setup, rules: MemoryRules, tokens: int, layers: int, hidden: int, b: int
) -> Line:
    one_layer = b * tokens * hidden * rules.activation_bytes_per_token_per_hidden
    if setup.gradient_checkpointing:
        kept = b * tokens * hidden * layers * rules.checkpointed_bytes_per_token_per_layer_hidden
        detail = f"checkpointed: {b} x {tokens} tokens x {hidden} hidden x ({layers} layers x {rules.checkpointed_bytes_per_token_per_layer_hidden:g} B + one layer x {rules.activation_bytes_per_token_per_hidden:g} B)"
        return Line("activations", _gb(kept + one_layer, rules), detail)
    detail = f"{b} x {tokens} tokens x {hidden} hidden x {layers} layers x {rules.activation_bytes_per_token_per_hidden:g} B"
    return Line("activations", _gb(one_layer * layers, rules), detail)


def _adapters(setup: Setup, rules: MemoryRules) -> Line:
    spec = setup.spec
    per = (
        8 + setup.optimizer.state_bytes_fp32
    )  # fp32 adapter weights and gradients + optimizer states
    if spec is not None and spec.num_layers and spec.hidden_size:
        k = (
            rules.lora_all_linear_params_per_rank_layer_hidden
            if setup.lora_targets == "all_linear"
            else rules.lora_attention_params_per_rank_layer_hidden
        )
        n = setup.lora_rank * spec.num_layers * spec.hidden_size * k
        how = f"rank {setup.lora_rank} x {spec.num_layers} layers x {spec.hidden_size} x {k:g}"
    else:
        n = (
            _denoiser_params(setup)
            * 1e9
            * FALLBACK_ADAPTER_SHARE[setup.lora_targets]
            * setup.lora_rank
        )
        how = (
            f"about {FALLBACK_ADAPTER_SHARE[setup.lora_targets] * setup.lora_rank:.2%} of the base"
        )
    return Line(
        "adapters",
        _gb(n * per, rules),
        f"{n / 1e6:.1f}M LoRA params ({how}) x {per:g} B (weights, gradients, {setup.optimizer.name})",
    )


def estimate(setup: Setup, rules: MemoryRules) -> Estimate:
    """Breakdown lines and total for one setup."""
    spec = setup.spec
    lines = _weights(setup, rules)
    complete = True
    if setup.task in ("inference", "image_generation") and spec is not None and spec.is_diffusion:
        megapixels = setup.width_px * setup.height_px / 1e6
        if spec.kind == "diffusion-video":
            complete = False
        else:
            act = rules.diffusion_activation_gb_per_megapixel * megapixels * setup.batch_size
            lines.append(
                Line(
                    "activations",
                    act,
                    f"{rules.diffusion_activation_gb_per_megapixel:g} GB per megapixel x {megapixels:.2f} MP x {setup.batch_size} image(s)",
                )
            )
        lines = _apply_offload(setup, lines)
    elif setup.task == "inference":
        tokens = setup.context_tokens * setup.batch_size
        kv = kv_bytes_per_token(setup) * tokens
        lines.append(
            Line(
                "kv_cache",
                _gb(kv, rules),
                f"{kv_bytes_per_token(setup) / 1024:.1f} KiB/token ({setup.kv_fmt.name}) x {setup.context_tokens} tokens x {setup.batch_size} sequence(s)",
            )
        )
        _, hidden, _ = shape(setup)
        # One prefill chunk at a time, shared by the batch: servers (vLLM's
        # max_num_batched_tokens, llama.cpp's batch) cap the prompt tokens computed per step.
        chunk = min(setup.context_tokens * setup.batch_size, rules.inference_prefill_chunk_tokens)
        act = chunk * hidden * rules.activation_bytes_per_token_per_hidden
        lines.append(
            Line(
                "activations",
                _gb(act, rules),
                f"prefill workspace {chunk} tokens x {hidden} hidden x {rules.activation_bytes_per_token_per_hidden:g} B",
            )
        )
    else:
        if setup.task == "full_finetune":
            trained = _denoiser_params(setup) * 1e9
            grad = {"mixed": rules.mixed_grad_bytes, "fp32": 4.0}.get(setup.precision, 2.0)
            state = (
                setup.optimizer.state_bytes_16bit
                if grad == 2.0
                else setup.optimizer.state_bytes_fp32
            )
            lines.append(
                Line("gradients", _gb(trained * grad, rules), f"{trained / 1e9:g}B x {grad:g} B")
            )
            lines.append(
                Line(
                    "optimizer_states",
                    _gb(trained * state, rules),
                    f"{trained / 1e9:g}B x {state:g} B ({setup.optimizer.name})",
                )
            )
        else:
            lines.append(_adapters(setup, rules))
        lines.extend(_training_activations(setup, rules))
    if setup.num_gpus > 1:
        lines = _per_gpu(lines, setup.num_gpus, setup.shard_fraction)
    lines.append(_runtime_overhead(setup, rules))
    lines = [Line(x.item, round(x.gb, 3), x.detail) for x in lines]
    return Estimate(lines=lines, total_gb=round(sum(x.gb for x in lines), 2), complete=complete)


def _runtime_overhead(setup: Setup, rules: MemoryRules) -> Line:
    """The runtime's own memory: llama.cpp's smaller CUDA context for a language model in one of
    its GGUF formats (a diffusion model in GGUF still runs in PyTorch), PyTorch's otherwise."""
    diffusion = setup.spec is not None and setup.spec.is_diffusion
    llama_cpp = setup.fmt is not None and setup.fmt.runtime == "llama.cpp"
    if setup.task == "inference" and not diffusion and llama_cpp:
        return Line("overhead", rules.llama_cpp_context_gb, "llama.cpp's CUDA context and kernels")
    return Line("overhead", rules.cuda_context_gb, "CUDA context and kernels")


SHARDED = (
    "weights",
    "text_encoders",
    "vae",
    "kv_cache",
    "gradients",
    "optimizer_states",
    "adapters",
)


def _per_gpu(lines: list[Line], n: int, fraction: float | None = None) -> list[Line]:
    """One GPU's share when n GPUs split the model: sharded state divided by n (or this card's
    fraction, when the cards differ), activations and context kept whole on every card."""
    out = []
    for x in lines:
        if x.item not in SHARDED:
            out.append(x)
        elif fraction is None:
            out.append(Line(x.item, x.gb / n, f"{x.detail}; / {n} GPUs"))
        else:
            out.append(
                Line(x.item, x.gb * fraction, f"{x.detail}; x {fraction:.3f} (this card's share)")
            )
    return out


def sharded_and_kept(est: Estimate) -> tuple[float, float]:
    """(GB split across cards, GB every card keeps) of a one-card estimate."""
    shared = sum(x.gb for x in est.lines if x.item in SHARDED)
    return round(shared, 3), round(est.total_gb - shared, 3)


def _apply_offload(setup: Setup, lines: list[Line]) -> list[Line]:
    """Model offload keeps one component at a time on the GPU; sequential offload streams layers."""
    if setup.offload == "none":
        return lines
    weights = [x for x in lines if x.item in ("weights", "text_encoders", "vae")]
    rest = [x for x in lines if x not in weights]
    largest = max(weights, key=lambda x: x.gb)
    if setup.offload == "model":
        kept = Line(
            largest.item,
            largest.gb,
            f"{largest.detail}; model CPU offload: only the largest component resident at once",
        )
        return [kept, *rest]
    streamed = Line(
        "weights",
        largest.gb * 0.05,
        "sequential CPU offload: about 5% of the largest component resident at once (heuristic)",
    )
    return [streamed, *rest]


def finite(value: float) -> bool:
    """True when `value` is neither NaN nor infinite."""
    return not (math.isnan(value) or math.isinf(value))
