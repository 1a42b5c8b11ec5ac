"""Answers from the cost tools: renting, spot vs dedicated, rent vs buy, a forgotten instance,
storage while stopped, and a learning budget."""

from __future__ import annotations

import re
from typing import Any

from assistant.agent.offline.cues import mentions_rent
from assistant.agent.offline.language import Lang
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.render_gpu import render_unknown
from assistant.agent.offline.texts import (
    bullet_list,
    hours,
    in_language,
    money,
    money_range,
    num,
    pick,
)


def assumptions_line(result: dict[str, Any], lang: Lang) -> str:
    kept = [a for a in (in_language(a, lang) for a in result.get("assumptions") or []) if a]
    if lang == "fr":
        rate = result.get("usd_per_eur")
        if rate:
            kept.insert(0, f"Taux de change supposé : 1 EUR = {num(rate, lang, 4)} USD (réglable).")
    if not kept:
        return ""
    return f"<sub>{pick(lang, 'Assumptions: ', 'Hypothèses : ')}" + " ".join(kept[:3]) + "</sub>"


def _unknown(result: dict[str, Any], lang: Lang) -> str | None:
    if result.get("found") is False and result.get("gpu"):
        # A known card without the price data the tool needs: say which data is missing.
        message = str(result.get("message") or "")
        purchase = "purchase" in message
        kind_fr = "d'achat" if purchase else "de location"
        return pick(
            lang,
            f"**No {'purchase' if purchase else 'rental'} price for {result['gpu']}** in the price data, "
            "so I can't give a figure (I never make one up). Give the price and I'll compute it.",
            f"**Pas de prix {kind_fr} pour {result['gpu']}** dans les données "
            "de prix : je ne peux donc pas donner de chiffre (je n'en invente jamais). Donnez le prix et je ferai le calcul.",
        )
    if result.get("found") is False:
        name = (
            str(result.get("message") or "").split("'")[1]
            if "'" in str(result.get("message"))
            else "?"
        )
        return render_unknown(name, list(result.get("suggestions") or []), lang)
    return None


def render_rent(result: dict[str, Any], question: str, lang: Lang) -> str:
    unknown = _unknown(result, lang)
    if unknown:
        return unknown
    cur = result.get("currency")
    gpu = result.get("gpu") or pick(lang, "the card", "la carte")
    h = result.get("hours")
    cost = money_range(result.get("cost_low"), result.get("cost_high"), cur, lang)
    rate = money_range(result.get("rate_low"), result.get("rate_high"), cur, lang)
    typical = result.get("cost_typical")
    text = pick(
        lang,
        f"**Renting {gpu} for {hours(h, lang)}: {cost}**",
        f"**Louer {gpu} pendant {hours(h, lang)} : {cost}**",
    )
    if typical is not None and result.get("cost_low") != result.get("cost_high"):
        text += pick(
            lang,
            f", typically {money(typical, cur, lang)} ({money(result.get('rate_typical'), cur, lang)}/h)",
            f", typiquement {money(typical, cur, lang)} ({money(result.get('rate_typical'), cur, lang)}/h)",
        )
    text += "."
    from assistant.agent.offline.entities import extract_entities

    # Amounts as the question reads them, card numbers aside ("a 5090 at 2500 €" is 2500 €).
    budget = next((m for m in extract_entities(question).budgets if m.currency == cur), None)
    if budget is not None and result.get("rate_typical") and not parse_durations(question):
        low_rate, high_rate = result.get("rate_low"), result.get("rate_high")
        span = (
            f"{num(budget.amount / high_rate, lang, 0)}–{num(budget.amount / low_rate, lang, 0)} h"
            if low_rate and high_rate and low_rate != high_rate
            else ""
        )
        # The question gives money, not hours: the hours it buys are the answer.
        text = pick(
            lang,
            f"**{money(budget.amount, cur, lang)} buys about {num(budget.amount / result['rate_typical'], lang, 0)} h of {gpu}**"
            + (f" ({span} across the prices seen)" if span else "")
            + f", at a typical {money(result.get('rate_typical'), cur, lang)}/h.",
            f"**{money(budget.amount, cur, lang)} donnent environ {num(budget.amount / result['rate_typical'], lang, 0)} h de {gpu}**"
            + (f" ({span} selon les prix relevés)" if span else "")
            + f", à {money(result.get('rate_typical'), cur, lang)}/h en général.",
        )
    if result.get("n_prices"):
        text += pick(
            lang,
            f" Hourly rates seen: {rate} ({result['n_prices']} sourced price"
            + ("s" if result["n_prices"] > 1 else "")
            + ").",
            f" Tarifs horaires relevés : {rate} ({result['n_prices']} prix sourcé"
            + ("s" if result["n_prices"] > 1 else "")
            + ").",
        )
    return "\n\n".join(p for p in (text, assumptions_line(result, lang)) if p)


def render_forgotten(result: dict[str, Any], question: str, lang: Lang) -> str:
    unknown = _unknown(result, lang)
    if unknown:
        return unknown
    cur = result.get("currency")
    count = result.get("gpu_count") or 1
    gpu = (f"{count}× " if count > 1 else "") + str(result.get("gpu") or "?")
    cost = money_range(result.get("cost_low"), result.get("cost_high"), cur, lang)
    text = pick(
        lang,
        f"**A forgotten {gpu} left running {hours(result.get('hours'), lang)} costs about "
        f"{money(result.get('cost_typical'), cur, lang)}** (range {cost}). Shut instances down when you stop working.",
        f"**Une {gpu} oubliée allumée {hours(result.get('hours'), lang)} coûte environ "
        f"{money(result.get('cost_typical'), cur, lang)}** (fourchette {cost}). Éteignez vos instances.",
    )
    note = result.get("corpus_note")
    if note:
        text += "\n\n" + pick(
            lang,
            note,
            "Le guide cite ~400 $ pour une H100 oubliée un week-end (soit ~8,3 $/h sur 48 h, un tarif "
            "d'hyperscaler à la demande) : « l'erreur la plus coûteuse ».",
        )
    return "\n\n".join(p for p in (text, assumptions_line(result, lang)) if p)


def render_storage(result: dict[str, Any], question: str, lang: Lang) -> str:
    cur = result.get("currency")
    gb, days = result.get("gb"), result.get("days")
    text = pick(
        lang,
        f"**{num(gb, lang, 0)} GB kept {num(days, lang, 0)} days: {money(result.get('cost'), cur, lang)}** "
        f"({money(result.get('cost_per_day'), cur, lang)} a day) — persistent storage is billed even while "
        "the instance is stopped.",
        f"**{num(gb, lang, 0)} Go gardés {num(days, lang, 0)} jours : {money(result.get('cost'), cur, lang)}** "
        f"({money(result.get('cost_per_day'), cur, lang)} par jour) — le stockage persistant est facturé même "
        "quand l'instance est à l'arrêt.",
    )
    price = result.get("price_per_gb_month")
    if price:
        text += pick(
            lang,
            f" Price used: {money(price, cur, lang)} per GB-month.",
            f" Prix utilisé : {money(price, cur, lang)} par Go et par mois.",
        )
    return "\n\n".join(p for p in (text, assumptions_line(result, lang)) if p)


_PRICE = re.compile(r"\b(?:price|prix|cost|coûte|coute|tarif|worth|vaut)\b", re.IGNORECASE)


def _daily_use_needed(break_even_hours: Any, lang: Lang) -> str:
    """The daily use at which buying pays off within one, two and three years."""
    if not isinstance(break_even_hours, int | float) or break_even_hours <= 0:
        return ""
    parts = []
    for years in (1, 2, 3):
        per_day = break_even_hours / (365 * years)
        label = pick(
            lang,
            f"{years} year" + ("s" if years > 1 else ""),
            f"{years} an" + ("s" if years > 1 else ""),
        )
        value = (
            f"{num(per_day, lang)} h"
            if per_day <= 24
            else pick(lang, "more than 24 h", "plus de 24 h")
        )
        parts.append(f"{label}: {value}" if lang == "en" else f"{label} : {value}")
    return pick(
        lang,
        "\n\nDaily use needed for buying to pay off within " + "; ".join(parts) + ".",
        "\n\nUsage quotidien nécessaire pour rentabiliser l'achat en " + " ; ".join(parts) + ".",
    )


def _rental_card_note(question: str, lang: Lang) -> str:
    """Which card the rental rate is for, when the question rents another card than it buys."""
    from assistant.agent.offline.builders import buy_and_rental_cards
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities(question)
    _, rented = buy_and_rental_cards(ent, question)
    if rented is None or ent.hourly_rates:
        return ""
    return pick(
        lang, f" (typical rental rate of {rented})", f" (tarif horaire typique d'une {rented})"
    )


def render_buy(result: dict[str, Any], question: str, lang: Lang) -> str:
    unknown = _unknown(result, lang)
    if unknown:
        return unknown
    cur = result.get("currency")
    gpu = result.get("gpu") or "?"
    per_day = result.get("hours_per_day")
    months = result.get("break_even_months")
    if result.get("break_even_hours") is None:
        head = pick(
            lang,
            f"**Renting {gpu} stays cheaper**: at these prices buying never pays off (rent minus electricity leaves no saving).",
            f"**Louer {gpu} reste moins cher** : à ces prix, l'achat n'est jamais rentabilisé.",
        )
    else:
        head = pick(
            lang,
            f"**Buying {gpu} pays off after {num(result['break_even_hours'], lang, 0)} hours of use** — "
            f"about {num(months, lang)} months at {num(per_day, lang)} h a day (break-even).",
            f"**L'achat de {gpu} est rentabilisé après {num(result['break_even_hours'], lang, 0)} heures d'usage** — "
            f"environ {num(months, lang)} mois à {num(per_day, lang)} h par jour (seuil de rentabilité).",
        )
        if months is not None and months > 36:
            head += pick(
                lang,
                " That is long: renting is the better deal at this usage.",
                " C'est long : à ce rythme, la location est plus intéressante.",
            )
        elif months is not None and months < 12:
            head += pick(
                lang, " At this usage, buying is worth it.", " À ce rythme, l'achat vaut le coup."
            )
    if not any(d.per_day for d in parse_durations(question)):
        head += pick(
            lang,
            f" (Daily use not given: {num(per_day, lang)} h a day assumed.)",
            f" (Usage quotidien non précisé : {num(per_day, lang)} h par jour supposées.)",
        )
        head += _daily_use_needed(result.get("break_even_hours"), lang)
    if _PRICE.search(question) and not mentions_rent(question) and result.get("purchase_price"):
        head = (
            pick(
                lang,
                f"**Purchase price of {gpu}: about {money(result['purchase_price'], cur, lang)}**",
                f"**Prix d'achat de {gpu} : environ {money(result['purchase_price'], cur, lang)}**",
            )
            + pick(lang, " (median of the sourced prices).", " (médiane des prix sourcés).")
            + "\n\n"
            + head
        )
    figures = [
        pick(lang, "Purchase: ", "Achat : ")
        + money(result.get("purchase_price"), cur, lang)
        + (
            pick(
                lang,
                f" (resale {money(result.get('resale_value'), cur, lang)})",
                f" (revente {money(result.get('resale_value'), cur, lang)})",
            )
            if result.get("resale_value")
            else ""
        ),
        pick(lang, "Rent: ", "Location : ")
        + f"{money(result.get('rent_rate'), cur, lang)}/h"
        + _rental_card_note(question, lang),
        pick(lang, "Electricity: ", "Électricité : ")
        + f"{money(result.get('electricity_per_hour'), cur, lang)}/h ({num(result.get('power_w'), lang, 0)} W)",
    ]
    return "\n\n".join(p for p in (head, bullet_list(figures), assumptions_line(result, lang)) if p)
