"""Explain a GPU concept, or the difference between two, from the sourced knowledge base.

Terms resolve through one vocabulary: CUDA feature names and aliases from data/features.toml, then
the concept names of data/concepts.toml (English and French), then the entries' own questions.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.entries import KnowledgeEntry, entries_for, get_entry
from assistant.knowledge.features import get_feature
from assistant.knowledge.loader import read_toml_table
from assistant.knowledge.names import fold
from assistant.knowledge.sources import Source
from assistant.knowledge.tokens import tokenize

CONCEPTS_FILE = "concepts.toml"


class ExplainQuery(BaseModel):
    """A concept to explain, or two to compare, and the language of the answer."""

    model_config = ConfigDict(extra="forbid")

    term: str = Field(
        min_length=1,
        max_length=120,
        description="The concept: 'DSMEM', 'compute capability', 'sm_90a', 'PTX', 'ECC', 'MIG', "
        "'TF32', 'occupancy' (English or French)",
    )
    other_term: str | None = Field(
        default=None,
        max_length=120,
        description="A second concept to compare with the first: term='sm_90', other_term='sm_90a'",
    )
    language: Literal["en", "fr"] = Field(default="en", description="Language of the answer")


class ExplainedEntry(BaseModel):
    """One knowledge entry: the question it answers, its direct answer, details and sources."""

    id: str
    question: str
    answer: str = Field(description="The direct answer (first paragraph)")
    details: str = Field(description="The whole entry text in Markdown, answer included")
    document: str = Field(description="Citation label: 'Knowledge · <topic>'")
    sources: list[Source]
    date: dt.date


class ExplainResult(BaseModel):
    """The entries that explain the term(s); `comparison` when one entry covers the pair."""

    term: str
    other_term: str | None = None
    language: str
    found: bool
    comparison: bool = Field(default=False, description="True when one entry compares both terms")
    entries: list[ExplainedEntry] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="Terms no entry explains")
    message: str = ""
    suggestions: list[str] = Field(default_factory=list, description="Concepts that do exist")


class _Vocabulary(BaseModel):
    names: dict[str, str]  # folded name → entry id
    pairs: dict[frozenset[str], str]  # {folded a, folded b} → entry id
    labels: list[str]


def fold_term(text: str) -> str:
    """The name index's `fold`, then no question words, articles, spaces, underscores, hyphens
    or dots: 'SM_90a' → 'sm90a'."""
    text = re.sub(
        r"^(?:what is|what's|what are|c'est quoi|qu'est-ce que|qu est ce que)\s+", "", fold(text)
    )
    text = re.sub(r"^(?:the|a|an|le|la|les|l'|un|une)\s+", "", text)
    return re.sub(r"[\s_\-.'’?!:]+", "", text)


@lru_cache(maxsize=1)
def _vocabulary() -> _Vocabulary:
    raw = read_toml_table(CONCEPTS_FILE)
    names: dict[str, str] = {}
    labels: list[str] = []
    for row in raw.get("concept", []):
        entry = row["entry"]
        terms = list(row.get("names", []))
        feature = get_feature(row["feature"]) if row.get("feature") else None
        if feature is not None:
            terms += [feature.key, feature.name, *feature.aliases]
        for term in terms:
            names.setdefault(fold_term(term), entry)
        own = list(row.get("names", [])) or (feature.aliases[:1] if feature else [])
        if own:
            labels.append(own[0])
    pairs = {
        frozenset(fold_term(t) for t in row["terms"]): row["entry"]
        for row in raw.get("difference", [])
    }
    return _Vocabulary(names=names, pairs=pairs, labels=labels)


def _by_question(term: str, language: str) -> KnowledgeEntry | None:
    """The entry whose question and answer share most words with the term (at least half)."""
    wanted = set(tokenize(term))
    if not wanted:
        return None
    best: tuple[float, KnowledgeEntry] | None = None
    for entry in entries_for(language):
        title = set(tokenize(entry.title))
        answer = set(tokenize(entry.answer))
        score = 2 * len(wanted & title) + len(wanted & answer)
        covered = len(wanted & (title | answer)) / len(wanted)
        if covered >= 0.5 and score >= 2 and (best is None or score > best[0]):
            best = (score, entry)
    return best[1] if best else None


def _entry_id(term: str, language: str) -> str | None:
    vocabulary = _vocabulary()
    folded = fold_term(term)
    if folded in vocabulary.names:
        return vocabulary.names[folded]
    feature = get_feature(term)
    if feature is not None:
        folded_key = fold_term(feature.key)
        if folded_key in vocabulary.names:
            return vocabulary.names[folded_key]
    entry = _by_question(term, language)
    return entry.id if entry else None


def _explained(entry: KnowledgeEntry) -> ExplainedEntry:
    return ExplainedEntry(
        id=entry.id,
        question=entry.title,
        answer=entry.answer,
        details=entry.body,
        document=entry.topic_title,
        sources=[Source(title=s.title, url=s.url, date=entry.date) for s in entry.sources],
        date=entry.date,
    )


def explain(query: ExplainQuery) -> ExplainResult:
    """Explain a GPU or CUDA concept from the sourced knowledge base, or compare two concepts.

    Use it for 'what is X' and 'X vs Y' questions: compute capability, sm_90 vs sm_90a, PTX vs
    SASS, TMA, DSMEM, wgmma, tcgen05, TMEM, TF32/BF16/FP8/FP4, tensor cores, shared memory limits,
    MIG, HBM vs GDDR, ECC, occupancy... Returns each entry's direct answer, details and sources, in
    the language asked.
    """
    language = query.language
    terms = [query.term] + ([query.other_term] if query.other_term else [])
    base = {"term": query.term, "other_term": query.other_term, "language": language}
    if query.other_term:
        pair = frozenset(fold_term(t) for t in terms)
        pair_id = _vocabulary().pairs.get(pair)
        if pair_id is None:
            ids = {_entry_id(t, language) for t in terms}
            pair_id = next(
                (
                    p
                    for k, p in _vocabulary().pairs.items()
                    if {_entry_id(t, language) for t in k} == ids and None not in ids
                ),
                None,
            )
        entry = get_entry(pair_id, language) if pair_id else None
        if entry is not None:
            return ExplainResult(**base, found=True, comparison=True, entries=[_explained(entry)])
    found: list[ExplainedEntry] = []
    missing: list[str] = []
    for term in terms:
        entry_id = _entry_id(term, language)
        entry = get_entry(entry_id, language) if entry_id else None
        if entry is None:
            missing.append(term)
        elif entry.id not in {e.id for e in found}:
            found.append(_explained(entry))
    if missing:
        names = ", ".join(repr(t) for t in missing)
        message = (
            f"No knowledge entry explains {names}."
            if language == "en"
            else f"Aucune entrée de la base de connaissances n'explique {names}."
        )
    else:
        message = ""
    return ExplainResult(
        **base,
        found=bool(found),
        entries=found,
        missing=missing,
        message=message,
        suggestions=_vocabulary().labels[:12] if missing else [],
    )
