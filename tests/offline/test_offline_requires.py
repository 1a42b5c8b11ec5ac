"""Calculators that would run on their defaults are called only when the question names what they
compute: a machine that powers off is not a forgotten cloud instance, Windows' "dedicated GPU
memory" is not spot pricing, and buying a card for a feature is not rent vs buy."""

from __future__ import annotations

import pytest

from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation
from assistant.agent.offline.skills import all_skills


def _tools(question: str) -> list[str]:
    return [c.name for c in plan_tool_calls(Conversation(question), set())]


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        (
            "My PC turns off hard and reboots a few seconds later when training starts on my 980 Ti",
            "forgotten_instance",
        ),
        (
            "Le gestionnaire des tâches affiche « Mémoire GPU dédiée 8 Go » et « Mémoire GPU "
            "partagée 16 Go » sur ma 4060 : j'ai 24 Go pour un modèle ?",
            "spot_vs_dedicated",
        ),
        ("I'm planning to buy a 4090D for FP8 experiments, can it use FP8?", "rent_vs_buy"),
        ("Pourquoi ma RTX 4070 sent le plastique chaud après une nuit de rendu ?", "rent_cost"),
    ],
)
def test_a_default_driven_calculator_needs_its_words(question: str, absent: str) -> None:
    assert absent not in _tools(question)


@pytest.mark.parametrize(
    ("question", "tool"),
    [
        (
            "I forgot my H100 instance running all weekend, how much did it cost?",
            "forgotten_instance",
        ),
        ("Spot at $0.80/h or dedicated at $2.50/h for a 20-hour job?", "spot_vs_dedicated"),
        ("Should I rent or buy an RTX 4090 if I use it 4 hours a day?", "rent_vs_buy"),
    ],
)
def test_the_calculator_runs_when_its_words_are_there(question: str, tool: str) -> None:
    assert tool in _tools(question)


def test_required_concepts_exist_in_the_vocabulary() -> None:
    from assistant.agent.offline.concepts import concept_patterns

    known = set(concept_patterns())
    for skill in all_skills().values():
        assert set(skill.requires) <= known, skill.tool


@pytest.mark.parametrize(
    ("question", "called"),
    [
        # an error that names a stack: whether the Mac runs Metal at all is not what is asked
        (
            'training a tiny model on my M2 Air with device="mps" and got TypeError: Cannot '
            "convert a MPS Tensor to float64",
            False,
        ),
        # an error that names a hardware feature: the card's verdict on it is the answer
        ("bf16 error on my T4: Bf16 is not supported", True),
        # no error: the capability question itself
        ("Can my M2 run Metal kernels?", True),
    ],
)
def test_an_error_report_checks_a_hardware_feature_not_a_stack(question: str, called: bool) -> None:
    assert ("gpu_capability" in _tools(question)) is called


def test_a_pasted_error_that_mentions_a_notebook_is_not_a_notebook_question() -> None:
    question = (
        'I am trying to run a code on MPS apple silicon. it is giving the following error "Cannot '
        "convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
        'Please use float32 instead." However, the code is running fine on colab with '
        "device = 'cuda'. What could be the possible reason"
    )
    assert "notebook_tiers" not in _tools(question)
