"""Guide coverage: for a card, a platform (free Colab, Kaggle P100 or 2 x T4, a Mac, an AMD card),
the probed machine or a purchase budget, which parts of the guide it can follow fully, partly or
not at all, and why, from the topics' requirements (topics.toml) that capability and recommend use."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.platforms import Platform, find_platform
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.knowledge.topics import Topic, get_topic, load_topics, match_topic
from assistant.money import Currency
from assistant.tools.capability import assess
from assistant.tools.probe.models import ProbeReport
from assistant.tools.query import NullsMeanDefaults

Coverage = Literal["full", "partly", "not", "unknown"]
FROM_VERDICT: dict[str, Coverage] = {"yes": "full", "partial": "partly", "no": "not"}


class CoverageQuery(NullsMeanDefaults):
    """What to assess: a card, a platform, this machine or a budget; and which parts."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    gpu: str | None = Field(default=None, max_length=200, description="A card ('RTX 3060', 'T4')")
    platform: str | None = Field(
        default=None,
        max_length=200,
        description="A platform instead of a card: 'free Colab', 'Kaggle' (P100), 'Kaggle T4x2', "
        "'SageMaker Studio Lab', 'a Mac', 'an AMD card'",
    )
    machine: ProbeReport | None = Field(
        default=None, description="The probed machine (the probe_gpus result): its first GPU"
    )
    budget: float | None = Field(
        default=None,
        gt=0,
        le=10_000_000,
        description="A purchase budget: the card the recommendation picks for the whole guide",
    )
    currency: Currency | None = Field(default=None, description="Currency of budget")
    topics: list[str] | None = Field(
        default=None,
        max_length=30,
        description="Topics to assess besides the guide's parts ('fp8 training', 'triton')",
    )
    only_missing: bool = Field(
        default=False, description="List only what it cannot follow fully ('which can't I do')"
    )


class PartCoverage(BaseModel):
    """One part (or topic) of the guide on the card: full, partly, not, and why."""

    topic: str
    name: str
    part: int | None = None
    coverage: Coverage
    reasons: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="Requirements the card lacks")
    cheapest_alternative: str | None = None
    sources: list[Source] = Field(default_factory=list)


class CoverageResult(BaseModel):
    """Which parts a card or platform covers, fully, partly or not at all, each with its reasons."""

    query: CoverageQuery
    target: str | None = Field(description="What was assessed, as resolved")
    gpu: str | None = Field(description="The catalog card the verdicts are for")
    platform: str | None = None
    full: list[str] = Field(default_factory=list, description="Names of the parts it covers fully")
    partly: list[str] = Field(default_factory=list)
    cannot: list[str] = Field(default_factory=list, description="Parts it cannot follow")
    parts: list[PartCoverage] = Field(default_factory=list)
    message: str
    message_fr: str = ""
    assumptions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)


def _lookup(name: str) -> tuple[Any, list[str]]:
    from assistant.knowledge.matching import match_gpu

    match = match_gpu(name)
    return match.gpu, list(match.suggestions)


def _notebook_source(platform: Platform) -> list[Source]:
    if not platform.notebook:
        return []
    from assistant.knowledge.cloud import load_notebook_tiers

    provider, tier = platform.notebook
    rows = [r for r in load_notebook_tiers() if (r.provider, r.tier) == (provider, tier)]
    return [rows[0].to_source()] if rows else []


def _target(
    q: CoverageQuery,
) -> tuple[Any, str | None, Platform | None, list[str], list[str], list[Source]]:
    """(card, label, platform, notes, problems+suggestions marker, extra sources)."""
    notes: list[str] = []
    if q.machine is not None:
        gpus = [g for g in q.machine.gpus if g.catalog_match is not None]
        if not gpus:
            return (
                None,
                None,
                None,
                [],
                ["The probed machine has no GPU matched to the catalog."],
                [],
            )
        card, _ = _lookup(gpus[0].catalog_match.name)  # type: ignore[union-attr]
        if len(gpus) > 1:
            notes.append("This machine has several GPUs: the verdicts are for the first.")
        return card, f"this machine ({card.name if card else gpus[0].name})", None, notes, [], []
    if q.budget is not None:
        from assistant.tools.recommend import RecommendQuery, recommend

        rec = recommend(
            RecommendQuery(budget=q.budget, currency=q.currency, mode="buy", guide_part=9, limit=1)
        )
        if not rec.options:
            return None, None, None, [], [f"No card to buy within {q.budget:g}: {rec.summary}"], []
        pick = rec.options[0]
        card, _ = _lookup(pick.gpu)
        notes.append(
            f"The card a budget of {q.budget:g} {rec.currency} buys for the whole guide, per the "
            f"recommendation: {pick.gpu}."
        )
        return (
            card,
            f"{pick.gpu} (budget {q.budget:g} {rec.currency})",
            None,
            notes,
            [],
            rec.sources[:2],
        )
    text = q.platform or q.gpu or ""
    platform = find_platform(text) if text else None
    if platform is not None and (q.platform or _lookup(text)[0] is None):
        card, _ = _lookup(platform.cards[0])
        notes.append(platform.note)
        return (
            card,
            platform.name,
            platform,
            notes,
            [],
            [*platform.sources, *_notebook_source(platform)],
        )
    if q.gpu:
        card, near = _lookup(q.gpu)
        if card is None:
            return None, None, None, near, [f"Unknown GPU {q.gpu!r}: not in the catalog."], []
        return card, card.name, None, notes, [], []
    if q.platform:
        return None, None, None, [], [f"Unknown platform {q.platform!r}."], []
    return None, None, None, [], ["Give a GPU, a platform, a budget or the probed machine."], []


def _topics(q: CoverageQuery) -> tuple[list[Topic], list[str]]:
    parts = sorted((t for t in load_topics() if t.part is not None), key=lambda t: t.part or 0)
    unknown = []
    for name in q.topics or []:
        topic = get_topic(name) or match_topic(name)
        if topic is None:
            unknown.append(name)
        elif all(t.key != topic.key for t in parts):
            parts.append(topic)
    return parts, unknown


def coverage(query: CoverageQuery) -> CoverageResult:
    """Say which parts of the guide a card, a platform (free Colab T4, Kaggle P100 or 2 x T4,
    SageMaker Studio Lab, a Mac, an AMD card), the probed machine or a purchase budget can follow:
    fully, partly or not at all, each with the reasons and what is missing, from the topics'
    requirements. 'Which chapters can't I do on a Kaggle P100?' is answered by the parts in
    `cannot`. Unknown names come back as a message with near names."""
    card, label, platform, notes, problems, extra = _target(query)
    if card is None:
        msg = " ".join(problems) or "Nothing to assess."
        return CoverageResult(
            query=query,
            target=None,
            gpu=None,
            message=msg,
            message_fr=f"Impossible de répondre : {msg}",
            suggestions=notes,
        )
    topics, unknown = _topics(query)
    parts: list[PartCoverage] = []
    for topic in topics:
        v = assess(card, topic)
        parts.append(
            PartCoverage(
                topic=topic.key,
                name=topic.name,
                part=topic.part,
                coverage=FROM_VERDICT.get(v.verdict, "unknown"),
                reasons=v.reasons,
                missing=v.missing,
                cheapest_alternative=v.cheapest_alternative,
                sources=v.sources,
            )
        )
    full = [p.name for p in parts if p.coverage == "full"]
    partly = [p.name for p in parts if p.coverage == "partly"]
    cannot = [p.name for p in parts if p.coverage == "not"]
    shown = [p for p in parts if p.coverage != "full"] if query.only_missing else parts
    guide_parts = [p for p in parts if p.part is not None]
    n_full = sum(p.coverage == "full" for p in guide_parts)
    n_part = sum(p.coverage == "partly" for p in guide_parts)
    n_not = sum(p.coverage == "not" for p in guide_parts)
    where_fr = platform.name_fr if platform else label
    nums = lambda ps: ", ".join(str(p.part) for p in ps)  # noqa: E731
    not_parts = [p for p in guide_parts if p.coverage == "not"]
    partly_parts = [p for p in guide_parts if p.coverage == "partly"]
    msg = (
        f"{label} follows {n_full} of the guide's {len(guide_parts)} parts fully, {n_part} partly"
        f" and {n_not} not at all."
        + (f" Cannot follow: part {nums(not_parts)}." if not_parts else "")
        + (f" Partly: part {nums(partly_parts)}." if partly_parts else "")
    )
    msg_fr = (
        f"{where_fr} permet de suivre {n_full} des {len(guide_parts)} parties du guide "
        f"entièrement, {n_part} en partie et {n_not} pas du tout."
        + (f" Impossible : partie {nums(not_parts)}." if not_parts else "")
        + (f" En partie : partie {nums(partly_parts)}." if partly_parts else "")
    )
    if platform is not None:
        notes = [*notes, f"{platform.name_fr} : {platform.note_fr}"]
    if unknown:
        notes.append(f"Not a known topic: {', '.join(unknown)}.")
    sources = dedupe_sources([*extra, *[s for p in shown for s in p.sources]])
    return CoverageResult(
        query=query,
        target=label,
        gpu=card.name,
        platform=platform.name if platform else None,
        full=full,
        partly=partly,
        cannot=cannot,
        parts=shown,
        message=msg,
        message_fr=msg_fr,
        assumptions=[
            *notes,
            "Each part's verdict is the capability check of its requirements (topics.toml): hard "
            "requirements decide yes or no, the ones that make it efficient turn yes into partly.",
        ],
        sources=sources,
    )
