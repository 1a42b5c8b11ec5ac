"""Word lists read from the data files rather than written as regexes in code: the negation list
that sets a method aside ('rather than a LoRA'), the card this machine holds asked against a card
to get, and the on-demand side of a spot question."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.phrases import negated_at
from assistant.agent.offline.skills.spot_vs_dedicated import spot_on_examples


def _before(text: str, word: str) -> bool:
    return negated_at(text, text.index(word))


def test_a_negation_with_an_article_sets_the_next_word_aside() -> None:
    assert _before("a full fine-tune rather than a LoRA", "LoRA")
    assert _before("un fine-tuning complet, pas en LoRA", "LoRA")
    assert _before("full fine-tune (not QLoRA)", "QLoRA")
    assert not _before("I want a LoRA", "LoRA")


def test_not_after_can_is_no_negation_even_at_the_window_edge() -> None:
    assert not _before("I can not LoRA", "LoRA")
    # the window of a few characters starts inside 'cannot': 'not' there is no word of its own
    assert not _before("we really cannot LoRA", "LoRA")


def test_a_method_set_aside_is_not_the_method_read() -> None:
    assert extract_entities(
        "Mistral 7B, a full fine-tune rather than a LoRA, on 2 A100"
    ).method == ("full")
    assert extract_entities("Mistral 7B, plutôt que QLoRA une LoRA en bf16").method == "lora"


def test_what_this_machine_holds_is_probed_and_a_card_to_get_is_not() -> None:
    assert "probe_gpus" in {c.name for c in ask("What GPU do I have on this machine?").tool_calls}
    upgrade = ask("I plan to upgrade my computer to train small CNNs. Which card?")
    assert "probe_gpus" not in {c.name for c in upgrade.tool_calls}
    assert "what_is_there" in concepts_in("quelle carte est dans ce PC ?")


def test_spot_against_on_demand_is_a_choice_asked_even_without_rates() -> None:
    text = "spot or on-demand for my training runs?"
    assert not spot_on_examples(extract_entities(text), text)
    text = "these spot instances get killed: how do I resume training?"
    assert spot_on_examples(extract_entities(text), text)
