"""Property tests: bad numbers give a ValidationError, never another exception; results stay finite."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from assistant.tools.budget import BudgetQuery, plan_budget
from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy
from assistant.tools.cost import (
    ForgottenQuery,
    RentQuery,
    StorageQuery,
    forgotten_instance,
    rent_cost,
    storage_cost,
)
from assistant.tools.spot import SpotQuery, spot_vs_dedicated

BAD = st.sampled_from(
    [0.0, -0.0, -1.0, -1e-9, float("nan"), float("inf"), float("-inf"), 1e12, 1e300]
)
ANY_FLOAT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.floats(min_value=1e-6, max_value=1e7)
)
MONEY = {"currency": "USD", "usd_per_eur": 1.08}
# Fields that may be negative by meaning: renting cheaper than the electricity bill.
SIGNED = {"saving_per_hour", "usd_per_eur"}

CALCS: list[tuple[type[BaseModel], Callable[[Any], BaseModel], dict[str, Any], str]] = [
    (RentQuery, rent_cost, {"rate_per_hour": 2.0}, "hours"),
    (RentQuery, rent_cost, {"hours": 10.0}, "rate_per_hour"),
    (SpotQuery, spot_vs_dedicated, {"spot_rate": 0.8, "dedicated_rate": 2.5}, "job_hours"),
    (SpotQuery, spot_vs_dedicated, {"job_hours": 24.0, "dedicated_rate": 2.5}, "spot_rate"),
    (
        SpotQuery,
        spot_vs_dedicated,
        {"job_hours": 24.0, "spot_rate": 0.8, "dedicated_rate": 2.5},
        "checkpoint_interval_h",
    ),
    (RentVsBuyQuery, rent_vs_buy, {"rent_rate": 0.5, "power_w": 450.0}, "purchase_price"),
    (RentVsBuyQuery, rent_vs_buy, {"purchase_price": 2000.0, "rent_rate": 0.5}, "hours_per_day"),
    (ForgottenQuery, forgotten_instance, {"rate_per_hour": 3.0}, "hours"),
    (StorageQuery, storage_cost, {"days": 30.0}, "gb"),
    (StorageQuery, storage_cost, {"gb": 500.0}, "days"),
    (BudgetQuery, plan_budget, {}, "budget"),
]


def _numbers(value: Any, path: str = "") -> list[tuple[str, float]]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [(path, float(value))]
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _numbers(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [n for i, v in enumerate(value) for n in _numbers(v, f"{path}[{i}]")]
    return []


def _check_result(result: BaseModel) -> None:
    for path, number in _numbers(result.model_dump()):
        assert math.isfinite(number), f"{path} = {number}"
        if path.rsplit(".", 1)[-1] not in SIGNED:
            assert number >= 0, f"{path} = {number}"


@pytest.mark.parametrize(
    ("model", "func", "fixed", "field"), CALCS, ids=lambda x: getattr(x, "__name__", str(x))
)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(bad=BAD)
def test_bad_numbers_are_validation_errors(model, func, fixed, field, bad: float) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as info:
        func(model(**fixed, **{field: bad}, **MONEY))
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("model", "func", "fixed", "field"), CALCS, ids=lambda x: getattr(x, "__name__", str(x))
)
@settings(max_examples=60, deadline=None)
@given(value=ANY_FLOAT)
def test_any_number_is_a_result_or_a_validation_error(
    model, func, fixed, field, value: float
) -> None:  # type: ignore[no-untyped-def]
    try:
        query = model(**fixed, **{field: value}, **MONEY)
    except ValidationError:
        return
    _check_result(func(query))


@settings(max_examples=200, deadline=None)
@given(
    job=st.floats(min_value=1e-3, max_value=1e5),
    rate=st.floats(min_value=0, max_value=60),
    interval=st.one_of(st.none(), st.floats(min_value=0.01, max_value=1e5)),
    restart=st.floats(min_value=0, max_value=1000),
)
def test_spot_model_is_finite_and_never_beats_physics(
    job: float, rate: float, interval: float | None, restart: float
) -> None:
    r = spot_vs_dedicated(
        SpotQuery(job_hours=job, spot_rate=0.8, dedicated_rate=2.5, interruptions_per_hour=rate,
                  checkpoint_interval_h=interval, restart_overhead_h=restart, **MONEY)
    )  # fmt: skip
    _check_result(r)
    if r.spot.finishes:
        assert r.spot.expected_hours is not None
        assert r.spot.expected_hours >= job * (1 - 1e-9)  # interruptions never make a job shorter


@settings(max_examples=100, deadline=None)
@given(
    price=st.floats(min_value=1, max_value=1e7),
    rent=st.floats(min_value=1e-3, max_value=1e4),
    power=st.floats(min_value=0, max_value=1e4),
    hours=st.floats(min_value=0.01, max_value=24),
)
def test_break_even_satisfies_its_equation(
    price: float, rent: float, power: float, hours: float
) -> None:
    r = rent_vs_buy(RentVsBuyQuery(purchase_price=price, rent_rate=rent, power_w=power, hours_per_day=hours,
                                   electricity_price_per_kwh=0.25, **MONEY))  # fmt: skip
    _check_result(r)
    if r.break_even_hours is not None:
        # at break-even, renting costs what owning costs
        owning = price + r.break_even_hours * power / 1000 * 0.25
        assert r.break_even_hours * rent == pytest.approx(owning, rel=1e-6)


@settings(max_examples=50, deadline=None)
@given(
    budget=st.floats(min_value=0.01, max_value=1e9),
    parts=st.lists(st.integers(1, 9), min_size=1, max_size=9),
)
def test_budget_lines_add_up(budget: float, parts: list[int]) -> None:
    plan = plan_budget(BudgetQuery(budget=budget, parts=parts, **MONEY))
    _check_result(plan)
    assert sum(line.amount for line in plan.lines) == pytest.approx(budget)


@pytest.mark.parametrize("parts", [[0], [10], [-1], []])
def test_budget_rejects_unknown_parts(parts: list[int]) -> None:
    with pytest.raises(ValidationError, match="part"):
        BudgetQuery(budget=200, parts=parts)


def test_huge_inputs_have_clear_messages() -> None:
    with pytest.raises(ValidationError, match="less than or equal to 1000000"):
        RentQuery(hours=2e9, rate_per_hour=1)
    with pytest.raises(ValidationError, match="budget: 1e\\+12 EUR is more than 1,000,000,000 EUR"):
        BudgetQuery(budget=1e12, currency="EUR")
    with pytest.raises(ValidationError, match="finite number"):
        SpotQuery(job_hours=float("nan"), spot_rate=1, dedicated_rate=2)


WILD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=1e-6, max_value=1e9),
    st.sampled_from([0.0, 1e-4, 0.01, 1.0, 24.0, 48.0, 1e6, 1e7, 1e9]),
)


def _float_fields(model: type[BaseModel]) -> list[str]:
    return [
        name
        for name, info in model.model_fields.items()
        if name != "usd_per_eur" and "float" in str(info.annotation)
    ]


@pytest.mark.parametrize(
    ("model", "func", "fixed"),
    [(RentQuery, rent_cost, {"gpu": "H100"}), (SpotQuery, spot_vs_dedicated, {}),
     (RentVsBuyQuery, rent_vs_buy, {}), (ForgottenQuery, forgotten_instance, {"gpu": "RTX 4090"}),
     (StorageQuery, storage_cost, {}), (BudgetQuery, plan_budget, {})],
    ids=lambda x: getattr(x, "__name__", ""),
)  # fmt: skip
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_numeric_field_at_once(model, func, fixed, data) -> None:  # type: ignore[no-untyped-def]
    values = {
        name: data.draw(st.one_of(st.none(), WILD), label=name) for name in _float_fields(model)
    }
    values = {k: v for k, v in values.items() if v is not None}
    try:
        query = model(**fixed, **values, **MONEY)
    except ValidationError:
        return
    _check_result(func(query))


def test_money_is_bounded_in_euros_whatever_the_currency() -> None:
    """An A100 at $1.19/h is about 19,000 rupiah an hour: a real price, not a typo; $20,000 an
    hour is a typo in any currency."""
    assert RentQuery(hours=100, rate_per_hour=18_982.9, currency="IDR").rate_per_hour == 18_982.9
    with pytest.raises(ValidationError, match="rate_per_hour: 20000 USD is more than 10,000 EUR"):
        RentQuery(hours=1, rate_per_hour=20_000, currency="USD")
