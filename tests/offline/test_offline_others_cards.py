"""A card named as someone else's, or as the one the asker's is compared with, is not one of the
asker's cards when the asker names their own; cards weighed as options keep both."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities


def test_a_friends_card_and_a_compared_card_are_not_the_askers() -> None:
    ent = extract_entities(
        "I got a laptop with an RTX 4080 (laptop). It's basically the desktop 4080 with 16gb, "
        "right? Can I run 14B models like my friend does on his desktop 4080?"
    )
    assert ent.gpus == ["GeForce RTX 4080 Mobile"]


def test_french_a_friends_card_is_not_the_askers() -> None:
    ent = extract_entities(
        "J'ai une RTX 3060 12 Go. Mon pote fait tourner Flux sur sa RTX 4090, je peux aussi ?"
    )
    assert ent.gpus == ["GeForce RTX 3060 12GB"]


def test_cards_weighed_as_options_are_both_kept() -> None:
    ent = extract_entities("My friend has a 3090 and I have a 4090, which one is faster for SDXL?")
    assert set(ent.gpus) == {"GeForce RTX 3090", "GeForce RTX 4090"}


def test_a_card_only_someone_else_has_stays_when_the_asker_names_none() -> None:
    ent = extract_entities("My friend says the RTX 4090 runs 70B models at 4-bit. Is that true?")
    assert ent.gpus == ["GeForce RTX 4090"]


def test_a_pick_word_after_the_last_new_card_makes_options_even_when_one_is_named_again() -> None:
    ent = extract_entities(
        "here the rx 7800 xt and the rtx 4070 super cost the same. which one for local LLMs? "
        "and is the 7800 xt at least faster than my old card?"
    )
    assert ent.options


def test_a_clause_that_asks_gives_the_card_over_one_that_only_states() -> None:
    # 'a colleague says FP8 … like on H100' states; 'Does Orin NX even support FP8?' asks
    text = ask(
        "We run YOLOv8s on Jetson Orin NX 16GB boxes. A colleague says we should convert to an "
        "FP8 TensorRT engine like on H100 to double the fps. Does Orin NX even support FP8?"
    ).text
    assert text.startswith("**No** — Jetson Orin NX 16GB"), text[:200]
