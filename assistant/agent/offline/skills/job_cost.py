"""A whole run's cost: "how much to fine-tune an 8B model on 1B tokens on H100s?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    hourly_rates,
    money_inputs,
    named_cards,
)
from assistant.agent.offline.texts import pick
from assistant.language import Lang
from assistant.tools.job_cost import JobCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

# "1B tokens", "500 M tokens", "2 milliards de tokens", "1e9 tokens"
_TOKENS = re.compile(
    r"(\d+(?:[.,]\d+)?(?:e\d+)?)\s*(k|m|b|t|mds?|millions?|milliards?|billions?|trillions?)?\s*(?:de\s+)?tokens?\b"
    r"(?!\s*(?:/\s*s\b|per\s+sec|a\s+sec|par\s+sec))",  # '65 tokens per second' is a speed
    re.I,
)
_SCALE = {"k": 1e3, "m": 1e6, "million": 1e6, "millions": 1e6, "b": 1e9, "billion": 1e9, "billions": 1e9,
          "md": 1e9, "mds": 1e9, "milliard": 1e9, "milliards": 1e9, "t": 1e12, "trillion": 1e12, "trillions": 1e12}  # fmt: skip
# Fewer tokens than this are a prompt or a sequence's length, not the data a run trains on.
MIN_JOB_TOKENS = 10_000
_TASKS = {
    "lora": "lora",
    "qlora": "lora",
    "full": "full_finetune",
    "finetune": "full_finetune",
    "inference": "inference",
}


def tokens_in(text: str) -> float | None:
    """The token count a question names, or None."""
    m = _TOKENS.search(text)
    if not m:
        return None
    value = float(m.group(1).replace(",", "."))
    return value * _SCALE.get((m.group(2) or "").lower(), 1.0)


def render(result: JobCost, question: str, lang: Lang) -> str:
    """The total first, then GPU-hours and wall time (the tool's summary), and the formula."""
    text = f"**{pick(lang, result.summary, result.summary_fr)}**"
    if not result.found and result.suggestions:
        text += pick(lang, " Near names: ", " Noms proches : ") + ", ".join(result.suggestions[:5])
    formula = (
        f"<sub>{pick(lang, 'Formula: ', 'Formule : ')}{result.formula}</sub>"
        if result.found
        else ""
    )
    return "\n\n".join(
        p
        for p in (text, formula, assumptions_line(result.assumptions, result.usd_per_eur, lang))
        if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the model and token count, on the card named (else H100); none without both."""
    tokens = tokens_in(reading.text)
    if tokens is not None and tokens < MIN_JOB_TOKENS:
        return []  # a prompt or a sequence length ('127 tokens', '512 tokens each'), not a dataset
    if _is_context(tokens, ent):
        return []  # 'a 32k-token context': what is kept in memory, not a dataset to train on
    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if tokens is None or model is None:
        return []
    cards = named_cards(ent)
    rates = hourly_rates(ent)
    gpu = cards[0] if cards else "H100"
    return [{"model": model, "tokens": tokens, "gpu": gpu,
             "task": _TASKS.get(ent.method or "", "full_finetune"),
             "gpu_count": ent.count_of(gpu) or 1, "rate_per_hour": rates[0] if rates else None,
             **money_inputs(ent)}]  # fmt: skip


def _is_context(tokens: float | None, ent: Entities) -> bool:
    """The token count is the context length the question gives ('un contexte de 32k tokens')."""
    return (
        tokens is not None
        and ent.context_tokens is not None
        and tokens <= ent.context_tokens * CONTEXT_SLACK
    )


CONTEXT_SLACK = 1.1  # '32k' read as 32,000 tokens and as a 32,768-token context


def fallback(ent: Entities, reading: Reading) -> str | None:
    """A context length with a model: whether it still fits is the question."""
    return "workload_fit" if _is_context(tokens_in(reading.text), ent) else None


SKILL = Skill(
    tool="job_cost",
    result=JobCost,
    build=build,
    render=render,
    search_hint="coût entraînement fine-tuning heures GPU",
    slots=("gpus", "unknown_gpus", "models", "model_size_b", "method", "gpu_count", "money"),
    needs=("models", "model_size_b"),
    concepts=("job",),
    fallback=fallback,
)
