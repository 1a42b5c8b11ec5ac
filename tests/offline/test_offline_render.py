"""Renderers on tool results the test machine can't produce, and the planner's argument contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.agent.offline.evaluation import load_cases
from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation
from assistant.agent.offline.skills import get_skill
from assistant.agent.toolset import TOOL_SPECS, resolve

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "golden.yaml"

PROBED = {
    "available": True,
    "method": "nvml",
    "platform": "linux x86_64",
    "summary": "1 GPU",
    "gpus": [
        {
            "index": 0,
            "name": "NVIDIA H200",
            "vendor": "nvidia",
            "driver_version": "570.86.15",
            "cuda_version": "12.8",
            "compute_capability": "9.0",
            "memory_total_gb": 139.8,
            "mig_mode": "disabled",
            "catalog_match": {"name": "H200 SXM 141GB", "arch_target": "sm_90a"},
        }
    ],
}


def render_probe(report: dict, question: str, lang: str) -> str:
    skill = get_skill("probe_gpus")
    assert skill is not None
    text = skill.answer(report, question, lang)  # the JSON parsed back into the result model
    assert text is not None
    return text


def test_probe_with_a_gpu_lists_it_with_its_catalog_card() -> None:
    text = render_probe(PROBED, "what GPU do I have?", "en")
    assert text.startswith("**1 GPU(s) found** (via nvml):")
    assert "- NVIDIA H200 · 139.8 GB · CC 9.0 · driver 570.86.15 · CUDA 12.8 · MIG disabled" in text
    assert "catalog: H200 SXM 141GB (`sm_90a`)" in text


def test_probe_without_a_gpu_in_french() -> None:
    report = {
        "available": False,
        "method": None,
        "platform": "linux x86_64",
        "gpus": [],
        "hint": None,
        "summary": "no GPU",
    }
    assert (
        render_probe(report, "quel GPU ?", "fr")
        == "**Aucun GPU détecté** sur cette machine (linux x86_64)."
    )


@pytest.mark.parametrize("case", load_cases(GOLDEN), ids=lambda c: c.id)
def test_every_planned_call_fits_its_tool_input_model(case) -> None:
    history = [(m["role"], m["content"]) for m in case.history]
    specs = {spec.name: spec for spec in TOOL_SPECS}
    for call in plan_tool_calls(Conversation(case.question, history), set()):
        _, model = resolve(specs[call.name])
        model.model_validate(call.args)  # raises on a wrong field name or value


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_users_that_do_not_fit_together_get_how_many_do(lang: str) -> None:
    from assistant.tools.fit import FitQuery, estimate_fit

    result = estimate_fit(
        FitQuery(
            model="Llama 3.1 405B",
            precision="fp8",
            context_tokens=131072,
            batch_size=32,
            num_gpus=8,
            gpu="H200 SXM 141GB",
        )
    )
    assert result.verdict == "does_not_fit" and result.max_sequences
    assert 1 <= result.max_sequences < 32
    skill = get_skill("workload_fit")
    assert skill is not None
    text = skill.answer(result.model_dump(mode="json"), "405B on 8x H200 for 32 users?", lang)
    assert text is not None
    first = text.splitlines()[0]
    assert "32" in first and str(result.max_sequences) in first
    assert first.startswith("**The model fits" if lang == "en" else "**Le modèle tient")
