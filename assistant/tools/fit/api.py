"""Workload fit: will a model run, or train, in a card's memory? Weights at a precision, KV cache,
optimizer states, gradients, activations, text encoders and VAE, overhead; with the assumptions
stated, the nearest measured figure, and what would make it fit."""

from __future__ import annotations

from assistant.knowledge.models import MemoryRules, load_memory_rules
from assistant.tools.fit.estimate import Estimate, Setup, estimate
from assistant.tools.fit.models import FitOption, FitQuery, FitResult, MemoryLine
from assistant.tools.fit.resolve import (
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
    spec, params_b, model_suggestions, generic_note = resolve_model(query)
    if spec is None and params_b is None:
        return _unknown(
            query,
            generic_note
            or f"Unknown model {query.model!r}: give a parameter count (e.g. params_b=7) or a known name.",
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
    name = spec.name if spec else _generic_name(query.model, params_b or 0.0)
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
        assumptions=[
            *([generic_note] if generic_note else []),
            *assumptions_for(setup, est, rules),
        ],
        sources=sources_for(spec, setup, rules),
        message=_message(name, setup, est, verdict, capacity, card.name if card else vram_gb),
    )


def _generic_name(text: str, params_b: float) -> str:
    bare = text.strip().lower().replace(" ", "") in (f"{params_b:g}b", f"{params_b:g}bn")
    return f"generic {params_b:g}B model" + ("" if bare else f" ({text.strip()[:60]})")


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
    sized = isinstance(where, float | int)
    card = f"a {where:g} GB card" if sized else str(where)
    if setup.num_gpus > 1:
        card = f"{setup.num_gpus} x {f'{where:g} GB cards' if sized else card}"
    words = {
        "fits": "fits",
        "tight": "is tight on",
        "does_not_fit": "does not fit",
        "unknown": "may or may not fit",
    }[verdict]
    size = "" if sized else f" ({capacity:g} GB{each})"
    return f"{what}: {total}; {words} {card}{size}."


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
