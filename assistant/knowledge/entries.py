"""The knowledge base: short question-and-answer entries in Markdown, one file per topic and language.

Layout (inside the corpus folder): ``knowledge/en/<topic>.md`` and ``knowledge/fr/<topic>.md``.
Each file starts with a front matter block (title, kind: knowledge, language, topic); each entry is
a ``## `` heading (the question), an ``<!-- id: ... · date: YYYY-MM-DD -->`` comment, optionally
an ``<!-- asked: phrasing | phrasing -->`` line right after it (2 to 5 other ways people ask the
question, in the file's language, an error message they paste included; matched, never shown), the
direct answer (first paragraph), optional details, and a ``**Sources:**`` line of Markdown links.
Every id exists once per language, in both languages.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from assistant.knowledge.front_matter import parse_front_matter

LANGUAGES: tuple[str, ...] = ("en", "fr")
Language = Literal["en", "fr"]

_ID = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_ENTRY_HEADING = re.compile(r"^## +(.+?)[ \t#]*$", re.MULTILINE)
_META = re.compile(r"<!--\s*id:\s*(?P<id>\S+)\s*·\s*date:\s*(?P<date>\S+)\s*-->")
_ASKED = re.compile(r"\A[ \t]*\n[ \t]*<!--\s*asked:(?P<asked>[^\n]*?)-->[ \t]*(?=\n|\Z)")
_ASKED_ANYWHERE = re.compile(r"<!--\s*asked\b", re.I)
_ASKED_LINE = re.compile(r"^[ \t]*<!--\s*asked:[^\n]*?-->[ \t]*\n?", re.MULTILINE)
ASKED_MIN, ASKED_MAX = 2, 5
_SOURCES_LINE = re.compile(r"^\*\*Sources?\s*:\*\*\s*(.*)$", re.MULTILINE)
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def without_asked(text: str) -> str:
    """An entry's text without its '<!-- asked: ... -->' line (the phrasings are never shown)."""
    return _ASKED_LINE.sub("", text)


class KnowledgeFormatError(ValueError):
    """A knowledge file breaks the format; the message names the file and the entry."""


class EntrySource(BaseModel):
    """One primary document behind an entry."""

    title: str = Field(min_length=3)
    url: str = Field(pattern=r"^https?://\S+$")


class KnowledgeEntry(BaseModel):
    """One question with its direct answer, details and sources, in one language."""

    id: str = Field(pattern=rf"^{_ID}$", description="Stable id, the same in every language")
    language: Language
    topic: str = Field(pattern=rf"^{_ID}$", description="Topic file name, e.g. 'software'")
    topic_title: str = Field(description="Title of the topic file, e.g. 'Knowledge · ...'")
    title: str = Field(min_length=5, description="The question, as a user would ask it")
    answer: str = Field(min_length=10, description="The direct answer: the first paragraph")
    body: str = Field(description="Answer and details, Markdown, without the sources line")
    sources: list[EntrySource] = Field(min_length=1)
    date: dt.date = Field(description="When the facts were last checked")
    asked: list[str] = Field(
        default_factory=list,
        description="Other ways people ask the question (matched against, never shown)",
    )

    @field_validator("asked")
    @classmethod
    def _asked_phrasings(cls, asked: list[str]) -> list[str]:
        if not asked:
            return asked
        if not ASKED_MIN <= len(asked) <= ASKED_MAX:
            raise ValueError(f"needs {ASKED_MIN} to {ASKED_MAX} phrasings, found {len(asked)}")
        for phrasing in asked:
            if len(phrasing) < 5:
                raise ValueError(f"phrasing {phrasing!r} is empty or too short")
        folded = [" ".join(p.lower().split()) for p in asked]
        if len(set(folded)) != len(folded):
            raise ValueError("a phrasing appears twice")
        return asked

    @property
    def url(self) -> str:
        """The first source's address (what a citation shows)."""
        return self.sources[0].url


@dataclass(frozen=True)
class EntrySpan:
    """Where an entry sits in its file: from its heading to just before its sources line."""

    entry: KnowledgeEntry
    start: int
    end: int


def _parse_entry(section: str, offset: int, meta: dict[str, str], where: str) -> EntrySpan:
    heading = _ENTRY_HEADING.match(section)
    assert heading is not None
    question = heading.group(1).strip()
    label = f"{where}: entry {question!r}"
    found = _META.search(section)
    if not found:
        raise KnowledgeFormatError(f"{label} has no '<!-- id: ... · date: ... -->' comment")
    after = section[found.end() :]
    asked: list[str] = []
    asked_line = _ASKED.match(after)
    if asked_line:
        asked = [" ".join(p.split()) for p in asked_line.group("asked").split("|")]
        after = after[asked_line.end() :]
    if _ASKED_ANYWHERE.search(after):
        raise KnowledgeFormatError(
            f"{label}: an '<!-- asked: ... -->' line must come right after the id comment, "
            "on one line of its own"
        )
    sources_at = _SOURCES_LINE.search(after)
    if not sources_at:
        raise KnowledgeFormatError(f"{label} has no '**Sources:**' line")
    links = _LINK.findall(sources_at.group(1))
    if not links:
        raise KnowledgeFormatError(f"{label}: its sources line has no [title](https://...) link")
    body = after[: sources_at.start()].strip()
    answer = body.split("\n\n", 1)[0].strip()
    try:
        entry = KnowledgeEntry(
            id=found.group("id"),
            language=meta.get("language", ""),  # type: ignore[arg-type]
            topic=meta.get("topic", ""),
            topic_title=meta.get("title", ""),
            title=question,
            answer=answer,
            body=body,
            sources=[EntrySource(title=t.strip(), url=u) for t, u in links],
            date=found.group("date"),  # type: ignore[arg-type]
            asked=asked,
        )
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise KnowledgeFormatError(f"{label}: {problems}") from exc
    end = offset + len(section) - len(after) + sources_at.start()
    while end > offset and section[end - offset - 1] in "\n ":
        end -= 1
    return EntrySpan(entry, offset, end)


def parse_knowledge_text(text: str, where: str = "<text>") -> list[EntrySpan]:
    """The entries of one knowledge file's text, with their character spans in `text`."""
    text = text.replace("\r\n", "\n")
    meta, body_start = parse_front_matter(text)
    if meta.get("kind") != "knowledge":
        raise KnowledgeFormatError(f"{where}: front matter must say 'kind: knowledge'")
    if meta.get("language") not in LANGUAGES:
        raise KnowledgeFormatError(f"{where}: front matter language must be one of {LANGUAGES}")
    if not meta.get("topic") or not meta.get("title"):
        raise KnowledgeFormatError(f"{where}: front matter needs a title and a topic")
    starts = [m.start() for m in _ENTRY_HEADING.finditer(text, body_start)]
    spans = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        spans.append(_parse_entry(text[start:end], start, meta, where))
    return spans


def knowledge_files(root: Path) -> list[Path]:
    """The topic files under `root` (a `knowledge/` folder), language by language, sorted."""
    return [
        path
        for language in LANGUAGES
        if (root / language).is_dir()
        for path in sorted((root / language).glob("*.md"))
        if not path.name.startswith((".", "_"))
    ]


def load_entries_from(root: Path) -> list[KnowledgeEntry]:
    """Every entry under `root`, checked across files (see `check_entries`)."""
    entries: list[KnowledgeEntry] = []
    for path in knowledge_files(root):
        where = f"{path.parent.name}/{path.name}"
        spans = parse_knowledge_text(path.read_text(encoding="utf-8"), where)
        for span in spans:
            if span.entry.language != path.parent.name or span.entry.topic != path.stem:
                raise KnowledgeFormatError(
                    f"{where}: front matter says {span.entry.language}/{span.entry.topic}"
                )
        entries += [span.entry for span in spans]
    problems = check_entries(entries)
    if problems:
        raise KnowledgeFormatError("; ".join(problems))
    return entries


def check_entries(entries: list[KnowledgeEntry]) -> list[str]:
    """Cross-entry problems: an id twice in one language, or an id missing from a language."""
    problems: list[str] = []
    ids: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    topics: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
    for entry in entries:
        if entry.id in ids[entry.language]:
            problems.append(f"id {entry.id!r} appears twice in {entry.language}")
        ids[entry.language].add(entry.id)
        topics[entry.language][entry.id] = entry.topic
    every = set().union(*ids.values())
    for entry_id in sorted(every):
        missing = [lang for lang in LANGUAGES if entry_id not in ids[lang]]
        if missing:
            problems.append(f"id {entry_id!r} has no {'/'.join(missing)} entry")
        elif len({topics[lang][entry_id] for lang in LANGUAGES}) > 1:
            problems.append(f"id {entry_id!r} sits in different topics across languages")
    return problems


def packaged_root() -> Path:
    """The packaged knowledge folder (inside the corpus shipped with the package)."""
    return Path(str(resources.files("assistant").joinpath("corpus_data", "knowledge")))


@cache
def load_entries() -> tuple[KnowledgeEntry, ...]:
    """Every packaged entry, both languages."""
    return tuple(load_entries_from(packaged_root()))


def entries_for(language: str) -> list[KnowledgeEntry]:
    """The packaged entries of one language ('en' or 'fr'; anything else reads as English)."""
    language = language if language in LANGUAGES else "en"
    return [e for e in load_entries() if e.language == language]


def get_entry(entry_id: str, language: str = "en") -> KnowledgeEntry | None:
    """The entry with this id in this language, if any."""
    language = language if language in LANGUAGES else "en"
    return _entries_by_id().get((entry_id, language))


@cache
def _entries_by_id() -> dict[tuple[str, str], KnowledgeEntry]:
    return {(e.id, e.language): e for e in load_entries()}
