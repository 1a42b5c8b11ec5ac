"""Renderers show the fields the tools added: provenance of long-tail cards, per-SM limits,
other vendors' stacks, in English and in French."""

from __future__ import annotations

import pytest

from assistant.agent.offline.skills import get_skill
from assistant.tools.capability import CapabilityQuery, check_capability
from assistant.tools.lookup import GpuComparisonQuery, GpuQuery, compare_gpus, lookup_gpu


def render(tool: str, result: object, question: str, lang: str) -> str:
    skill = get_skill(tool)
    assert skill is not None
    return skill.render(result, question, lang)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "not in the curated catalog: figures from"), ("fr", "chiffres tirés de")],
)
def test_long_tail_card_says_where_its_figures_come_from_first(lang: str, said: str) -> None:
    result = lookup_gpu(GpuQuery(gpu="RTX A2000"))
    assert result.curated is False and result.provenance
    first = render("gpu_lookup", result, "specs of the RTX A2000", lang).splitlines()[0]
    assert said in first and result.provenance in first


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


def test_comparison_names_the_long_tail_card_first_and_adds_its_rows() -> None:
    result = compare_gpus(GpuComparisonQuery(gpus=["RTX A2000", "RTX 4090"]))
    text = render("gpu_compare", result, "RTX A2000 vs RTX 4090", "en")
    assert text.startswith("**RTX A2000** — not in the curated catalog")
    assert "| Bus interface |" in text
    assert "GeForce RTX 4090** — not" not in text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_cuda_on_an_amd_card_points_to_rocm_with_its_target(lang: str) -> None:
    result = check_capability(CapabilityQuery(gpu="RX 6800", topic="CUDA"))
    assert result.verdict == "no" and result.gfx_target == "gfx1030"
    text = render("gpu_capability", result, "Can I do CUDA on my RX 6800?", lang)
    first = text.splitlines()[0]
    assert first.startswith("**No**" if lang == "en" else "**Non**")
    assert "NVIDIA" in first and (result.provenance or "?") in first
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
