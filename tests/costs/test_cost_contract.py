"""Every cost tool is fit to be an agent tool: a docstring, described inputs, assumptions and sources."""

from __future__ import annotations

import typing

import pytest
from pydantic import BaseModel

from assistant.tools import budget, cost

TOOLS = [
    cost.rent_cost,
    cost.spot_vs_dedicated,
    cost.rent_vs_buy,
    cost.forgotten_instance,
    cost.storage_cost,
    budget.plan_budget,
]


@pytest.mark.parametrize("func", TOOLS, ids=lambda f: f.__name__)
def test_tool_contract(func) -> None:  # type: ignore[no-untyped-def]
    assert func.__doc__ and len(func.__doc__.strip()) > 20
    hints = typing.get_type_hints(func)
    query, result = next(iter(hints.values())), hints["return"]
    assert issubclass(query, BaseModel) and issubclass(result, BaseModel)
    assert query.__doc__
    for name, field in query.model_fields.items():
        assert field.description, f"{query.__name__}.{name} has no description"
    assert query.model_config.get("allow_inf_nan") is False
    for needed in ("assumptions", "sources", "currency", "usd_per_eur", "summary"):
        assert needed in result.model_fields
    schema = query.model_json_schema()
    assert schema["properties"]
