"""Whether a card can do something: "can my 4090 do megakernels?", "does the T4 have cp.async?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards, render_unknown
from assistant.agent.offline.texts import (
    bullet_list,
    in_language,
    localized_name,
    pick,
    to_french,
    verdict_word,
)
from assistant.language import Lang
from assistant.tools.capability import CapabilityVerdict

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

GENERIC_HINT = "ce qui manque"


def render(result: CapabilityVerdict, question: str, lang: Lang) -> str:
    """The verdict first (card, target, topic), then the reasons and the cheapest way to get it."""
    if result.verdict == "unknown" and not result.arch_target and not result.compute_capability:
        return render_unknown(result.gpu, result.suggestions, lang)
    topic = localized_name(result.topic_name or result.topic, lang)
    target = result.arch_target
    where = f" (`{target}`, CC {result.compute_capability})" if target else ""
    lines = [f"**{verdict_word(result.verdict, lang)}** — {result.gpu}{where} × {topic}"]
    if lang == "en":
        lines.append(bullet_list(result.reasons))
    else:
        reasons = [r for r in (in_language(r, lang) for r in result.reasons) if r]
        if result.missing:
            missing = [to_french(m) or m for m in result.missing]
            reasons.insert(0, "Ce qui manque : " + ", ".join(missing))
        lines.append(bullet_list(reasons))
    if result.corpus_note:
        lines.append(
            pick(
                lang,
                f"⚠️ {result.corpus_note}",
                "⚠️ Le guide affirme ici autre chose que les documents de NVIDIA ; ce verdict suit NVIDIA "
                f"(cible `{target}`).",
            )
        )
    alt = result.cheapest_alternative
    if alt and result.verdict != "yes":
        text = in_language(alt, lang)
        if text:
            lines.append(
                pick(
                    lang,
                    f"Cheapest way to get it: {text}",
                    f"Le moins cher pour y accéder : {text}",
                )
            )
    return "\n\n".join(line for line in lines if line)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    topics = list(ent.topics) or [f"part {p}" for p in ent.parts]
    return [{"gpu": card, "topic": topic} for card in named_cards(ent)[:2] for topic in topics[:2]]


def fallback(ent: Entities) -> str | None:
    """A card without a named feature: its own feature list; a feature without a card: what has it."""
    if named_cards(ent):
        return "gpu_lookup"
    return "recommend_gpus" if ent.topics or ent.parts else None


def search_terms(reading: Reading) -> str:
    """The features' own names and the cards' architectures.

    A question about one feature ("does the H100 support FP8?") finds the passages that name the
    feature and the architectures; a guide topic (megakernels, a part) keeps the generic hint, the
    guide's answers about topics being written as what works and what is missing.
    """
    from assistant.knowledge.features import get_feature
    from assistant.knowledge.matching import match_gpu

    names: list[str] = []
    generic = not reading.entities.topics
    for key in reading.entities.topics[:2]:
        feature = get_feature(key)
        if feature is None:
            generic = True
            continue
        names.append(feature.name.split(" (")[0])
    for card in reading.entities.gpus[:2]:
        found = match_gpu(card).gpu
        if found is not None and found.architecture:
            names.append(str(found.architecture))
    if generic:
        names.append(GENERIC_HINT)
    return " ".join(dict.fromkeys(names))


SKILL = Skill(
    tool="gpu_capability",
    result=CapabilityVerdict,
    build=build,
    render=render,
    search_hint=GENERIC_HINT,
    search_terms=search_terms,
    slots=("gpus", "unknown_gpus", "topics", "parts"),
    needs=("topics", "parts"),
    concepts=("capability",),
    fallback=fallback,
)
