"""Memory something else holds on the card ('the game itself uses 5.5 GB') leaves the model only
the rest; a question that weighs two models on one card gets both verdicts; a quote about another
kind of model or other cards is not appended."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.knowledge.model_matching import sibling_of_size
from assistant.tools.fit import FitQuery, estimate_fit


@pytest.mark.parametrize(
    ("text", "held", "vram"),
    [
        ("Min spec is an 8 GB GPU and the game itself uses about 5.5 GB VRAM at 1080p.", 5.5, 8.0),
        ("RTX 3060 12 Go, le jeu prend déjà 6 Go, est-ce que Mistral 7B tient ?", 6.0, 12.0),
        ("on my 4060 8GB, 1.5 GB used by the desktop and Chrome", 1.5, 8.0),
        ("I have 24GB and the model uses 20GB when generating", None, 24.0),
        ("the system uses 10 GB of RAM, my card has 12 GB", None, 12.0),
    ],
)
def test_memory_held_by_something_else_is_read_apart_from_the_card_s(
    text: str, held: float | None, vram: float | None
) -> None:
    ent = extract_entities(text)
    assert ent.memory_in_use_gb == held
    assert ent.vram_gb == vram


def test_the_fit_sizes_against_what_other_programs_leave() -> None:
    alone = estimate_fit(FitQuery(model="Llama 3.2 3B", precision="q4_k_m", vram_gb=8))
    beside = estimate_fit(
        FitQuery(model="Llama 3.2 3B", precision="q4_k_m", vram_gb=8, in_use_gb=5.5)
    )
    assert alone.verdict == "fits"
    assert beside.capacity_gb == pytest.approx(2.5)
    assert beside.vram_gb == 8
    assert beside.verdict == "does_not_fit"
    assert any("5.5 GB" in a for a in beside.assumptions)
    # A card it fits on must hold the model and what the other programs keep.
    from assistant.knowledge.matching import match_gpu

    for name in beside.bigger_cards:
        card = match_gpu(name).gpu
        assert card is not None and card.vram_gb is not None
        assert card.vram_gb >= beside.total_gb + 5.5 * 0.9


def test_a_card_full_of_other_programs_leaves_nothing_rather_than_failing() -> None:
    r = estimate_fit(FitQuery(model="Llama 3.2 1B", vram_gb=8, in_use_gb=9))
    assert r.verdict == "does_not_fit" and r.capacity_gb is not None and r.capacity_gb < 0.5


def test_a_bare_size_after_a_named_model_is_its_sibling() -> None:
    assert sibling_of_size("Llama 3.2 3B", 1) == "Llama 3.2 1B"
    assert sibling_of_size("Llama 3.2 3B", 400) is None


def test_the_game_s_memory_and_the_smaller_model_reach_the_answer() -> None:
    answer = ask(
        "Our game needs an 8 GB GPU and the game itself uses about 5.5 GB VRAM. Can we fit "
        "Llama 3.2 3B at Q4 next to it, or drop to 1B? 4k context."
    )
    fits = [c.arguments for c in answer.tool_calls if c.name == "workload_fit"]
    assert {a["model"] for a in fits} == {"Llama 3.2 3B", "Llama 3.2 1B"}
    assert all(a["in_use_gb"] == 5.5 for a in fits)
    first = answer.text.split("\n\n")[0]
    assert "Llama 3.2 3B does not fit" in first and "Llama 3.2 1B does" in first


def test_two_models_on_one_card_get_both_verdicts_first() -> None:
    answer = ask(
        "Avec la Quadro RTX 5000 16 Go, je peux faire tourner Mistral Small 24B ou un Qwen 32B en Q4 ?"
    )
    first = answer.text.split("\n\n")[0]
    assert "Mistral Small 3.1 24B" in first and "32B" in first
    assert "ne tient pas" in first
    # Neither an entry about Whisper nor one about Jetson boards is quoted under it.
    assert "Whisper" not in answer.text and "Jetson" not in answer.text


def test_a_model_that_says_its_size_again_is_one_model() -> None:
    answer = ask("Llama 3.1 70B on a 64 GB Jetson AGX Orin: does the 70B fit?")
    fits = [c.arguments for c in answer.tool_calls if c.name == "workload_fit"]
    assert len(fits) == 1


def test_two_questions_in_one_sentence_are_answered_in_order() -> None:
    answer = ask(
        "On an RTX 4060 8GB, how many tokens/s for Llama 3.1 8B at Q4, and how many users at "
        "once? Does Qwen2.5 14B Q4 fit?"
    )
    names = [c.name for c in answer.tool_calls]
    assert names.index("llm_speed") < names.index("workload_fit")
    assert answer.text.index("tokens/s") < answer.text.index("Qwen2.5 14B")


def test_a_nearest_passage_keeps_the_facts_of_the_asker_s_card() -> None:
    from assistant.agent.offline.reading import _read
    from assistant.agent.offline.writer import _named_card_lines

    (line,) = _named_card_lines(_read("my GTX 980 runs out of memory on the demo", []))
    assert line.startswith("**GeForce GTX 980**") and "CC 5.2" in line and "4 GB" in line


def test_the_card_line_of_a_mac_shows_the_asker_s_memory_or_none() -> None:
    from assistant.agent.offline.reading import _read
    from assistant.agent.offline.writer import _named_card_lines

    (given,) = _named_card_lines(_read("un Mac Studio M2 Ultra 128 Go, Cellpose marche ?", []))
    assert "128 Go" in given and "192" not in given
    (bare,) = _named_card_lines(_read("a Mac Studio M2 Ultra, can Cellpose use it?", []))
    assert "GB" not in bare


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        (
            "is it supposed to work? I care about it, in fact",
            "is it supposed to work? I care about it, in fact",
        ),
        ("lama 3 on my 3090, megakernells and wgma", "llama 3 on my 3090, megakernels and wgmma"),
        (
            "Llama 3.1 8B Instruct on a Mac Studio M2 Ultral",
            "Llama 3.1 8B Instruct on a Mac Studio M2 ultra",
        ),
    ],
)
def test_ordinary_words_are_no_typos(text: str, fixed: str) -> None:
    from assistant.agent.offline.spelling import correct_typos

    assert correct_typos(text) == fixed
