"""A message of several questions that the tools answer in part: each remaining question that a
knowledge entry answers gets that entry, after the tools' sections and under its own words."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.sentences import asked_sentences


def test_each_question_is_its_own_sentence() -> None:
    text = (
        "We build for several GPUs. Which wheel do I need for a 5090? Thanks. "
        "Is sm_90a fine for Hopper? and the rest"
    )
    assert asked_sentences(text) == [
        "Which wheel do I need for a 5090?",
        "Is sm_90a fine for Hopper?",
    ]


def test_a_very_short_question_keeps_the_sentence_before_it() -> None:
    assert asked_sentences("I have two 3090s. Why? Is NVLink needed for FSDP?") == [
        "I have two 3090s. Why?",
        "Is NVLink needed for FSDP?",
    ]


def test_a_message_with_one_question_has_one_sentence() -> None:
    assert len(asked_sentences("Which PyTorch wheel runs on an RTX 5090 with CUDA 12.8?")) == 1


def test_the_question_no_tool_answers_gets_its_entry_after_the_tool() -> None:
    answer = ask(
        "Which PyTorch wheel should I install for an RTX 5090? "
        "Is sm_90a fine as the generic Hopper target for our builds?"
    )
    text = answer.text
    wheel = text.find("cu128")
    clause = text.find("> *Is sm_90a fine as the generic Hopper target for our builds?*")
    assert 0 <= wheel < clause, text[:600]
    assert "What is the difference between sm_90 and sm_90a?" in text[clause:]
    assert "wgmma" in text[clause:]


def test_a_question_for_a_tool_gets_no_entry_of_its_own() -> None:
    answer = ask(
        "Which PyTorch wheel should I install for an RTX 5090? "
        "How much VRAM does the RTX 4090 have?"
    )
    assert "> *How much VRAM" not in answer.text


def test_two_questions_joined_by_a_comma_are_two() -> None:
    assert asked_sentences("Which wheel runs on a 5090, and is sm_90a fine for Hopper?") == [
        "Which wheel runs on a 5090?",
        "is sm_90a fine for Hopper?",
    ]


def test_a_detail_the_question_asks_is_shown_under_the_entry() -> None:
    from assistant.agent.offline.knowledge_lead import asked_details
    from assistant.knowledge.entries import get_entry

    entry = get_entry("gpu-power-limit-undervolt", "en")
    assert entry is not None
    shown = asked_details(entry, {"reboot", "power"})
    assert len(shown) == 1 and "reboot" in shown[0]
    assert asked_details(entry, {"power", "memory"}) == []  # words too common to pick a detail
