"""Citations come from search_corpus results: the real index over the real corpus."""

from __future__ import annotations

import pytest

from assistant.agent.api import ask
from assistant.agent.collect import RunRecorder
from assistant.retrieval import search
from tests.agent.scripted import scripted, tool_call

pytestmark = pytest.mark.slow  # builds and searches the real index

QUERY = "prix de location d'un GPU à l'heure"


def test_search_results_become_citations_with_document_section_and_snippet() -> None:
    model = scripted(tool_call("search_corpus", {"query": QUERY, "k": 3}), "See the guide.")

    answer = ask("How much does renting a GPU cost per hour?", backend=model)

    hits = search(QUERY, k=3)
    assert len(hits) == 3
    call = answer.tool_calls[0]
    assert call.name == "search_corpus" and call.error is None
    assert [p["chunk_id"] for p in call.result["passages"]] == [h.chunk_id for h in hits]
    assert [(c.document, c.section, c.snippet, c.chunk_id) for c in answer.citations] == [
        (h.title, h.section, h.snippet, h.chunk_id) for h in hits
    ]


def test_an_answer_naming_passage_ids_cites_only_those() -> None:
    hits = search(QUERY, k=3)
    chosen = hits[1].chunk_id
    model = scripted(
        tool_call("search_corpus", {"query": QUERY, "k": 3}), f"Per the guide [{chosen}]."
    )

    answer = ask("How much does renting a GPU cost per hour?", backend=model)

    assert [c.chunk_id for c in answer.citations] == [chosen]


def test_repeated_passages_are_cited_once() -> None:
    recorder = RunRecorder({"search_corpus"})
    passage = {
        "chunk_id": "c1",
        "title": "Guide",
        "document": "guide",
        "section": "1",
        "snippet": "s",
        "score": 1.0,
    }
    recorder._add_passages({"passages": [passage, passage]})
    recorder._add_passages({"passages": [passage]})
    assert [c.chunk_id for c in recorder.citations()] == ["c1"]
