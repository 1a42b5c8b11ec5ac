"""A learning budget spread over the guide: "I have 200 € to learn GPU programming"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import assumptions_line
from assistant.agent.offline.texts import bullet_list, in_language, money, num, pick
from assistant.language import Lang
from assistant.tools.budget import BudgetLine, BudgetPlan
from assistant.tools.recommend.goal import about_learning, workload_in

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


# The few words of the plan's lines that change in French (the figures come from the tool).
_LINE_WORDS_FR = (
    (" and ", " et "),
    ("or ", "ou "),
    (" h of ", " h de "),
    ("GPU-hours a week", "h de GPU par semaine"),
)


def _fr(text: str) -> str:
    for en, fr in _LINE_WORDS_FR:
        text = text.replace(en, fr)
    return text


def _line(line: BudgetLine, cur: str, lang: Lang) -> str:
    amount = money(line.amount, cur, lang)
    parts = ", ".join(str(p) for p in line.parts)
    item = line.item.lower()
    if item.startswith("free"):
        return pick(
            lang,
            f"{amount}: free tiers, {line.where} — parts {parts}",
            f"{amount} : offres gratuites, {_fr(line.where)} — parties {parts}",
        )
    if item.startswith("reserve"):
        return pick(
            lang,
            f"{amount}: reserve (overruns, storage)",
            f"{amount} : réserve (dépassements, stockage)",
        )
    span = f"{num(line.hours_low, lang, 0)}–{num(line.hours_high, lang, 0)} h"
    alt = line.note or ""
    return pick(
        lang,
        f"{amount}: {span} of {line.gpu} ({alt}) — parts {parts}",
        f"{amount} : {span} de {line.gpu} ({_fr(alt)}) — parties {parts}",
    )


def _notes(result: BudgetPlan, lang: Lang) -> list[str]:
    """The tool's notes in the answer's language (its own French, never rewritten here)."""
    if lang != "fr":
        return list(result.notes)
    if len(result.notes_fr) == len(result.notes):
        return list(result.notes_fr)
    return [n for n in (in_language(n, lang) for n in result.notes) if n]


def render(result: BudgetPlan, question: str, lang: Lang) -> str:
    """The plan for the amount, line by line, then the guide's advice."""
    cur = result.currency
    total = money(result.budget, cur, lang)
    head = pick(
        lang,
        f"**A plan for {total}** — free tiers first, rent the hardware you can't get for free, keep a reserve:",
        f"**Un plan pour {total}** — le gratuit d'abord, la location pour le matériel récent, une réserve :",
    )
    rows = [_line(line, cur, lang) for line in result.lines]
    notes = _notes(result, lang)
    return "\n\n".join(
        p
        for p in (
            head,
            bullet_list(rows),
            bullet_list(notes),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call planning the budget named; none without one, with hourly rates named, or when the
    budget is for something else than learning from the guide (`_for_something_else`)."""
    if not ent.spendable or _divides_by_rates(reading) or _for_something_else(ent, reading.text):
        return []
    if not _for_learning(ent, reading):
        return []
    parts = sorted(set(ent.parts)) or (
        list(range(1, ent.up_to_part + 1)) if ent.up_to_part else None
    )
    budget = ent.spendable[0]
    return [{"budget": budget.amount, "currency": budget.currency, "parts": parts}]


def _for_something_else(ent: Entities, text: str) -> bool:
    """The budget buys a machine for a model or a workload (a local LLM, image generation) rather
    than learning, or one of the cards named: a plan over the guide's parts would answer another
    question (the recommendation weighs those cards for that goal)."""
    if ent.models or ent.model_size_b or ent.options or len(ent.gpus) > 1:
        return True
    return workload_in(text) is not None and not about_learning(text)


def _for_learning(ent: Entities, reading: Reading) -> bool:
    """The budget is for learning GPU programming: the question says so, names parts of the
    guide, or follows a budget plan. A plan over the guide's parts answers nothing else (a grant
    weighing a workstation against a notebook subscription)."""
    from assistant.agent.offline.concepts import concepts_in

    return bool(
        about_learning(reading.text)
        or "learn" in concepts_in(reading.text)
        or ent.parts
        or ent.up_to_part
        or "budget_plan" in reading.previous_intents
    )


def _divides_by_rates(reading: Reading) -> bool:
    """A sum and the asker's own hourly rates: the hours each rate buys, not a plan (rent_cost)."""
    return bool(reading.entities.hourly_rates)


def _next(ent: Entities, reading: Reading) -> str | None:
    """The rates' hours, else a recommendation; an amount already paid ('I bought it for £260')
    is no budget: weighed against renting when renting is named, else nothing is planned."""
    from assistant.agent.offline.concepts import concepts_in

    if _divides_by_rates(reading):
        return None
    if ent.budgets and not ent.spendable:
        return "rent_vs_buy" if "rent" in concepts_in(reading.text) else None
    return "recommend_gpus"


SKILL = Skill(
    tool="budget_plan",
    result=BudgetPlan,
    build=build,
    render=render,
    search_hint="budget apprendre répartition Colab location",
    slots=("money", "parts", "up_to_part"),
    needs=("money",),
    concepts=("budget", "learn"),
    fallback=_next,
)
