"""Skills and registered tools match one to one, and each skill is complete and typed."""

from __future__ import annotations

import importlib
import typing

import pytest

from assistant.agent.offline.entities import Entities
from assistant.agent.offline.skills import all_skills, get_skill
from assistant.agent.toolset import TOOL_SPECS, ToolSpec

# The corpus search runs on every turn (the planner's own call), so no skill owns it.
PLANNER_TOOLS = {"search_corpus"}
# Tools registered before their skill: each entry here is a gap to close, and the list only shrinks.
TOOLS_WITHOUT_SKILL: set[str] = {"software_support", "explain"}
MIN_EXAMPLES = 5


def _return_model(spec: ToolSpec) -> type:
    func = getattr(importlib.import_module(spec.module), spec.function)
    return typing.get_type_hints(func)["return"]  # type: ignore[no-any-return]


def test_skills_and_tools_match_one_to_one() -> None:
    tools = {spec.name for spec in TOOL_SPECS} - PLANNER_TOOLS
    skills = set(all_skills())
    assert skills - tools == set(), "a skill without a registered tool"
    assert tools - skills - TOOLS_WITHOUT_SKILL == set(), "a tool without a skill"
    assert TOOLS_WITHOUT_SKILL & skills == set(), "remove tools that now have a skill from the list"


@pytest.mark.parametrize("spec", [s for s in TOOL_SPECS if get_skill(s.name)], ids=lambda s: s.name)
def test_skill_renders_its_tools_own_result_model(spec: ToolSpec) -> None:
    skill = get_skill(spec.name)
    assert skill is not None
    assert skill.result is _return_model(spec)
    hints = typing.get_type_hints(skill.render)
    assert hints[next(iter(hints))] is skill.result, "the renderer takes the typed result"


@pytest.mark.parametrize("name", sorted(all_skills()))
def test_skill_has_examples_in_both_languages_and_a_search_hint(name: str) -> None:
    skill = all_skills()[name]
    assert len(skill.examples.en) >= MIN_EXAMPLES
    assert len(skill.examples.fr) >= MIN_EXAMPLES
    assert not set(skill.examples.en) & set(skill.examples.fr)
    assert skill.search_hint.strip()
    fields = set(Entities.model_fields)
    assert set(skill.slots) <= fields and set(skill.needs) <= set(skill.slots)
    if isinstance(skill.fallback, str):
        assert get_skill(skill.fallback) is not None


def test_a_result_that_does_not_match_its_model_is_not_rendered() -> None:
    skill = get_skill("storage_cost")
    assert skill is not None
    assert skill.answer({"gb": "lots"}, "disk?", "en") is None


def test_every_concept_a_skill_names_is_in_the_vocabulary() -> None:
    from assistant.agent.offline.concepts import concept_patterns

    known = set(concept_patterns())
    declared = {c for skill in all_skills().values() for c in skill.concepts}
    # Concepts still carried by hand-set cues (cues.py) until the fitted router replaces them.
    by_cues = {"specs", "compare", "capability", "rent", "cost", "spot", "buy", "break_even",
               "forgotten", "storage", "budget", "learn", "fit", "model_task", "recommend",
               "this_machine"}  # fmt: skip
    assert declared - known - by_cues == set()


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("What does it cost in electricity to run my A6000 10 hours a day?", "electricity"),
        ("Combien de tokens par seconde sur une 4090 ?", "speed"),
        ("Quels modèles tiennent sur ma 3060 ?", "models_for"),
    ],
)
def test_concepts_are_read_in_both_languages(question: str, concept: str) -> None:
    from assistant.agent.offline.concepts import concepts_in

    assert concept in concepts_in(question)
