"""Capability verdict: can this GPU do this topic or feature? yes / partial / no / unknown.

Hard requirements decide yes or no; what makes a topic efficient turns a yes into partial.
Where the corpus says otherwise, the verdict follows NVIDIA's documents and says so.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from assistant.knowledge.features import (
    VENDOR_NAMES,
    FeatureSupport,
    corpus_claims_for,
    features_for_card,
    get_feature,
    normalize_cc,
    sm_limits,
)
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.knowledge.topics import (
    Topic,
    TopicSummary,
    list_topic_summaries,
    match_topic,
    suggest_topics,
)

Verdict = Literal["yes", "partial", "no", "unknown"]


class CapabilityQuery(BaseModel):
    """A GPU and something to do with it."""

    gpu: str = Field(
        min_length=1,
        max_length=200,
        description="GPU name as people write it, e.g. 'RTX 4090', 'my 3090', 'H100 SXM', 'MI300X'",
    )
    topic: str = Field(
        min_length=1,
        max_length=200,
        description="A topic or CUDA feature, EN or FR: 'megakernels', 'tcgen05', 'TMA', "
        "'FP8 training', 'partie 4', 'Triton', 'ROCm'. See list_topics() for the keys.",
    )


class CapabilityVerdict(BaseModel):
    """Whether a GPU can do a topic, why, and where the figures come from."""

    gpu: str = Field(description="The catalog card's name, or the query when unknown")
    topic: str = Field(description="Topic key, or the query when unknown")
    topic_name: str | None = None
    verdict: Verdict
    reasons: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="Requirements the card lacks")
    corpus_note: str | None = Field(default=None, description="Where the guide says otherwise")
    suggestions: list[str] = Field(default_factory=list, description="Near names when unknown")
    cheapest_alternative: str | None = None
    instead: str | None = Field(
        default=None,
        description="For an AMD, Intel or Apple card: the stack to use instead of CUDA "
        "(ROCm/HIP, oneAPI/SYCL and PyTorch XPU, Metal/MPS/MLX)",
    )
    instead_fr: str | None = Field(default=None, description="The same advice in French")
    cuda_only: bool = Field(
        default=False,
        description="The topic is a CUDA feature the card's maker has no form of, so `instead` "
        "is the way to it (False for an AMD card's BF16/FP8/FP4, which its own matrix cores do)",
    )
    guide_fit: str | None = Field(
        default=None, description="What of the guide such a card can follow"
    )
    guide_fit_fr: str | None = None
    curated: bool | None = Field(
        default=None,
        description="False for a long-tail card, whose figures come from `provenance` and were "
        "not checked against the vendor's documents",
    )
    provenance: str | None = None
    gfx_target: str | None = Field(default=None, description="An AMD card's LLVM gfx target")
    rocm_supported: bool | None = Field(
        default=None, description="An AMD card is in AMD's ROCm support tables (Linux or Windows)"
    )
    compute_capability: str | None = None
    arch_target: str | None = None
    sources: list[Source] = Field(default_factory=list)


def list_topics() -> list[TopicSummary]:
    """Every topic and feature the capability check knows, with its aliases."""
    return list_topic_summaries()


def check_capability(query: CapabilityQuery) -> CapabilityVerdict:
    """Can this GPU do this topic or feature? Unknown GPUs and topics come back as 'unknown'
    with near names, never with invented figures."""
    from assistant.knowledge.matching import match_gpu

    match = match_gpu(query.gpu)
    topic = match_topic(query.topic)
    if match.gpu is None:
        return CapabilityVerdict(
            gpu=query.gpu,
            topic=topic.key if topic else query.topic,
            topic_name=topic.name if topic else None,
            verdict="unknown",
            reasons=[
                f"'{query.gpu}' is not in the GPU catalog (curated or long tail), so no figures "
                "are given for it."
            ],
            suggestions=list(match.suggestions) or list(match.alternatives),
        )
    card = match.gpu
    if topic is None:
        return CapabilityVerdict(
            gpu=card.name,
            topic=query.topic,
            verdict="unknown",
            reasons=[f"'{query.topic}' is not a known topic or feature."],
            suggestions=suggest_topics(query.topic),
            compute_capability=card.compute_capability,
            arch_target=card.arch_target,
        )
    verdict = assess(card, topic)
    if card.vendor != "nvidia":
        verdict = _with_stack(card, topic, verdict)
    if not card.curated:
        note = (
            f"{card.name} is not in the curated catalog: its figures come from {card.provenance}."
        )
        verdict = verdict.model_copy(
            update={
                "reasons": [*verdict.reasons, note],
                "curated": False,
                "provenance": card.provenance,
            }
        )
    else:
        verdict = verdict.model_copy(update={"curated": True})
    return verdict


def assess(card: Any, topic: Topic) -> CapabilityVerdict:
    """The verdict for a catalog card (or anything with the same fields) and a resolved topic."""
    name = str(card.name)
    vendor = str(getattr(card, "vendor", "nvidia")).lower()
    cc = normalize_cc(getattr(card, "compute_capability", None))
    target = getattr(card, "arch_target", None)
    base: dict[str, Any] = {
        "gpu": name,
        "topic": topic.key,
        "topic_name": topic.name,
        "compute_capability": cc,
        "arch_target": target,
    }
    sources: list[Source] = list(topic.sources)
    if not topic.needs_gpu:
        return CapabilityVerdict(
            **base, verdict="yes", reasons=[topic.baseline or "No GPU needed."], sources=sources
        )
    if _own_form(vendor, topic):
        return _amd_matrix_format(card, topic, base, sources)
    if vendor not in topic.vendors:
        return _other_vendor(card, vendor, topic, base, sources)
    if vendor == "nvidia" and cc is None:
        reason = f"{name} has no compute capability in the catalog; cannot check {topic.name}."
        return CapabilityVerdict(**base, verdict="unknown", reasons=[reason], sources=sources)

    label = _arch_label(card, cc)
    support = {s.key: s for s in features_for_card(card)} if vendor == "nvidia" else {}
    hard_missing, hard_reasons = _requirements(topic.hard_features, support, label)
    eff_missing, eff_reasons = _requirements(topic.efficient_features, support, label)
    for group in topic.feature_keys():
        feat = get_feature(group)
        if feat is not None:
            sources.extend(feat.sources)

    if topic.min_cc and cc and _cc_tuple(cc) < _cc_tuple(topic.min_cc):
        hard_missing.append(f"compute capability ≥ {topic.min_cc}")
        hard_reasons.append(f"{label} is CC {cc}; {topic.name} needs CC {topic.min_cc} or newer.")
    vram = getattr(card, "vram_gb", None)
    if topic.min_vram_gb and vram is not None and vram < topic.min_vram_gb:
        hard_missing.append(f"VRAM ≥ {topic.min_vram_gb:g} GB")
        hard_reasons.append(f"{vram:g} GB of VRAM; {topic.name} needs {topic.min_vram_gb:g} GB.")
    if topic.efficient_min_cc and cc and _cc_tuple(cc) < _cc_tuple(topic.efficient_min_cc):
        eff_missing.append(f"compute capability ≥ {topic.efficient_min_cc}")
        eff_reasons.append(f"{label} is CC {cc}; CC {topic.efficient_min_cc}+ is recommended.")
    smem, smem_sources = _smem_per_sm(card, cc)
    need_smem = topic.efficient_min_smem_per_sm_kb
    if need_smem and smem is not None and smem < need_smem:
        eff_missing.append(f"shared memory ≥ {need_smem:g} KB per SM")
        eff_reasons.append(
            f"{smem:g} KB of shared memory per SM instead of {need_smem:g} KB (Hopper, "
            "datacenter Blackwell), which constrains tile sizes and on-chip buffers."
        )
        sources.extend(smem_sources)
    need_vram = topic.efficient_min_vram_gb
    if need_vram and vram is not None and vram < need_vram:
        eff_missing.append(f"VRAM ≥ {need_vram:g} GB")
        eff_reasons.append(
            f"Models are limited to about {vram:g} GB (the card's VRAM); {need_vram:g} GB or more "
            "is comfortable here."
        )

    reasons: list[str] = []
    if hard_missing:
        verdict: Verdict = "no"
        reasons.extend(hard_reasons)
    else:
        verdict = "partial" if eff_missing else "yes"
        if topic.baseline:
            reasons.append(topic.baseline)
        reasons.extend(_present_reasons(topic, support, label))
        reasons.extend(eff_reasons)
        if smem is not None and need_smem and smem >= need_smem:
            reasons.append(f"{smem:g} KB of shared memory per SM (≥ {need_smem:g} KB).")
            sources.extend(smem_sources)
    reasons.extend(topic.notes)
    reasons.extend(n for v, notes in topic.vendor_notes.items() if v == vendor for n in notes)
    return CapabilityVerdict(
        **base,
        verdict=verdict,
        reasons=reasons,
        missing=hard_missing or eff_missing,
        corpus_note=_corpus_note(topic, cc, support),
        cheapest_alternative=topic.cheapest_alternative if verdict != "yes" else None,
        sources=dedupe_sources([*sources, *_card_sources(card)]),
    )


def _requirements(
    groups: list[str], support: dict[str, FeatureSupport], label: str
) -> tuple[list[str], list[str]]:
    missing: list[str] = []
    reasons: list[str] = []
    for group in groups:
        keys = group.split("|")
        if any(support.get(k) is not None and support[k].supported for k in keys):
            continue
        missing.append(" or ".join(keys))
        parts = []
        for k in keys:
            feat = get_feature(k)
            s = support.get(k)
            if feat is None or s is None:
                parts.append(k)
            elif s.status == "no" and s.note and not s.note.startswith("not on CC"):
                parts.append(f"{feat.name}: {s.note}")  # a card exception (GTX 16: no tensor cores)
            else:
                where = ", ".join(_where(a.cc, a.target) for a in feat.availability)
                parts.append(f"{feat.name} (only on CC {where})")
        reasons.append(f"{label} has no " + "; and no ".join(parts) + ".")
    return missing, reasons


def _present_reasons(topic: Topic, support: dict[str, FeatureSupport], label: str) -> list[str]:
    out = []
    for group in [*topic.hard_features, *topic.efficient_features]:
        for k in group.split("|"):
            s = support.get(k)
            if s is not None and s.supported:
                extra = f" ({s.note})" if s.note else ""
                out.append(f"{label} has {s.name}{extra}.")
    return out


# Number formats, not CUDA features: an AMD card's matrix instructions may take them
# (amd_targets.toml, [[matrix_formats]]), and Intel's and Apple's GPUs have their own forms.
NUMBER_FORMATS = frozenset({"bf16", "fp8", "fp4_fp6"})


def _amd_matrix_format(
    card: Any, topic: Topic, base: dict[str, Any], sources: list[Source]
) -> CapabilityVerdict:
    """Whether an AMD card's matrix instructions take this number format (through ROCm/HIP)."""
    from assistant.knowledge.stacks import matrix_formats, rocm_status

    target = rocm_status(card).target
    if target is None:
        return CapabilityVerdict(
            **base,
            verdict="unknown",
            reasons=[f"{card.name}'s gfx target is not in the data: cannot check {topic.name}."],
            sources=sources,
        )
    row = matrix_formats(target)
    where = f"{card.name} (`{target}`)"
    if row is not None and topic.key in row.formats:
        reasons = [
            f"{where} has {topic.name} in its matrix instructions ({row.note}), used through ROCm/HIP, not CUDA."
        ]
        verdict = "yes"
    else:
        note = (
            f" ({row.note})" if row is not None else " (no matrix instructions on this generation)"
        )
        reasons = [f"{where} has no {topic.name} matrix instructions{note}."]
        verdict = "no"
    return CapabilityVerdict(
        **base,
        verdict=verdict,
        reasons=reasons,
        sources=dedupe_sources([*sources, *(row.sources if row else []), *_card_sources(card)]),
    )


def _other_vendor(
    card: Any, vendor: str, topic: Topic, base: dict[str, Any], sources: list[Source]
) -> CapabilityVerdict:
    who = VENDOR_NAMES.get(vendor, vendor)
    wanted = " or ".join(VENDOR_NAMES.get(v, v) for v in topic.vendors)
    if topic.key in NUMBER_FORMATS:
        # A number format is not CUDA's alone: Intel's XMX and Apple's GPUs have their own forms
        # of some of them, which the data here does not describe; never a "no" it cannot back.
        reason = (
            f"{card.name} is an {who} GPU: whether it computes in {topic.name} depends on its own "
            f"hardware and software stack, which this catalog does not describe (the CUDA check "
            "does not apply)."
        )
        return CapabilityVerdict(
            **base,
            verdict="unknown",
            reasons=[reason],
            sources=dedupe_sources([*sources, *_card_sources(card)]),
        )
    if topic.kind == "feature":
        reason = (
            f"{card.name} is an {who} GPU; {topic.name} is an NVIDIA CUDA feature that {who} GPUs "
            "do not have."
        )
    else:
        reason = f"{card.name} is an {who} GPU; {topic.name} targets {wanted} GPUs."
    reasons = [reason]
    if topic.other_vendor_note:
        reasons.append(topic.other_vendor_note)
    verdict = topic.other_vendor_verdict
    return CapabilityVerdict(
        **base,
        verdict=verdict,
        reasons=reasons + topic.notes,
        missing=[f"{wanted} GPU"],
        cheapest_alternative=topic.cheapest_alternative,
        sources=dedupe_sources([*sources, *_card_sources(card)]),
    )


def _own_form(vendor: str, topic: Topic) -> bool:
    """Whether this maker's cards have their own form of the topic: an AMD card's BF16, FP8 or
    FP4, which its gfx target's matrix instructions decide."""
    return vendor == "amd" and topic.key in NUMBER_FORMATS


def _with_stack(card: Any, topic: Topic, verdict: CapabilityVerdict) -> CapabilityVerdict:
    """An AMD, Intel or Apple card: what to use instead of CUDA, its gfx target and ROCm support
    (AMD), and what of the guide it can follow."""
    from assistant.knowledge.stacks import load_stacks, rocm_status

    stack = load_stacks().get(card.vendor)
    if stack is None:
        return verdict
    reasons = list(verdict.reasons)
    sources = list(verdict.sources)
    too_old = any(str(card.architecture).startswith(a) for a in stack.too_old_architectures)
    update: dict[str, Any] = {
        "instead": stack.too_old_en if too_old else stack.instead_en,
        "instead_fr": stack.too_old_fr if too_old else stack.instead_fr,
        "guide_fit": stack.guide_en,
        "guide_fit_fr": stack.guide_fr,
    }
    cuda_only = card.vendor not in topic.vendors and not _own_form(card.vendor, topic)
    update["cuda_only"] = cuda_only
    if cuda_only:
        reasons.append(f"Instead of CUDA ({stack.name}): {update['instead']}")
        reasons.append(stack.guide_en)
        sources.extend(stack.sources)
    if card.vendor == "amd":
        status = rocm_status(card)
        update["gfx_target"] = status.target
        update["rocm_supported"] = status.rocm_linux or status.hip_sdk_windows
        if (
            not update["rocm_supported"]
            and topic.unlisted_verdict is not None
            and verdict.verdict == "yes"
        ):
            update["verdict"] = topic.unlisted_verdict  # unofficial at best
        if status.target:
            where = [
                w
                for w, ok in (
                    ("Linux", status.rocm_linux),
                    ("Windows HIP SDK", status.hip_sdk_windows),
                )
                if ok
            ]
            line = f"{card.name} compiles as {status.target}"
            if where:
                line += f"; AMD's ROCm support tables list it ({', '.join(where)})."
            else:
                line += f". {stack.unsupported_en or ''}".rstrip()
            reasons.append(line)
        elif stack.unsupported_en and not too_old:
            reasons.append(stack.unsupported_en)
        sources.extend(status.sources)
    update["reasons"] = reasons
    update["sources"] = dedupe_sources(sources)
    return verdict.model_copy(update=update)


def _corpus_note(topic: Topic, cc: str | None, support: dict[str, FeatureSupport]) -> str | None:
    if cc is None:
        return None
    notes = []
    seen: set[str] = set()
    for key in topic.feature_keys():
        for claim in corpus_claims_for(key, cc):
            if claim.key in seen:
                continue
            seen.add(claim.key)
            notes.append(
                f"The guide (§ {claim.section}) says: « {claim.claim} ». NVIDIA's documents "
                f"say otherwise: {claim.correction}"
            )
    return " ".join(notes) or None


def _arch_label(card: Any, cc: str | None) -> str:
    arch = getattr(card, "architecture", None) or "This GPU"
    target = getattr(card, "arch_target", None)
    if target:
        return f"{arch} ({target})"
    return f"{arch} (CC {cc})" if cc else str(arch)


def _where(cc: str, target: str | None) -> str:
    return f"{cc} via {target}" if target else cc


def _smem_per_sm(card: Any, cc: str | None) -> tuple[float | None, list[Source]]:
    value = getattr(card, "shared_memory_per_sm_kb", None)
    if value is not None:
        return float(value), _card_sources(card, "shared_memory_per_sm_kb")
    limits = sm_limits(cc) if cc else None
    if limits is None:
        return None, []
    return float(limits.shared_memory_per_sm_kb), list(limits.sources)


def _card_sources(card: Any, field: str = "vram_gb") -> list[Source]:
    source_for = getattr(card, "source_for", None)
    if callable(source_for):
        return list(source_for(field))
    return list(getattr(card, "sources", []) or [])


def _cc_tuple(cc: str) -> tuple[int, int]:
    major, minor = cc.split(".")
    return int(major), int(minor)
