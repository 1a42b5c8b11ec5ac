"""A short concept question the router reads as off topic is still answered from its entry."""

from __future__ import annotations

import pytest

from assistant import ask

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("question", "expected", "outside"),
    [
        ("what is DSMEM", "shared memory", "outside what"),
        ("qu'est-ce que le DSMEM ?", "mémoire partagée", "sort de mon domaine"),
    ],
)
def test_a_concept_entry_answers_a_terse_question(
    question: str, expected: str, outside: str
) -> None:
    answer = ask(question)
    first = answer.text.split("\n\n")[0]
    assert expected in first.lower()
    assert outside not in answer.text


def test_an_unrelated_question_stays_outside() -> None:
    answer = ask("recommend a hiking trail near Grenoble")
    assert "outside what I can answer" in answer.text
    assert not [c for c in answer.tool_calls if c.name != "search_corpus"]


@pytest.mark.parametrize(
    "text",
    [
        "what userspace do we need so torch.xpu.is_available() returns True on Intel Arc?",
        "should our package default to the open kernel modules of the NVIDIA drivers?",
        "ollama ou llama.cpp pour un modèle GGUF quantifié ?",
    ],
)
def test_the_domain_includes_frameworks_drivers_and_runners(text: str) -> None:
    from assistant.agent.offline.entities import extract_entities
    from assistant.agent.offline.reading import names_the_domain

    assert names_the_domain(text, extract_entities(text))
