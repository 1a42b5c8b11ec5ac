"""A learning budget spread over the guide: "I have 200 € to learn GPU programming"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import assumptions_line
from assistant.agent.offline.texts import bullet_list, in_language, money, num, pick
from assistant.language import Lang
from assistant.tools.budget import BudgetLine, BudgetPlan

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def _line(line: BudgetLine, cur: str, lang: Lang) -> str:
    amount = money(line.amount, cur, lang)
    parts = ", ".join(str(p) for p in line.parts)
    item = line.item.lower()
    if item.startswith("free"):
        return pick(
            lang,
            f"{amount}: Colab (free T4) and Kaggle (30 GPU-hours a week) — parts {parts}",
            f"{amount} : Colab gratuit (T4) et Kaggle (30 h de GPU par semaine) — parties {parts}",
        )
    if item.startswith("reserve"):
        return pick(
            lang,
            f"{amount}: reserve (overruns, storage)",
            f"{amount} : réserve (dépassements, stockage)",
        )
    span = f"{num(line.hours_low, lang, 0)}–{num(line.hours_high, lang, 0)} h"
    alt = line.note or ""
    alt_fr = alt.replace("or ", "ou ").replace(" h of ", " h de ")
    return pick(
        lang,
        f"{amount}: {span} of {line.gpu} ({alt}) — parts {parts}",
        f"{amount} : {span} de {line.gpu} ({alt_fr}) — parties {parts}",
    )


def _note(note: str, lang: Lang) -> str | None:
    if "old card" in note or "GTX 1660" in note:
        return pick(
            lang,
            note,
            "N'achetez pas de matériel avec ça : ~200 € donnent une carte ancienne (GTX 1660, sans "
            "tensor cores) qui ne couvre pas le contenu moderne ; la location donne accès au matériel de pointe.",
        )
    return in_language(note, lang)


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
    notes = [n for n in (_note(n, lang) for n in result.notes) if n]
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
    if not ent.budgets:
        return []
    parts = sorted(set(ent.parts)) or (
        list(range(1, ent.up_to_part + 1)) if ent.up_to_part else None
    )
    budget = ent.budgets[0]
    return [{"budget": budget.amount, "currency": budget.currency, "parts": parts}]


SKILL = Skill(
    tool="budget_plan",
    result=BudgetPlan,
    build=build,
    render=render,
    search_hint="budget apprendre répartition Colab location",
    slots=("money", "parts", "up_to_part"),
    needs=("money",),
    concepts=("budget", "learn"),
    fallback="recommend_gpus",
)
