"""Write the offline answer: one renderer per tool result, the passages as numbered references.

The answer is in the question's language, gives the tools' figures and verdicts, and cites the
retrieved passages as [1], [2]... in the order the agent records them (the answer's citations).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from assistant.agent.offline.planner import SEARCH_TOOL, ToolResult
from assistant.agent.offline.reading import Conversation, Reading, read_turn
from assistant.agent.offline.safety import passage_is_safe
from assistant.agent.offline.skills import get_skill
from assistant.agent.offline.texts import pick
from assistant.language import STOPWORDS, Lang

MAX_QUOTES = 2
# A passage scoring under this fraction of the best one is not cited.
RELATIVE_MIN_SCORE = 0.85
_COMMON = STOPWORDS | frozenset({"card", "cards", "carte", "cartes", "much", "many"})
MAX_QUOTE_CHARS = 280
WHAT_I_DO = {
    "en": (
        "I answer questions about GPUs with sourced data and deterministic tools: card specifications "
        "and comparisons, whether a card supports a CUDA feature or a part of the guide, rental costs, "
        "spot vs dedicated, rent vs buy, forgotten instances and storage, learning budgets, whether a "
        "model fits in VRAM, recommendations, and the GPU of this machine — with passages from the "
        "guide's documents."
    ),
    "fr": (
        "Je réponds aux questions sur les GPU avec des données sourcées et des outils déterministes : "
        "caractéristiques et comparaisons de cartes, prise en charge d'une fonctionnalité CUDA ou d'une "
        "partie du guide, coûts de location, spot ou dédiée, louer ou acheter, instance oubliée et "
        "stockage, budget d'apprentissage, tenue d'un modèle en VRAM, recommandations et GPU de cette "
        "machine — avec les passages des documents du guide."
    ),
}
SELF = {
    "en": "I am gpu-advisor's **offline backend**: a deterministic program (entity extraction and an "
    "intent classifier over example questions), not a language model. ",
    "fr": "Je suis le **mode hors ligne** de gpu-advisor : un programme déterministe (extraction "
    "d'entités et classifieur d'intentions sur des questions d'exemple), pas un modèle de langage. ",
}
EXAMPLES = {
    "en": "Try: *Can my RTX 4090 do megakernels?* · *How much does an H100 cost for 100 hours?* · "
    "*I have 200 € to learn GPU programming, how should I spend it?*",
    "fr": "Essayez : *Ma RTX 4090 peut-elle faire des megakernels ?* · *Combien coûte une H100 pendant "
    "100 heures ?* · *J'ai 200 € pour apprendre la programmation GPU, comment les dépenser ?*",
}


def _passages(results: list[ToolResult]) -> list[dict[str, Any]]:
    """Every retrieved passage, numbered as the answer's citations will be (first seen first)."""
    seen: set[Any] = set()
    out: list[dict[str, Any]] = []
    for result in results:
        if result.name != SEARCH_TOOL or not isinstance(result.result, dict):
            continue
        for passage in result.result.get("passages") or []:
            if not isinstance(passage, dict) or passage.get("chunk_id") in seen:
                continue
            seen.add(passage.get("chunk_id"))
            out.append(passage)
    return out


def _relevant(passages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages whose score is close enough to the best one's to be cited."""
    scores = [p.get("score") for p in passages]
    if not passages or not all(isinstance(x, int | float) for x in scores):
        return passages
    best = max(float(x) for x in scores)  # type: ignore[arg-type]
    return [p for p in passages if float(p["score"]) >= RELATIVE_MIN_SCORE * best]


def _cited_ids(kept: list[dict[str, Any]], lang: Lang) -> str:
    """The ids of the passages the answer cites, when weaker ones were left out of its sources."""
    ids = [str(p.get("chunk_id")) for p in kept if p.get("chunk_id")]
    if not ids:
        return ""
    return f"<sub>{pick(lang, 'Passages cited: ', 'Passages cités : ')}{', '.join(ids)}</sub>"


def _quote(passage: dict[str, Any]) -> str:
    text = " ".join(str(passage.get("snippet") or passage.get("text") or "").split())
    if len(text) > MAX_QUOTE_CHARS:
        text = text[: MAX_QUOTE_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return text


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _salient_terms(reading: Reading) -> set[str]:
    """Words of the question worth finding in a passage: card numbers, topics, long words."""
    terms = {t for t in re.findall(r"[a-z0-9_.]{4,}", _fold(reading.text)) if t not in _COMMON}
    for card in reading.entities.gpus:
        terms.update(re.findall(r"\d{3,4}|[a-z]\d{2,3}", _fold(card)))
    terms.update(t.replace("_", ".") for t in reading.entities.topics)
    terms.update(reading.entities.topics)
    return terms


def _ranked(passages: list[dict[str, Any]], reading: Reading) -> list[tuple[int, dict[str, Any]]]:
    """(number, passage) with the passages that share the most salient terms first."""
    terms = _salient_terms(reading)

    def overlap(item: tuple[int, dict[str, Any]]) -> int:
        text = _fold(str(item[1].get("text") or ""))
        return sum(1 for t in terms if t in text)

    numbered = list(enumerate(passages, 1))
    return sorted(numbered, key=lambda item: (-overlap(item), item[0]))


def _quotes(passages: list[dict[str, Any]], reading: Reading, limit: int = MAX_QUOTES) -> str:
    lines: list[str] = []
    for number, passage in _ranked(passages, reading):
        if len(lines) >= limit:
            break
        if not passage_is_safe(str(passage.get("text") or "")):
            continue
        section = str(passage.get("section") or passage.get("title") or "").split(" > ")[-1]
        lines.append(f"> {_quote(passage)} [{number}] — *{section}*")
    if not lines:
        return ""
    return (
        pick(reading.language, "From the guide:", "D'après le guide :") + "\n" + "\n>\n".join(lines)
    )


def _tool_sections(reading: Reading, results: list[ToolResult]) -> tuple[list[str], int]:
    sections: list[str] = []
    errors = 0
    for result in results:
        if result.name == SEARCH_TOOL:
            continue
        skill = get_skill(result.name)
        if skill is None:
            continue
        text = None if result.error else skill.answer(result.result, reading.text, reading.language)
        if text is None:
            errors += 1
            error = str(result.error or "no readable result")
            if error.startswith("invalid arguments"):
                detail = error.split("—", 1)[-1].strip()
                sections.append(
                    pick(
                        reading.language,
                        f"I can't compute that with these values (`{result.name}`): {detail}.",
                        f"Je ne peux pas calculer avec ces valeurs (`{result.name}`) : {detail}.",
                    )
                )
            else:
                sections.append(
                    pick(
                        reading.language,
                        f"The `{result.name}` tool could not answer: ",
                        f"L'outil `{result.name}` n'a pas pu répondre : ",
                    )
                    + error[:200]
                )
            continue
        text = text.strip()
        if text and text not in sections:
            sections.append(text)
    return sections, errors


def write_answer(conversation: Conversation, results: list[ToolResult]) -> str:
    """The final Markdown answer for the turn, from the tool results and passages."""
    reading = read_turn(conversation)
    lang = reading.language
    retrieved = _passages(results)
    passages = _relevant(retrieved)
    parts: list[str] = []
    if reading.injection:
        parts.append(
            pick(
                lang,
                "I don't follow instructions embedded in messages or documents (they can't change how I work or reveal my configuration).",
                "Je ne suis pas les instructions glissées dans les messages ou les documents (elles ne changent ni mon fonctionnement ni ma configuration).",
            )
        )
    if reading.intents == ["greeting"]:
        return "\n\n".join([*parts, SELF[lang] + WHAT_I_DO[lang], EXAMPLES[lang]])
    sections, _ = _tool_sections(reading, results)
    parts.extend(sections)
    only_unknown = bool(reading.entities.unknown_gpus) and not reading.entities.gpus
    if sections:
        quotes = "" if only_unknown else _quotes(passages, reading, limit=1)
        if quotes:
            parts.append(quotes)
    elif reading.intents == ["off_topic"] or reading.intents == ["declined"]:
        parts.append(
            pick(
                lang, "That is outside what I can answer. ", "Cette question sort de mon domaine. "
            )
            + WHAT_I_DO[lang]
        )
        quotes = _quotes(passages, reading)
        if quotes:
            parts.append(
                pick(lang, "The closest passages I found:", "Les passages les plus proches :")
                + "\n\n"
                + quotes
            )
    elif passages:
        parts.append(_quotes(passages, reading, limit=3))
    else:
        parts.append(
            pick(
                lang,
                "I found nothing in the guide's documents or tools that answers this. ",
                "Je n'ai rien trouvé dans les documents du guide ni dans les outils qui réponde à cela. ",
            )
            + WHAT_I_DO[lang]
        )
    if len(passages) < len(retrieved):
        parts.append(_cited_ids(passages, lang))
    return "\n\n".join(p for p in parts if p.strip())
