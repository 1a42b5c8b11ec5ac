"""Notebook tiers: "how long can a free Colab session run?", "combien d'heures de GPU sur Kaggle ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import money, num, pick
from assistant.knowledge.cloud import NotebookTier
from assistant.language import Lang
from assistant.tools.cloud import NotebookTiersResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

_PROVIDERS = (
    (re.compile(r"\bcolab(?:oratory)?\s+enterprise\b", re.I), "colab enterprise"),
    (re.compile(r"\bcolab(?:oratory)?\b", re.I), "colab"),
    (re.compile(r"\bkaggle\b", re.I), "kaggle"),
    (re.compile(r"\b(?:studio ?lab|sagemaker)\b", re.I), "studio lab"),
)
_TIERS = (
    (re.compile(r"\bpro\s*(?:\+|plus)(?!\w)", re.I), "pro+"),
    (re.compile(r"\bpro\b", re.I), "pro"),
    (
        re.compile(r"\b(?:pay[- ]as[- ]you[- ]go|payg|paiement à l'usage|à l'usage)\b", re.I),
        "pay as you go",
    ),
    (re.compile(r"\b(?:free|gratuite?s?|sans payer)\b", re.I), "free"),
)
_MAX_TIERS = 4


def _facts(tier: NotebookTier, lang: Lang) -> list[str]:
    facts = []
    if tier.compute_units:
        facts.append(
            pick(
                lang,
                f"{tier.compute_units} compute units",
                f"{tier.compute_units} unités de calcul",
            )
        )
    if tier.weekly_gpu_hours:
        hours = num(tier.weekly_gpu_hours, lang, 0)
        facts.append(
            pick(
                lang,
                f"about {hours} GPU hours a week",
                f"environ {hours} h de GPU par semaine",
            )
        )
    if tier.max_session_hours:
        hours = num(tier.max_session_hours, lang, 0)
        facts.append(pick(lang, f"sessions of up to {hours} h", f"sessions de {hours} h au plus"))
    if tier.idle_timeout_minutes:
        minutes = num(tier.idle_timeout_minutes, lang, 0)
        facts.append(
            pick(
                lang,
                f"disconnects after about {minutes} min idle",
                f"déconnexion après environ {minutes} min d'inactivité",
            )
        )
    return facts


_RUN_OUT = re.compile(
    r"\brun(?:s|ning)? out\b|\bout of (?:units|compute|quota)|\bat zero\b|\bused up\b"
    r"|épuis\w*|\bplus d'unités\b|\bà zéro\b|\bdépass\w*",
    re.IGNORECASE,
)


def _tier_line(tier: NotebookTier, lang: Lang, detailed: bool = True) -> str:
    price = (
        pick(lang, "free", "gratuit")
        if not tier.price_usd
        else f"{money(tier.price_usd, 'USD', lang)} {tier.text('billing', lang)}"
    )
    sep, semi = pick(lang, ": ", " : "), pick(lang, "; ", " ; ")
    head = f"**{tier.provider} {tier.tier}**{sep}{price}{semi}{tier.text('gpus', lang)}"
    facts = _facts(tier, lang)
    line = head + (f"{semi}{', '.join(facts)}" if facts else "") + "."
    at_zero = tier.text("at_zero", lang)
    if at_zero and detailed:
        line += pick(lang, f" When it runs out: {at_zero}.", f" Une fois épuisé : {at_zero}.")
    notes = tier.text("notes", lang)
    if notes and detailed:
        line += f" {notes[0].upper()}{notes[1:]}."
    seen = pick(lang, f"(seen {tier.as_of})", f"(vu en {tier.as_of})")
    return f"{line} {seen}"


def render(result: NotebookTiersResult, question: str, lang: Lang) -> str:
    """One line per matching tier: price, GPUs, units or quota, session limits, what happens at zero."""
    if not result.tiers:
        return pick(
            lang,
            "No notebook tier in the data matches; the data covers Google Colab (Free, Pay As You Go, "
            "Pro, Pro+, Enterprise), Kaggle and SageMaker Studio Lab.",
            "Aucune offre de notebook des données ne correspond ; les données couvrent Google Colab "
            "(gratuit, paiement à l'usage, Pro, Pro+, Enterprise), Kaggle et SageMaker Studio Lab.",
        )
    tiers = result.tiers[:_MAX_TIERS]
    lead = ""
    if _RUN_OUT.search(question):
        paid = next((t for t in tiers if t.text("at_zero", lang)), None)
        if paid is not None:
            what = paid.text("at_zero", lang) or ""
            lead = pick(
                lang,
                f"**When the units or quota run out ({paid.provider}): {what}.**",
                f"**Quand les unités ou le quota sont épuisés ({paid.provider}) : {what}.**",
            )
    detailed = len(tiers) == 1
    lines = [_tier_line(t, lang, detailed) for t in tiers]
    return "\n\n".join(p for p in (lead, *lines) if p)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the provider and tier named, or for the card named when neither is; none for
    a failure report that names a notebook but no plan or quota."""
    from assistant.agent.offline.concepts import reports_failure

    text = reading.text
    provider = next((name for pattern, name in _PROVIDERS if pattern.search(text)), None)
    tier = next((name for pattern, name in _TIERS if pattern.search(text)), None)
    if tier is None and not _RUN_OUT.search(text) and reports_failure(text):
        # 'error on MPS … runs fine on Colab': the notebook is where it worked, not the question
        return []
    args: dict[str, Any] = {"provider": provider, "tier": tier}
    if not provider and not tier and ent.gpus:
        args["gpu"] = ent.gpus[0]
    return [args]


SKILL = Skill(
    tool="notebook_tiers",
    result=NotebookTiersResult,
    build=build,
    render=render,
    search_hint="Colab Kaggle notebook gratuit GPU limites de session",
    slots=("gpus",),
    concepts=("free_tier",),
)
