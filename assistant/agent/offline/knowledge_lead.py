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
import threading
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.texts import pick
from assistant.language import Lang
from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

    from assistant.agent.offline.planner import ToolResult
    from assistant.agent.offline.reading import Reading
    from assistant.knowledge.entries import KnowledgeEntry

log = get_logger(__name__)

SETTINGS_FILE = "knowledge_lead.toml"
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_lock = threading.Lock()


@dataclass(frozen=True)
class LeadSettings:
    min_similarity: float
    min_margin: float
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
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(SETTINGS_FILE).read_text("utf-8")
    )
    return LeadSettings(
        min_similarity=float(data["min_similarity"]),
        min_margin=float(data["min_margin"]),
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


@lru_cache(maxsize=4)
def _titles(model: str) -> tuple[tuple[str, ...], np.ndarray]:
    """(entry id per row, title vectors) for every entry title of both languages."""
    from assistant.knowledge.entries import load_entries
    from assistant.retrieval.embeddings import get_embedder

    entries = load_entries()
    ids = tuple(e.id for e in entries)
    vectors = get_embedder(model).embed_queries([e.title for e in entries])
    return ids, vectors


def title_scores(text: str) -> list[tuple[str, float]]:
    """(entry id, best cosine of the question to its titles), nearest first; [] without a model."""
    import numpy as np

    from assistant.retrieval.embeddings import (
        EmbeddingUnavailable,
        get_embedder,
        model_key,
    )

    try:
        key = model_key()
        with _lock:
            ids, matrix = _titles(key)
        question = get_embedder(key).embed_queries([text])[0]
    except (EmbeddingUnavailable, OSError, ValueError) as exc:
        log.info("offline: no knowledge lead (%s)", exc)
        return []
    sims = np.asarray(matrix, dtype=np.float32) @ np.asarray(question, dtype=np.float32)
    best: dict[str, float] = {}
    for entry_id, sim in zip(ids, sims.tolist(), strict=True):
        best[entry_id] = max(best.get(entry_id, -1.0), float(sim))
    return sorted(best.items(), key=lambda item: -item[1])


def _cards(text: str) -> frozenset[str]:
    from assistant.agent.offline.entities import extract_entities

    return frozenset(extract_entities(text).gpus)


def computed(results: list[ToolResult]) -> bool:
    """A tool whose figures are the answer (a cost, a break-even...) was called."""
    return any(r.name in settings().tool_first for r in results)


def find_lead(reading: Reading, retrieved: list[str | None] | None = None) -> Lead | None:
    """The entry whose question this is, in the question's language (else the other), or None.

    `retrieved`: what the corpus search found for the question, best first (an entry id per
    passage, None for a passage of the guide). When given, the entry must be among them: either
    the nearest title by `min_margin`, or the search's first passage with a title that is close
    enough (the title's similarity and the search's ranking agree)."""
    from assistant.knowledge.entries import get_entry

    conf = settings()
    if set(reading.tool_intents) & conf.tool_first:
        return None
    ranked = title_scores(reading.text)
    if not ranked:
        return None
    scores = dict(ranked)
    entry_id, score = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
    clear = score >= conf.min_similarity and score - runner_up >= conf.min_margin
    if retrieved is not None:
        first = retrieved[0] if retrieved else None
        if clear and entry_id in retrieved:
            pass
        elif first is not None and scores.get(first, -1.0) >= conf.min_similarity:
            entry_id, score = first, scores[first]
        else:
            return None
    elif not clear:
        return None
    lang = reading.language
    entry = get_entry(entry_id, lang) or get_entry(entry_id, "en" if lang == "fr" else "fr")
    if entry is None:
        return None
    named, titled = frozenset(reading.entities.gpus), _cards(entry.title)
    if named and titled and not named & titled:
        return None  # an entry about other cards
    return Lead(entry, score)


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
