"""Which card to get: "best GPU to learn CUDA for 500 €?", "quelle carte pour FLUX ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.workload_fit import DIFFUSION, gb
from assistant.agent.offline.texts import bullet_list, in_language, localized_name, money, num, pick
from assistant.language import Lang
from assistant.tools.recommend import FeatureCheapest, Recommendation, RecommendOption

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

VERDICT_WORDS = {"yes": ("yes", "oui"), "partial": ("partial", "partiel"), "no": ("no", "non")}
CONDITIONS = {"used": ("used", "occasion"), "new": ("new", "neuve")}
FREE_TIERS_UNDER = 300  # budgets under this also hear about the free tiers


def _topic_label(topic: str) -> str:
    part = re.match(r"part(\d)_", topic)
    return part.group(1) if part else topic.replace("_", " ")


def _verdict_summary(verdicts: dict[str, str], lang: Lang) -> str:
    groups: dict[str, list[str]] = {}
    for topic, verdict in verdicts.items():
        groups.setdefault(verdict, []).append(_topic_label(topic))
    out = []
    sep = " : " if lang == "fr" else ": "
    for verdict in ("yes", "partial", "no"):
        items = groups.get(verdict)
        if items:
            parts = [i for i in items if i.isdigit()]
            named = [i for i in items if not i.isdigit()]
            label = pick(lang, "parts ", "parties ") + ", ".join(parts) if parts else ""
            listed = ", ".join(x for x in [label, *named] if x)
            out.append(f"{pick(lang, *VERDICT_WORDS[verdict])}{sep}{listed}")
    return pick(lang, "; ", " ; ").join(out)


def _price(option: RecommendOption, currency: str, lang: Lang) -> str:
    if option.price_low is None:
        return ""
    high = option.price_high
    return money(option.price_low, currency, lang) + (
        f" – {money(high, currency, lang)}" if high and high != option.price_low else ""
    )


def _option_line(option: RecommendOption, lang: Lang, currency: str) -> str:
    bits = [f"**{option.gpu}**"]
    if option.kind == "rent":
        bits.append(pick(lang, "rent", "location"))
        if option.rate_per_hour:
            bits.append(f"{money(option.rate_per_hour, currency, lang)}/h")
        if option.hours:
            span = num(option.hours, lang, 0)
            bits.append(pick(lang, f"≈ {span} h for the budget", f"≈ {span} h pour le budget"))
    else:
        condition = CONDITIONS.get(str(option.condition))
        bits.append(
            pick(lang, "buy", "achat") + (f" ({pick(lang, *condition)})" if condition else "")
        )
        bits.append(_price(option, currency, lang))
    specs = [
        gb(option.vram_gb, lang) if option.vram_gb else "",
        f"`{option.arch_target}`" if option.arch_target else "",
        f"{num(option.tdp_w, lang, 0)} W" if option.tdp_w else "",
    ]
    bits.append(", ".join(x for x in specs if x))
    bits.append(_verdict_summary(option.verdicts, lang))
    if option.fit:
        bits.append(in_language(option.fit, lang) or "")
    return " · ".join(b for b in bits if b)


def _note(note: str, lang: Lang) -> str | None:
    """A recommendation note; in French, corrections to the guide keep the guide's own quote."""
    if lang == "en":
        return note
    quote = re.search(r"«[^»]+»", note)
    if note.startswith("Correction") and quote:
        return f"Correction au guide : il dit {quote.group(0)} ; les documents de NVIDIA disent autrement (voir les sources)."
    return in_language(note, lang)


def _price_range(low: float, high: float, currency: str, lang: Lang) -> str:
    if low == high:
        return money(low, currency, lang)
    return f"{money(low, currency, lang)} – {money(high, currency, lang)}"


def _cheapest(item: FeatureCheapest, lang: Lang, currency: str) -> str:
    picks = []
    if item.buy is not None:
        price = _price_range(item.buy.low, item.buy.high, currency, lang)
        picks.append(
            pick(lang, f"buy {item.buy.gpu} ({price})", f"acheter {item.buy.gpu} ({price})")
        )
    if item.rent is not None:
        price = _price_range(item.rent.low, item.rent.high, currency, lang)
        picks.append(
            pick(lang, f"rent {item.rent.gpu} ({price}/h)", f"louer {item.rent.gpu} ({price}/h)")
        )
    name = localized_name(item.topic_name or item.topic, lang)
    head = pick(lang, f"Cheapest hardware for {name}: ", f"Matériel le moins cher pour {name} : ")
    return head + (pick(lang, " or ", " ou ").join(picks) if picks else "—")


def _small_budget_note(question: str, lang: Lang) -> str:
    """The amount assumed for a budget called small without one."""
    from assistant.agent.offline.cues import asks_small_budget
    from assistant.money import parse_money

    if not asks_small_budget(question) or any(m.per is None for m in parse_money(question)):
        return ""
    small = defaults().small_budget
    amount = money(small.amount, small.currency, lang)
    return pick(
        lang,
        f"(A small budget, read as {amount} at most: about the price of the guide's entry card.)",
        f"(Petit budget, compris comme {amount} au plus : environ le prix de la carte d'entrée du guide.)",
    )


def _hours_asked(question: str) -> float | None:
    """The span of time the question gives in all ('for 10 hours'), not a daily rate."""
    from assistant.agent.offline.numbers import parse_durations

    return next((d.hours for d in parse_durations(question) if d.per_day is None and d.hours), None)


def _rent_total(result: Recommendation, question: str, lang: Lang) -> str:
    """For rentals and a span of time the asker gives: what the best rental costs for it."""
    hours = _hours_asked(question)
    first = next((o for o in result.options if o.kind == "rent" and o.rate_per_hour), None)
    if hours is None or first is None or first.rate_per_hour is None:
        return ""
    total = money(first.rate_per_hour * hours, result.currency, lang)
    rate = f"{money(first.rate_per_hour, result.currency, lang)}/h"
    span = num(hours, lang, 0)
    return pick(
        lang,
        f"**Renting {first.gpu} for {span} h costs about {total}** ({span} h × {rate}, a typical rate).",
        f"**Louer {first.gpu} pendant {span} h coûte environ {total}** ({span} h × {rate}, un tarif typique).",
    )


def _named_pick(result: Recommendation, lang: Lang) -> str:
    """Among the cards the asker named: the pick, why each other one is behind or left out."""
    first, rest = result.options[0], result.options[1:]
    *others, last = result.candidates
    named = pick(lang, f"{', '.join(others)} and {last}", f"{', '.join(others)} et {last}")
    head = pick(
        lang,
        f"**Between {named}, take the {first.gpu}.**",
        f"**Entre {named}, prenez la {first.gpu}.**",
    )
    lines = [head, f"1. {_option_line(first, lang, result.currency)}"]
    lines += [f"{i}. {_option_line(o, lang, result.currency)}" for i, o in enumerate(rest[:2], 2)]
    out = _left_out(result, lang)
    return "\n".join(lines) + ("\n\n" + bullet_list(out) if out else "")


def _left_out(result: Recommendation, lang: Lang) -> list[str]:
    """Why each named card is out of the picks ("no price for it"), in the question's language."""
    return [c for c in (in_language(c, lang) for c in result.left_out) if c]


def _unstated_goal(result: Recommendation, lang: Lang) -> str:
    """No goal in the question: said first, so the picks for learning with the guide below are
    not read as the answer to a question about another workload."""
    if not result.goal_assumed:
        return ""
    return pick(
        lang,
        "**Which card depends on what you will run on it, and the question does not say**: the "
        "model and its size, images or video, training or only inference set the memory needed. "
        "Say what you run and I size it.",
        "**La carte dépend de ce que vous ferez tourner, et la question ne le dit pas** : le "
        "modèle et sa taille, images ou vidéo, entraînement ou seulement inférence fixent la "
        "mémoire nécessaire. Dites ce que vous faites tourner et je le dimensionne.",
    )


def picks_for_nothing(result: Recommendation) -> bool:
    """No goal, no budget and no cards named: the picks would only be those for learning with
    the guide, a shopping list for a question that did not ask for one."""
    return result.goal_assumed and result.budget is None and not result.candidates


def render(result: Recommendation, question: str, lang: Lang) -> str:
    """The ranked picks (or the closest when nothing fits), what the first can't do, the notes;
    with the cost of the asker's hours first when they rent."""
    currency = result.currency
    if picks_for_nothing(result):
        return _unstated_goal(result, lang)
    if result.goal_assumed:
        lines = [
            _unstated_goal(result, lang)
            + (
                pick(lang, " Within this budget, for", " Dans ce budget, pour")
                if result.budget is not None
                else pick(lang, " For", " Pour")
            )
            + pick(
                lang,
                " learning GPU programming with the guide:",
                " apprendre la programmation GPU avec le guide :",
            )
        ]
    else:
        lines = []
    lines += [
        _rent_total(result, question, lang),
        _small_budget_note(question, lang),
    ]
    if result.candidates and result.options:
        lines.append(_named_pick(result, lang))
    elif result.options:
        lines.append(pick(lang, "**Recommended:**", "**Recommandations :**"))
        lines.append(
            "\n".join(
                f"{i}. {_option_line(o, lang, currency)}"
                for i, o in enumerate(result.options[:3], 1)
            )
        )
        first = result.options[0]
        cannot = [c for c in (in_language(c, lang) for c in first.cannot) if c]
        if cannot:
            lines.append(
                pick(lang, f"What {first.gpu} can't do: ", f"Ce que {first.gpu} ne fait pas : ")
                + pick(lang, "; ", " ; ").join(cannot[:3])
            )
    else:
        lines.append(
            pick(lang, "**Nothing fits these constraints**", "**Rien ne respecte ces contraintes**")
            + (f" ({money(result.budget, currency, lang)})" if result.budget is not None else "")
            + "."
        )
        out = _left_out(result, lang)
        if result.candidates and out:
            lines.append(bullet_list(out))  # why each named card is out ("no price for it")
        if result.closest:
            lines.append(
                pick(lang, "Closest options:", "Options les plus proches :")
                + "\n"
                + "\n".join(f"- {_option_line(o, lang, currency)}" for o in result.closest[:3])
            )
    lines.extend(_cheapest(item, lang, currency) for item in result.cheapest_for_feature)
    free = [t for t in result.free_tiers if t.covers]
    if free and (not result.options or (result.budget or 0) < FREE_TIERS_UNDER):
        names = ", ".join(t.name for t in free)
        covered = len(free[0].covers)
        lines.append(
            pick(
                lang,
                f"Free: {names} cover {covered} of the goal's topics.",
                f"Gratuit : {names} couvrent {covered} des sujets visés.",
            )
        )
    notes = [n for n in (_note(n, lang) for n in result.notes) if n]
    if notes:
        lines.append(bullet_list(notes[:3]))
    return "\n\n".join(line for line in lines if line)


def _workload(ent: Entities) -> str | None:
    if ent.method in ("lora", "qlora"):
        return ent.method
    model = (ent.models[0] if ent.models else "").lower()
    if model.startswith(DIFFUSION):
        return "flux"
    if ent.method in ("full", "finetune"):
        return "training"
    if ent.models or ent.model_size_b:
        return "llm_inference"
    return None


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call with the goal, budget and constraints the question states."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.cues import asks_small_budget

    if ent.budgets and not ent.spendable and "recommend" not in concepts_in(reading.text):
        return []  # 'I bought an Arc A770 for £260; is IPEX still the way?': no card is asked for
    budget = ent.spendable[0] if ent.spendable else None
    amount, currency = (ent.spendable_total, budget.currency) if budget else (None, None)
    if budget is None and asks_small_budget(reading.text):
        small = defaults().small_budget  # stated in the answer
        amount, currency = small.amount, small.currency
    features = [t for t in ent.topics if not t.startswith("part")]
    part = ent.up_to_part or (max(ent.parts) if ent.parts else None)
    return [
        {"goal": reading.text[:500], "budget": amount,
         "currency": currency, "mode": ent.mode,
         "guide_part": part if not features else None, "feature": features[0] if features else None,
         "workload": _workload(ent), "model": ent.models[0] if ent.models else None,
         "model_params_b": ent.model_size_b if not ent.models else None,
         "condition": ent.condition, "max_power_w": int(ent.power_w) if ent.power_w else None,
         "candidates": ent.gpus if ent.options and len(ent.gpus) >= 2 else []}
    ]  # fmt: skip


SKILL = Skill(
    tool="recommend_gpus",
    result=Recommendation,
    build=build,
    render=render,
    search_hint="recommandation achat carte",
    slots=(
        "money",
        "topics",
        "parts",
        "up_to_part",
        "models",
        "model_size_b",
        "mode",
        "condition",
        "power_w",
        "method",
    ),  # fmt: skip
    concepts=("recommend",),
)
