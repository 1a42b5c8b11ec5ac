"""Helpers of `estimate_fit`: resolve names and defaults, judge the verdict, find what would make a
workload fit, and state the assumptions and sources of an estimate."""

from __future__ import annotations

import re

from assistant.knowledge.model_matching import match_model
from assistant.knowledge.models import (
    MeasuredVram,
    MemoryRules,
    ModelSpec,
    load_measured_vram,
)
from assistant.knowledge.sources import Source
from assistant.tools.fit.estimate import Estimate, Setup, estimate
from assistant.tools.fit.models import FitQuery
from assistant.tools.fit.names import other_model, read_size

DEFAULT_INFERENCE_CONTEXT = 4096
DEFAULT_TRAINING_SEQUENCE = 2048
DEFAULT_RESOLUTION = 1024


def resolve_model(query: FitQuery) -> tuple[ModelSpec | None, float | None, list[str], str | None]:
    """(model, parameter count in billions, near names, why a generic model is used) for the
    query's model text. A known model found inside a longer name that names another model (a
    distill, another size, another variant) is refused: the size written in the name is used with
    a generic architecture instead, and the reason says so."""
    match = match_model(query.model)
    spec = match.model
    if spec is not None and match.score < 1.0:
        why = other_model(query.model, spec, match.matched_alias)
        if why is not None:
            size = read_size(query.model)
            params = query.params_b or (size.total_b if size else None)
            told = f"{query.model!r} is not in the model table"
            if params is None:
                return (
                    None,
                    None,
                    [spec.name, *match.suggestions],
                    (f"{told} and its name states no size; not answered for {spec.name} ({why})."),
                )
            how = size.how if size and not query.params_b else f"params_b={params:g}"
            return (
                None,
                params,
                [],
                (
                    f"{told}: sized as a generic dense model of {params:g}B read from {how}, "
                    f"not as {spec.name} ({why})."
                ),
            )
    if spec is not None:
        return spec, spec.params_b, [], None
    size = read_size(query.model)
    params = query.params_b or (size.total_b if size else match.params_b)
    if params is None:
        return None, None, match.suggestions, None
    how = f"params_b={params:g}" if query.params_b else (size.how if size else f"{params:g}B")
    return (
        None,
        params,
        match.suggestions,
        (
            f"{query.model!r} is not in the model table: sized as a generic dense model of "
            f"{params:g}B read from {how}."
        ),
    )


def resolve_setup(
    query: FitQuery, spec: ModelSpec | None, params_b: float, rules: MemoryRules
) -> tuple[Setup | None, str]:
    """The query with every default filled in, or None and why the combination makes no sense."""
    task = query.task
    diffusion = spec is not None and spec.is_diffusion
    if diffusion and task == "inference":
        task = "image_generation"
    if task == "image_generation" and not diffusion:
        return (
            None,
            "image_generation needs a diffusion pipeline (FLUX.1, SDXL, SD3, Wan...); this model is not one.",
        )
    precision = (
        query.precision or precision_in_name(query.model, rules) or _default_precision(task, spec)
    )
    if precision == "mixed" and task != "full_finetune":
        return None, "precision 'mixed' (fp32 master weights) only applies to full_finetune."
    fmt = rules.format(precision) if precision != "mixed" else None
    if task == "full_finetune" and fmt is not None and fmt.is_quantized:
        return (
            None,
            f"full fine-tuning trains 16- or 32-bit weights, not {precision}; use task qlora for a quantized base.",
        )
    if task == "qlora" and fmt is not None and not fmt.is_quantized:
        return (
            None,
            f"QLoRA trains adapters on a quantized base; {precision} is not quantized (use nf4/nf4_dq, or task lora).",
        )
    kv_name = query.kv_precision or rules.kv_default_precision
    kv_fmt = rules.format(kv_name) if kv_name != "mixed" else None
    if kv_fmt is None:
        return None, "the KV cache precision cannot be 'mixed'."
    training = task in ("lora", "qlora", "full_finetune")
    context = query.context_tokens or (
        DEFAULT_TRAINING_SEQUENCE if training else DEFAULT_INFERENCE_CONTEXT
    )
    if query.context_tokens is None and spec is not None and spec.max_context:
        context = min(context, spec.max_context)
    side = (
        spec.default_resolution
        if spec is not None and spec.default_resolution
        else DEFAULT_RESOLUTION
    )
    on_gpu = query.text_encoders_on_gpu if query.text_encoders_on_gpu is not None else not training
    setup = Setup(
        spec=spec,
        params_b=params_b,
        task=task,
        precision=precision,
        fmt=fmt,
        kv_fmt=kv_fmt,
        context_tokens=context,
        batch_size=query.batch_size,
        optimizer=rules.optimizer(query.optimizer),
        lora_rank=query.lora_rank,
        lora_targets=query.lora_targets or ("attention" if diffusion else "all_linear"),
        gradient_checkpointing=query.gradient_checkpointing,
        width_px=query.width_px or side,
        height_px=query.height_px or side,
        offload=query.offload,
        text_encoders_on_gpu=on_gpu,
        quantize_text_encoders=query.quantize_text_encoders,
        num_gpus=query.num_gpus,
    )
    return setup, ""


def precision_in_name(text: str, rules: MemoryRules) -> str | None:
    """A weight format written in the model's name ('...-AWQ', 'Q4_K_M', 'FP8'), if any: only
    words that carry a digit or name a quantizer, so 'full' or 'half' in a sentence do not count."""
    for word in re.findall(r"[a-z0-9_]+", text.lower()):
        if not (any(ch.isdigit() for ch in word) or word in ("awq", "gptq", "gguf")):
            continue
        fmt = rules.format(word)
        if fmt is not None and not re.fullmatch(r"\d+(b|bn)?", word):
            return fmt.name
    return None


def _default_precision(task: str, spec: ModelSpec | None) -> str:
    if task == "qlora":
        return "nf4_dq"
    if task == "full_finetune":
        return "mixed"
    if task == "inference" and spec is not None and spec.native_precision:
        return spec.native_precision
    return "bf16"


def verdict_for(est: Estimate, capacity_gb: float | None, rules: MemoryRules) -> str:
    """fits, tight, does_not_fit, or unknown for an estimate on a card of `capacity_gb`."""
    return verdict_gb(est.total_gb, est.complete, capacity_gb, rules)


def verdict_gb(
    total_gb: float, complete: bool, capacity_gb: float | None, rules: MemoryRules
) -> str:
    """The verdict for `total_gb` on a card of `capacity_gb` (unknown without a card, or when a
    part of the estimate is not modelled and the rest still fits)."""
    if capacity_gb is None:
        return "unknown"
    if total_gb > capacity_gb * rules.tight_below_fraction:
        return "does_not_fit"
    if not complete:
        return "unknown"
    return "fits" if total_gb <= capacity_gb * rules.fits_below_fraction else "tight"


def _candidates(setup: Setup, rules: MemoryRules) -> list[tuple[str, Setup]]:
    out: list[tuple[str, Setup]] = []
    current = setup.fmt.bits_per_param if setup.fmt else 32.0

    def lower(names: list[str]) -> None:
        """Add each of `names` that stores fewer bits per parameter than the current precision."""
        for name in names:
            fmt = rules.format(name)
            if fmt is not None and fmt.bits_per_param < current:
                out.append((f"precision {name}", setup.with_(precision=name, fmt=fmt)))

    if setup.task == "inference":
        lower(["fp8", "q8_0", "int4", "q4_k_m"])
        kv8 = rules.format("fp8")
        if setup.kv_fmt.bits_per_param > 8 and kv8 is not None:
            out.append(("KV cache in fp8", setup.with_(kv_fmt=kv8)))
        ctx = setup.context_tokens // 2
        while ctx >= 1024:
            out.append((f"context {ctx} tokens", setup.with_(context_tokens=ctx)))
            ctx //= 2
    elif setup.task == "image_generation":
        lower(["fp8", "nf4"])
        for mode in ("model", "sequential"):
            if setup.offload != mode:
                out.append((f"CPU offload ({mode})", setup.with_(offload=mode)))
        if setup.text_encoders_on_gpu:
            out.append(
                (
                    "text encoders on CPU (precomputed embeddings)",
                    setup.with_(text_encoders_on_gpu=False),
                )
            )
        nf4 = rules.format("nf4")
        if nf4 is not None and current > nf4.bits_per_param:
            out.append(
                (
                    "precision nf4 + CPU offload (model)",
                    setup.with_(precision="nf4", fmt=nf4, offload="model"),
                )
            )
    else:
        nf4dq = rules.format("nf4_dq")
        bf16 = rules.format("bf16")
        if setup.task == "full_finetune":
            if setup.optimizer.name != "adamw8bit":
                out.append(("8-bit AdamW", setup.with_(optimizer=rules.optimizer("adamw8bit"))))
            out.append(
                (
                    "LoRA instead of full fine-tuning",
                    setup.with_(task="lora", precision="bf16", fmt=bf16),
                )
            )
        if setup.task in ("full_finetune", "lora"):
            out.append(
                ("QLoRA (4-bit NF4 base)", setup.with_(task="qlora", precision="nf4_dq", fmt=nf4dq))
            )
        fp8 = rules.format("fp8")
        # an fp8 base is the image trainers' LoRA option (kohya's --fp8_base); for a language
        # model the low-memory LoRA is QLoRA's 4-bit base
        diffusion = setup.spec is not None and setup.spec.is_diffusion
        if setup.task == "lora" and fp8 is not None and current > 8 and diffusion:
            out.append(("LoRA on an fp8 base", setup.with_(precision="fp8", fmt=fp8)))
        if not setup.gradient_checkpointing:
            out.append(("gradient checkpointing", setup.with_(gradient_checkpointing=True)))
        if setup.batch_size > 1:
            out.append(("batch size 1", setup.with_(batch_size=1)))
        if setup.spec is not None and setup.spec.is_diffusion:
            for side in (768, 512):
                if side < max(setup.width_px, setup.height_px):
                    out.append((f"{side}x{side} px", setup.with_(width_px=side, height_px=side)))
        else:
            seq = setup.context_tokens // 2
            if seq >= 512:
                out.append((f"sequence length {seq}", setup.with_(context_tokens=seq)))
    return out


def fit_options(
    setup: Setup, rules: MemoryRules, capacity_gb: float | None
) -> list[tuple[str, float, str, str | None, str | None]]:
    """(change, total GB, verdict, the weights' precision when the change sets another, the task
    when it sets another) for single changes that help: the ones that fit first."""
    results = []
    for change, variant in _candidates(setup, rules):
        est = estimate(variant, rules)
        other = variant.precision if variant.precision != setup.precision else None
        task: str | None = variant.task if variant.task != setup.task else None
        results.append((change, est.total_gb, verdict_for(est, capacity_gb, rules), other, task))
    rank = {"fits": 0, "tight": 1, "unknown": 2, "does_not_fit": 3}
    results.sort(key=lambda r: (rank[r[2]], -r[1] if r[2] != "does_not_fit" else r[1]))
    good = [r for r in results if r[2] in ("fits", "tight")]
    return good[:6] if good else results[:2]


def bigger_cards(
    total_gb: float, rules: MemoryRules, exclude: str | None = None, limit: int = 4
) -> list[str]:
    """The smallest catalog cards on which `total_gb` fits (verdict 'fits')."""
    try:
        from assistant.knowledge.gpus import load_catalog

        cards = load_catalog().gpus
    except (ImportError, ValueError):
        return []
    ok = [
        c
        for c in cards
        if c.vram_gb
        and c.name != exclude
        and total_gb <= rules.card_capacity_gb(c.vram_gb) * rules.fits_below_fraction
    ]
    ok.sort(key=lambda c: (c.vram_gb or 0, c.name))
    return [c.name for c in ok[:limit]]


def nearest_measured(
    spec: ModelSpec | None, setup: Setup, gpu_name: str | None = None
) -> MeasuredVram | None:
    """The measured row closest to this setup: same model, then same task, then same precision."""
    rows = [
        r
        for r in load_measured_vram()
        if (spec is not None and r.model_ref == spec.name)
        or (spec is None and r.params_b == setup.params_b)
    ]
    if not rows:
        return None

    gpu_words = {w for w in (gpu_name or "").lower().split() if any(ch.isdigit() for ch in w)}

    def score(row: MeasuredVram) -> tuple[int, int, int, int]:
        """How closely a row matches: same task, then precision, then card, then comparable."""
        return (
            int(row.task == setup.task),
            int(row.precision == setup.precision),
            int(bool(gpu_words & set(row.gpu.lower().split()))),
            int(row.comparable),
        )

    return max(rows, key=score)


def _runtime_memory(est: Estimate, rules: MemoryRules) -> tuple[float, str]:
    """The runtime's own memory the estimate set aside, and whose it is."""
    line = next((x for x in est.lines if x.item == "overhead"), None)
    if line is None:
        return rules.cuda_context_gb, "CUDA context and kernels"
    return line.gb, line.detail


def assumptions_for(setup: Setup, est: Estimate, rules: MemoryRules) -> list[str]:
    """The assumptions behind this estimate: units, verdict thresholds, calibration, setup."""
    spec = setup.spec
    out = [
        "Memory in binary GB everywhere (1 GB = 2^30 bytes = 1 GiB), the unit cards are sold in and nvidia-smi reports: a card sold as 24 GB holds 24 GB here.",
        f"Verdict: fits below {rules.fits_below_fraction:.0%} of the card, tight up to {rules.tight_below_fraction:.0%}, does not fit above.",
        f"Calibrated against measured peaks (measured_vram.csv): every comparable row is matched within ±{rules.calibration_tolerance_fraction:.0%} or ±{rules.calibration_tolerance_gb:g} GB, whichever is larger.",
        "{:g} GB for the {}; no CUDA graphs or NCCL buffers.".format(*_runtime_memory(est, rules)),
    ]
    if setup.num_gpus > 1:
        out.append(
            f"Figures are per GPU, for the fullest card: {setup.num_gpus} GPUs split the weights, KV "
            "cache, gradients and optimizer states "
            + ("evenly" if setup.shard_fraction is None else "in proportion to each card's memory")
            + " (tensor/pipeline parallel or FSDP); each keeps its own activations and CUDA context."
        )
    if spec is None:
        out.append(
            "Generic model: shape inferred from the parameter count (params ~ 12 x layers x hidden^2, layers ~ hidden/128); KV cache assumes grouped-query attention with 8 KV heads of 128 (Llama 3 / Qwen / Mistral layout) — older multi-head models cache several times more."
        )
    elif spec.active_params_b:
        out.append(
            f"Mixture of experts: all {spec.params_b:g}B parameters stay resident, not just the {spec.active_params_b:g}B active per token."
        )
    if (
        setup.fmt is not None
        and setup.fmt.keeps_embeddings_16bit
        and spec is not None
        and spec.embedding_params_b
    ):
        out.append(
            f"Under {setup.fmt.name} the embedding and output matrices stay in 16-bit; the format's bits per parameter include its scales."
        )
    if setup.task == "inference":
        out.append(
            f"KV cache in {setup.kv_fmt.name} for {setup.context_tokens} tokens x {setup.batch_size} sequence(s); prompt processed in chunks of {rules.inference_prefill_chunk_tokens} tokens. Servers such as vLLM pre-allocate most of the free memory for KV cache anyway."
        )
        if spec is not None and spec.sliding_layers:
            out.append(
                f"{spec.sliding_layers} of {spec.num_layers} layers keep only a {spec.sliding_window}-token window in the cache."
            )
        limit = spec.max_context_extended or spec.max_context if spec else None
        if limit and setup.context_tokens > limit:
            out.append(f"The requested context exceeds the model's {limit} tokens.")
    if setup.task in ("lora", "qlora", "full_finetune"):
        ckpt = (
            "with gradient checkpointing (one 16-bit tensor per layer kept)"
            if setup.gradient_checkpointing
            else "without gradient checkpointing"
        )
        out.append(
            f"Activations {ckpt}, fused attention (no attention-score matrix), 16-bit logits."
        )
        if setup.task == "full_finetune" and setup.precision == "mixed":
            out.append(
                f"Mixed precision: fp32 master + 16-bit copy ({rules.mixed_weight_bytes:g} B), fp32 gradients ({rules.mixed_grad_bytes:g} B), optimizer {setup.optimizer.name} ({setup.optimizer.state_bytes_fp32:g} B) per parameter."
            )
        if setup.task != "full_finetune":
            out.append(
                f"LoRA rank {setup.lora_rank} on {setup.lora_targets.replace('_', ' ')} layers; adapters in fp32 with their gradients and {setup.optimizer.name} states."
            )
    if spec is not None and spec.is_diffusion:
        if setup.task == "image_generation":
            out.append(
                f"Activation peak about {rules.diffusion_activation_gb_per_megapixel:g} GB per megapixel image at 16-bit (attention and VAE decode), calibrated on the measured FLUX.1-dev, SD3 and SDXL peaks; {setup.width_px}x{setup.height_px} px."
            )
            out.append(
                "CLIP encoders and the VAE stay in 16-bit; T5-class encoders follow the precision when quantize_text_encoders is set."
            )
        if not setup.text_encoders_on_gpu:
            out.append(
                "Text embeddings (and for training, latents) precomputed: encoders and VAE not on the GPU."
            )
        if setup.offload != "none":
            out.append(
                f"CPU offload ({setup.offload}) trades speed for memory; activations assumed unchanged."
            )
    if not est.complete:
        out.append(
            "Video activations (frames x resolution, 3D VAE decode) are not modelled: the total is a lower bound."
        )
    return out


def sources_for(spec: ModelSpec | None, setup: Setup, rules: MemoryRules) -> list[Source]:
    """The sources this setup relies on (model, format, memory rules), each once."""
    found: list[Source] = list(spec.sources) if spec else []
    if setup.fmt is not None:
        found += setup.fmt.sources
    if setup.task == "inference":
        found += rules.sources["kv_cache"]
    if setup.task in ("lora", "qlora", "full_finetune"):
        found += rules.sources["training"]
    if spec is not None and spec.is_diffusion:
        found += rules.sources["diffusion"]
    found += rules.sources["overhead"]
    unique: dict[tuple[str, str | None], Source] = {}
    for src in found:
        unique.setdefault((src.title, src.note), src)
    return list(unique.values())
