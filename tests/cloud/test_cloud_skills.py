"""The offline skills of `cloud_instances` and `notebook_tiers`: arguments read from a question, answers in both languages."""

from __future__ import annotations

from assistant.agent.offline.entities import Entities
from assistant.agent.offline.reading import Reading
from assistant.agent.offline.skills.cloud_instances import build as build_cloud
from assistant.agent.offline.skills.cloud_instances import instance_named
from assistant.agent.offline.skills.cloud_instances import render as render_cloud
from assistant.agent.offline.skills.notebook_tiers import build as build_notebooks
from assistant.agent.offline.skills.notebook_tiers import render as render_notebooks
from assistant.tools.cloud import (
    CloudInstancesQuery,
    NotebookTiersQuery,
    cloud_instances,
    notebook_tiers,
)


def _reading(text: str, ent: Entities | None = None) -> Reading:
    ent = ent or Entities()
    return Reading(
        question=text, language="en", injection=False, text=text, entities=ent, intents=[]
    )


def test_instance_names_are_found_in_a_question() -> None:
    assert instance_named("How many GPUs are in a P4D.24XLARGE, really?") == "p4d.24xlarge"
    assert instance_named("et une a3-highgpu-8g ?") == "a3-highgpu-8g"
    assert instance_named("p4de.24xlarge or p4d?") == "p4de.24xlarge"
    assert instance_named("How many GPUs in 8 x A100?") is None


def test_cloud_builder_prefers_an_instance_then_a_model_then_a_card() -> None:
    assert build_cloud(Entities(), _reading("what is in a g6e.xlarge")) == [
        {"instance": "g6e.xlarge"}
    ]
    ent = Entities(models=["Llama 3.1 70B"], precision="int4", gpus=["L40S"])
    args = build_cloud(ent, _reading("cheapest AWS instance for llama 70b at 4-bit", ent))[0]
    assert (args["model"], args["precision"], args["provider"]) == ("Llama 3.1 70B", "int4", "AWS")
    ent = Entities(gpus=["H100 SXM5 80GB"])
    assert (
        build_cloud(ent, _reading("which instances have an H100", ent))[0]["gpu"]
        == "H100 SXM5 80GB"
    )
    assert build_cloud(Entities(), _reading("tell me something")) == []


def test_cloud_answers_in_english_and_french() -> None:
    result = cloud_instances(CloudInstancesQuery(instance="p4d.24xlarge"))
    en = render_cloud(result, "", "en")
    fr = render_cloud(result, "", "fr")
    assert en.startswith("**p4d.24xlarge (AWS) has 8 × A100 40GB SXM4") and "320 GB" in en
    assert "contient 8 × A100 40GB SXM4" in fr and "320 Go" in fr and "21,96\xa0$" in fr
    fit = cloud_instances(
        CloudInstancesQuery(model="llama 3 70b", precision="int4", provider="aws")
    )
    assert "g6e.xlarge" in render_cloud(fit, "", "en").split("\n")[0]
    assert "la moins chère" in render_cloud(fit, "", "fr")


def test_notebook_builder_and_answers() -> None:
    args = build_notebooks(Entities(), _reading("How long can a free Colab session run?"))[0]
    assert args == {"provider": "colab", "tier": "free"}
    assert build_notebooks(Entities(), _reading("Colab Pro+ price"))[0]["tier"] == "pro+"
    result = notebook_tiers(NotebookTiersQuery(**args))
    en = render_notebooks(result, "", "en")
    fr = render_notebooks(result, "", "fr")
    assert "sessions of up to 12 h" in en
    assert "sessions de 12 h au plus" in fr and "gratuit" in fr and "not guaranteed" not in fr


def test_a_run_out_question_is_answered_first_and_several_tiers_stay_short() -> None:
    result = notebook_tiers(NotebookTiersQuery(provider="colab"))
    text = render_notebooks(result, "What happens when my compute units run out?", "en")
    first = text.split("\n\n")[0]
    assert first.startswith("**When the units or quota run out") and "free-tier limits" in first
    assert "expire 90 days" not in text  # notes are left out when several tiers are listed
    fr = render_notebooks(result, "Que se passe-t-il quand mes unités sont épuisées ?", "fr")
    assert fr.startswith("**Quand les unités ou le quota sont épuisés")
