"""Knowledge-led answers: a question that is a knowledge entry's question gets that entry's answer first.

The question is compared with every entry title (both languages) using the search's own embedding
model (query vectors, L2-normalised, so a dot product is a cosine). When the nearest title is close
enough (`knowledge_lead.toml`), the answer opens with that entry's direct answer in the question's
language, cited as a knowledge-base entry with its source link. Tool results that don't bear on the
question are then left out: a spec sheet when no specification was asked, a card list when no
purchase was asked, a capability verdict on a generic topic ("every NVIDIA card runs CUDA").
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.lead_match import about_something_else, entry_vectors, title_scores
from assistant.agent.offline.texts import pick
from assistant.language import Lang
from assistant.log import get_logger

if TYPE_CHECKING:
    from assistant.agent.offline.planner import ToolResult
    from assistant.agent.offline.reading import Reading
    from assistant.knowledge.entries import KnowledgeEntry

log = get_logger(__name__)

SETTINGS_FILE = "knowledge_lead.toml"
_COMMENT = re.compile(r"<!--.*?-->", re.S)
__all__ = ["entry_vectors", "title_scores"]  # re-exported: the calibration tool reads them


@dataclass(frozen=True)
class LeadSettings:
    min_similarity: float
    min_margin: float
    agree_similarity: float
    agree_gap: float
    agree_excess: float
    tool_first: frozenset[str]
    spec_tools: frozenset[str]
    recommend_tools: frozenset[str]
    machine_tools: frozenset[str]
    generic_topics: frozenset[str]
    asks_specs: re.Pattern[str]
    asks_recommendation: re.Pattern[str]


@dataclass(frozen=True)
class Lead:
    """The knowledge entry a question asks, in the question's language, and how close it is."""

    entry: KnowledgeEntry
    score: float


@lru_cache(maxsize=1)
def settings() -> LeadSettings:
    """The thresholds and lists of knowledge_lead.toml."""
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(SETTINGS_FILE).read_text("utf-8")
    )
    return LeadSettings(
        min_similarity=float(data["min_similarity"]),
        min_margin=float(data["min_margin"]),
        agree_similarity=float(data["agree_similarity"]),
        agree_gap=float(data["agree_gap"]),
        agree_excess=float(data["agree_excess"]),
        tool_first=frozenset(data["tool_first"]),
        spec_tools=frozenset(data["spec_tools"]),
        recommend_tools=frozenset(data["recommend_tools"]),
        machine_tools=frozenset(data["machine_tools"]),
        generic_topics=frozenset(data["generic_topics"]),
        asks_specs=re.compile(data["asks_specs"]),
        asks_recommendation=re.compile(data["asks_recommendation"]),
    )


def strip_comments(text: str) -> str:
    """Text without HTML comments (an entry's id/date line never reaches a reader)."""
    return " ".join(_COMMENT.sub(" ", text).split())


def _answered_by_tool(names: list[str], text: str) -> bool:
    """One of these tools makes the answer's figures (`tool_first`); a spec comparison counts only
    when the question asks for specifications."""
    conf = settings()
    asked_specs = bool(conf.asks_specs.search(text))
    return any(n in conf.tool_first and (asked_specs or n not in conf.spec_tools) for n in names)


def computed(results: list[ToolResult], text: str) -> bool:
    """A tool whose figures are the answer (a cost, a break-even...) was called."""
    return _answered_by_tool([r.name for r in results], text)


def _agreed(
    reading: Reading, ranked: list[tuple[str, float]], typical: float, retrieved: list[str | None]
) -> str | None:
    """The entry both measures point to when neither is sure alone: one ranks it first (the
    nearest question, or the search's best entry) and the other nearly so (the search found it;
    its question is good, `agree_similarity`, within `agree_gap` of the nearest, and stands out by
    `agree_excess` from `typical`, the question's median entry: some questions are close to every
    entry). Not for a question naming a model or a guide part, or a card and a feature: a fit,
    coverage or capability tool answers it."""
    conf = settings()
    ent = reading.entities
    if ent.models or ent.model_size_b or ent.parts or ent.up_to_part or not ranked:
        return None
    if ent.gpus and set(ent.topics) - conf.generic_topics:
        return None  # a card and a feature: the capability check's verdict comes first
    scores, (nearest, best) = dict(ranked), ranked[0]
    floor = max(conf.agree_similarity, best - conf.agree_gap, typical + conf.agree_excess)
    found = [e for e in retrieved if e in scores]  # the search's entries, best first
    good = next((e for e in found if scores[e] >= floor), None)
    return good if good is not None and good in (nearest, found[0]) else None


def find_lead(reading: Reading, retrieved: list[str | None] | None = None) -> Lead | None:
    """The entry whose question this is, in the question's language (else the other), or None.

    Entries whose titles name other cards or features than the question's are left out first.
    `retrieved`: what the corpus search found for the question, best first (an entry id per
    passage, None for a passage of the guide). When given, the entry must be among them: the
    nearest title or phrasing by `min_margin`; else the search's first passage with a title that
    is close enough (both measures agree); else the search's best entry whose title is good and
    nearly the nearest (`_agreed`)."""
    from assistant.knowledge.entries import get_entry

    conf = settings()
    if _answered_by_tool(list(reading.tool_intents), reading.text):
        return None
    if reading.entities.unknown_gpus and not reading.entities.gpus:
        return None  # a card missing from the catalog: saying so comes first
    every = title_scores(reading.text)
    ranked = [e for e in every if not about_something_else(reading, e[0], conf.generic_topics)]
    if not ranked:
        return None
    typical = every[len(every) // 2][1]
    scores = dict(ranked)
    entry_id, score = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
    clear = score >= conf.min_similarity and score - runner_up >= conf.min_margin
    if retrieved is None:
        chosen = entry_id if clear else None
    else:
        first = retrieved[0] if retrieved else None
        if clear and entry_id in retrieved:
            chosen = entry_id
        elif first is not None and scores.get(first, -1.0) >= conf.min_similarity:
            chosen = first
        else:
            chosen = _agreed(reading, ranked, typical, retrieved)
    if chosen is None:
        return None
    lang = reading.language
    entry = get_entry(chosen, lang) or get_entry(chosen, "en" if lang == "fr" else "fr")
    return Lead(entry, scores[chosen]) if entry is not None else None


def _is_generic_capability(result: ToolResult, generic: frozenset[str]) -> bool:
    payload = result.result if isinstance(result.result, dict) else {}
    return str(payload.get("topic") or result.args.get("topic") or "") in generic


def bearing_results(results: list[ToolResult], text: str) -> list[ToolResult]:
    """The tool results a knowledge-led answer keeps after the entry's answer."""
    conf = settings()
    specs = bool(conf.asks_specs.search(text))
    buying = bool(conf.asks_recommendation.search(text))
    kept = []
    for result in results:
        if result.name in conf.spec_tools and not specs:
            continue
        if result.name in conf.recommend_tools and not buying:
            continue
        if result.name in conf.machine_tools:
            continue
        if result.name == "gpu_capability" and _is_generic_capability(result, conf.generic_topics):
            continue
        kept.append(result)
    return kept


def passage_entry_id(passage: dict[str, Any]) -> str | None:
    """The id of the knowledge entry a retrieved passage comes from, or None for other passages."""
    parts = str(passage.get("chunk_id") or "").split(":")
    return parts[1] if len(parts) >= 2 and parts[0].startswith("knowledge-") else None


def lead_paragraph(
    lead: Lead, passages: list[dict[str, Any]], lang: Lang
) -> tuple[str, list[dict[str, Any]]]:
    """The answer's first paragraph and the retrieved passages it cites (the entry, if found)."""
    entry = lead.entry
    number = next((n for n, p in enumerate(passages, 1) if passage_entry_id(p) == entry.id), None)
    cite = f" [{number}]" if number else ""
    source = entry.sources[0]
    # A cited passage carries the source's address in the answer's citations; otherwise the
    # note links it.
    link = source.title if number else f"[{source.title}]({source.url})"
    note = pick(
        lang,
        f"<sub>Knowledge base: *{entry.title}* — source: {link}.</sub>",
        f"<sub>Base de connaissances : *{entry.title}* — source : {link}.</sub>",
    )
    text = f"{strip_comments(entry.answer)}{cite}\n\n{note}"
    used = [passages[number - 1]] if number else []
    return text, used
