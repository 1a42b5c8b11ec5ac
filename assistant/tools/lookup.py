"""GPU lookup and side-by-side comparison: name in, sourced card out. Unknown names come back
as results that say so, with near names; nothing is invented."""

from __future__ import annotations

import re
from typing import Any

from pydantic import AliasChoices, BaseModel, Field

from assistant.knowledge.gpus import GpuCard
from assistant.knowledge.matching import match_gpu
from assistant.knowledge.sources import Source


class GpuQuery(BaseModel):
    """Which GPU to look up."""

    gpu: str = Field(
        min_length=1,
        max_length=200,
        validation_alias=AliasChoices("gpu", "name"),
        description="GPU name as a person writes it, e.g. 'RTX 4090', 'my 4090', 'H100 SXM5', "
        "'A100 80GB', '1080ti', 'RX 7900 XTX', 'M3 Max', '8x A100'",
    )


class GpuLookup(BaseModel):
    """A catalog card with its CUDA feature support, or 'not found' with near names."""

    found: bool
    query: str
    gpu: GpuCard | None = None
    matched_alias: str | None = None
    count: int = Field(default=1, description="How many of the card the query named ('8x A100')")
    curated: bool | None = Field(
        default=None,
        description="True: figures checked against vendor documents; False: long-tail card whose "
        "figures come from the TechPowerUp database (see provenance)",
    )
    provenance: str | None = Field(
        default=None, description="Where an uncurated card's figures come from"
    )
    alternatives: list[str] = Field(
        default_factory=list, description="Other variants of a short name"
    )
    features: list[dict[str, Any]] = Field(
        default_factory=list,
        description="CUDA feature support of the card (wgmma, tcgen05, TMA...)",
    )
    sm_limits: dict[str, Any] | None = Field(
        default=None,
        description="Per-SM limits of the card's compute capability (shared memory, threads, "
        "registers), from the CUDA Programming Guide tables",
    )
    suggestions: list[str] = Field(default_factory=list)
    message: str
    sources: list[Source] = Field(default_factory=list)


def _sm_limits(card: GpuCard) -> dict[str, Any] | None:
    if card.vendor != "nvidia" or not card.compute_capability:
        return None
    from assistant.knowledge.features import sm_limits

    limits = sm_limits(card.compute_capability)
    return limits.model_dump(mode="json") if limits else None


def _features(card: GpuCard) -> list[dict[str, Any]]:
    try:
        from assistant.knowledge.features import features_for_card
    except ImportError:
        return []
    return [f.model_dump(mode="json") for f in features_for_card(card)]


def _not_found(query: str, suggestions: list[str]) -> str:
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    return f"'{query}' is not in the GPU catalog.{hint}"


def not_curated_note(card: GpuCard) -> str:
    """The sentence an answer adds for a long-tail card."""
    return (
        f"{card.name} is not in the curated catalog: its figures come from {card.provenance} "
        "and were not checked against the vendor's documents."
    )


def lookup_gpu(query: GpuQuery) -> GpuLookup:
    """Look up one GPU by name (tolerant of 'my 4090', 'rtx4090', 'RTX 3060 12 Go'). Returns its
    compute capability, VRAM, bandwidth, SMs, shared memory, tensor TFLOPS, power, CUDA feature
    support and sources; for an unknown name, found=false and the nearest catalog names."""
    m = match_gpu(query.gpu)
    if m.gpu is None:
        return GpuLookup(
            found=False,
            query=query.gpu,
            suggestions=m.suggestions,
            message=_not_found(query.gpu, m.suggestions),
        )
    card = m.gpu
    msg = f"{card.name}: {_summary(card)}."
    if m.count > 1:
        msg = f"{m.count} × {msg}"
    if m.alternatives:
        msg += f" Other variants: {', '.join(m.alternatives)}."
    if card.corpus_note:
        msg += f" Note: {card.corpus_note}"
    if not card.curated:
        msg += " " + not_curated_note(card)
    return GpuLookup(
        found=True,
        query=query.gpu,
        gpu=card,
        matched_alias=m.matched_alias,
        count=m.count,
        curated=card.curated,
        provenance=card.provenance,
        alternatives=m.alternatives,
        features=_features(card),
        sm_limits=_sm_limits(card),
        message=msg,
        sources=list(card.sources),
    )


def _summary(card: GpuCard) -> str:
    parts = []
    if card.compute_capability:
        parts.append(f"compute capability {card.compute_capability} ({card.arch_target})")
    elif card.arch_target:
        parts.append(card.arch_target)
    if card.vram_gb is not None:
        parts.append(f"{card.vram_gb:g} GB {card.memory_type or ''}".strip())
    if card.bandwidth_gbs is not None:
        parts.append(f"{card.bandwidth_gbs:g} GB/s")
    if card.tdp_w is not None:
        parts.append(f"{card.tdp_w:g} W")
    return ", ".join(parts)


# ---------------------------------------------------------------- comparison

# (field, label, unit, higher_is_better)
COMPARED_FIELDS: tuple[tuple[str, str, str, bool | None], ...] = (
    ("vendor", "Vendor", "", None),
    ("architecture", "Architecture", "", None),
    ("compute_capability", "Compute capability", "", None),
    ("arch_target", "Arch target", "", None),
    ("vram_gb", "VRAM", "GB", True),
    ("memory_type", "Memory", "", None),
    ("bandwidth_gbs", "Bandwidth", "GB/s", True),
    ("sm_count", "SMs / CUs / cores", "", True),
    ("shared_memory_per_sm_kb", "Shared mem / SM", "KB", True),
    ("shared_memory_per_block_kb", "Shared mem / block", "KB", True),
    ("fp16_tensor_tflops", "FP16 tensor (dense)", "TFLOPS", True),
    ("fp64_ratio", "FP64 : FP32", "", True),
    ("tdp_w", "Power", "W", False),
    ("nvlink", "NVLink", "", None),
    ("segment", "Segment", "", None),
    ("year", "Year", "", None),
)


class GpuComparisonQuery(BaseModel):
    """Two or more GPUs to compare side by side."""

    gpus: list[str] = Field(
        min_length=2,
        max_length=8,
        validation_alias=AliasChoices("gpus", "names"),
        description="GPU names as people write them, e.g. ['RTX 3090', 'RTX 4090', 'RX 7900 XTX']",
    )


class UnknownGpu(BaseModel):
    name: str
    suggestions: list[str] = Field(default_factory=list)


class ComparisonRow(BaseModel):
    """One figure across the compared cards (values in the order of `cards`)."""

    field: str
    label: str
    unit: str = ""
    values: list[float | int | str | bool | None]
    best: str | None = Field(
        default=None, description="Card with the best value, where it is a number"
    )
    leaders: list[str] = Field(
        default_factory=list,
        description="Cards sharing the best value when it is not every card's (a tie has no best)",
    )


class GpuComparison(BaseModel):
    """Cards side by side, with short notes on what differs; unknown names listed apart."""

    cards: list[GpuCard]
    unknown: list[UnknownGpu] = Field(default_factory=list)
    rows: list[ComparisonRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    message: str
    sources: list[Source] = Field(default_factory=list)


def compare_gpus(query: GpuComparisonQuery) -> GpuComparison:
    """Compare GPUs side by side: VRAM, bandwidth, compute capability, shared memory, tensor
    TFLOPS, power, NVLink. Notes say which card has more VRAM, more bandwidth, newer features.
    Unknown names are reported with near names instead of being guessed."""
    cards: list[GpuCard] = []
    unknown: list[UnknownGpu] = []
    for name in query.gpus:
        m = match_gpu(name)
        if m.gpu is None:
            unknown.append(UnknownGpu(name=name, suggestions=m.suggestions))
        elif m.gpu not in cards:
            cards.append(m.gpu)
    rows = [_row(cards, *spec) for spec in COMPARED_FIELDS] if cards else []
    notes = _notes(cards) if len(cards) >= 2 else []
    parts = []
    if len(cards) >= 2:
        parts.append("Compared " + ", ".join(c.name for c in cards) + ".")
    elif cards:
        parts.append(f"Only one known card ({cards[0].name}); nothing to compare it with.")
    for u in unknown:
        parts.append(_not_found(u.name, u.suggestions))
    for card in cards:
        if not card.curated:
            parts.append(not_curated_note(card))
    sources: list[Source] = []
    for card in cards:
        sources.extend(s for s in card.sources if s not in sources)
    return GpuComparison(
        cards=cards,
        unknown=unknown,
        rows=rows,
        notes=notes,
        message=" ".join(parts),
        sources=sources,
    )


def _row(
    cards: list[GpuCard], field: str, label: str, unit: str, higher: bool | None
) -> ComparisonRow:
    values = [getattr(c, field) for c in cards]
    best = None
    numeric = [
        (number, c.name)
        for v, c in zip(values, cards, strict=True)
        if (number := _ratio_value(v)) is not None
    ]
    if higher is not None and len(numeric) >= 2:
        top = (max if higher else min)(v for v, _ in numeric)
        leaders = [name for v, name in numeric if v == top]
        best = leaders[0] if len(leaders) == 1 else None  # a tie has no single best
        if len(leaders) < len(numeric):
            return ComparisonRow(
                field=field, label=label, unit=unit, values=values, best=best, leaders=leaders
            )
    return ComparisonRow(field=field, label=label, unit=unit, values=values, best=best)


def _ratio_value(value: object) -> float | None:
    """A figure as a number: itself, or a rate written as a fraction ('1/64' for FP64 : FP32)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
        if m and int(m.group(2)):
            return int(m.group(1)) / int(m.group(2))
    return None


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b else ""


def _notes(cards: list[GpuCard]) -> list[str]:
    notes: list[str] = []

    def leader(field: str, what: str, unit: str) -> None:
        """Note which card has the most of `field`, and by how much, when one card leads."""
        have = [(getattr(c, field), c) for c in cards if getattr(c, field) is not None]
        if len(have) < 2:
            return
        have.sort(key=lambda t: -t[0])
        (top, top_card), (second, _) = have[0], have[1]
        if top > second:
            notes.append(
                f"{top_card.name} has the most {what}: {top:g} {unit} ({_ratio(top, second)} the next)."
            )

    leader("vram_gb", "VRAM", "GB")
    vrams = {c.vram_gb for c in cards}
    if len(vrams) == 1 and None not in vrams:
        notes.append(f"Same VRAM on every card: {cards[0].vram_gb:g} GB.")
    leader("bandwidth_gbs", "memory bandwidth", "GB/s")
    leader("fp16_tensor_tflops", "dense FP16 tensor throughput", "TFLOPS")
    leader("shared_memory_per_sm_kb", "shared memory per SM", "KB")
    powered = [c for c in cards if c.tdp_w is not None]
    if len(powered) >= 2:
        low = min(powered, key=lambda c: c.tdp_w or 0)
        notes.append(f"{low.name} draws the least power: {low.tdp_w:g} W.")
    ccs = [c for c in cards if c.compute_capability]
    if len({c.compute_capability for c in ccs}) > 1:
        newest = max(
            ccs, key=lambda c: tuple(int(x) for x in (c.compute_capability or "0.0").split("."))
        )
        notes.append(
            f"{newest.name} has the highest compute capability ({newest.compute_capability}, {newest.arch_target}); "
            "a higher number is not a superset — check features per card (e.g. sm_120 has no wgmma or tcgen05)."
        )
    linked = [c.name for c in cards if c.nvlink]
    if linked and len(linked) < len(cards):
        notes.append(f"NVLink: only {', '.join(linked)}.")
    if len({c.vendor for c in cards}) > 1:
        notes.append(
            "Different vendors: CUDA code runs only on the NVIDIA cards (ROCm/HIP for AMD, Metal for Apple)."
        )
    for c in cards:
        if c.corpus_note:
            notes.append(f"{c.name}: {c.corpus_note}")
    return notes
