"""LangChain tools over the deterministic tools: one registry, JSON results, errors as text.

This is the only module that turns `assistant.tools` functions into LangChain tools. Each tool's
schema is its pydantic input model and its description is the function's docstring, so the model
sees exactly what a Python caller sees.
"""

from __future__ import annotations

import importlib
import inspect
import json
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from assistant.log import get_logger, redact

if TYPE_CHECKING:
    from langchain_core.tools import StructuredTool

log = get_logger(__name__)

MAX_ERROR_CHARS = 300


@dataclass(frozen=True)
class ToolSpec:
    """Where a LangChain tool's function lives: `module.function(InputModel) -> ResultModel`."""

    name: str
    module: str
    function: str


# Every tool the agent may call, in the order they are shown to the model.
TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec("gpu_lookup", "assistant.tools.lookup", "lookup_gpu"),
    ToolSpec("gpu_compare", "assistant.tools.lookup", "compare_gpus"),
    ToolSpec("gpu_capability", "assistant.tools.capability", "check_capability"),
    ToolSpec("rent_cost", "assistant.tools.cost", "rent_cost"),
    ToolSpec("spot_vs_dedicated", "assistant.tools.cost", "spot_vs_dedicated"),
    ToolSpec("rent_vs_buy", "assistant.tools.cost", "rent_vs_buy"),
    ToolSpec("forgotten_instance", "assistant.tools.cost", "forgotten_instance"),
    ToolSpec("storage_cost", "assistant.tools.cost", "storage_cost"),
    ToolSpec("budget_plan", "assistant.tools.budget", "plan_budget"),
    ToolSpec("workload_fit", "assistant.tools.fit", "estimate_fit"),
    ToolSpec("models_for", "assistant.tools.models_for", "models_for"),
    ToolSpec("guide_coverage", "assistant.tools.coverage", "coverage"),
    ToolSpec("llm_speed", "assistant.tools.speed", "estimate_speed"),
    ToolSpec("power_cost", "assistant.tools.power", "power_cost"),
    ToolSpec("purchase_price", "assistant.tools.price", "purchase_price_lookup"),
    ToolSpec("job_cost", "assistant.tools.job_cost", "job_cost"),
    ToolSpec("recommend_gpus", "assistant.tools.recommend", "recommend"),
    ToolSpec("cloud_instances", "assistant.tools.cloud", "cloud_instances"),
    ToolSpec("notebook_tiers", "assistant.tools.cloud", "notebook_tiers"),
    ToolSpec("software_support", "assistant.tools.software", "software_support"),
    ToolSpec("card_readiness", "assistant.tools.readiness", "card_readiness"),
    ToolSpec("explain", "assistant.tools.explain", "explain"),
    ToolSpec("probe_gpus", "assistant.tools.probe", "probe_local_gpus"),
    ToolSpec("search_corpus", "assistant.agent.corpus_tool", "search_corpus"),
)

TOOL_NAMES: tuple[str, ...] = tuple(spec.name for spec in TOOL_SPECS)


def resolve(spec: ToolSpec) -> tuple[typing.Callable[..., Any], type[BaseModel]]:
    """The tool function and its pydantic input model (its first parameter's type)."""
    module = importlib.import_module(spec.module)
    func = getattr(module, spec.function)
    return func, input_model_of(func)


def input_model_of(func: typing.Callable[..., Any]) -> type[BaseModel]:
    """The pydantic model of `func`'s first parameter (`Model | None` unwrapped); else TypeError."""
    hints = typing.get_type_hints(func)
    params = list(inspect.signature(func).parameters)
    if not params:
        raise TypeError(f"{func.__name__} takes no input model")
    hint = hints.get(params[0])
    for candidate in (hint, *typing.get_args(hint)):  # unwrap `Model | None`
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    raise TypeError(f"{func.__name__}'s first parameter is not a pydantic model")


def error_text(message: str) -> str:
    """A tool failure as the JSON text the model receives (and can relay to the user)."""
    message = redact(" ".join(message.split()))
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 1] + "…"
    return json.dumps({"error": message}, ensure_ascii=False)


def validation_text(exc: ValidationError) -> str:
    """Invalid tool arguments as the error text the model receives: `field: message` each."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()))
        # a check across fields names its field in its own message
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return error_text("invalid arguments — " + "; ".join(parts))


def result_text(result: Any) -> str:
    """A tool result as JSON text (NaN and infinities become null)."""
    if isinstance(result, BaseModel):
        return result.model_dump_json()
    if isinstance(result, list | tuple):
        items = [r.model_dump(mode="json") if isinstance(r, BaseModel) else r for r in result]
        return json.dumps(items, ensure_ascii=False, default=str)
    return json.dumps(result, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class ToolOutcome:
    """A finished call: the JSON text a model sees, the result model when the call succeeded."""

    text: str
    result: Any = None
    failed: bool = False


def run_tool(
    name: str, func: typing.Callable[..., Any], model: type[BaseModel], arguments: dict[str, Any]
) -> ToolOutcome:
    """Validate the arguments and run the tool — never raise; a failure is JSON `{"error"}`.
    Money defaults the caller did not give (currency, exchange rate, electricity price) are filled
    from the settings here, at the edge, not inside the tools."""
    from assistant.money import NoExchangeRate, tool_defaults

    try:
        query = model.model_validate(tool_defaults(model, arguments))
        result = func(query)
        return ToolOutcome(result_text(result), result=result)
    except ValidationError as exc:
        return ToolOutcome(validation_text(exc), failed=True)
    except NoExchangeRate as exc:  # a price (a default, or the data's) in a currency with no rate
        return ToolOutcome(error_text(str(exc)), failed=True)
    except Exception as exc:  # a tool bug must not end the conversation
        log.warning("tool %s failed: %s: %s", name, type(exc).__name__, redact(str(exc)))
        return ToolOutcome(error_text(f"{name} failed ({type(exc).__name__}): {exc}"), failed=True)


def call_tool(
    name: str, func: typing.Callable[..., Any], model: type[BaseModel], arguments: dict[str, Any]
) -> str:
    """Validate the arguments, run the tool, and return JSON text — never raise."""
    return run_tool(name, func, model, arguments).text


@dataclass(frozen=True)
class RegisteredTool:
    """A tool as every interface shows it (the agent, the MCP server): its name, the function's
    docstring as description, and its pydantic input model as schema."""

    name: str
    description: str
    model: type[BaseModel]
    func: typing.Callable[..., Any]

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the input model."""
        return self.model.model_json_schema()

    def run(self, arguments: dict[str, Any]) -> ToolOutcome:
        """Validate `arguments` and run the tool (never raises)."""
        return run_tool(self.name, self.func, self.model, arguments)


def registered(spec: ToolSpec) -> RegisteredTool:
    """The tool that `spec` names, with its description and input model."""
    func, model = resolve(spec)
    return RegisteredTool(spec.name, inspect.getdoc(func) or spec.name, model, func)


def registered_tools() -> list[RegisteredTool]:
    """Every available tool of TOOL_SPECS, in order."""
    return [registered(spec) for spec in available_specs()]


def make_tool(spec: ToolSpec) -> StructuredTool:
    """One LangChain tool: the input model as schema, the docstring as description."""
    from langchain_core.tools import StructuredTool

    tool = registered(spec)

    def run(**arguments: Any) -> str:
        """The tool's JSON text for these arguments (a failure comes back as text too)."""
        return tool.run(arguments).text

    return StructuredTool.from_function(
        func=run,
        name=tool.name,
        description=tool.description,
        args_schema=tool.model,
        handle_validation_error=validation_text,
    )


def available_specs() -> list[ToolSpec]:
    """The registered tools whose module can be imported (all of them in a complete install)."""
    found = []
    for spec in TOOL_SPECS:
        try:
            resolve(spec)
        except Exception as exc:  # one broken tool module must not take the others down
            log.warning("tool %s unavailable: %s: %s", spec.name, type(exc).__name__, exc)
            continue
        found.append(spec)
    return found


@lru_cache(maxsize=1)
def build_tools() -> tuple[StructuredTool, ...]:
    """Every available tool, built once per process."""
    return tuple(make_tool(spec) for spec in available_specs())
