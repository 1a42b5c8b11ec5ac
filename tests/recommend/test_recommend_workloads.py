"""Workload goals: VRAM checked with the workload-fit estimate, lower precision as a second tier."""

from __future__ import annotations

from assistant.tools.fit import FitQuery, minimum_vram_gb
from assistant.tools.recommend import Recommendation, RecommendQuery, recommend


def run(**kw: object) -> Recommendation:
    return recommend(RecommendQuery.model_validate({"currency": "USD", **kw}))


def test_flux_on_24_gb_needs_fp8_and_says_so() -> None:
    bf16 = minimum_vram_gb(FitQuery(model="flux dev", task="image_generation"))
    fp8 = minimum_vram_gb(FitQuery(model="flux dev", task="image_generation", precision="fp8"))
    assert bf16 is not None and fp8 is not None and fp8 < 24 < bf16
    r = run(workload="flux", mode="buy", budget=3000)
    top = r.options[0]
    assert (top.gpu, top.condition) == ("GeForce RTX 3090", "used")
    assert top.fit == f"FLUX.1-dev fits at fp8 (needs about {fp8:g} GB)"
    assert top.cannot == [f"FLUX.1-dev at bf16 (needs about {bf16:g} GB)"]


def test_llm_inference_puts_cards_that_hold_bf16_first() -> None:
    r = run(workload="llm_inference", model="llama 3.1 70b", mode="rent", budget=100)
    need = minimum_vram_gb(FitQuery(model="llama 3.1 70b"))
    assert need is not None and need > 141
    assert r.options[0].gpu == "B200" and r.options[0].cannot == []
    assert all(o.fit and "fits at fp8" in o.fit for o in r.options[1:])


def test_model_size_without_a_name() -> None:
    r = run(workload="qlora", model_params_b=8, mode="buy", budget=300)
    assert [o.gpu for o in r.options] == ["GeForce RTX 4060"]
    assert r.goal == "qlora; 8B"


def test_goal_text_names_workload_and_model() -> None:
    r = run(goal="LoRA sur SDXL", mode="buy", budget=700, condition="used")
    assert r.goal == "lora; SDXL base 1.0"
    assert [o.gpu for o in r.options] == ["GeForce RTX 3060 12GB", "GeForce RTX 3090"]


def test_workloads_only_get_cuda_cards() -> None:
    r = run(workload="llm_inference", model="llama 3.1 70b", mode="rent")
    assert "Instinct MI300X" not in [o.gpu for o in r.options]


def test_unknown_model_is_reported_not_raised() -> None:
    r = run(workload="llm_inference", model="nonexistent-model-xyz")
    assert r.options == []
    assert r.summary.startswith("Unknown model 'nonexistent-model-xyz'")


def test_llm_without_a_size_is_not_vram_checked() -> None:
    r = run(workload="llm_inference", mode="rent", budget=50)
    assert any(n.startswith("No model size given for LLM inference") for n in r.notes)


def test_training_without_a_model_is_not_read_as_learning_the_guide() -> None:
    r = run(goal="Which GPU should I buy for deep learning training?", mode="buy")
    assert r.goal == "training"
    assert r.options
    assert all(o.vram_gb >= 12 for o in r.options)
    assert not any("guide" in a and "parts 1" in a for a in r.assumptions)
    learning = run(goal="Which GPU should I buy to learn CUDA?", mode="buy")
    assert learning.goal != "training"


def test_llm_inference_without_a_model_puts_the_most_memory_for_the_budget_first() -> None:
    r = run(goal="a GPU to run local LLMs", mode="buy", budget=600)
    sizes = [o.vram_gb for o in r.options]
    assert sizes and sizes == sorted(sizes, reverse=True)
    assert all(o.kind == "buy" for o in r.options)
    assert any("most VRAM for the budget" in n for n in r.notes)


def test_a_named_program_is_the_goal_not_learning_the_guide() -> None:
    from assistant.knowledge.matching import match_gpu

    r = run(goal="a GPU to render in Blender", mode="buy", budget=1000)
    assert r.goal == "Blender (Cycles)"
    assert r.options and all(o.within_budget for o in r.options)
    assert not any("learning gpu programming" in t.lower() for t in [*r.notes, *r.assumptions])
    assert any("Blender (Cycles)" in a for a in r.assumptions)
    cards = [match_gpu(o.gpu).gpu for o in r.options]
    widths = [(c.bandwidth_gbs or 0) if c else 0 for c in cards]
    assert widths[0] == max(widths), "the most capable card the budget buys comes first"


def test_running_an_llm_does_not_need_tensor_cores() -> None:
    # Apple silicon runs a 70B (llama.cpp, MLX): memory decides, not matrix units
    r = run(
        workload="llm_inference",
        model_params_b=70,
        budget=5000,
        currency="EUR",
        candidates=["Apple M4 Max", "Apple M3 Ultra", "GeForce RTX 5090"],
    )
    assert {o.gpu for o in r.options} >= {"Apple M4 Max", "Apple M3 Ultra"}
    training = run(workload="training", candidates=["Apple M4 Max", "GeForce RTX 5090"])
    assert "Apple M4 Max" not in {o.gpu for o in training.options}
