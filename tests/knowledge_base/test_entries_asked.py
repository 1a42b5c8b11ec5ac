"""The optional '<!-- asked: ... -->' line: other ways people ask an entry's question."""

from __future__ import annotations

import pytest

from assistant.knowledge.entries import (
    KnowledgeFormatError,
    load_entries,
    parse_knowledge_text,
    without_asked,
)

HEAD = """---
title: "Knowledge · Test"
kind: knowledge
language: en
topic: test
---

"""
ENTRY = """## Can a widget run on a gadget?
<!-- id: widget-gadget · date: 2026-11-30 -->
{asked}
Yes: widgets run on every gadget since version 2.

- a detail

**Sources:** [Vendor, a document](https://example.org/doc) (seen 2026-11)
"""
ASKED = "<!-- asked: does my gadget support widgets | WidgetError: gadget too old -->"


def _parse(asked: str) -> list:
    return [s.entry for s in parse_knowledge_text(HEAD + ENTRY.format(asked=asked), "en/t.md")]


def test_the_asked_line_becomes_phrasings_and_stays_out_of_the_answer() -> None:
    (entry,) = _parse(ASKED)
    assert entry.asked == ["does my gadget support widgets", "WidgetError: gadget too old"]
    assert entry.answer == "Yes: widgets run on every gadget since version 2."
    assert "asked" not in entry.body and "WidgetError" not in entry.body


def test_an_entry_without_the_line_has_no_phrasings() -> None:
    (entry,) = _parse("")
    assert entry.asked == []
    assert entry.answer == "Yes: widgets run on every gadget since version 2."


def test_the_span_still_ends_before_the_sources_line() -> None:
    text = HEAD + ENTRY.format(asked=ASKED)
    (span,) = parse_knowledge_text(text, "en/t.md")
    assert text[span.start : span.end].endswith("- a detail")
    assert "WidgetError" not in without_asked(text[span.start : span.end])
    assert "<!-- id: widget-gadget" in without_asked(text[span.start : span.end])


@pytest.mark.parametrize(
    ("asked", "problem"),
    [
        ("<!-- asked: only one way to ask it -->", "2 to 5"),
        ("<!-- asked: " + " | ".join(f"phrasing number {i}" for i in range(6)) + " -->", "2 to 5"),
        ("<!-- asked: a fine phrasing |  | another phrasing -->", "too short"),
        ("<!-- asked: same question here | Same  question here -->", "twice"),
        ("<!-- asked does my gadget support widgets | another phrasing -->", "right after"),
    ],
)
def test_a_malformed_asked_line_fails(asked: str, problem: str) -> None:
    with pytest.raises(KnowledgeFormatError, match=problem):
        _parse(asked)


def test_an_asked_line_further_down_the_entry_fails() -> None:
    text = HEAD + ENTRY.format(asked="").replace("- a detail", "- a detail\n\n" + ASKED)
    with pytest.raises(KnowledgeFormatError, match="right after the id comment"):
        parse_knowledge_text(text, "en/t.md")


def test_no_packaged_answer_or_body_carries_an_asked_line() -> None:
    for entry in load_entries():
        assert "asked:" not in entry.body
        assert all("|" not in p and "-->" not in p for p in entry.asked)


def test_a_search_snippet_never_quotes_the_phrasings() -> None:
    from assistant.retrieval.hybrid import make_snippet
    from assistant.retrieval.lexical import tokenize

    text = ENTRY.format(asked=ASKED)
    snippet = make_snippet(text, set(tokenize("WidgetError gadget too old")))
    assert "WidgetError" not in snippet and "asked" not in snippet
    assert "gadget" in snippet
