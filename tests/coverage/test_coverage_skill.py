"""The offline skills of guide_coverage and models_for: arguments from a question, typed renderers."""

from __future__ import annotations

from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.reading import Reading
from assistant.agent.offline.skills import get_skill
from assistant.tools.coverage import CoverageQuery, coverage
from assistant.tools.models_for import ModelsForQuery, models_for


def reading(question: str, lang: str = "en") -> Reading:
    ent = extract_entities(question)
    return Reading(
        question=question, language=lang, injection=False, text=question, entities=ent, intents=[]
    )  # type: ignore[arg-type]


def test_coverage_skill_builds_a_platform_and_renders_both_languages() -> None:
    skill = get_skill("guide_coverage")
    assert skill is not None
    r = reading("Which chapters can't I do on a Kaggle P100?")
    (args,) = skill.build(r.entities, r)
    assert args == {"only_missing": True, "platform": "kaggle_p100"}
    result = coverage(CoverageQuery.model_validate(args))
    en = skill.render(result, r.question, "en")
    fr = skill.render(result, r.question, "fr")
    assert "Cannot follow: part 3, 4" in en and "✗" in en
    assert "Impossible : partie 3, 4" in fr and "Partie 4 du guide" in fr


def test_models_for_skill_reads_the_ram_and_renders() -> None:
    skill = get_skill("models_for")
    assert skill is not None
    r = reading("Which models can my RTX 3060 with 32 GB of RAM run?")
    (args,) = skill.build(r.entities, r)
    assert args["system_ram_gb"] == 32 and args["gpu"] == "GeForce RTX 3060 12GB"
    assert "vram_gb" not in args
    result = models_for(ModelsForQuery.model_validate(args))
    en = skill.render(result, r.question, "en")
    fr = skill.render(result, r.question, "fr")
    assert "the largest is" in en and "CPU offload" in en
    assert "le plus gros est" in fr and "déchargement" in fr
    nothing = reading("Which models are good?")
    assert skill.build(nothing.entities, nothing) == []
