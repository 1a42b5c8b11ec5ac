"""Renderers show the fields the tools added: provenance of long-tail cards, per-SM limits,
other vendors' stacks, in English and in French."""

from __future__ import annotations

import pytest

from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation
from assistant.agent.offline.skills import get_skill
from assistant.tools.budget import BudgetQuery, plan_budget
from assistant.tools.capability import CapabilityQuery, check_capability
from assistant.tools.cost import ForgottenQuery, forgotten_instance
from assistant.tools.fit import FitQuery, FitResult, estimate_fit
from assistant.tools.lookup import GpuComparisonQuery, GpuQuery, compare_gpus, lookup_gpu


def render(tool: str, result: object, question: str, lang: str) -> str:
    skill = get_skill(tool)
    assert skill is not None
    return skill.render(result, question, lang)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "not in the curated catalog: figures from"), ("fr", "chiffres tirés de")],
)
def test_long_tail_card_says_where_its_figures_come_from_after_them(lang: str, said: str) -> None:
    result = lookup_gpu(GpuQuery(gpu="RTX A2000"))
    assert result.curated is False and result.provenance
    lines = render("gpu_lookup", result, "specs of the RTX A2000", lang).splitlines()
    assert lines[0].startswith("**RTX A2000**") and said not in lines[0]  # the card, not a caveat
    assert said in lines[-1] and result.provenance in lines[-1]


def test_curated_card_has_no_provenance_caveat_but_its_sm_limits() -> None:
    result = lookup_gpu(GpuQuery(gpu="RTX 4090"))
    text = render("gpu_lookup", result, "specs of the RTX 4090", "en")
    assert "curated" not in text
    assert "1,536 threads" in text and "65,536 registers" in text
    fr = render("gpu_lookup", result, "caractéristiques de la RTX 4090", "fr")
    assert "Limites par SM" in fr and "1\u202f536 threads" in fr


def test_lookup_shows_tensor_cores_and_bus_interface_when_known() -> None:
    result = lookup_gpu(GpuQuery(gpu="RTX A2000"))
    assert result.gpu is not None and result.gpu.tensor_cores and result.gpu.bus_interface
    text = render("gpu_lookup", result, "specs of the RTX A2000", "fr")
    assert f"Tensor cores : {result.gpu.tensor_cores}" in text
    assert f"Interface de bus : {result.gpu.bus_interface}" in text


def test_comparison_notes_the_long_tail_card_after_the_table_and_adds_its_rows() -> None:
    result = compare_gpus(GpuComparisonQuery(gpus=["RTX A2000", "RTX 4090"]))
    text = render("gpu_compare", result, "RTX A2000 vs RTX 4090", "en")
    assert "curated" not in text.split("\n\n")[0]
    assert text.rstrip().endswith(
        "<sub>RTX A2000 — not in the curated catalog: figures from "
        f"{result.cards[0].provenance}, not checked against the "
        "vendor's documents.</sub>"
    )
    assert "| Bus interface |" in text
    assert "GeForce RTX 4090 — not" not in text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_cuda_on_an_amd_card_points_to_rocm_with_its_target(lang: str) -> None:
    result = check_capability(CapabilityQuery(gpu="RX 6800", topic="CUDA"))
    assert result.verdict == "no" and result.gfx_target == "gfx1030"
    text = render("gpu_capability", result, "Can I do CUDA on my RX 6800?", lang)
    first = text.splitlines()[0]
    assert first.startswith("**No**" if lang == "en" else "**Non**")
    assert "NVIDIA" in first and (result.provenance or "?") not in first
    assert (result.provenance or "?") in text.splitlines()[-1]  # said once, after the verdict
    assert text.count(result.provenance or "?") == 1
    instead = result.instead if lang == "en" else result.instead_fr
    guide = result.guide_fit if lang == "en" else result.guide_fit_fr
    assert instead and instead in text
    assert guide and guide in text
    assert "`gfx1030`" in text and (
        "ROCm support tables" in text or "tables de support ROCm" in text
    )
    assert text.count(instead) == 1


def test_apple_card_in_french_keeps_the_metal_advice() -> None:
    result = check_capability(CapabilityQuery(gpu="M3 Max", topic="CUDA"))
    text = render("gpu_capability", result, "CUDA sur mon Mac M3 Max ?", "fr")
    assert result.instead_fr and result.instead_fr in text
    assert "gfx" not in text


def fit(**query: object) -> FitResult:
    return estimate_fit(FitQuery.model_validate(query))


def test_two_named_cards_are_one_machine_for_the_fit_tool() -> None:
    question = "Will Llama 3.1 70B fit on an RTX 3090 + RTX 4090?"
    calls = plan_tool_calls(Conversation(question), set())
    fits = [c for c in calls if c.name == "workload_fit"]
    assert fits and all("gpus" in c.args and "gpu" not in c.args for c in fits)
    assert len(fits[0].args["gpus"]) == 2
    FitQuery.model_validate(fits[0].args)  # the tool accepts the call as planned


@pytest.mark.parametrize(("lang", "fullest"), [("en", "fullest card"), ("fr", "la plus chargée")])
def test_several_cards_speak_of_the_fullest_card_and_show_each_load(
    lang: str, fullest: str
) -> None:
    result = fit(model="Llama 3.1 70B", gpus=["RTX 3090", "RTX 4090"])
    assert result.multi_gpu is not None and len(result.cards) == 2
    text = render("workload_fit", result, "Llama 3.1 70B on RTX 3090 + RTX 4090", lang)
    first = text.splitlines()[0]
    assert fullest in first and "per GPU" not in first and "par GPU" not in first
    for card in result.cards:
        assert card.gpu in text
    notes = result.multi_gpu.notes_fr if lang == "fr" else result.multi_gpu.notes
    assert notes and all(n in text for n in notes)


def test_precisions_side_by_side_lead_with_the_one_the_answer_picks() -> None:
    result = fit(model="Llama 3.1 8B", gpu="RTX 3060 12GB")
    assert len(result.by_precision) >= 2 and result.precision
    text = render("workload_fit", result, "Llama 3.1 8B on an RTX 3060?", "en")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert table[1].startswith(f"| **{result.precision}** |")
    assert len(table) == len(result.by_precision) + 1


@pytest.mark.parametrize(("lang", "but"), [("en", "It fits, but"), ("fr", "Ça tient, mais")])
def test_precision_the_card_cannot_run_natively_is_said_on_the_verdict_line(
    lang: str, but: str
) -> None:
    result = fit(model="Llama 3.1 8B", gpu="RTX 3090", precision="fp8")
    caveats = [s for s in result.precision_support if s.runs != "yes"]
    assert result.verdict == "fits" and caveats
    first = render("workload_fit", result, "Llama 3.1 8B in fp8 on a 3090", lang).splitlines()[0]
    reason = caveats[0].reason if lang == "en" else caveats[0].reason_fr
    assert f"{but} {reason[:1].lower()}{reason[1:]}" in first


def test_forgotten_instance_french_note_is_the_tools_own() -> None:
    result = forgotten_instance(ForgottenQuery(gpu="H100", hours=48))
    assert result.corpus_note and result.corpus_note_fr
    fr = render("forgotten_instance", result, "H100 oubliée un week-end", "fr")
    en = render("forgotten_instance", result, "H100 forgotten over a weekend", "en")
    assert result.corpus_note_fr in fr and result.corpus_note not in fr
    assert result.corpus_note in en


@pytest.mark.parametrize(("budget", "currency"), [(200, "EUR"), (2000, "USD")])
def test_budget_plan_french_notes_are_the_tools_own(budget: float, currency: str) -> None:
    result = plan_budget(BudgetQuery(budget=budget, currency=currency))
    assert result.notes and len(result.notes_fr) == len(result.notes)
    fr = render("budget_plan", result, "Comment dépenser ce budget ?", "fr")
    assert all(note in fr for note in result.notes_fr)
    assert not any(note in fr for note in result.notes)
