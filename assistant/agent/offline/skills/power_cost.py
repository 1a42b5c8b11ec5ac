"""Electricity of a card you own: "how much does a 3090 cost to run per month?", "1080 Ti (250 W)
or 4060 Ti (165 W) at 0,27 €/kWh?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.numbers import HOURS_PER_UNIT
from assistant.agent.offline.quantities import HOURS_PER_DAY, asks_per_year
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    currency_of,
    electricity_price,
    named_cards,
    period_span,
    render_unknown,
    rental_rates,
)
from assistant.agent.offline.skills.energy_check import check_energy
from assistant.agent.offline.texts import money, num, pick
from assistant.language import Lang
from assistant.money import format_unit_price
from assistant.tools.power import PowerCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

MAX_COMPARED = 2


def _price(result: PowerCost, lang: Lang) -> str:
    per_kwh = format_unit_price(result.electricity_price_per_kwh or 0.0, result.currency, lang)
    return pick(lang, f"{per_kwh}/kWh", f"{per_kwh} le kWh")


def _lead(result: PowerCost, yearly: bool, lang: Lang) -> str:
    """The asked period's cost first, with the asker's inputs: watts, hours, idle phase, price."""
    cur, n = result.currency, result.gpu_count
    name = result.gpu or pick(lang, "The machine", "La machine")
    who = f"{n} × {name}" if n > 1 else name
    watts = num((result.power_w or 0) * n, lang, 0)
    use = pick(
        lang,
        f"{watts} W for {num(result.hours_per_day or 0, lang, 1)} h a day",
        f"{watts} W pendant {num(result.hours_per_day or 0, lang, 1)} h par jour",
    )
    if result.idle_hours_per_day:
        idle = num((result.idle_w or 0) * n, lang, 0)
        use += pick(
            lang,
            f" + idle at {idle} W for {num(result.idle_hours_per_day, lang, 1)} h",
            f" + au repos à {idle} W pendant {num(result.idle_hours_per_day, lang, 1)} h",
        )
    year, month, day = (money(v or 0.0, cur, lang) for v in
                        (result.cost_per_year, result.cost_per_month, result.cost_per_day))  # fmt: skip
    kwh = num(result.kwh_per_day or 0, lang, 2)
    if yearly:
        figures = pick(lang, f"{year} a year", f"{year} par an")
        rest = pick(lang, f"{month} a month, {day} a day", f"{month} par mois, {day} par jour")
    else:
        figures = pick(lang, f"{month} a month", f"{month} par mois")
        rest = pick(lang, f"{day} a day, {year} a year", f"{day} par jour, {year} par an")
    return pick(
        lang,
        f"**{who} at {use}, at {_price(result, lang)}: {figures}** ({rest}; {kwh} kWh a day).",
        f"**{who} à {use}, à {_price(result, lang)} : {figures}** ({rest} ; {kwh} kWh par jour).",
    )


def _rent_line(result: PowerCost, lang: Lang) -> str:
    if result.rent_rate is None or result.cost_per_hour is None:
        return ""
    cur = result.currency
    share = f"{(result.electricity_share_of_rent or 0) * 100:.0f}"
    elec, rent = money(result.cost_per_hour, cur, lang), money(result.rent_rate, cur, lang)
    if result.rent_rate_given:
        hours = num(result.hours_per_day or 0, lang, 1)
        days = result.inputs.get("days_per_month", 30.0)
        month = money(result.rent_rate * (result.hours_per_day or 0) * days, cur, lang)
        cheaper = result.cost_per_hour < result.rent_rate
        return pick(
            lang,
            f"**Electricity is {elec}/h against {rent}/h to rent: "
            + ("running your own is cheaper per hour" if cheaper else "renting is cheaper per hour")
            + f"**: renting {hours} h a day costs {month} a month ({share}% of the rental price is "
            "electricity at home; the purchase price aside).",
            f"**L'électricité coûte {elec}/h contre {rent}/h en location : "
            + (
                "votre carte revient moins cher à l'heure"
                if cheaper
                else "la location revient moins cher à l'heure"
            )
            + f"** : louer {hours} h par jour coûte {month} par mois (l'électricité fait {share}\u202f% "
            "du prix de location ; hors prix d'achat).",
        )
    return pick(
        lang,
        f"Electricity is {elec}/h against a typical {rent}/h to rent the same: {share}% of the "
        "rental price.",
        f"L'électricité coûte {elec}/h contre {rent}/h en général pour louer la même : "
        f"{share}\u202f% du prix de location.",
    )


def _span_total(result: PowerCost, question: str, lang: Lang) -> str:
    """'Over 3 months: €907': the electricity of the whole span the question gives (a job's
    length), before the daily, monthly and yearly figures."""
    words, hours = period_span(question)
    if words is None or hours is None or result.cost_per_day is None:
        return ""
    months = hours / HOURS_PER_UNIT["month"]
    if round(months) >= 1 and abs(months - round(months)) < 0.02 and result.cost_per_month:
        if round(months) == 1:
            return ""  # 'for a month': the monthly figure that follows is the answer
        total = money(result.cost_per_month * round(months), result.currency, lang)
    else:
        total = money(result.cost_per_day * hours / 24, result.currency, lang)
    return pick(lang, f"**Over {words}: {total}.** ", f"**Sur {words} : {total}.** ")


def render(result: PowerCost, question: str, lang: Lang) -> str:
    """The asked period's cost first (a year when the question asks per year), then the rest; an
    energy figure the question states about this card is checked first."""
    from assistant.agent.offline.entities import extract_entities

    if not result.found:
        if result.suggestions and result.gpu:
            return render_unknown(result.gpu, result.suggestions, lang)
        return pick(lang, result.summary, result.summary_fr)
    asked = extract_entities(question)
    text = _span_total(result, question, lang) + _lead(result, asks_per_year(question), lang)
    if asked.energy_kwh and asked.energy_card == result.gpu and asked.energy_period:
        text = check_energy(result, asked.energy_kwh, asked.energy_period, lang) + "\n\n" + text
    rent = _rent_line(result, lang)
    return "\n\n".join(
        p
        for p in (
            text + (" " + rent if rent else ""),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def combine(results: list[PowerCost], question: str, lang: Lang) -> str:
    """Two cards' electricity side by side, and what the cheaper one saves."""
    from assistant.agent.offline.entities import extract_entities

    found = [r for r in results if r.found and r.cost_per_month is not None]
    if len(found) != MAX_COMPARED or extract_entities(question).energy_kwh:
        return ""
    a, b = found
    cur, yearly = a.currency, asks_per_year(question)
    period = pick(lang, "a year" if yearly else "a month", "par an" if yearly else "par mois")
    if a.gpu == b.gpu:
        return _two_draws(a, b, yearly, lang)

    def cost(r: PowerCost) -> float:
        """The card's electricity cost a year or a month, as the question asks."""
        return (r.cost_per_year if yearly else r.cost_per_month) or 0.0

    def card(r: PowerCost) -> str:
        """The card's name with its power draw."""
        return f"{r.gpu} ({num(r.power_w or 0, lang, 0)} W)"

    cheap, dear = sorted((a, b), key=cost)
    saving = money(cost(dear) - cost(cheap), cur, lang)
    hours = num(a.hours_per_day or 0, lang, 1)
    head = pick(
        lang,
        f"**At {_price(a, lang)} and {hours} h a day, {card(cheap)} costs {money(cost(cheap), cur, lang)} "
        f"{period} in electricity against {money(cost(dear), cur, lang)} for {card(dear)}: {saving} "
        f"{period} less.**",
        f"**À {_price(a, lang)} et {hours} h par jour, {card(cheap)} coûte {money(cost(cheap), cur, lang)} "
        f"{period} d'électricité contre {money(cost(dear), cur, lang)} pour {card(dear)} : {saving} "
        f"{period} de moins.**",
    )
    lines = [f"- {_lead(r, yearly, lang).replace('**', '')}" for r in (a, b)]
    return "\n\n".join(
        p
        for p in (head, "\n".join(lines), assumptions_line(a.assumptions, a.usd_per_eur, lang))
        if p
    )


def _two_draws(a: PowerCost, b: PowerCost, yearly: bool, lang: Lang) -> str:
    """One card at two power draws, in the order asked: the first draw's cost, then the other's
    and the difference."""
    cur = a.currency
    period = pick(lang, "a year" if yearly else "a month", "par an" if yearly else "par mois")

    def cost(r: PowerCost) -> float:
        return (r.cost_per_year if yearly else r.cost_per_month) or 0.0

    watts = num(b.power_w or 0, lang, 0)
    total = num((b.power_w or 0) * b.gpu_count, lang, 0)
    each = pick(lang, " each", " chacune") if b.gpu_count > 1 else ""
    both = f" ({total} W)" if b.gpu_count > 1 else ""
    gap = money(abs(cost(a) - cost(b)), cur, lang)
    less = cost(b) < cost(a)
    second = pick(
        lang,
        f" **At {watts} W{each}{both}: {money(cost(b), cur, lang)} {period}**, {gap} "
        + ("less." if less else "more."),
        f" **À {watts} W{each}{both} : {money(cost(b), cur, lang)} {period}**, soit {gap} "
        + ("de moins." if less else "de plus."),
    )
    return "\n\n".join(
        p
        for p in (
            _lead(a, yearly, lang) + second,
            assumptions_line(a.assumptions, a.usd_per_eur, lang),
        )
        if p
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per card compared, or one for the wattage named; none without either."""
    cards: list[str | None] = [*named_cards(ent)[:MAX_COMPARED]]
    whole = reading.entities
    if whole.energy_card and whole.energy_card not in cards:
        cards = [whole.energy_card, *cards][:MAX_COMPARED]
    if not cards and ent.power_w is None:
        return []
    currency = currency_of(ent)
    alone = len(cards) <= 1
    rates = rental_rates(whole, reading.text)
    work, idle = ent.hours_per_day, ent.idle_hours_per_day
    if work and idle is None and ent.utilisation and ent.utilisation < 1:
        # 'on 24/7, idle about 80 % of the time': busy a share of the hours, idle the rest
        work, idle = work * ent.utilisation, work * (1 - ent.utilisation)
    calls = []
    for card in cards or [None]:
        own = ent.card_power_w.get(card) if card else None
        checked = card is not None and card == whole.energy_card
        count = ent.gpu_count if card is None else (whole if checked else ent).count_of(card)
        calls.append({
            "gpu": card, "power_w": own if own is not None or not alone else ent.power_w,
            "idle_w": ent.idle_w if alone else None,
            # A stated energy figure is checked against the most the cards can draw: all day.
            "hours_per_day": work or (HOURS_PER_DAY if checked else None),
            "idle_hours_per_day": idle if alone else None,
            "gpu_count": count or 1, "days_per_month": whole.days_per_month,
            "currency": currency, "usd_per_eur": ent.usd_per_eur,
            "electricity_price_per_kwh": electricity_price(ent, currency),
            "rent_rate": rates[0] if len(rates) == 1 else None,
        })  # fmt: skip
    if alone and whole.wall_w is not None:
        # The whole machine measured at the plug: the bill follows that, not the card's TGP.
        return [{**calls[0], "gpu": None, "power_w": whole.wall_w, "gpu_count": 1}]
    if (
        len(calls) == 1
        and calls[0]["gpu"] is not None
        and whole.power_cap_w is not None
        and whole.power_options == [whole.power_cap_w]
        and ent.idle_w is None
    ):
        # 'and if I cap it at 300 W?': the card's own draw first, then the capped one.
        return [{**calls[0], "power_w": None}, {**calls[0], "power_w": whole.power_cap_w}]
    if len(calls) == 1 and len(whole.power_options) >= MAX_COMPARED and ent.idle_w is None:
        # One card at two draws ('600 W, or the 300 W version?'): each draw priced, as asked.
        first, second = whole.power_options[:MAX_COMPARED]
        calls = [{**calls[0], "power_w": watts} for watts in (first, second)]
    return calls


SKILL = Skill(
    tool="power_cost",
    result=PowerCost,
    build=build,
    render=render,
    combine=combine,
    search_hint="consommation électrique coût électricité",
    slots=("gpus", "unknown_gpus", "power_w", "durations", "gpu_count", "money"),
    needs=("gpus", "unknown_gpus", "power_w"),
    concepts=("electricity",),
    requires=("electricity",),
)
