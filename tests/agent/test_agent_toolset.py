"""Every tool the agent sees: one contract, JSON results, and failures as short text."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, Field

from assistant.agent.toolset import TOOL_NAMES, TOOL_SPECS, call_tool, input_model_of, resolve

EXPECTED_NAMES = (
    "gpu_lookup",
    "gpu_compare",
    "gpu_capability",
    "rent_cost",
    "spot_vs_dedicated",
    "rent_vs_buy",
    "forgotten_instance",
    "storage_cost",
    "budget_plan",
    "workload_fit",
    "models_for",
    "guide_coverage",
    "llm_speed",
    "power_cost",
    "purchase_price",
    "job_cost",
    "recommend_gpus",
    "cloud_instances",
    "notebook_tiers",
    "software_support",
    "card_readiness",
    "explain",
    "probe_gpus",
    "search_corpus",
)


def test_the_registry_lists_the_agreed_names_once() -> None:
    assert TOOL_NAMES == EXPECTED_NAMES


@pytest.mark.parametrize("spec", TOOL_SPECS, ids=lambda s: s.name)
def test_tool_contract(spec) -> None:
    """Name, description, and every input field typed and described: the model's whole schema."""
    from assistant.agent.toolset import make_tool

    func, model = resolve(spec)
    tool = make_tool(spec)
    assert tool.name == spec.name
    assert len(tool.description) >= 20, "the docstring is the model's only guide to the tool"
    assert tool.args_schema is model
    schema = model.model_json_schema()
    for field_name, field in model.model_fields.items():
        assert field.annotation is not None, f"{spec.name}.{field_name} has no type"
        assert field.description, f"{spec.name}.{field_name} has no description"
        assert field_name in schema["properties"]
    assert callable(func)


class _Echo(BaseModel):
    n: int = Field(ge=0, description="a count")


def test_results_are_json_text() -> None:
    text = call_tool("echo", lambda q: _Echo(n=q.n * 2), _Echo, {"n": 3})
    assert json.loads(text) == {"n": 6}


def test_nan_in_a_result_becomes_null() -> None:
    class Out(BaseModel):
        x: float

    assert json.loads(call_tool("nan", lambda q: Out(x=float("nan")), _Echo, {"n": 1})) == {
        "x": None
    }


def test_a_crashing_tool_returns_a_short_error_without_traceback() -> None:
    def boom(q: _Echo) -> _Echo:
        raise RuntimeError("disk on fire\n" + "x" * 1000)

    value = json.loads(call_tool("boom", boom, _Echo, {"n": 1}))
    assert set(value) == {"error"}
    assert value["error"].startswith("boom failed (RuntimeError): disk on fire x")
    assert len(value["error"]) <= 300
    assert "Traceback" not in value["error"]


def test_a_secret_in_a_tool_error_is_redacted(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET-1234567890")

    def leaky(q: _Echo) -> _Echo:
        raise ValueError("bad key sk-test-SECRET-1234567890")

    value = json.loads(call_tool("leaky", leaky, _Echo, {"n": 1}))
    assert "SECRET" not in value["error"]
    assert value["error"] == "leaky failed (ValueError): bad key ***"


def test_invalid_arguments_are_described_field_by_field() -> None:
    value = json.loads(call_tool("echo", lambda q: q, _Echo, {"n": -1}))
    assert value == {"error": "invalid arguments — n: Input should be greater than or equal to 0"}


def test_input_model_is_read_from_the_first_parameter_even_when_optional() -> None:
    def probe(options: _Echo | None = None) -> _Echo:
        return _Echo(n=0)

    assert input_model_of(probe) is _Echo


def test_a_broken_tool_module_leaves_the_others_available(monkeypatch) -> None:
    from assistant.agent import toolset

    broken = toolset.ToolSpec("broken", "assistant.agent.toolset", "no_such_function")
    monkeypatch.setattr(toolset, "TOOL_SPECS", (*toolset.TOOL_SPECS[:2], broken))
    assert [s.name for s in toolset.available_specs()] == ["gpu_lookup", "gpu_compare"]
