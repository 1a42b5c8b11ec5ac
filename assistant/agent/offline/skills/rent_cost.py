"""Renting a card for a while: "how much for 100 h of H100?", "combien d'heures pour 150 € ?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.quantities import asks_per_month
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    at_stated_rate,
    card_positions,
    card_priced,
    hourly_rates,
    hours_for,
    money_inputs,
    named_cards,
    price_unknown,
    rate_for,
)
from assistant.agent.offline.skills.rent_options import billed_words, combine
from assistant.agent.offline.texts import hours, money, money_range, num, pick
from assistant.language import Lang
from assistant.money import Currency, convert
from assistant.tools.cost import RentCost
from assistant.tools.cost_base import DAYS_PER_MONTH

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def _hours_for_budget(result: RentCost, amount: float, gpu: str, lang: Lang) -> str:
    """The question gives money, not hours: the hours it buys are the answer (÷ the GPUs)."""
    cur, n = result.currency, result.gpu_count
    typical = (result.rate_typical or 0.0) * n
    low, high = (r * n if r else r for r in (result.rate_low, result.rate_high))
    gpu = f"{n} × {gpu}" if n > 1 else gpu
    span = (
        f"{num(amount / high, lang, 0)}–{num(amount / low, lang, 0)} h"
        if low and high and low != high
        else ""
    )
    if result.n_prices == 0:  # the asker's own rate: a plain division
        return pick(
            lang,
            f"**{money(amount, cur, lang)} buys {num(amount / typical, lang, 0)} h of {gpu}** at "
            f"{money(typical, cur, lang)}/h ({money(amount, cur, lang)} ÷ {money(typical, cur, lang)}).",
            f"**{money(amount, cur, lang)} donnent {num(amount / typical, lang, 0)} h de {gpu}** à "
            f"{money(typical, cur, lang)}/h ({money(amount, cur, lang)} ÷ {money(typical, cur, lang)}).",
        )
    return pick(
        lang,
        f"**{money(amount, cur, lang)} buys about {num(amount / typical, lang, 0)} h of {gpu}**"
        + (f" ({span} across the prices seen)" if span else "")
        + f", at a typical {money(typical, cur, lang)}/h.",
        f"**{money(amount, cur, lang)} donnent environ {num(amount / typical, lang, 0)} h de {gpu}**"
        + (f" ({span} selon les prix relevés)" if span else "")
        + f", à {money(typical, cur, lang)}/h en général.",
    )


def _judge_rate(result: RentCost, quoted: float, lang: Lang) -> str | None:
    """A rate the user saw, set against the sourced prices (never echoed as a fact)."""
    low, high, typical = result.rate_low, result.rate_high, result.rate_typical
    if low is None or high is None or typical is None:
        return None
    cur, gpu = result.currency, result.gpu or "?"
    seen = f"{money(quoted, cur, lang)}/h"
    span = money_range(low, high, cur, lang)
    if quoted < low:
        verdict = pick(
            lang,
            f"**{seen} for {gpu} is cheaper than every price in the data** ({span}/h): a good deal if "
            "it is on-demand; check whether it is spot, community or a commitment.",
            f"**{seen} pour {gpu}, c'est moins que tous les prix relevés** ({span}/h) : une bonne affaire "
            "si c'est à la demande ; vérifiez s'il s'agit de spot, de communautaire ou d'un engagement.",
        )
    elif quoted <= typical:
        verdict = pick(
            lang,
            f"**Yes, {seen} for {gpu} is a good price**: at or below the typical {money(typical, cur, lang)}/h "
            f"of the sourced prices ({span}/h).",
            f"**Oui, {seen} pour {gpu} est un bon prix** : au niveau ou en dessous du tarif typique "
            f"{money(typical, cur, lang)}/h des prix relevés ({span}/h).",
        )
    elif quoted <= high:
        verdict = pick(
            lang,
            f"**{seen} for {gpu} is within the prices seen but above the typical {money(typical, cur, lang)}/h** "
            f"({span}/h): you can likely find it cheaper.",
            f"**{seen} pour {gpu} est dans la fourchette relevée mais au-dessus du tarif typique "
            f"{money(typical, cur, lang)}/h** ({span}/h) : on le trouve sans doute moins cher.",
        )
    else:
        verdict = pick(
            lang,
            f"**No, {seen} for {gpu} is expensive**: above every sourced price ({span}/h).",
            f"**Non, {seen} pour {gpu} est cher** : au-dessus de tous les prix relevés ({span}/h).",
        )
    return verdict + pick(
        lang, f" ({result.n_prices} sourced prices.)", f" ({result.n_prices} prix sourcés.)"
    )


def render(result: RentCost, question: str, lang: Lang) -> str:
    """The cost for the hours asked (or the hours a sum buys), then the rates seen."""
    unknown = price_unknown(result.gpu, result.found, result.message, result.suggestions, lang)
    if unknown:
        return unknown
    from assistant.agent.offline.entities import extract_entities

    quoted = _quoted_rate(question)
    if quoted is not None:
        judged = _judge_rate(result, quoted, lang)
        if judged:
            return "\n\n".join(
                p
                for p in (judged, assumptions_line(result.assumptions, result.usd_per_eur, lang))
                if p
            )
    cur = result.currency
    gpu = result.gpu or pick(lang, "the card", "la carte")
    asked = extract_entities(question)
    text = _cost_sentence(result, gpu, _duration_words(result, asked, lang), lang, question)
    # Amounts as the question reads them, card numbers aside ("a 5090 at 2500 €" is 2500 €).
    budget = next((m for m in asked.budgets if m.currency == cur), None)
    if budget is not None and result.rate_typical and not parse_durations(question):
        text = _hours_for_budget(result, budget.amount, gpu, lang)
    elif asked.usd_per_eur is not None and result.cost_typical is not None:
        text += " " + _converted(result.cost_typical, cur, asked.usd_per_eur, lang)
    if asked.repeats_per_year and result.cost_typical is not None:
        yearly = result.cost_typical * asked.repeats_per_year
        text += " " + _per_year(yearly, asked, cur, lang, monthly=asks_per_month(question))
    if result.n_prices:
        rate = money_range(result.rate_low, result.rate_high, cur, lang)
        plural = "s" if result.n_prices > 1 else ""
        text += pick(
            lang,
            f" Hourly rates seen: {rate} ({result.n_prices} sourced price{plural}).",
            f" Tarifs horaires relevés : {rate} ({result.n_prices} prix sourcé{plural}).",
        )
    return "\n\n".join(
        p for p in (text, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def _duration_words(result: RentCost, asked: Entities, lang: Lang) -> str:
    """'11 days (264 h)' when the question counts in days, weeks or months; else '264 h'; with
    the hours paid when a utilisation or a speed-up changes them ('a month (730 h × 25 % …)')."""
    total = result.hours
    billed = result.hours_billed if result.hours_billed is not None else total
    hours_words = billed_words(result, lang) if billed != total else hours(total, lang)
    said = next((d for d in asked.durations if d.hours == total and d.unit != "hour"), None)
    if said is None and total and total == _monthly_hours(asked):
        # '9h-19h en semaine': a month of that use, and how it adds up
        days = num(total / (asked.hours_per_day or 1.0), lang, 1)
        return pick(
            lang,
            f"a month ({num(asked.hours_per_day, lang, 1)} h a day × {days} days = {hours_words})",
            f"un mois ({num(asked.hours_per_day, lang, 1)} h par jour × {days} jours = "
            f"{hours_words})",
        )
    if said is None:
        return hours_words
    return f"{said.text} ({hours_words})"


def _cost_sentence(
    result: RentCost, gpu: str, duration: str, lang: Lang, question: str = ""
) -> str:
    """'**8 × H100 for 11 days (264 h) at $2.85/GPU-h: $6,019.**', or the range of the data (and
    the total at an exchange rate the question states)."""
    cur, n = result.currency, result.gpu_count
    who = f"{n} × {gpu}" if n > 1 else gpu
    billed = result.hours if result.hours_billed is None else result.hours_billed
    if result.n_prices == 0 and result.rate_typical is not None:
        rate = f"{money(result.rate_typical, cur, lang)}/{pick(lang, 'GPU-h', 'h par GPU')}"
        amount = result.cost_typical or 0.0
        total = money(amount, cur, lang) + at_stated_rate(amount, cur, question, lang)
        return pick(
            lang,
            f"**{who} for {duration} at {rate}: {total}**"
            + (f" ({n} × {hours(billed, lang)} × {rate})." if n > 1 else "."),
            f"**{who} pendant {duration} à {rate} : {total}**"
            + (f" ({n} × {hours(billed, lang)} × {rate})." if n > 1 else "."),
        )
    cost = money_range(result.cost_low, result.cost_high, cur, lang)
    text = pick(
        lang,
        f"**Renting {who} for {duration}: {cost}**",
        f"**Louer {who} pendant {duration} : {cost}**",
    )
    if result.cost_typical is not None and result.cost_low != result.cost_high:
        typical = (
            f"{money(result.cost_typical, cur, lang)} ({money(result.rate_typical, cur, lang)}/h)"
        )
        text += pick(lang, f", typically {typical}", f", typiquement {typical}")
    return text + "."


def _converted(amount: float, cur: Currency, usd_per_eur: float, lang: Lang) -> str:
    """The total in the other currency, at the rate the question states."""
    other: Currency = "EUR" if cur == "USD" else "USD"
    value = convert(amount, cur, other, usd_per_eur)
    rate = f"1 € = {money(usd_per_eur, 'USD', lang)}"
    return pick(
        lang,
        f"**In {'euros' if other == 'EUR' else 'dollars'}: {money(value, other, lang)}** at {rate}.",
        f"**En {'euros' if other == 'EUR' else 'dollars'} : {money(value, other, lang)}** à {rate}.",
    )


def _per_year(
    total: float, asked: Entities, cur: Currency, lang: Lang, monthly: bool = False
) -> str:
    """A job repeated N times a year: the yearly rental (a month's first when the question asks
    per month), and what buying would have to beat."""
    n = num(asked.repeats_per_year or 0, lang, 0)
    text = pick(
        lang,
        f"**At {n} runs a year: {money(total, cur, lang)} a year.**",
        f"**À {n} exécutions par an : {money(total, cur, lang)} par an.**",
    )
    if monthly:
        per = num((asked.repeats_per_year or 0) / 12, lang, 1)
        month, year = money(total / 12, cur, lang), money(total, cur, lang)
        text = pick(
            lang,
            f"**At {per} runs a month: {month} a month** ({year} a year).",
            f"**À {per} exécutions par mois : {month} par mois** ({year} par an).",
        )
    if asked.buy_mentioned:
        text += pick(
            lang,
            " Buying is cheaper only if the hardware's price, minus its resale, plus its "
            f"electricity and hosting, stays under {money(total, cur, lang)} for each year you "
            "would keep it.",
            " L'achat n'est moins cher que si le prix du matériel, moins sa revente, plus son "
            f"électricité et son hébergement, reste sous {money(total, cur, lang)} par année "
            "d'utilisation.",
        )
    return text


def _monthly_hours(ent: Entities) -> float | None:
    """A month of the use the question describes ('10 hours a day on 22 working days a month'),
    when it gives hours a day and no total."""
    if ent.total_hours or not ent.hours_per_day:
        return None
    said = next((d.per_month for d in ent.durations if d.per_day == ent.hours_per_day), None)
    if said and not ent.days_per_month:
        return said  # '~40 h par mois': the month's hours as said
    return ent.hours_per_day * (ent.days_per_month or DAYS_PER_MONTH)


def _quoted_rate(question: str) -> float | None:
    """A rate the user quotes without hours to spend it on: a price to judge, not to multiply."""
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities(question)
    rates = hourly_rates(ent)
    if len(rates) != 1 or ent.total_hours or ent.hours_per_day or ent.budgets or ent.speedups:
        return None  # hours, a budget or a speed-up to apply: a job to price
    if not named_cards(ent):
        return None
    return rates[0]


PER_CARD_SPAN = 16  # how far after a rate its "per GPU" may sit: '$2.50/h per GPU'


def _per_card(rate: float, count: int | None, card: str | None, text: str, ent: Entities) -> float:
    """The rate per card of a rate quoted for `count` cards: as given when the question says it is
    per card ('/GPU-h', 'le GPU'), else read against the sourced prices per card — a rate nearer
    `count` times the typical price than the price itself is the whole machine's ('8x H100 at
    $23.92/hr' is $2.99 per GPU-hour)."""
    import math

    from assistant.agent.offline.quantities import phrase_spans
    from assistant.knowledge.prices import hourly_price_range
    from assistant.money import NoExchangeRate

    if not count or count < 2 or card is None:
        return rate
    mention = next((m for m in ent.hourly_rates if m.amount == rate and m.text in text), None)
    if mention is not None:
        end = text.find(mention.text) + len(mention.text)
        if phrase_spans("per_gpu", " " + text[end : end + PER_CARD_SPAN]):
            return rate
    currency = mention.currency if mention is not None else "USD"
    try:
        seen = hourly_price_range(card, currency=currency, usd_per_eur=ent.usd_per_eur)
    except NoExchangeRate:  # tenge with no rate on record: the data's prices cannot compare
        return rate
    if seen is None or seen.typical <= 0:
        return rate
    as_node = abs(math.log(rate / count / seen.typical))
    return rate / count if as_node < abs(math.log(rate / seen.typical)) else rate


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per card named (two at most, else one without a card), with its hours and rate."""
    whole = reading.entities
    monthly = _monthly_hours(ent if ent.hours_per_day else whole)
    total = ent.total_hours or monthly or defaults().rent.hours
    # A quoted rate with no hours is compared with the data, so the tool reads the data's own.
    judged = _quoted_rate(reading.text) is not None
    if len(hourly_rates(whole)) > 1 and len(hourly_rates(whole)) == len(named_cards(whole)):
        ent = whole  # one rate per card across clauses: "A100 at 1.29 $/h, and H100 at 2.49 $/h"
    # one rate per card ('4090 $0.69/h, L40S $0.86/h, H100 $2.69/h'): each card with its own
    paired = len(hourly_rates(ent)) == len(named_cards(ent)) > 2
    cards: list[str | None] = [*named_cards(ent)[: 4 if paired else 2]] or [None]
    if len(named_cards(whole)) > 1 and len(whole.hourly_rates) == 1 and not judged:
        # 'my 3060 Ti … I saw 4090s at 0.35 $/h': the card named with the hourly price is rented
        priced = card_priced(reading.text, whole.hourly_rates[0], card_positions(reading.text))
        cards = [priced] if priced is not None else cards
    kind = "spot" if "spot" in reading.text.lower() else None
    speedups = whole.speedups
    counts = [ent.count_of(card) if card else ent.gpu_count for card in cards]
    rates = [None if judged else rate_for(ent, cards, i) for i in range(len(cards))]
    rates = [
        _per_card(rate, count, card, reading.text, ent) if rate is not None else None
        for rate, count, card in zip(rates, counts, cards, strict=True)
    ]
    return [
        {"gpu": card, "hours": hours_for(ent, cards, i, total), "rate_per_hour": rates[i],
         "gpu_count": counts[i], "kind": kind,
         "utilisation": whole.utilisation, "speedup": speedups.get(card) if card else None,
         **money_inputs(ent)}
        for i, card in enumerate(cards)
    ]  # fmt: skip


SKILL = Skill(
    tool="rent_cost",
    result=RentCost,
    build=build,
    render=render,
    combine=combine,
    search_hint="location à l'heure prix indicatif",
    slots=("gpus", "durations", "money"),
    concepts=("rent", "cost"),
    requires=("rent", "cost"),
    fallback="recommend_gpus",
)
