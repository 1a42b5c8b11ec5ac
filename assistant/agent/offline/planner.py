"""From a reading of the question to tool calls, with the tools' own argument names.

Each tool intent has one builder that fills the tool's input model from the entities. The
arguments are then checked against the input model itself, so a field a tool does not have is
never sent, and a call the model would reject is dropped rather than failing the turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from assistant.agent.offline.cues import asks_which_card
from assistant.agent.offline.entities import Entities
from assistant.agent.offline.reading import Conversation, Reading, read_turn
from assistant.agent.offline.search_terms import search_query
from assistant.log import get_logger

log = get_logger(__name__)

SEARCH_TOOL = "search_corpus"
MAX_CARDS = 3
MAX_CALLS = 8
# Defaults the answer states when the question leaves them out.
DEFAULT_RENT_HOURS = 1.0
DEFAULT_JOB_HOURS = 8.0
CORPUS_SPOT_RATE = 0.80  # the guide's quiz: spot at 0.80 $/h ...
CORPUS_DEDICATED_RATE = 2.50  # ... against dedicated at 2.50 $/h
DEFAULT_STORAGE_GB = 500.0  # the guide's example disk


@dataclass(frozen=True)
class PlannedCall:
    name: str
    args: dict[str, Any]


@dataclass
class ToolResult:
    """One tool's answer as the model reads it back."""

    name: str
    args: dict[str, Any]
    result: Any = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_content(cls, name: str, args: dict[str, Any], content: str) -> ToolResult:
        try:
            value = json.loads(content)
        except ValueError:
            return cls(name=name, args=args, result=None, error=content[:300] or "no result")
        if isinstance(value, dict) and set(value) == {"error"}:
            return cls(name=name, args=args, result=None, error=str(value["error"]))
        return cls(name=name, args=args, result=value)


@lru_cache(maxsize=32)
def input_fields(tool: str) -> frozenset[str] | None:
    """The input model's field names for a tool, or None when the tool can't be imported."""
    from assistant.agent.toolset import TOOL_SPECS, resolve

    for spec in TOOL_SPECS:
        if spec.name == tool:
            try:
                _, model = resolve(spec)
            except (ImportError, AttributeError, TypeError):
                return None
            return frozenset(model.model_fields)
    return None


def _validated(tool: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """`args` restricted to the tool's fields, or None when its input model rejects them."""
    from pydantic import ValidationError

    from assistant.agent.toolset import TOOL_SPECS, resolve

    fields = input_fields(tool)
    if fields is None:
        return None
    clean = {k: v for k, v in args.items() if k in fields and v is not None}
    spec = next(s for s in TOOL_SPECS if s.name == tool)
    _, model = resolve(spec)
    try:
        model.model_validate(clean)
    except ValidationError as exc:
        kinds = {str(err.get("type")) for err in exc.errors()}
        if kinds <= {"missing", "extra_forbidden", "model_type"} or "value_error" in kinds:
            log.info("offline: dropped %s call %s: %s", tool, clean, exc.errors()[:1])
            return None
        # A value the user gave is out of range: call anyway, so the tool's own message explains it.
    return clean


def _cards(ent: Entities) -> list[str]:
    return [*ent.gpus, *ent.unknown_gpus][:MAX_CARDS]


def _currency(ent: Entities) -> str | None:
    return ent.money[0].currency if ent.money else None


def _lookup(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    return [{"gpu": card, "name": card} for card in _cards(ent)]


def _compare(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = _cards(ent)
    return [{"gpus": cards, "names": cards}] if len(cards) >= 2 else []


def _capability(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    topics = list(ent.topics) or [f"part {p}" for p in ent.parts]
    calls = []
    for card in _cards(ent)[:2]:
        for topic in topics[:2]:
            calls.append({"gpu": card, "topic": topic})
    return calls


def _rates(ent: Entities) -> list[float]:
    return [m.amount for m in ent.hourly_rates]


def _rent(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    hours = ent.total_hours or DEFAULT_RENT_HOURS
    rates = _rates(ent)
    cards: list[str | None] = list(_cards(ent)) or [None]
    kind = "spot" if "spot" in reading.text.lower() else None
    calls = []
    for card in cards[:2]:
        calls.append(
            {"gpu": card, "hours": hours, "rate_per_hour": rates[0] if rates else None, "kind": kind,
             "currency": _currency(ent)}
        )  # fmt: skip
    return calls


def _spot(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    rates = sorted(_rates(ent))
    spot, dedicated = (
        (rates[0], rates[-1]) if len(rates) >= 2 else (CORPUS_SPOT_RATE, CORPUS_DEDICATED_RATE)
    )
    currency = _currency(ent) if len(rates) >= 2 else "USD"
    checkpoint = next((d.hours for d in ent.durations if d.unit == "minute" and d.hours), None)
    job = next((d.hours for d in ent.durations if d.hours and d.unit != "minute"), None)
    return [
        {"job_hours": job or DEFAULT_JOB_HOURS, "spot_rate": spot, "dedicated_rate": dedicated,
         "checkpoint_interval_h": checkpoint, "currency": currency}
    ]  # fmt: skip


def _rent_vs_buy(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = _cards(ent) or ["RTX 4090"]
    rates = _rates(ent)
    prices = [m.amount for m in ent.budgets]
    return [
        {"gpu": cards[0], "hours_per_day": ent.hours_per_day, "condition": ent.condition,
         "rent_rate": rates[0] if rates else None, "purchase_price": prices[0] if prices else None,
         "power_w": ent.power_w, "currency": _currency(ent)}
    ]  # fmt: skip


def _forgotten(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = _cards(ent) or ["H100"]
    rates = _rates(ent)
    return [
        {"gpu": cards[0], "hours": ent.total_hours, "rate_per_hour": rates[0] if rates else None,
         "currency": _currency(ent)}
    ]  # fmt: skip


def _storage(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    gb = ent.storage_gb or ent.vram_gb or DEFAULT_STORAGE_GB
    span = next((d for d in ent.durations if d.hours and d.per_day is None), None)
    days: float | None = None
    if span is not None and span.unit in ("month", "year"):
        days = span.count * (30.0 if span.unit == "month" else 365.0)  # calendar months, as billed
    elif span is not None and span.hours and span.hours >= 24:
        days = span.hours / 24
    return [{"gb": gb, "days": days, "currency": _currency(ent)}]


def _budget(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    budgets = ent.budgets
    if not budgets:
        return []
    parts = sorted(set(ent.parts)) or (
        list(range(1, ent.up_to_part + 1)) if ent.up_to_part else None
    )
    return [{"budget": budgets[0].amount, "currency": budgets[0].currency, "parts": parts}]


_DIFFUSION = ("flux", "sd", "stable diffusion", "sdxl", "wan", "hunyuan")
_TASKS = {"lora": "lora", "qlora": "qlora", "full": "full_finetune", "inference": "inference"}


def _fit(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if model is None:
        return []
    task = _TASKS.get(ent.method or "")
    if task in (None, "inference") and model.lower().startswith(_DIFFUSION):
        task = "image_generation"
    base = {
        "model": model, "params_b": ent.model_size_b if not ent.models else None, "task": task,
        "precision": ent.precision, "context_tokens": ent.context_tokens, "batch_size": ent.batch_size,
    }  # fmt: skip
    cards = _cards(ent)
    if cards:
        return [{**base, "gpu": card} for card in cards[:2]]
    return [{**base, "vram_gb": ent.vram_gb}]


def _workload(ent: Entities) -> str | None:
    if ent.method in ("lora", "qlora"):
        return ent.method
    model = (ent.models[0] if ent.models else "").lower()
    if model.startswith(_DIFFUSION):
        return "flux"
    if ent.models or ent.model_size_b:
        return "llm_inference"
    return None


def _recommend(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    budget = ent.budgets[0] if ent.budgets else None
    features = [t for t in ent.topics if not t.startswith("part")]
    part = ent.up_to_part or (max(ent.parts) if ent.parts else None)
    return [
        {"goal": reading.text[:500], "budget": budget.amount if budget else None,
         "currency": budget.currency if budget else None, "mode": ent.mode,
         "guide_part": part if not features else None, "feature": features[0] if features else None,
         "workload": _workload(ent), "model": ent.models[0] if ent.models else None,
         "model_params_b": ent.model_size_b if not ent.models else None,
         "condition": ent.condition, "max_power_w": int(ent.power_w) if ent.power_w else None}
    ]  # fmt: skip


def _probe(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    return [{}]


BUILDERS: dict[str, Callable[[Entities, Reading], list[dict[str, Any]]]] = {
    "gpu_lookup": _lookup,
    "gpu_compare": _compare,
    "gpu_capability": _capability,
    "rent_cost": _rent,
    "spot_vs_dedicated": _spot,
    "rent_vs_buy": _rent_vs_buy,
    "forgotten_instance": _forgotten,
    "storage_cost": _storage,
    "budget_plan": _budget,
    "workload_fit": _fit,
    "recommend_gpus": _recommend,
    "probe_gpus": _probe,
}
# When an intent's tool cannot be called with what the question gives, the next one may.
FALLBACK = {
    "gpu_compare": "gpu_lookup",
    "workload_fit": "recommend_gpus",
    "budget_plan": "recommend_gpus",
    "rent_cost": "recommend_gpus",
}


def _fallback(name: str, ent: Entities) -> str | None:
    """The next tool to try when `name` can't be called with what the question gives."""
    if name == "gpu_capability":
        # A card without a named feature: its own feature list; a feature without a card: what has it.
        if _cards(ent):
            return "gpu_lookup"
        return "recommend_gpus" if ent.topics or ent.parts else None
    return FALLBACK.get(name)


def _with_companions(reading: Reading) -> list[str]:
    """The reading's tool intents, plus the ones a question implies without saying.

    A memory-fit question that names no card ("LoRA on SDXL, which card?") also asks which card.
    """
    intents = list(reading.tool_intents)
    ent = reading.entities
    if (
        "workload_fit" in intents
        and not _cards(ent)
        and not ent.vram_gb
        and "recommend_gpus" not in intents
    ) and asks_which_card(reading.text):
        intents.append("recommend_gpus")
    return intents


def tool_calls_for(reading: Reading) -> list[PlannedCall]:
    """The deterministic tool calls for a reading (without the corpus search)."""
    calls: list[PlannedCall] = []
    for intent in _with_companions(reading):
        name: str | None = intent
        while name is not None:
            built = [
                a
                for a in (
                    _validated(name, raw)
                    for raw in BUILDERS[name](reading.entities_for(intent), reading)
                )
                if a is not None
            ]
            if built:
                calls.extend(
                    PlannedCall(name, args)
                    for args in built
                    if PlannedCall(name, args) not in calls
                )
                break
            name = _fallback(name, reading.entities_for(intent))
    for card in reading.entities.unknown_gpus[:2]:
        # An unknown card always gets the catalog's own verdict, so the answer can say so.
        if not any(card in json.dumps(c.args) for c in calls):
            args = _validated("gpu_lookup", {"gpu": card, "name": card})
            if args is not None:
                calls.append(PlannedCall("gpu_lookup", args))
    return calls[:MAX_CALLS]


def plan_tool_calls(conversation: Conversation, available: set[str]) -> list[PlannedCall]:
    """Every tool call for the turn: the intents' tools, then a corpus search for citations."""
    reading = read_turn(conversation)
    if (
        reading.intents == ["greeting"]
        or reading.intents == ["declined"]
        and not reading.entities.has_facts()
    ):
        return []
    calls = tool_calls_for(reading)
    if reading.intents == ["declined"]:
        # Nothing left to do but state the catalog's facts about the cards the injected text names.
        for card in _cards(reading.entities):
            args = _validated("gpu_lookup", {"gpu": card, "name": card})
            if args is not None and PlannedCall("gpu_lookup", args) not in calls:
                calls.append(PlannedCall("gpu_lookup", args))
    query = search_query(reading)
    if query:
        args = _validated(SEARCH_TOOL, {"query": query, "k": 4})
        if args is not None:
            calls.append(PlannedCall(SEARCH_TOOL, args))
    if available:
        calls = [c for c in calls if c.name in available]
    return calls
