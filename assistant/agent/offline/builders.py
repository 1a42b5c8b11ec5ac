"""Tool arguments from entities: one builder per tool, with the tools' own field names.

A builder may offer fields a tool lacks or values it rejects: the planner keeps only the input
model's fields and validates them before calling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.entities import Entities

if TYPE_CHECKING:
    from assistant.agent.offline.reading import Reading

MAX_CARDS = 3
# Defaults the answer states when the question leaves them out.
DEFAULT_RENT_HOURS = 1.0
DEFAULT_JOB_HOURS = 8.0
CORPUS_SPOT_RATE = 0.80  # the guide's quiz: spot at 0.80 $/h ...
CORPUS_DEDICATED_RATE = 2.50  # ... against dedicated at 2.50 $/h
DEFAULT_STORAGE_GB = 500.0  # the guide's example disk
# "A small budget" with no amount: about what the guide's entry card (a used RTX 3060 12 GB) costs.
SMALL_BUDGET_EUR = 400.0


def named_cards(ent: Entities) -> list[str]:
    """The cards a question names, known first, then unknown ones (at most MAX_CARDS)."""
    return [*ent.gpus, *ent.unknown_gpus][:MAX_CARDS]


def _currency(ent: Entities) -> str | None:
    return ent.money[0].currency if ent.money else None


def _lookup(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    return [{"gpu": card, "name": card} for card in named_cards(ent)]


def _compare(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = named_cards(ent)
    return [{"gpus": cards, "names": cards}] if len(cards) >= 2 else []


def _capability(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    topics = list(ent.topics) or [f"part {p}" for p in ent.parts]
    calls = []
    for card in named_cards(ent)[:2]:
        for topic in topics[:2]:
            calls.append({"gpu": card, "topic": topic})
    return calls


def _rates(ent: Entities) -> list[float]:
    return [m.amount for m in ent.hourly_rates]


def _rent(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    hours = ent.total_hours or DEFAULT_RENT_HOURS
    rates = _rates(ent)
    cards: list[str | None] = list(named_cards(ent)) or [None]
    kind = "spot" if "spot" in reading.text.lower() else None
    calls = []
    for card in cards[:2]:
        calls.append(
            {"gpu": card, "hours": hours, "rate_per_hour": rates[0] if rates else None, "kind": kind,
             "currency": _currency(ent)}
        )  # fmt: skip
    return calls


_OPTION_RATE = re.compile(
    r"\b(spot|pre-?emptible|préemptible|interruptible|on-demand|à la demande|dedicated|dédiée?s?|reserved)\b"
    r"[^\d.?!]{0,18}?(\d+(?:[.,]\d+)?)(?!\s*(?:h\b|hours?|heures?|hrs?|min\w*|%|days?|jours?|gb|go|-hour))",
    re.IGNORECASE,
)


def spot_rates(ent: Entities, text: str) -> tuple[float, float] | None:
    """(spot, dedicated) rates the question gives, even with a currency on only one of them."""
    rates = sorted(_rates(ent))
    if len(rates) >= 2:
        return rates[0], rates[-1]
    found: dict[str, float] = {}
    for m in _OPTION_RATE.finditer(text):
        kind = "spot" if re.match(r"spot|pre|pré|inter", m.group(1), re.I) else "dedicated"
        found.setdefault(kind, float(m.group(2).replace(",", ".")))
    if len(found) == 2 and found["spot"] < found["dedicated"]:
        return found["spot"], found["dedicated"]
    return None


def _spot(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    given = spot_rates(ent, reading.text)
    spot, dedicated = given or (CORPUS_SPOT_RATE, CORPUS_DEDICATED_RATE)
    currency = (_currency(ent) or "USD") if given else "USD"
    checkpoint = next((d.hours for d in ent.durations if d.unit == "minute" and d.hours), None)
    job = next((d.hours for d in ent.durations if d.hours and d.unit != "minute"), None)
    return [
        {"job_hours": job or DEFAULT_JOB_HOURS, "spot_rate": spot, "dedicated_rate": dedicated,
         "checkpoint_interval_h": checkpoint, "currency": currency}
    ]  # fmt: skip


_BUY_AT = re.compile(r"\b(?:buy\w*|purchas\w*|own|acheter|achat|ach[eè]te\w*|acqu[ée]rir)\b", re.I)
_RENT_AT = re.compile(r"\b(?:rent\w*|hire|louer|location|lou[ée]e?s?)\b", re.I)


def buy_and_rental_cards(ent: Entities, text: str) -> tuple[str | None, str | None]:
    """The card to buy and, when the question names another one to rent, that card.

    "Buy a used 3090 or rent an A100?": the card named after the buying word is bought, the one
    named after the renting word is rented (the catalog lists mentions in the order written).
    """
    cards = list(ent.gpus)
    if len(cards) < 2:
        return (cards[0] if cards else None), None
    buy, rent = _BUY_AT.search(text), _RENT_AT.search(text)
    if buy is None or rent is None:
        return cards[0], None
    return (cards[0], cards[1]) if buy.start() < rent.start() else (cards[1], cards[0])


def rental_rate(card: str, currency: str) -> float | None:
    """A card's typical rental price per hour in `currency` (None without price data)."""
    from assistant.knowledge.prices import hourly_price_range

    found = hourly_price_range(card, currency=currency)  # type: ignore[arg-type]
    return found.typical if found is not None else None


def _rent_vs_buy(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    from assistant.settings import get_settings

    bought, rented = buy_and_rental_cards(ent, reading.text)
    card = bought or (named_cards(ent) or ["RTX 4090"])[0]
    rates = _rates(ent)
    prices = [m.amount for m in ent.budgets]
    currency = _currency(ent)
    rate = rates[0] if rates else None
    if rate is None and rented is not None:
        currency = currency or get_settings().currency
        rate = rental_rate(rented, currency)
    return [
        {"gpu": card, "hours_per_day": ent.hours_per_day, "condition": ent.condition,
         "rent_rate": rate, "purchase_price": prices[0] if prices else None,
         "power_w": ent.power_w, "currency": currency}
    ]  # fmt: skip


def _forgotten(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    cards = named_cards(ent) or ["H100"]
    rates = _rates(ent)
    return [
        {"gpu": cards[0], "hours": ent.total_hours, "rate_per_hour": rates[0] if rates else None,
         "currency": _currency(ent), "gpu_count": ent.gpu_count}
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
        "num_gpus": ent.gpu_count,
    }  # fmt: skip
    cards = named_cards(ent)
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
    from assistant.agent.offline.cues import asks_small_budget

    budget = ent.budgets[0] if ent.budgets else None
    amount, currency = (budget.amount, budget.currency) if budget else (None, None)
    if budget is None and asks_small_budget(reading.text):
        amount, currency = SMALL_BUDGET_EUR, "EUR"  # stated in the answer
    features = [t for t in ent.topics if not t.startswith("part")]
    part = ent.up_to_part or (max(ent.parts) if ent.parts else None)
    return [
        {"goal": reading.text[:500], "budget": amount,
         "currency": currency, "mode": ent.mode,
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
