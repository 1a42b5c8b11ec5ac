"""Knowledge-led answers: a question that is a knowledge entry's question gets that entry's answer first.

Which entry, if any, is a fitted choice (`lead_model`): a few candidate entries, near the
question by meaning, by keywords or in the search's results, each scored by a logistic regression
fitted on labelled questions. The answer then opens with that entry's direct answer in the
question's language, cited as a knowledge-base entry with its source link. Tool results that don't
bear on the question are left out: a spec sheet when no specification was asked, a card list when
no purchase was asked, a capability verdict on a generic topic ("every NVIDIA card runs CUDA"), a
calculator's figures when the question gave none.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.agent.offline import lead_model
from assistant.agent.offline.concepts import concepts_in, reports_failure
from assistant.agent.offline.lead_match import (
    about_something_else,
    about_unasked_feature,
    entry_vectors,
    how_to_for_a_failure,
    other_model_kind,
    other_task,
    reports_slow_run,
    same_maker_entries,
    slow_run_entries,
    title_coverage,
    title_scores,
)
from assistant.agent.offline.lead_model import Context
from assistant.agent.offline.premises import premise_entries
from assistant.agent.offline.texts import pick
from assistant.knowledge.names import fold
from assistant.knowledge.topics import generic_topic_keys
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
    tool_first: frozenset[str]
    spec_tools: frozenset[str]
    recommend_tools: frozenset[str]
    machine_tools: frozenset[str]
    generic_topics: frozenset[str]
    asks_specs: re.Pattern[str]
    asks_recommendation: re.Pattern[str]
    detail_min_rarity: float


@dataclass(frozen=True)
class Lead:
    """The knowledge entry a question asks, in the question's language, and the fitted model's
    probability that it is."""

    entry: KnowledgeEntry
    score: float


@lru_cache(maxsize=1)
def settings() -> LeadSettings:
    """The thresholds and lists of knowledge_lead.toml."""
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(SETTINGS_FILE).read_text("utf-8")
    )
    return LeadSettings(
        tool_first=frozenset(data["tool_first"]),
        spec_tools=frozenset(data["spec_tools"]),
        recommend_tools=frozenset(data["recommend_tools"]),
        machine_tools=frozenset(data["machine_tools"]),
        generic_topics=generic_topic_keys(),
        asks_specs=re.compile(data["asks_specs"]),
        asks_recommendation=re.compile(data["asks_recommendation"]),
        detail_min_rarity=float(data["detail_min_rarity"]),
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


def _options(
    reading: Reading,
    retrieved: list[str | None],
    context: Context | None,
    include: tuple[str, ...] = (),
) -> lead_model.Options | None:
    """The lead model's candidate entries for this question, or None when no entry may lead.
    `include`: entries that are candidates however far they rank (unless about other cards)."""
    conf = settings()
    if reading.entities.unknown_gpus and not reading.entities.gpus:
        return None  # a card missing from the catalog: saying so comes first
    every = title_scores(reading.text)
    ranked = [
        e
        for e in every
        if not about_something_else(reading, e[0], conf.generic_topics)
        # a training entry for an image that will not fit
        and not other_task(reading.task_text, e[0])
    ]
    if not ranked:
        return None
    median = every[len(every) // 2][1]
    return lead_model.candidates(
        ranked,
        median,
        lead_model.keyword_scores(reading.text),
        retrieved,
        context or Context(),
        title_coverage(reading.text),
        frozenset(
            e
            for e, _ in ranked
            if other_model_kind(reading.text, e) or other_task(reading.task_text, e)
        ),
        include,
        lead_model.identifier_matches(reading.text),
        same_maker_entries(reading, [e for e, _ in ranked]),
    )


def _in_language(chosen: tuple[str, float] | None, lang: Lang) -> Lead | None:
    """The chosen entry in the question's language (else the other), with its probability."""
    from assistant.knowledge.entries import get_entry

    if chosen is None:
        return None
    entry_id, probability = chosen
    entry = get_entry(entry_id, lang) or get_entry(entry_id, "en" if lang == "fr" else "fr")
    return Lead(entry, probability) if entry is not None else None


def find_lead(
    reading: Reading, retrieved: list[str | None], context: Context | None = None
) -> Lead | None:
    """The entry whose question this is, in the question's language (else the other), or None.

    Entries whose titles name other cards or features than the question's are left out first;
    the fitted model then chooses among the candidates (`lead_model`). `retrieved`: what the
    corpus search found for the question, best first (an entry id per passage, None for a passage
    of the guide); `context`: what the question brings besides its words. A pasted error message
    comes before all that: the entry that explains it leads (`error_messages`); so does the entry
    that answers a premise stated in figures (`premises`: memory added up across cards), and, for
    a run slower than the asker expected that no calculator answers, the likeliest entry that
    explains slow runs."""
    message = reading.pasted_error
    if message is not None:
        return _explaining(reading, retrieved, context, message.entries)
    premise = premise_entries(reading.text, reading.entities)
    if premise:
        return _explaining(reading, retrieved, context, premise)
    if reports_slow_run(reading) and not (context is not None and context.computed):
        # a calculator's figures set against the asker's own ("3 t/s is 10× below what to
        # expect") answer first; otherwise the likeliest explanation of a slow run
        return _slow_run_lead(reading, retrieved, context)
    options = _options(reading, retrieved, context)
    return None if options is None else _in_language(lead_model.choose(options), reading.language)


def _slow_run_lead(
    reading: Reading, retrieved: list[str | None], context: Context | None
) -> Lead | None:
    """The likeliest entry that explains a slow run, unless, among the same candidates, the model
    finds another entry likelier than it and than no entry at all: a TensorFlow install on Windows
    that leaves the GPU unused is that install's question, not a data-loading bottleneck."""
    slow = slow_run_entries()
    found = _ranked(_options(reading, retrieved, context, include=slow))
    if found is None:
        return _in_language((slow[0], 1.0), reading.language)
    ranked, no_entry = found
    explaining = next(((p, e) for p, e in ranked if e in slow), None)
    other = next(((p, e) for p, e in ranked if e not in slow), None)
    if (
        other is not None
        and other[0] > no_entry
        and (explaining is None or other[0] > explaining[0])
    ):
        return _in_language((other[1], other[0]), reading.language)
    probability, entry_id = explaining or (1.0, slow[0])
    return _in_language((entry_id, probability), reading.language)


def _explaining(
    reading: Reading,
    retrieved: list[str | None],
    context: Context | None,
    entries: tuple[str, ...],
) -> Lead | None:
    """The entry that explains a pasted error message: the only one, or the one the lead model
    finds likeliest among those that explain it (the same message on a Mac or a CPU-only install)."""
    chosen: tuple[str, float] = (entries[0], 1.0)
    if len(entries) > 1:
        found = _ranked(_options(reading, retrieved, context, include=entries))
        among = [(p, e) for p, e in found[0] if e in entries] if found else []
        if among:
            probability, entry_id = among[0]
            chosen = (entry_id, probability)
    return _in_language(chosen, reading.language)


def _ranked(options: lead_model.Options | None) -> tuple[list[tuple[float, str]], float] | None:
    """The candidates as (probability, entry id), likeliest first, and the probability of no
    entry; None without candidates or without the model."""
    model = lead_model.load_model()
    if options is None or model is None or not options.candidates:
        return None
    probs = model.probabilities(options)
    ranked = sorted(
        ((float(p), c.entry_id) for c, p in zip(options.candidates, probs, strict=False)),
        reverse=True,
    )
    return ranked, float(probs[-1])


def entry_probabilities(
    reading: Reading, retrieved: list[str | None], context: Context | None = None
) -> dict[str, float]:
    """The lead model's probability for each candidate entry of this question (empty when no
    entry may lead or there is no model): how likely each is what the question asks."""
    options = _options(reading, retrieved, context)
    model = lead_model.load_model()
    if options is None or model is None or not options.candidates:
        return {}
    probs = model.probabilities(options)
    return {c.entry_id: float(p) for c, p in zip(options.candidates, probs, strict=False)}


def nearest_entry(
    reading: Reading, retrieved: list[str | None], context: Context | None = None
) -> Lead | None:
    """The entry the lead model finds likeliest for this question though it is not sure enough to
    lead with it (the candidates as `find_lead` sees them, less those about a feature the
    question never names: offered as the nearest question, an entry on FP8 for 'is the RTX A4500
    supported?' answers another question), or None."""
    options = _options(reading, retrieved, context)
    if options is None:
        return None
    kept = tuple(
        c
        for c in options.candidates
        if not about_unasked_feature(reading, c.entry_id)
        and not how_to_for_a_failure(reading, c.entry_id)
    )
    if not kept:
        return None
    nearest = lead_model.nearest(lead_model.Options(kept, options.question))
    return _in_language(nearest, reading.language)


def context_of(reading: Reading, results: list[ToolResult], weak: set[str]) -> Context:
    """What the question brings to the lead besides its words: a calculator's figures, a model or
    a guide part, a card with a feature, a tool called on what was asked (not in `weak`)."""
    ent = reading.entities
    names = {r.name for r in results if r.error is None} - {"search_corpus"}
    return Context(
        computed=computed(results, reading.text),
        model_or_part=bool(ent.models or ent.model_size_b or ent.parts or ent.up_to_part),
        card_feature=bool(ent.gpus and set(ent.topics) - settings().generic_topics),
        strong_tool=bool(names - weak),
        specs=bool(names & settings().spec_tools)
        and bool(settings().asks_specs.search(reading.text)),
        symptom=reports_failure(reading.text),
        explain="question_what" in concepts_in(reading.text),
    )


def is_generic_capability(result: ToolResult, generic: frozenset[str]) -> bool:
    """A verdict on a topic every NVIDIA card has ("CUDA programming"): it tells nothing, unless
    it is a "no" (CUDA on an Intel UHD)."""
    payload = result.result if isinstance(result.result, dict) else {}
    topic = str(payload.get("topic") or result.args.get("topic") or "")
    return topic in generic and payload.get("verdict") != "no"


def bearing_results(
    results: list[ToolResult],
    text: str,
    figures: bool = True,
    choosing: bool = False,
    sized: bool = False,
) -> list[ToolResult]:
    """The tool results a knowledge-led answer keeps after the entry's answer: a calculator's
    only when the question gave it `figures` (a rate, a budget, hours...), a speed estimate also
    when it names the model and the card to estimate (`sized`); the cards' comparison when the
    question asks to pick one of them (`choosing`: 'laquelle prendre ?')."""
    conf = settings()
    specs = bool(conf.asks_specs.search(text))
    buying = bool(conf.asks_recommendation.search(text))
    kept = []
    for result in results:
        picked = choosing and result.name == "gpu_compare"
        if result.name in conf.spec_tools and not specs and not picked:
            continue
        if result.name in conf.recommend_tools and not buying:
            continue
        if result.name in conf.machine_tools:
            continue
        own = sized and result.name == "llm_speed"  # the asker's model on the asker's card
        if (
            result.name in conf.tool_first
            and result.name not in conf.spec_tools
            and not (figures or own)
        ):
            continue
        if result.name == "gpu_capability" and is_generic_capability(result, conf.generic_topics):
            continue
        kept.append(result)
    return kept


def passage_entry_id(passage: dict[str, Any]) -> str | None:
    """The id of the knowledge entry a retrieved passage comes from, or None for other passages."""
    parts = str(passage.get("chunk_id") or "").split(":")
    return parts[1] if len(parts) >= 2 and parts[0].startswith("knowledge-") else None


MAX_DETAILS = 2
_BULLET = re.compile(r"^- (.+)$", re.M)
_WORD = re.compile(r"[a-z0-9_.]{4,}")


@lru_cache(maxsize=4)
def _rarity(language: str) -> dict[str, float]:
    """How rare each word is across the knowledge base's entries in one language: log(N / df)."""
    import math

    from assistant.knowledge.entries import entries_for

    entries = entries_for(language)
    seen: dict[str, int] = {}
    for entry in entries:
        for word in set(_WORD.findall(fold(entry.body))):
            seen[word] = seen.get(word, 0) + 1
    return {w: math.log(len(entries) / n) for w, n in seen.items()}


def asked_details(entry: KnowledgeEntry, terms: set[str]) -> list[str]:
    """The entry's detail bullets that hold words of the question its direct answer lacks
    ('does -pl stick after a reboot?' under the power-limit answer): words rare enough across
    the knowledge base to say what the bullet is about (`detail_min_rarity`), rarest first."""
    rarity = _rarity(entry.language)
    floor = settings().detail_min_rarity
    answer = fold(entry.answer + " " + entry.title)
    missing = {t for t in terms if t not in answer}
    scored = []
    for n, bullet in enumerate(_BULLET.findall(entry.body)):
        words = set(_WORD.findall(fold(bullet)))
        weight = sum(rarity.get(t, 0.0) for t in missing if t in words)
        if weight >= floor:
            scored.append((-weight, n, bullet.strip()))
    return [b for _, _, b in sorted(scored)[:MAX_DETAILS]]


def lead_paragraph(
    lead: Lead, passages: list[dict[str, Any]], lang: Lang, details: list[str] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """The answer's first paragraph (with the entry's `details` the question asks about) and the
    retrieved passages it cites (the entry, if found)."""
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
    text = f"{strip_comments(entry.answer)}{cite}"
    if details:
        text += "\n\n" + "\n".join(f"- {strip_comments(d)}" for d in details)
    text += f"\n\n{note}"
    used = [passages[number - 1]] if number else []
    return text, used
