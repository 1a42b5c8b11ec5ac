"""Guide coverage: "which chapters can't I do on a Kaggle P100?", "quelles parties sur un Mac ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import in_language, localized_name, pick
from assistant.knowledge.platforms import find_platform
from assistant.language import Lang
from assistant.tools.coverage import CoverageResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

_MISSING = re.compile(
    r"\b(?:can'?t|cannot|can not|unable|not able|won'?t|impossible|pas|ne peux|ne pourrai|manque)\b",
    re.I,
)
_HERE = re.compile(r"\b(?:here|this machine|my machine|ici|cette machine|ma machine)\b", re.I)
MARK = {"full": "✓", "partly": "~", "not": "✗", "unknown": "?"}


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """A platform named in the question, else a card, else a purchase budget, else this machine."""
    text = reading.text
    args: dict[str, Any] = {"only_missing": bool(_MISSING.search(text))}
    platform = find_platform(text)
    if platform is not None:
        args["platform"] = platform.key
    elif ent.gpus:
        args["gpu"] = ent.gpus[0]
    elif ent.budgets:
        args["budget"] = ent.budgets[0].amount
        args["currency"] = ent.budgets[0].currency
    elif _HERE.search(text):
        from assistant.tools.probe import probe_local_gpus

        args["machine"] = probe_local_gpus().model_dump(mode="json")
    else:
        return []
    topics = [t for t in ent.topics if not t.startswith("part")]
    if topics:
        args["topics"] = topics
    return [args]


def render(result: CoverageResult, question: str, lang: Lang) -> str:
    """The count first, then each part that is not fully covered, with its reason."""
    if result.gpu is None:
        return pick(lang, result.message, result.message_fr)
    lines = [f"**{pick(lang, result.message, result.message_fr)}**", ""]
    for part in result.parts:
        reason = ""
        if part.coverage != "full" and part.reasons:
            picked = [in_language(r, lang) for r in part.reasons]
            names = (part.name, localized_name(part.name, lang))
            said = [r for r in picked if r and not any(n in r for n in names)]
            if said:
                reason = " — " + (
                    said[0] if part.coverage != "not" else said[min(1, len(said) - 1)]
                )
        lines.append(f"- {MARK[part.coverage]} {localized_name(part.name, lang)}{reason}")
        alternative = in_language(part.cheapest_alternative or "", lang)
        if part.coverage == "not" and alternative:
            lines.append(pick(lang, "  Cheapest way: ", "  Le moins cher : ") + alternative)
    return "\n".join(lines)


SKILL = Skill(
    tool="guide_coverage",
    result=CoverageResult,
    build=build,
    render=render,
    search_hint="parties du guide matériel nécessaire Colab Kaggle",
    slots=("gpus", "money", "topics"),
    fallback="gpu_capability",
    concepts=("coverage",),
)
