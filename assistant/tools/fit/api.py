"""Workload fit: will a model run, or train, in a card's memory, or on several cards? Weights at a
precision, KV cache, optimizer states, gradients, activations, text encoders and VAE, overhead;
whether the precision runs on the card; the common precisions side by side; with the assumptions
stated, the formula, the nearest measured figure, and what would make it fit."""

from __future__ import annotations

from collections.abc import Callable

from assistant.knowledge.models import MemoryRules, ModelSpec, load_memory_rules
from assistant.tools.fit import text
from assistant.tools.fit.cards import CardSet, resolve_cards
from assistant.tools.fit.choices import compare
from assistant.tools.fit.estimate import Setup, estimate, sharded_and_kept
from assistant.tools.fit.models import (
    FitOption,
    FitQuery,
    FitResult,
    MemoryLine,
    PrecisionOption,
)
from assistant.tools.fit.place import binding_slot, placed, spread
from assistant.tools.fit.precision import check_on_cards, worst
from assistant.tools.fit.resolve import (
    assumptions_for,
    bigger_cards,
    fit_options,
    nearest_measured,
    resolve_model,
    resolve_setup,
    sources_for,
    verdict_for,
    verdict_gb,
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
        message_fr=text.unknown_fr(message),
        suggestions=suggestions,
    )
    base.update(known)
    return FitResult.model_validate(base)


def estimate_fit(query: FitQuery) -> FitResult:
    """Estimate the GPU memory a model needs for a task (inference, LoRA, QLoRA, full fine-tuning,
    image generation) and say whether it fits: on a catalog GPU, a memory size, several cards
    (identical or not, sharded or one copy each) or the probed machine's free memory. Checks that
    the precision runs on the card (FP8, BF16, FP4, AWQ/GPTQ) and, when no precision is given,
    compares the common ones and leads with the best that fits. Returns the verdict (fits, tight,
    does_not_fit, unknown), the breakdown and formula, assumptions, sources, the nearest measured
    figure and what would make it fit, in binary GB (a 24 GB card is 24 GB). A name not in the
    model table is sized from the size in its name, never answered for another model; unknown
    names come back as a message with near names, never an exception."""
    rules = load_memory_rules()
    spec, params_b, model_suggestions, generic_note = resolve_model(query)
    if spec is None and params_b is None:
        return _unknown(
            query,
            generic_note
            or f"Unknown model {query.model!r}: give a parameter count (e.g. params_b=7) or a known name.",
            model_suggestions,
        )
    known: dict[str, object] = dict(
        model=spec.name if spec else None, model_found=spec is not None, params_b=params_b
    )
    cards = resolve_cards(query)
    if cards.problems:
        return _unknown(query, " ".join(cards.problems), cards.suggestions, **known)
    setup, problem = resolve_setup(query, spec, params_b or 0.0, rules)
    if setup is None:
        return _unknown(query, problem, [], **known)
    rows, lead = compare(query, spec, params_b or 0.0, cards, rules)
    if lead is not None and lead != setup.precision:
        chosen, _ = resolve_setup(
            query.model_copy(update={"precision": lead}), spec, params_b or 0.0, rules
        )
        setup = chosen or setup
    return _result(query, cards, setup, rows, spec, generic_note, rules)


def _result(
    query: FitQuery,
    cards: CardSet,
    setup: Setup,
    rows: list[PrecisionOption],
    spec: ModelSpec | None,
    generic_note: str | None,
    rules: MemoryRules,
) -> FitResult:
    slot = binding_slot(cards)
    capacity = slot.vram_gb if slot else None
    psetup = placed(setup, cards, query.multi_gpu)
    est = estimate(psetup, rules)
    verdict = verdict_for(est, capacity, rules)
    options = fit_options(psetup, rules, capacity) if verdict in ("tight", "does_not_fit") else []
    loads, multi = spread(setup, cards, query.multi_gpu, rules)
    support = check_on_cards(setup.fmt, cards.slots, rules)
    single = len(cards.slots) <= 1
    bigger = (
        bigger_cards(
            est.total_gb + (query.in_use_gb or 0.0), rules, exclude=slot.name if slot else None
        )
        if verdict != "fits" and est.complete and single
        else []
    )
    name = spec.name if spec else text.generic_name(query.model, setup.params_b)
    catalog = {s.card.name for s in cards.slots if s.card is not None}
    gpu = next(iter(catalog)) if len(catalog) == 1 else (cards.label() if catalog else None)
    notes = [*cards.notes, *(multi.notes if multi else [])]
    assumptions = [
        *([generic_note] if generic_note else []),
        *notes,
        *assumptions_for(psetup, est, rules),
    ]
    sources = sources_for(spec, setup, rules)
    for check in support:
        sources += [s for s in check.sources if s not in sources]
    if multi:
        sources += [s for s in multi.sources if s not in sources]
    if rows:
        sources += [s for s in rules.precision_choice_sources if s not in sources]
    parts = text.Parts(
        name=name,
        setup=psetup,
        est=est,
        verdict=verdict,
        capacity=capacity,
        where=text.where(cards),
        multi=multi,
        support=[s for s in support if s.runs != "yes"],
        runs=worst(support),
        rows=rows,
    )
    return FitResult(
        query=query,
        **dict(model=spec.name if spec else None, model_found=spec is not None),
        params_b=setup.params_b,
        task=setup.task,
        precision=setup.precision,
        context_tokens=setup.context_tokens if not (spec and spec.is_diffusion) else None,
        gpu=gpu,
        vram_gb=(slot.sold_gb or slot.vram_gb) if slot else query.vram_gb,
        capacity_gb=round(capacity, 2) if capacity else None,
        verdict=verdict,
        total_gb=est.total_gb,
        headroom_gb=round(capacity - est.total_gb, 2) if capacity else None,
        breakdown=[MemoryLine(item=x.item, gb=x.gb, detail=x.detail) for x in est.lines],
        fits_with=[
            FitOption(change=c, total_gb=t, verdict=v, precision=p, task=k)
            for c, t, v, p, k in options
        ],
        bigger_cards=bigger,
        nearest_measured=nearest_measured(spec, setup, slot.name if slot else None),
        assumptions=assumptions,
        sources=sources,
        message=text.message_en(parts),
        message_fr=text.message_fr(parts),
        formula=text.formula(est, multi),
        cards=loads,
        multi_gpu=multi,
        precision_support=support,
        by_precision=rows,
        cards_needed=_cards_needed(setup, cards, rules),
        max_sequences=_max_sequences(psetup, capacity, spec, rules),
        max_context_tokens=(
            _max_context(psetup, capacity, spec, rules) if query.longest_context else None
        ),
    )


MAX_CARDS = 1024
MAX_SEQUENCES = 4096


def _cards_needed(setup: Setup, cards: CardSet, rules: MemoryRules) -> int | None:
    """How many cards like the ones named hold the workload sharded (by memory alone)."""
    slot = binding_slot(cards)
    if slot is None or cards.mixed:
        return None
    whole = estimate(setup.with_(num_gpus=1, shard_fraction=None), rules)
    if not whole.complete:
        return None
    shared, kept = sharded_and_kept(whole)
    return next(
        (
            n
            for n in range(1, MAX_CARDS + 1)
            if verdict_gb(shared / n + kept, True, slot.vram_gb, rules) == "fits"
        ),
        None,
    )


def _max_sequences(
    setup: Setup, capacity: float | None, spec: ModelSpec | None, rules: MemoryRules
) -> int | None:
    """Inference: the most sequences of the setup's context that fit at once (bisection on the
    batch size; each sequence adds its KV cache and activations)."""
    if capacity is None or setup.task != "inference" or (spec and spec.is_diffusion):
        return None

    def fits(batch: int) -> bool:
        est = estimate(setup.with_(batch_size=batch), rules)
        return verdict_gb(est.total_gb, est.complete, capacity, rules) == "fits"

    return _largest(fits, 1, MAX_SEQUENCES)


def _largest(fits: Callable[[int], bool], low: int, high: int, step: int = 1) -> int | None:
    """The largest value in [low, high] for which `fits` holds (to within `step`, by bisection;
    `fits` must hold for every value below one that fits), None when not even `low` fits."""
    if not fits(low):
        return None
    if fits(high):
        return high
    while high - low > step:
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low


MIN_CONTEXT = 256  # below this no context is worth reporting
DEFAULT_MAX_CONTEXT = 131072  # the bisection's top for a model whose table gives no maximum
CONTEXT_STEP = 64  # the longest context is found to within this many tokens


def _max_context(
    setup: Setup, capacity: float | None, spec: ModelSpec | None, rules: MemoryRules
) -> int | None:
    """Inference: the longest context of one sequence (of `setup`'s batch) that fits, up to the
    model's own maximum (bisection on the context; the KV cache and activations grow with it);
    None when not even MIN_CONTEXT tokens fit, or for an image model."""
    if capacity is None or setup.task != "inference" or (spec and spec.is_diffusion):
        return None
    top = (spec.max_context if spec and spec.max_context else None) or DEFAULT_MAX_CONTEXT

    def fits(tokens: int) -> bool:
        est = estimate(setup.with_(context_tokens=tokens), rules)
        return verdict_gb(est.total_gb, est.complete, capacity, rules) == "fits"

    return _largest(fits, MIN_CONTEXT, top, CONTEXT_STEP)


def fits_in(vram_gb: float, query: FitQuery) -> bool:
    """True when the workload fits (verdict 'fits') a card of `vram_gb` (as sold), at the query's
    precision or, when it names none, the default one (no side-by-side choice)."""
    return estimate_fit(_pinned(query, vram_gb)).verdict == "fits"


def minimum_vram_gb(query: FitQuery, rules: MemoryRules | None = None) -> float | None:
    """The smallest card size (GB as sold) on which the workload gets the verdict 'fits'; None if unknown."""
    rules = rules or load_memory_rules()
    result = estimate_fit(_pinned(query, None))
    if result.total_gb is None:
        return None
    per_card_gb = rules.card_capacity_gb(1.0)
    return round(result.total_gb / rules.fits_below_fraction / per_card_gb, 2)


def _pinned(query: FitQuery, vram_gb: float | None) -> FitQuery:
    """The query on one card of `vram_gb`, at a fixed precision (the default when none is named)."""
    update: dict[str, object] = {"gpu": None, "gpus": None, "machine": None, "vram_gb": vram_gb}
    if query.precision is None:
        rules = load_memory_rules()
        spec, params_b, _, _ = resolve_model(query)
        setup, _ = resolve_setup(query, spec, params_b or 0.0, rules)
        if setup is not None:
            update["precision"] = setup.precision
    return query.model_copy(update=update)


__all__ = ["CardSet", "estimate_fit", "fits_in", "minimum_vram_gb"]
