"""Topics: what doing X needs (hard requirements, what makes it efficient, notes), and finding the
topics and features named in a free English or French sentence.

Explicit topics live in ``data/topics.toml``; every feature of ``features.toml`` is a topic too,
whose one hard requirement is that feature.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from assistant.knowledge.features import keyed_sources, load_features, rows_with_sources
from assistant.knowledge.loader import read_toml_table
from assistant.knowledge.names import fold, fold_keep_length, nearest
from assistant.knowledge.sources import Source

TOPICS_FILE = "topics.toml"

Vendor = Literal["nvidia", "amd", "apple", "intel"]


def _nvidia_only() -> list[Vendor]:
    return ["nvidia"]


class Topic(BaseModel):
    """Something a person wants to do on a GPU, and what it takes."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    kind: Literal["topic", "feature"] = "topic"
    part: int | None = Field(default=None, ge=1, le=9, description="Part of the guide it covers")
    aliases: list[str] = Field(default_factory=list)
    description: str
    needs_gpu: bool = True
    generic: bool = Field(default=False, description="Named only when nothing more specific is")
    vendors: list[Vendor] = Field(default_factory=_nvidia_only)
    hard_features: list[str] = Field(default_factory=list, description="'a|b' = either")
    min_cc: str | None = Field(default=None, pattern=r"^\d+\.\d$")
    min_vram_gb: float | None = Field(default=None, gt=0)
    efficient_features: list[str] = Field(default_factory=list)
    efficient_min_cc: str | None = Field(default=None, pattern=r"^\d+\.\d$")
    efficient_min_smem_per_sm_kb: float | None = Field(default=None, gt=0)
    efficient_min_vram_gb: float | None = Field(default=None, gt=0)
    baseline: str | None = Field(default=None, description="What works on any supported card")
    notes: list[str] = Field(default_factory=list)
    vendor_notes: dict[Vendor, list[str]] = Field(
        default_factory=dict, description="Notes for one vendor's cards only (Triton on Intel)"
    )
    cheapest_alternative: str | None = None
    other_vendor_verdict: Literal["no", "partial"] = "no"
    other_vendor_note: str | None = None
    unlisted_verdict: Literal["partial", "no"] | None = Field(
        default=None,
        description="The verdict for a card of the topic's own vendor that the vendor's support "
        "tables leave out (an unlisted Radeon for ROCm), instead of 'yes'",
    )
    sources: list[Source] = Field(min_length=1)

    def feature_keys(self) -> list[str]:
        """Every feature named in the requirements, in order."""
        keys: list[str] = []
        for group in [*self.hard_features, *self.efficient_features]:
            keys.extend(k for k in group.split("|") if k not in keys)
        return keys


class TopicMention(BaseModel):
    """A topic or feature named in a sentence."""

    key: str
    kind: Literal["topic", "feature"]
    name: str
    text: str = Field(description="The words that named it")
    start: int


class TopicSummary(BaseModel):
    """One line of the topic list."""

    key: str
    name: str
    kind: Literal["topic", "feature"]
    part: int | None = None
    aliases: list[str] = Field(default_factory=list)


@lru_cache(maxsize=1)
def load_topics() -> list[Topic]:
    """Explicit topics, then one topic per feature (validated and cached)."""
    raw = read_toml_table(TOPICS_FILE)
    matrix = load_features()
    sources = {**matrix.sources, **keyed_sources(raw.get("source", []), TOPICS_FILE)}
    topics = rows_with_sources(raw, "topic", Topic, sources, TOPICS_FILE)
    for feat in matrix.features:
        topics.append(
            Topic(
                key=feat.key,
                name=feat.name,
                kind="feature",
                aliases=feat.aliases,
                description=feat.description,
                hard_features=[feat.key],
                cheapest_alternative=feat.cheapest_alternative,
                sources=feat.sources,
            )
        )
    return topics


def list_topic_summaries() -> list[TopicSummary]:
    """Every topic (features included) as a short summary: key, name, kind, part and aliases."""
    return [
        TopicSummary(key=t.key, name=t.name, kind=t.kind, part=t.part, aliases=t.aliases)
        for t in load_topics()
    ]


@lru_cache(maxsize=1)
def generic_topic_keys() -> frozenset[str]:
    """Topics named only when nothing more specific is ("CUDA programming"): a verdict on them
    tells no card or feature apart."""
    return frozenset(t.key for t in load_topics() if t.generic)


def get_topic(name: str) -> Topic | None:
    """A topic by exact key, name or alias (after folding)."""
    wanted = fold(name).replace("_", " ")
    for topic in load_topics():
        names = [topic.key.replace("_", " "), topic.name, *topic.aliases]
        if wanted in {fold(n) for n in names}:
            return topic
    return None


def topic_for_part(part: int) -> Topic | None:
    """The topic that covers part `part` of the guide, or None."""
    return next((t for t in load_topics() if t.part == part), None)


# A name starts after a non-word character or after an identifier's underscore: "allow_tf32",
# "use_fp16", "enable_fp8" name TF32, FP16, FP8; a dot or a letter before it does not.
_ALIAS_START = r"(?<![^\W_]|\.)"


@lru_cache(maxsize=1)
def _alias_patterns() -> list[tuple[re.Pattern[str], Topic]]:
    pairs = []
    for topic in load_topics():
        for alias in {fold(a) for a in [topic.key.replace("_", " "), *topic.aliases]}:
            if len(alias) >= 2:
                pattern = re.compile(_ALIAS_START + re.escape(alias) + r"(?![\w])")
                pairs.append((pattern, topic))
    return pairs


_PARTS = re.compile(
    r"\b(?:part|partie|parts|parties)\s+(\d(?:\s*(?:,|et|and|&|ou|or|a|to|-)\s*\d)*)\b"
)


def _part_numbers(spec: str) -> list[int]:
    numbers: list[int] = []
    for m in re.finditer(r"(\d)(?:\s*(?:a|to|-)\s*(\d))?", spec):
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        numbers.extend(n for n in range(low, high + 1) if n not in numbers)
    return numbers


def find_topic_mentions(text: str) -> list[TopicMention]:
    """Topics and features named in a free EN/FR sentence, in order, without repeats.
    Longer names win over shorter ones they contain ("tcgen05 kernels" over "tcgen05");
    "parties 4 et 8" names parts 4 and 8. Folding keeps character offsets."""
    folded = fold_keep_length(text)
    hits: list[tuple[int, int, Topic]] = []
    for pattern, topic in _alias_patterns():
        hits.extend((m.start(), m.end(), topic) for m in pattern.finditer(folded))
    for m in _PARTS.finditer(folded):
        for n in _part_numbers(m.group(1)):
            part_topic = topic_for_part(n)
            if part_topic is not None:
                hits.append((m.start(), m.end(), part_topic))
    specific = [h for h in hits if not h[2].generic]
    if specific:
        hits = specific
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    taken: list[tuple[int, int]] = []
    seen: set[str] = set()
    out: list[TopicMention] = []
    for start, end, topic in hits:
        overlaps = any(start < e and s < end and (s, e) != (start, end) for s, e in taken)
        if overlaps or topic.key in seen:
            continue
        taken.append((start, end))
        seen.add(topic.key)
        out.append(
            TopicMention(
                key=topic.key, kind=topic.kind, name=topic.name, text=text[start:end], start=start
            )
        )
    return out


def match_topic(text: str) -> Topic | None:
    """The topic a short text names: exact key/alias first, else the first mention in it."""
    exact = get_topic(text)
    if exact is not None:
        return exact
    mentions = find_topic_mentions(text)
    if not mentions:
        return None
    return get_topic(mentions[0].key)


def suggest_topics(text: str, limit: int = 5) -> list[str]:
    """Near topic keys for an unknown topic name (edit distance on the folded names), else the
    first explicit topics."""
    names = (
        (fold(name), topic.key)
        for topic in load_topics()
        for name in [topic.key.replace("_", " "), topic.name, *topic.aliases]
    )
    ranked = nearest(fold(text), names, limit=limit, max_ratio=0.4)
    return ranked or [t.key for t in load_topics() if t.kind == "topic"][:limit]
