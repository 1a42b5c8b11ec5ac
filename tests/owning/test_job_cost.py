"""Whole-job cost from hand calculations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.tools.job_cost import JobCostQuery, job_cost

USD = {"currency": "USD", "usd_per_eur": 1.08}


def test_fine_tune_8b_on_1b_tokens_on_h100s_by_hand() -> None:
    # 6 x 8e9 x 1e9 = 4.8e19 FLOPs; / (989.4e12 x 0.4) = 121,285 s = 33.69 GPU-hours; / 8 cards = 4.21 h
    r = job_cost(
        JobCostQuery(model="8B", tokens=1e9, gpu="H100", gpu_count=8, rate_per_hour=2.0, **USD)
    )
    assert r.found and r.flops == pytest.approx(4.8e19)
    assert r.gpu_hours == pytest.approx(4.8e19 / (989.4e12 * 0.4) / 3600)
    assert r.wall_hours == pytest.approx(r.gpu_hours / 8)
    assert r.total_cost == pytest.approx(2.0 * r.gpu_hours)
    assert r.formula and r.inputs["k_flops_per_param_token"] == 6
    assert "GPU-hours" in r.summary and "heures-GPU" in r.summary_fr


def test_price_comes_from_the_data_when_not_given() -> None:
    r = job_cost(JobCostQuery(model="Llama 3.1 8B", tokens=2e8, gpu="H100", task="lora", **USD))
    assert r.rate_per_hour is not None and r.total_cost == pytest.approx(
        r.rate_per_hour * (r.gpu_hours or 0)
    )
    assert (
        r.cost_low is not None
        and r.cost_high is not None
        and r.cost_low <= r.total_cost <= r.cost_high
    )
    assert r.flops == pytest.approx(4 * 8.03e9 * 2e8, rel=0.01)


def test_inference_is_a_third_of_training_and_says_it_is_a_floor() -> None:
    train = job_cost(
        JobCostQuery(params_b=7, tokens=1e9, gpu="A100", task="train", rate_per_hour=1, **USD)
    )
    infer = job_cost(
        JobCostQuery(params_b=7, tokens=1e9, gpu="A100", task="inference", rate_per_hour=1, **USD)
    )
    assert infer.gpu_hours == pytest.approx((train.gpu_hours or 0) / 3)
    assert any("memory-bound" in a for a in infer.assumptions)


def test_missing_model_or_card_is_a_message() -> None:
    assert not job_cost(JobCostQuery(model="my model", tokens=1e9, gpu="H100", **USD)).found
    r = job_cost(JobCostQuery(model="8B", tokens=1e9, gpu="H900", **USD))
    assert not r.found and r.suggestions


@settings(max_examples=40, deadline=None)
@given(t1=st.floats(1e6, 1e13), t2=st.floats(1e6, 1e13), u=st.floats(0.05, 1))
def test_more_tokens_never_cost_less(t1: float, t2: float, u: float) -> None:
    t1, t2 = sorted((t1, t2))
    a = job_cost(
        JobCostQuery(params_b=8, tokens=t1, gpu="H100", utilisation=u, rate_per_hour=2, **USD)
    )
    b = job_cost(
        JobCostQuery(params_b=8, tokens=t2, gpu="H100", utilisation=u, rate_per_hour=2, **USD)
    )
    assert (b.total_cost or 0) >= (a.total_cost or 0)
