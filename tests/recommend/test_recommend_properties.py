"""Property tests: bad budgets and sizes are validation errors, good ones never raise."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.tools.recommend import RecommendQuery, recommend

BAD_BUDGETS = st.one_of(
    st.floats(max_value=-1e-12, allow_nan=False),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e10, 1e300, -0.01]),
)
BAD_PARAMS = st.sampled_from([0.0, -1.0, float("nan"), float("inf"), 1e6])
BAD_POWER = st.sampled_from([0, -1, 5001, 10**9])
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(BAD_BUDGETS)
def test_bad_budget_is_a_validation_error(budget: float) -> None:
    with pytest.raises(ValidationError):
        RecommendQuery(budget=budget)


@FEW
@given(BAD_PARAMS)
def test_bad_model_size_is_a_validation_error(size: float) -> None:
    with pytest.raises(ValidationError):
        RecommendQuery(model_params_b=size)


@FEW
@given(BAD_POWER)
def test_bad_power_is_a_validation_error(watts: int) -> None:
    with pytest.raises(ValidationError):
        RecommendQuery(max_power_w=watts)


@pytest.mark.parametrize("part", [0, 10, -1])
def test_guide_parts_are_1_to_9(part: int) -> None:
    with pytest.raises(ValidationError):
        RecommendQuery(guide_part=part)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    budget=st.one_of(st.none(), st.floats(min_value=0, max_value=1e9)),
    mode=st.sampled_from(["buy", "rent", "either"]),
    part=st.one_of(st.none(), st.integers(min_value=1, max_value=9)),
    feature=st.sampled_from([None, "wgmma", "tcgen05", "fp4", "fp8", "megakernels", "zzz"]),
    workload=st.sampled_from([None, "lora", "qlora", "flux", "llm_inference"]),
    condition=st.sampled_from(["new", "used", "any"]),
    power=st.one_of(st.none(), st.integers(min_value=1, max_value=5000)),
)
def test_valid_queries_never_raise_and_stay_within_budget(
    budget: float | None,
    mode: str,
    part: int | None,
    feature: str | None,
    workload: str | None,
    condition: str,
    power: int | None,
) -> None:
    q = RecommendQuery.model_validate(
        {"budget": budget, "mode": mode, "guide_part": part, "feature": feature,
         "workload": workload, "condition": condition, "max_power_w": power, "currency": "EUR"}
    )  # fmt: skip
    r = recommend(q)
    for o in r.options:
        assert o.within_budget
        if budget is not None and o.kind == "buy":
            assert o.price_low is not None and o.price_low <= budget + 0.01
        if budget is not None and o.kind == "rent":
            assert o.hours is not None and math.isfinite(o.hours) and o.hours >= 1
        if power is not None and o.kind == "buy":
            assert o.tdp_w is not None and o.tdp_w <= power
        if condition != "any" and o.kind == "buy":
            assert o.condition == condition
        assert o.kind in q.kinds()
        assert all(v in ("yes", "partial") for v in o.verdicts.values())
    assert [o.rank for o in r.options] == list(range(1, len(r.options) + 1))
