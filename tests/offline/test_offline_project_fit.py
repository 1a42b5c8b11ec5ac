"""'Is this project possible on my card?' with no model named: the answer says what the card's
memory holds at each precision (from the memory rules), never a bare spec sheet."""

from __future__ import annotations

from assistant import ask


def test_a_project_with_no_model_named_gets_what_the_memory_holds() -> None:
    answer = ask("GTX 1650 TI — is playing this with a 4 gigs of VRAM possible?")
    head = answer.text.split("\n\n")[0]
    assert head.startswith("**It depends on the model the project loads")
    # 4 GB less 1 GB of CUDA context: 3 GB at 2 bytes a parameter is 1.5B in BF16
    assert "1.5B parameters in BF16" in head and "Q4_K_M" in head


def test_a_figure_asked_is_a_spec_answer_not_a_project_verdict() -> None:
    answer = ask("How much VRAM does the RTX 4090 have?")
    assert not answer.text.startswith("**It depends on the model")
    assert "24 GB" in answer.text


def test_a_feature_or_figure_asked_of_the_card_is_no_project_question() -> None:
    for question in ("Does the RTX 4090 have NVLink?", "Is the 3090 an Ampere card?"):
        assert not ask(question).text.startswith("**It depends on the model")
    assert ask("Is the RTX 3060 enough?").text.startswith("**It depends on the model")
