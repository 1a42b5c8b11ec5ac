"""Explain a concept: "what is DSMEM?", "sm_90 vs sm_90a", "c'est quoi le MIG ?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import pick
from assistant.language import Lang
from assistant.tools.explain import ExplainResult, named_concept

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

MAX_WORDS = 3  # the longest concept name, in words ('thread block clusters')
MAX_TERM_CHARS = 200
_STRIP = "(),.;:!?«»\"'`"


def concepts_named(question: str) -> list[str]:
    """The concept names of the vocabulary the question uses, in order, one per entry."""
    words = [w.strip(_STRIP) for w in question.replace("’", "'").split()]
    words = [w.split("'", 1)[1] if w[:2].lower() in {"l'", "d'"} else w for w in words]
    found: list[str] = []
    entries: set[str] = set()
    i = 0
    while i < len(words):
        for size in range(MAX_WORDS, 0, -1):
            term = " ".join(words[i : i + size])
            entry = named_concept(term) if term else None
            if entry and entry not in entries:
                found.append(term)
                entries.add(entry)
                i += size - 1
                break
        i += 1
    return found


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One or two named concepts; else the question itself, matched against the entries' questions."""
    terms = concepts_named(reading.text)
    if not terms:
        text = reading.text.strip()[:MAX_TERM_CHARS]
        return [{"term": text, "language": reading.language}] if text else []
    return [
        {
            "term": terms[0],
            "other_term": terms[1] if len(terms) > 1 else None,
            "language": reading.language,
        }
    ]


def _sources(result: ExplainResult, lang: Lang) -> str:
    links = {s.url: s.title for e in result.entries for s in e.sources if s.url}
    if not links:
        return ""
    cited = "; ".join(f"[{title}]({url})" for url, title in list(links.items())[:4])
    labels = ", ".join(dict.fromkeys(e.document for e in result.entries))
    return pick(lang, f"**Sources** ({labels}): {cited}", f"**Sources** ({labels}) : {cited}")


def render(result: ExplainResult, question: str, lang: Lang) -> str:
    """Each entry's direct answer first, then its details, then where it comes from."""
    if not result.found or not result.entries:
        known = ", ".join(result.suggestions[:8])
        text = result.message or pick(
            lang,
            f"No knowledge entry explains {result.term!r}.",
            f"Aucune entrée de la base de connaissances n'explique {result.term!r}.",
        )
        if known:
            text += pick(lang, f" Explained concepts: {known}.", f" Concepts expliqués : {known}.")
        return text
    parts = []
    for entry in result.entries:
        details = entry.details.strip()
        rest = details[len(entry.answer) :].strip() if details.startswith(entry.answer) else ""
        block = entry.answer if len(result.entries) == 1 else f"**{entry.question}** {entry.answer}"
        parts.append("\n\n".join(p for p in (block, rest) if p))
    if result.missing:
        parts.append(result.message)
    parts.append(_sources(result, lang))
    return "\n\n".join(p for p in parts if p)


SKILL = Skill(
    tool="explain",
    result=ExplainResult,
    build=build,
    render=render,
    search_hint="definition",
    concepts=("explain",),
)
