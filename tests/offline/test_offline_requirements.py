"""A card a project names against the asker's own: 'the requirements could use a 3070: will my
RTX 2070 Super work?' is answered on memory and number formats, first."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities


@pytest.mark.parametrize(
    ("text", "required"),
    [
        (
            "the requirements GPU-wise could use a 3070. Would it work on an RTX 2070 Super?",
            ["GeForce RTX 3070"],
        ),
        (
            "The README says it was tested on an A100. Will it run on my RTX 3080 10GB?",
            ["A100 80GB SXM4"],
        ),
        ("minimum RTX 3090 24GB required, I have a 4070 12GB", ["GeForce RTX 3090"]),
        (
            "La config recommandée est une RTX 4090, est-ce que ma 3060 12 Go suffit ?",
            ["GeForce RTX 4090"],
        ),
        ("I have a 3090 and a 4090", []),
    ],
)
def test_the_card_a_project_names_is_not_the_asker_s(text: str, required: list[str]) -> None:
    assert extract_entities(text).required_cards == required


def test_as_much_memory_as_the_named_card_is_a_yes_with_the_formats_it_lacks() -> None:
    text = ask(
        "the requirements GPU-wise could use a 3070, which has 8GB VRAM. Would testing on this "
        "also work on an RTX 2070 Super?"
    ).text
    first = text.split("\n\n")[0]
    assert first.startswith("**Very likely yes on memory: your GeForce RTX 2070 SUPER has 8 GB"), (
        text
    )
    assert "lacks BF16" in first
    assert "I can't answer this exactly" not in text


def test_less_memory_than_the_named_card_is_not_as_is_in_french() -> None:
    text = ask("La config recommandée est une RTX 4090, est-ce que ma 3060 12 Go suffit ?").text
    assert text.startswith("**Pas tel quel : votre GeForce RTX 3060 12GB a 12 Go, moins que"), text


def test_an_nvidia_requirement_on_another_maker_s_card_is_not_directly() -> None:
    text = ask("minimum RTX 3090 24GB required for training, I have an RX 7900 XTX").text
    assert text.startswith("**Not directly: the GeForce RTX 3090 the project names is an NVIDIA"), (
        text
    )
    assert "Recommended:" not in text


@pytest.mark.parametrize(
    ("text", "need", "vram"),
    [
        ("The README says it requires at least 16GB of VRAM, will my 4060 8GB work?", 16.0, 8.0),
        ("requirements: 32GB RAM and a GPU with 12 GB. I have a 3060.", 12.0, None),
        ("minimum, I have 12GB", None, 12.0),
    ],
)
def test_the_memory_a_project_asks_for_is_not_the_card_s(
    text: str, need: float | None, vram: float | None
) -> None:
    ent = extract_entities(text)
    assert ent.required_vram_gb == need and ent.vram_gb == vram


def test_the_asker_s_memory_is_checked_against_the_project_s() -> None:
    text = ask("The README says it requires at least 16GB of VRAM, will my 4060 8GB work?").text
    assert text.startswith("**Not as is: your GeForce RTX 4060 has 8 GB, less than the 16 GB"), text
    fr = ask("Le README demande minimum 12 Go de VRAM, j'ai une RTX 3060 12 Go, ça passe ?").text
    assert fr.startswith("**Oui pour la mémoire : votre GeForce RTX 3060 12GB a 12 Go"), fr
