"""The knowledge base's format: every entry has a question, an answer, a source and a date, and
every id exists once in each language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from assistant.knowledge.entries import (
    LANGUAGES,
    KnowledgeFormatError,
    entries_for,
    get_entry,
    load_entries,
    load_entries_from,
    parse_knowledge_text,
)

ROOT = Path(__file__).resolve().parents[2] / "corpus" / "knowledge"

HEAD = """---
title: "Knowledge · Test"
kind: knowledge
language: {lang}
topic: test
---

"""
GOOD = """## What is a thing?
<!-- id: {id} · date: 2026-11-30 -->

A thing is a thing, answered in one sentence.

- a detail

**Sources:** [Vendor, a document](https://example.org/doc) (seen 2026-11)
"""


def _write(root: Path, lang: str, text: str, name: str = "test.md") -> None:
    (root / lang).mkdir(parents=True, exist_ok=True)
    (root / lang / name).write_text(HEAD.format(lang=lang) + text, encoding="utf-8")


def test_the_packaged_corpus_parses_and_matches_the_repository() -> None:
    packaged = load_entries()
    assert len(packaged) == len(load_entries_from(ROOT)) >= 2
    for lang in LANGUAGES:
        assert entries_for(lang), f"no {lang} entries"


def test_every_entry_has_an_answer_sources_and_a_date() -> None:
    for entry in load_entries():
        assert entry.sources and all(s.url.startswith("https://") for s in entry.sources)
        assert dt.date(2025, 1, 1) <= entry.date <= dt.date(2027, 1, 1), entry.id
        assert entry.body.startswith(entry.answer)
        assert "**Sources" not in entry.body
        assert entry.topic_title.startswith(
            "Knowledge · " if entry.language == "en" else "Base de connaissances · "
        )


def test_each_id_exists_in_both_languages_with_different_text() -> None:
    by_lang = {lang: {e.id: e for e in entries_for(lang)} for lang in LANGUAGES}
    assert set(by_lang["en"]) == set(by_lang["fr"])
    for entry_id, en in by_lang["en"].items():
        fr = by_lang["fr"][entry_id]
        assert fr.topic == en.topic
        assert fr.answer != en.answer, f"{entry_id}: the French answer is the English one"


def test_topic_files_are_the_same_in_both_languages() -> None:
    names = {lang: sorted(p.name for p in (ROOT / lang).glob("*.md")) for lang in LANGUAGES}
    assert names["en"] == names["fr"]


def test_get_entry_finds_by_id_and_language() -> None:
    some = load_entries()[0]
    assert get_entry(some.id, some.language) == some
    assert get_entry("no-such-entry", "en") is None


def test_a_well_formed_pair_loads(tmp_path: Path) -> None:
    _write(tmp_path, "en", GOOD.format(id="thing"))
    _write(tmp_path, "fr", GOOD.format(id="thing"))
    entries = load_entries_from(tmp_path)
    assert [(e.id, e.language) for e in entries] == [("thing", "en"), ("thing", "fr")]
    assert entries[0].answer == "A thing is a thing, answered in one sentence."
    assert entries[0].sources[0].url == "https://example.org/doc"
    assert entries[0].date == dt.date(2026, 11, 30)


def test_an_entry_without_a_source_fails(tmp_path: Path) -> None:
    text = GOOD.format(id="thing").replace(
        "**Sources:** [Vendor, a document](https://example.org/doc) (seen 2026-11)\n", ""
    )
    with pytest.raises(KnowledgeFormatError, match="Sources"):
        parse_knowledge_text(HEAD.format(lang="en") + text, "en/test.md")


def test_a_sources_line_without_a_link_fails() -> None:
    text = GOOD.format(id="thing").replace(
        "[Vendor, a document](https://example.org/doc)", "Vendor, a document"
    )
    with pytest.raises(KnowledgeFormatError, match="link"):
        parse_knowledge_text(HEAD.format(lang="en") + text, "en/test.md")


def test_an_entry_without_a_date_fails() -> None:
    text = GOOD.format(id="thing").replace(" · date: 2026-11-30", "")
    with pytest.raises(KnowledgeFormatError, match="date"):
        parse_knowledge_text(HEAD.format(lang="en") + text, "en/test.md")


def test_an_impossible_date_fails() -> None:
    text = GOOD.format(id="thing").replace("2026-11-30", "2026-13-45")
    with pytest.raises(KnowledgeFormatError, match="date"):
        parse_knowledge_text(HEAD.format(lang="en") + text, "en/test.md")


def test_a_duplicate_id_fails(tmp_path: Path) -> None:
    _write(tmp_path, "en", GOOD.format(id="thing") + "\n" + GOOD.format(id="thing"))
    _write(tmp_path, "fr", GOOD.format(id="thing"))
    with pytest.raises(KnowledgeFormatError, match="twice"):
        load_entries_from(tmp_path)


def test_an_id_in_one_language_only_fails(tmp_path: Path) -> None:
    _write(tmp_path, "en", GOOD.format(id="thing") + "\n" + GOOD.format(id="other-thing"))
    _write(tmp_path, "fr", GOOD.format(id="thing"))
    with pytest.raises(KnowledgeFormatError, match="'other-thing' has no fr entry"):
        load_entries_from(tmp_path)


def test_a_file_whose_front_matter_names_another_language_fails(tmp_path: Path) -> None:
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "test.md").write_text(HEAD.format(lang="en") + GOOD.format(id="thing"))
    with pytest.raises(KnowledgeFormatError, match="front matter says en/test"):
        load_entries_from(tmp_path)


def test_a_bad_id_fails() -> None:
    with pytest.raises(KnowledgeFormatError, match="id"):
        parse_knowledge_text(HEAD.format(lang="en") + GOOD.format(id="Not_Kebab"), "en/test.md")
