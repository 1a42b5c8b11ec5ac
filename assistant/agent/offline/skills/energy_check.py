"""An energy figure the asker states ('8x H100s ... about 5,600 kWh a month'), set against the
most the cards can draw: their power all day long, over the same period."""

from __future__ import annotations

from assistant.agent.offline.texts import money, num, pick
from assistant.language import Lang
from assistant.tools.power import DAYS_PER_YEAR, PowerCost


def _days(result: PowerCost, period: str) -> float:
    if period == "day":
        return 1.0
    if period == "year":
        return DAYS_PER_YEAR
    return result.inputs.get("days_per_month", 30.0)


def check_energy(result: PowerCost, stated: float, period: str, lang: Lang) -> str:
    """'**8 × H100 at 700 W, 24 h a day: 4,032 kWh a month; the 5,600 kWh stated is 1.39× that**'."""
    n, watts, hours = result.gpu_count, result.power_w or 0.0, result.hours_per_day or 0.0
    days = _days(result, period)
    computed = (result.kwh_per_day or 0.0) * days
    if computed <= 0:
        return ""
    per_card = stated * 1000 / (days * hours * n) if hours else 0.0
    who = f"{n} × {result.gpu}" if n > 1 else str(result.gpu)
    unit_en = {"day": "a day", "month": "a month", "year": "a year"}[period]
    unit_fr = {"day": "par jour", "month": "par mois", "year": "par an"}[period]
    kwh = num(computed, lang, 0 if computed >= 100 else 1)
    said = num(stated, lang, 0 if stated >= 100 else 1)
    ratio = stated / computed
    if ratio > 1.05:
        verdict = pick(
            lang,
            f"the {said} kWh stated is {num(ratio, lang, 2)}× that**: about {num(per_card, lang, 0)} W "
            "per card, so it counts more than the GPUs (the servers' CPUs, memory, fans, cooling).",
            f"les {said} kWh annoncés en font {num(ratio, lang, 2)} fois plus** : environ "
            f"{num(per_card, lang, 0)} W par carte, donc plus que les GPU seuls (processeurs, mémoire, "
            "ventilateurs, refroidissement des serveurs).",
        )
    else:
        share = f"{per_card / watts * 100:.0f}" if watts else "?"
        verdict = pick(
            lang,
            f"the {said} kWh stated is within that**: it means the cards average about "
            f"{num(per_card, lang, 0)} W ({share}% of {num(watts, lang, 0)} W).",
            f"les {said} kWh annoncés restent en dessous** : les cartes tireraient en moyenne environ "
            f"{num(per_card, lang, 0)} W ({share}\u202f% de {num(watts, lang, 0)} W).",
        )
    text = (
        pick(
            lang,
            f"**{who} at {num(watts, lang, 0)} W each, {num(hours, lang, 0)} h a day, draw at most "
            f"{kwh} kWh {unit_en}; ",
            f"**{who} à {num(watts, lang, 0)} W chacune, {num(hours, lang, 0)} h par jour, consomment au "
            f"plus {kwh} kWh {unit_fr} ; ",
        )
        + verdict
    )
    price = result.electricity_price_per_kwh
    if price:
        cur = result.currency
        text += pick(
            lang,
            f" At {money(price, cur, lang)}/kWh, {said} kWh cost {money(stated * price, cur, lang)}; "
            f"the GPUs at full power all day {money(computed * price, cur, lang)}.",
            f" À {money(price, cur, lang)} le kWh, {said} kWh coûtent {money(stated * price, cur, lang)} ; "
            f"les GPU à pleine puissance toute la journée {money(computed * price, cur, lang)}.",
        )
    return text
