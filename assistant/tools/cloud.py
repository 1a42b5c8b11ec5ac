"""Cloud instances and notebook tiers: which instance holds which GPUs, what it costs on demand, the
cheapest one on which a model fits (through the fit tool), and what each notebook tier gives."""

from __future__ import annotations

import difflib
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.cloud import (
    CloudInstance,
    NotebookTier,
    instance_key,
    load_cloud_instances,
    load_notebook_tiers,
)
from assistant.knowledge.sources import Source, dedupe_sources

FitVerdict = Literal["fits", "tight", "does_not_fit", "unknown"]
Task = Literal["inference", "lora", "qlora", "full_finetune", "image_generation"]
_FILLER = {"nvidia", "geforce", "rtx", "tesla", "gpu", "gpus", "amd", "instinct"}


class CloudInstancesQuery(BaseModel):
    """Find cloud GPU instances by GPU, by instance name, by memory, or by a model that must fit."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    gpu: str | None = Field(
        default=None,
        max_length=100,
        description="GPU name ('H100', 'A100 80GB', 'L4', 'RTX 4090'); a bare family name matches every variant",
    )
    instance: str | None = Field(
        default=None,
        max_length=100,
        description="Instance type or offer name ('p4d.24xlarge', 'g6e.xlarge', 'a3-highgpu-8g')",
    )
    min_vram_gb: float | None = Field(
        default=None, gt=0, le=10_000, description="Minimum memory per GPU, GB"
    )
    min_total_vram_gb: float | None = Field(
        default=None, gt=0, le=100_000, description="Minimum GPU memory of the whole instance, GB"
    )
    model: str | None = Field(
        default=None,
        max_length=200,
        description="A model that must fit ('llama 3 70b', '70B', 'flux dev'); the fit tool checks each instance with its GPU count",
    )
    precision: str | None = Field(
        default=None,
        max_length=40,
        description="Weight format for the model: bf16, fp8, int8, int4, nf4, q4_k_m... (default: the fit tool's)",
    )
    task: Task = Field(default="inference", description="What the model must do on the instance")
    context_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="Context length for inference"
    )
    concurrent_requests: int = Field(
        default=1,
        ge=1,
        le=4096,
        description="Requests the model serves at once (inference): each keeps its own KV cache",
    )
    provider: str | None = Field(
        default=None,
        max_length=40,
        description="Only this provider: AWS, GCP, Azure, Scaleway, Lambda, RunPod, Vast.ai",
    )
    max_results: int = Field(default=10, ge=1, le=100, description="How many matches to list")


class InstanceMatch(BaseModel):
    """One instance that matches, with its dated price and, for a model, the fit verdict."""

    instance: str
    provider: str
    kind: str
    gpu: str
    gpu_count: int
    vram_gb: float = Field(description="Per GPU")
    total_vram_gb: float
    vcpu: int | None
    ram_gb: float | None
    price_usd_per_hour: float | None = Field(description="Whole instance, on demand")
    price_per_gpu_hour: float | None
    region: str | None
    price_as_of: str | None
    spot: bool
    note: str | None
    note_fr: str | None = Field(default=None, description="The note in French")
    fit_verdict: FitVerdict | None = Field(default=None, description="For a model query")
    fit_gb_per_gpu: float | None = Field(default=None, description="Estimated memory per GPU")


class CloudInstancesResult(BaseModel):
    """Matching instances (cheapest first), the cheapest priced one, and where the figures come from."""

    query: CloudInstancesQuery
    matches: list[InstanceMatch] = Field(default_factory=list)
    total_matches: int = 0
    cheapest: InstanceMatch | None = Field(
        default=None, description="Cheapest priced match (for a model: among those it fits)"
    )
    cheapest_by_provider: list[InstanceMatch] = Field(default_factory=list)
    model: str | None = Field(default=None, description="The model the fit tool matched")
    fit_message: str | None = None
    message: str
    suggestions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)


class NotebookTiersQuery(BaseModel):
    """Look up hosted-notebook tiers (Colab, Kaggle, Studio Lab...) by provider, tier or GPU."""

    model_config = ConfigDict(extra="forbid")

    provider: str | None = Field(
        default=None, max_length=60, description="'colab', 'kaggle', 'studio lab'; empty for all"
    )
    tier: str | None = Field(
        default=None, max_length=40, description="'free', 'pro', 'pro+', 'pay as you go'"
    )
    gpu: str | None = Field(
        default=None, max_length=60, description="Only tiers offering this GPU ('A100', 'T4')"
    )


class NotebookTiersResult(BaseModel):
    """The tiers that match, each with price, GPUs, units, session limits, source and date."""

    query: NotebookTiersQuery
    tiers: list[NotebookTier] = Field(default_factory=list)
    message: str
    sources: list[Source] = Field(default_factory=list)


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in _FILLER]


def _family(name: str) -> str | None:
    return next((t for t in _tokens(name) if any(c.isdigit() for c in t)), None)


def _gpu_rows(text: str, rows: tuple[CloudInstance, ...]) -> list[CloudInstance] | None:
    """Rows whose GPU is the card `text` names; a bare family ('A100') keeps every variant."""
    from assistant.knowledge.matching import match_gpu

    words = _tokens(text)
    if len(words) == 1:
        family = [r for r in rows if _family(r.gpu) == words[0]]
        if family:
            return family
    card = match_gpu(text).gpu
    if card is None:
        return None
    return [r for r in rows if match_gpu(r.gpu).gpu == card]


def _instance_rows(text: str, rows: tuple[CloudInstance, ...]) -> list[CloudInstance]:
    want = instance_key(text)
    exact = [r for r in rows if instance_key(r.instance) == want]
    return exact or [r for r in rows if want and want in instance_key(r.instance)]


def _match(row: CloudInstance) -> InstanceMatch:
    return InstanceMatch(
        instance=row.instance,
        provider=row.provider,
        kind=row.kind,
        gpu=row.gpu,
        gpu_count=row.gpu_count,
        vram_gb=row.vram_gb,
        total_vram_gb=row.total_vram_gb,
        vcpu=row.vcpu,
        ram_gb=row.ram_gb,
        price_usd_per_hour=row.price_usd_per_hour,
        price_per_gpu_hour=row.price_per_gpu_hour,
        region=row.region,
        price_as_of=row.price_as_of,
        spot=row.spot,
        note=row.note,
        note_fr=row.note_fr,
    )


def _price_order(m: InstanceMatch) -> tuple[bool, float, float]:
    price = m.price_usd_per_hour
    return (price is None, price if price is not None else 0.0, m.total_vram_gb)


def _describe(m: InstanceMatch) -> str:
    price = (
        f"${m.price_usd_per_hour:g}/h on demand ({m.price_as_of}"
        + (f", {m.region}" if m.region else "")
        + ")"
        if m.price_usd_per_hour is not None
        else "no dated price in the data"
    )
    who = "" if m.instance.startswith(m.provider) else f" ({m.provider})"
    return f"{m.instance}{who}: {m.gpu_count} x {m.gpu} ({m.vram_gb:g} GB each), {price}"


def _fit_rows(
    query: CloudInstancesQuery, rows: list[CloudInstance]
) -> tuple[dict[str, tuple[FitVerdict, float | None]], str | None, str | None, list[str]]:
    """The fit verdict per instance; the model name, the fit message, suggestions."""
    from assistant.tools.fit import FitQuery, estimate_fit

    verdicts: dict[str, tuple[FitVerdict, float | None]] = {}
    cache: dict[tuple[str, int], tuple[FitVerdict, float | None]] = {}
    model_name: str | None = None
    message: str | None = None
    for row in rows:
        key = (row.gpu, row.gpu_count)
        if key not in cache:
            fit = estimate_fit(
                FitQuery(
                    model=query.model or "",
                    gpu=row.gpu,
                    num_gpus=row.gpu_count,
                    precision=query.precision,
                    task=query.task,
                    context_tokens=query.context_tokens,
                    batch_size=query.concurrent_requests,
                )
            )
            if fit.total_gb is None:
                return {}, None, fit.message, list(fit.suggestions)
            model_name = fit.model or model_name
            message = message or fit.message.split(";")[0]
            cache[key] = (fit.verdict, fit.total_gb)
        verdicts[row.instance] = cache[key]
    return verdicts, model_name, message, []


def cloud_instances(query: CloudInstancesQuery) -> CloudInstancesResult:
    """Cloud GPU instances (AWS, GCP, Azure, Scaleway, Lambda, RunPod, Vast.ai) matching a GPU, an instance
    name, a minimum memory, a provider, or a model that must fit: GPUs × count, memory per GPU,
    vCPU, RAM, on-demand price with its date, region and source, spot availability. With a model,
    each instance is checked with the fit tool (its GPU count shares the model) and the cheapest
    priced instance it fits is returned. Unknown names come back as a message with near names."""
    rows = load_cloud_instances()
    selected: list[CloudInstance] = list(rows)
    if query.instance:
        selected = _instance_rows(query.instance, rows)
        if not selected:
            near = difflib.get_close_matches(
                query.instance, [r.instance for r in rows], n=5, cutoff=0.4
            )
            return CloudInstancesResult(
                query=query, message=f"Unknown instance {query.instance!r}.", suggestions=near
            )
    if query.gpu:
        by_gpu = _gpu_rows(query.gpu, rows)
        if by_gpu is None:
            names = sorted({r.gpu for r in rows})
            near = difflib.get_close_matches(query.gpu, names, n=5, cutoff=0.3)
            return CloudInstancesResult(
                query=query,
                message=f"Unknown GPU {query.gpu!r}: no instance in the data has it.",
                suggestions=near or names,
            )
        chosen = {r.instance for r in by_gpu}
        selected = [r for r in selected if r.instance in chosen]
    if query.provider:
        want = instance_key(query.provider)
        selected = [r for r in selected if want in instance_key(r.provider)]
    if query.min_vram_gb:
        selected = [r for r in selected if r.vram_gb >= query.min_vram_gb]
    if query.min_total_vram_gb:
        selected = [r for r in selected if r.total_vram_gb >= query.min_total_vram_gb]

    matches = [_match(r) for r in selected]
    model_name = fit_message = None
    if query.model:
        verdicts, model_name, fit_message, near = _fit_rows(query, selected)
        if fit_message and not verdicts and selected:
            return CloudInstancesResult(query=query, message=fit_message, suggestions=near)
        for m in matches:
            m.fit_verdict, m.fit_gb_per_gpu = verdicts.get(m.instance, (None, None))
        matches = [m for m in matches if m.fit_verdict in ("fits", "tight")]
    matches.sort(key=lambda m: (m.fit_verdict == "tight", *_price_order(m)))
    priced = [m for m in matches if m.price_usd_per_hour is not None and m.fit_verdict != "tight"]
    cheapest = min(priced, key=_price_order) if priced else None
    by_provider: dict[str, InstanceMatch] = {}
    for m in sorted(priced, key=_price_order):
        by_provider.setdefault(m.provider, m)

    shown = matches[: query.max_results]
    cited = {m.instance for m in shown} | {m.instance for m in by_provider.values()}
    sources = dedupe_sources([s for r in selected if r.instance in cited for s in r.sources()])
    return CloudInstancesResult(
        query=query,
        matches=shown,
        total_matches=len(matches),
        cheapest=cheapest,
        cheapest_by_provider=list(by_provider.values()),
        model=model_name,
        fit_message=fit_message,
        message=_summary(query, matches, cheapest, model_name),
        sources=sources[:12],
    )


def _summary(
    query: CloudInstancesQuery,
    matches: list[InstanceMatch],
    cheapest: InstanceMatch | None,
    model_name: str | None,
) -> str:
    what = model_name or query.model
    if not matches:
        if query.model:
            return f"No instance in the data has enough GPU memory for {what}."
        return "No instance in the data matches."
    if query.instance and len(matches) == 1:
        m = matches[0]
        extra = f", {m.vcpu} vCPU, {m.ram_gb:g} GB RAM" if m.vcpu and m.ram_gb else ""
        return f"{_describe(m)}; {m.total_vram_gb:g} GB of GPU memory in all{extra}."
    head = f"{len(matches)} instance{'s' if len(matches) != 1 else ''} match"
    if query.model:
        head = (
            f"{what} fits on {len(matches)} instance{'s' if len(matches) != 1 else ''} in the data"
        )
    if cheapest is None:
        return f"{head}; none has a dated price."
    return f"{head}; the cheapest on demand is {_describe(cheapest)}."


def notebook_tiers(query: NotebookTiersQuery) -> NotebookTiersResult:
    """Hosted notebook tiers with a GPU (Google Colab Free / Pay As You Go / Pro / Pro+, Kaggle,
    SageMaker Studio Lab, Colab Enterprise): price, GPUs offered, compute units, maximum session
    length, idle timeout, weekly GPU quota, what happens when units or quota run out, with the
    source and the date each was seen."""
    tiers = list(load_notebook_tiers())
    if query.provider:
        want = instance_key(query.provider)
        tiers = [t for t in tiers if want in instance_key(t.provider)]
    if query.tier:
        want = instance_key(query.tier.replace("+", "plus"))
        exact = [t for t in tiers if instance_key(t.tier.replace("+", "plus")) == want]
        tiers = exact or [t for t in tiers if want in instance_key(t.tier.replace("+", "plus"))]
    if query.gpu:
        want = instance_key(query.gpu)
        tiers = [t for t in tiers if want in instance_key(t.gpus)]
    if not tiers:
        names = sorted({f"{t.provider} {t.tier}" for t in load_notebook_tiers()})
        return NotebookTiersResult(
            query=query, message="No notebook tier in the data matches; known: " + ", ".join(names)
        )
    parts = []
    for t in tiers:
        price = "free" if not t.price_usd else f"${t.price_usd:g} {t.billing}"
        limits = []
        if t.compute_units:
            limits.append(f"{t.compute_units} compute units")
        if t.weekly_gpu_hours:
            limits.append(f"{t.weekly_gpu_hours:g} GPU hours a week")
        if t.max_session_hours:
            limits.append(f"sessions up to {t.max_session_hours:g} h")
        if t.idle_timeout_minutes:
            limits.append(f"idle timeout about {t.idle_timeout_minutes:g} min")
        parts.append(
            f"{t.provider} {t.tier}: {price}; {t.gpus}"
            + (f"; {', '.join(limits)}" if limits else "")
        )
    return NotebookTiersResult(
        query=query,
        tiers=tiers,
        message=" | ".join(parts),
        sources=dedupe_sources([t.to_source() for t in tiers]),
    )
