"""Buy or rent: "should I buy a 4090 or rent one?", "acheter ou louer à 3 h par jour ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import concept_starts
from assistant.agent.offline.cues import mentions_rent
from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.quantities import HOURS_PER_DAY
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    card_positions,
    card_priced,
    currency_of,
    electricity_price,
    hourly_rates,
    named_cards,
    period_span,
    price_unknown,
    rental_rates,
)
from assistant.agent.offline.skills.rent_vs_buy_leads import (
    break_even_note,
    monthly_head,
    period_head,
    use_words,
)
from assistant.agent.offline.texts import bullet_list, money, num, pick
from assistant.agent.offline.usage import always_on, continuous_job
from assistant.language import Lang
from assistant.tools.buy import RentVsBuy
from assistant.tools.cost_base import DAYS_PER_MONTH

if TYPE_CHECKING:
    from collections.abc import Iterator

    from assistant.agent.offline.entities import Entities, MoneyMention
    from assistant.agent.offline.reading import Reading

_PRICE = re.compile(r"\b(?:price|prix|cost|coûte|coute|tarif|worth|vaut)\b", re.IGNORECASE)
LONG_MONTHS, SHORT_MONTHS = 36, 12


def buy_and_rental_cards(ent: Entities, text: str) -> tuple[str | None, str | None]:
    """The card to buy and, when the question names another one to rent, that card.

    "Buy a used 3090 or rent an A100?": the card named after the buying word is bought, the one
    named after the renting word is rented (the catalog lists mentions in the order written).
    """
    from assistant.agent.offline.entities import renting_starts

    cards = list(ent.gpus)
    if len(cards) < 2:
        return (cards[0] if cards else None), None
    buys, rents = concept_starts("buy", text), renting_starts(text)
    where = card_positions(text)
    priced = _cards_by_price(ent, text, where)
    if not rents:
        return priced or (cards[0], None)

    def rented(card: str) -> bool:
        """The last buying or renting word before the card's name is a renting one."""
        at = where.get(card)
        if at is None:
            return False
        before = [(p, "rent") for p in rents if p < at] + [(p, "buy") for p in buys if p < at]
        return bool(before) and max(before)[1] == "rent"

    to_rent = [c for c in cards if rented(c)]
    to_buy = [c for c in cards if c not in to_rent]
    if to_rent and to_buy:
        return to_buy[0], to_rent[0]
    if priced:
        return priced
    # no card follows a renting word: the first one to buy, no other rented
    return (to_buy or cards)[0], None


def _cards_by_price(ent: Entities, text: str, where: dict[str, int]) -> tuple[str, str] | None:
    """The card priced to buy and the card priced by the hour, when each price follows its own
    card: 'des L40S à 1,40 €/h … la 5090 (disons 2 500 €)'."""
    if not ent.budgets or not ent.hourly_rates:
        return None
    bought = card_priced(text, ent.budgets[0], where)
    rented = card_priced(text, ent.hourly_rates[0], where)
    return (bought, rented) if bought and rented and bought != rented else None


def rental_rate(card: str, currency: str) -> float | None:
    """A card's typical rental price per hour in `currency` (None without price data)."""
    from assistant.knowledge.prices import hourly_price_range

    found = hourly_price_range(card, currency=currency)  # type: ignore[arg-type]
    return found.typical if found is not None else None


def _daily_use_needed(break_even_hours: float | None, lang: Lang) -> str:
    """The daily use at which buying pays off within one, two and three years."""
    if break_even_hours is None or break_even_hours <= 0:
        return ""
    parts = []
    for years in (1, 2, 3):
        per_day = break_even_hours / (365 * years)
        plural = "s" if years > 1 else ""
        span = pick(lang, f"{years} year{plural}", f"{years} an{plural}")
        value = (
            f"{num(per_day, lang)} h"
            if per_day <= 24
            else pick(lang, "more than 24 h", "plus de 24 h")
        )
        parts.append(f"{span}{pick(lang, ': ', ' : ')}{value}")
    return pick(
        lang,
        "\n\nDaily use needed for buying to pay off within " + "; ".join(parts) + ".",
        "\n\nUsage quotidien nécessaire pour rentabiliser l'achat en " + " ; ".join(parts) + ".",
    )


def _rental_card_note(ent: Entities, rented: str | None, lang: Lang) -> str:
    """Which card the rental rate is for, when the question rents another card than it buys
    (`rented`, from `buy_and_rental_cards`) and gives no rate of its own."""
    if rented is None or ent.hourly_rates:
        return ""
    return pick(
        lang, f" (typical rental rate of {rented})", f" (tarif horaire typique d'une {rented})"
    )


def _head(
    result: RentVsBuy,
    gpu: str,
    lang: Lang,
    period: str | None = None,
    rented: str | None = None,
) -> str:
    """`rented`: the card the rate is for, when the question rents another card than it buys."""
    per_day, months = result.hours_per_day, result.break_even_months
    if period is not None and result.rent_total is not None:
        return period_head(result, gpu, period, lang, rented) + break_even_note(result, lang)
    if result.days_per_month != DAYS_PER_MONTH and result.rent_per_month:
        return monthly_head(result, gpu, lang)
    if result.break_even_hours is None:
        return pick(
            lang,
            f"**Renting {gpu} stays cheaper**: at these prices buying never pays off (rent minus electricity leaves no saving).",
            f"**Louer {gpu} reste moins cher** : à ces prix, l'achat n'est jamais rentabilisé.",
        )
    head = pick(
        lang,
        f"**Buying {gpu} pays off after {num(result.break_even_hours, lang, 0)} hours of use** — "
        f"about {num(months, lang)} months at {use_words(result, lang)} (break-even).",
        f"**L'achat de {gpu} est rentabilisé après {num(result.break_even_hours, lang, 0)} heures d'usage** — "
        f"environ {num(months, lang)} mois à {use_words(result, lang)} (seuil de rentabilité).",
    )
    del per_day
    if months is not None and months > LONG_MONTHS:
        head += pick(
            lang,
            " That is long: renting is the better deal at this usage.",
            " C'est long : à ce rythme, la location est plus intéressante.",
        )
    elif months is not None and months < SHORT_MONTHS:
        head += pick(
            lang, " At this usage, buying is worth it.", " À ce rythme, l'achat vaut le coup."
        )
    return head


def _flat_head(result: RentVsBuy, gpu: str, lang: Lang) -> str:
    """Against a flat price a month: the months until buying pays off, with and without the
    owner's electricity (which grows with use, while the rent does not)."""
    flat, cur = result.rent_per_month_flat, result.currency
    if not flat or result.net_purchase is None:
        return ""
    price, rent = money(result.purchase_price, cur, lang), money(flat, cur, lang)
    power = (result.electricity_per_hour or 0.0) * result.hours_per_day * result.days_per_month
    plain = num(result.net_purchase / flat, lang, 0)
    if result.break_even_months is None:
        return pick(
            lang,
            f"**Against {rent} a month, buying {gpu} at {price} never pays off**: its electricity "
            f"at {num(result.hours_per_day, lang, 1)} h a day ({money(power, cur, lang)} a month) "
            f"costs as much as the rent. Without electricity it would take {plain} months.",
            f"**Face à {rent} par mois, acheter {gpu} à {price} n'est jamais rentabilisé** : son "
            f"électricité à {num(result.hours_per_day, lang, 1)} h par jour "
            f"({money(power, cur, lang)} par mois) coûte autant que la location. Sans "
            f"l'électricité, il faudrait {plain} mois.",
        )
    months = num(result.break_even_months, lang, 0)
    years = num(result.break_even_months / 12, lang, 1)
    return pick(
        lang,
        f"**Against {rent} a month, buying {gpu} at {price} pays off after about {months} "
        f"months** ({years} years), counting its electricity at "
        f"{num(result.hours_per_day, lang, 1)} h a day ({money(power, cur, lang)} a month); "
        f"the purchase alone is {plain} months of rent.",
        f"**Face à {rent} par mois, acheter {gpu} à {price} est rentabilisé après environ "
        f"{months} mois** ({years} ans), électricité comprise à {num(result.hours_per_day, lang, 1)} h "
        f"par jour ({money(power, cur, lang)} par mois) ; l'achat seul vaut {plain} mois de "
        "location.",
    )


def _daily_use_assumed(result: RentVsBuy, question: str, lang: Lang) -> str:
    """The daily use the figures take when the question gives no daily rate, and why."""
    if always_on(question):
        return ""  # '24/7' is a daily use
    if continuous_job(question):
        return pick(
            lang,
            " (A job that runs for days or months runs day and night: 24 h a day assumed.)",
            " (Un calcul qui dure des jours ou des mois tourne jour et nuit : 24 h par jour supposées.)",
        )
    return pick(
        lang,
        f" (Daily use not given: {num(result.hours_per_day, lang)} h a day assumed.)",
        f" (Usage quotidien non précisé : {num(result.hours_per_day, lang)} h par jour supposées.)",
    )


def render(result: RentVsBuy, question: str, lang: Lang) -> str:
    """The break-even (or that renting stays cheaper), the daily use it needs, then the figures."""
    from assistant.agent.offline.entities import extract_entities

    unknown = price_unknown(result.gpu, result.found, result.message, result.suggestions, lang)
    if unknown:
        return unknown
    ent = extract_entities(question)
    cur = result.currency
    gpu = result.gpu or "?"
    if result.gpu_count > 1:
        gpu = f"{result.gpu_count} × {gpu}"
    _, rented = buy_and_rental_cards(ent, question)
    head = _flat_head(result, gpu, lang) or _head(
        result,
        gpu,
        lang,
        period_span(question)[0] if result.period_hours else None,
        rented if rented != result.gpu else None,
    )
    if (
        not any(d.per_day for d in parse_durations(question))
        and result.utilisation == 1
        and _repeated_use(ent)[0] is None  # a job repeated is a use given, not assumed
    ):
        head += _daily_use_assumed(result, question, lang)
        if not result.rent_per_month_flat:  # a flat price a month: more use costs no more rent
            head += _daily_use_needed(result.break_even_hours, lang)
    if _PRICE.search(question) and not mentions_rent(question) and result.purchase_price:
        price = money(result.purchase_price, cur, lang)
        head = (
            pick(
                lang,
                f"**Purchase price of {gpu}: about {price}**",
                f"**Prix d'achat de {gpu} : environ {price}**",
            )
            + pick(lang, " (median of the sourced prices).", " (médiane des prix sourcés).")
            + "\n\n"
            + head
        )
    resale = money(result.resale_value, cur, lang)
    figures = [
        pick(lang, "Purchase: ", "Achat : ")
        + money(result.purchase_price, cur, lang)
        + (
            pick(lang, f" (resale {resale})", f" (revente {resale})") if result.resale_value else ""
        ),
        pick(lang, "Rent: ", "Location : ")
        + (
            pick(
                lang,
                f"{money(result.rent_per_month_flat, cur, lang)} a month",
                f"{money(result.rent_per_month_flat, cur, lang)} par mois",
            )
            if result.rent_per_month_flat
            else f"{money(result.rent_rate, cur, lang)}/h" + _rental_card_note(ent, rented, lang)
        ),
        _running_line(result, lang)
        or pick(lang, "Electricity: ", "Électricité : ")
        + f"{money(result.electricity_per_hour, cur, lang)}/h ({num(result.power_w, lang, 0)} W"
        + _idle_note(result, lang)
        + ")",
    ]
    return "\n\n".join(
        p
        for p in (
            head,
            bullet_list(figures),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def _running_line(result: RentVsBuy, lang: Lang) -> str:
    """'Running costs: 2,500 € a month (electricity included): 4.17 €/h of use', when the asker
    gives a monthly cost of owning."""
    if not result.running_per_month:
        return ""
    cur = result.currency
    month = money(result.running_per_month, cur, lang)
    hour = money(result.electricity_per_hour, cur, lang)
    if result.running_includes_power:
        return pick(
            lang,
            f"Running costs: {month} a month, electricity included ({hour}/h of use)",
            f"Frais de fonctionnement : {month} par mois, électricité comprise ({hour}/h d'usage)",
        )
    return pick(
        lang,
        f"Running costs: {month} a month, plus electricity ({num(result.power_w, lang, 0)} W): "
        f"{hour}/h of use in all",
        f"Frais de fonctionnement : {month} par mois, plus l'électricité "
        f"({num(result.power_w, lang, 0)} W) : {hour}/h d'usage en tout",
    )


def _idle_note(result: RentVsBuy, lang: Lang) -> str:
    """The idle hours' share of the electricity, when the machine idles while switched on."""
    if not result.idle_per_month or result.idle_hours_per_month is None:
        return ""
    watts = num(result.idle_power_w, lang, 0)
    hours = num(result.idle_hours_per_month, lang, 0)
    cost = money(result.idle_per_month, result.currency, lang)
    return pick(
        lang,
        f" while working, plus {watts} W idle for {hours} h a month: {cost} a month",
        f" en travail, plus {watts} W au repos pendant {hours} h par mois : {cost} par mois",
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call for the card to buy, with its rental rate, price, hours, power and currency."""
    from assistant.settings import get_settings

    bought, rented = buy_and_rental_cards(ent, reading.text)
    if rented is None and ent is not reading.entities:
        # the card rented may be named in another clause ('… or should I just rent H100s?')
        _, other = buy_and_rental_cards(reading.entities, reading.text)
        rented = other if other != bought else None
    card = bought or (named_cards(ent) or [defaults().buy.gpu])[0]
    # The rate may sit in another sentence than the purchase ('I rent at 0.39/h. Buy one?').
    rates = hourly_rates(ent) or rental_rates(reading.entities, reading.text)
    currency = currency_of(ent)
    rate = rates[0] if rates else None
    if rate is None and rented is not None:
        currency = currency or get_settings().currency
        rate = rental_rate(rented, currency)
    count = ent.count_of(card) if card else None
    if rate is not None and count and count > 1 and _for_all(rate, ent, reading.text):
        rate /= count  # '2x H100 at ~$5/h total': the tool takes the price of one card
    share = ent.utilisation
    per_day = ent.hours_per_day or (HOURS_PER_DAY if share else None)
    days = ent.days_per_month
    if per_day is None and days is None:
        per_day, days = _repeated_use(ent)
    period = next(
        (d.hours for d in ent.durations if d.hours and d.unit not in ("hour", "minute")), None
    )
    running, with_power = _running_costs(ent, reading.text)
    if running is None and ent is not reading.entities:
        # the cost of owning may sit in another clause than the question ('buy a server and
        # colocate it for ~150 KM/month. Option B: keep renting … Which is cheaper?')
        running, with_power = _running_costs(reading.entities, reading.text)
    monthly = None if rate is not None else _monthly_rent(reading.entities, reading.text)
    return [
        {"gpu": card, "hours_per_day": per_day, "condition": ent.condition,
         "running_per_month": running, "running_includes_power": with_power,
         "utilisation": share, "days_per_month": days, "period_hours": period,
         "gpu_count": count,
         "rent_rate": rate, "rent_per_month_flat": monthly,
         "purchase_price": _purchase_price(ent, reading, card),
         "power_w": ent.card_power_w.get(card, ent.power_w), "currency": currency,
         "usd_per_eur": ent.usd_per_eur,
         "electricity_price_per_kwh": electricity_price(ent, currency),
         **_idle_phase(ent, reading.text)}
    ]  # fmt: skip


def _purchase_price(ent: Entities, reading: Reading, card: str | None) -> float | None:
    """The price to buy: the first amount (with what is added to it), unless a later amount is
    the bought card's own price ('we have about 40 000 DT … buy an RTX PRO 6000 (~32 000 DT)':
    the budget is what can be spent, the card costs 32 000)."""
    first = ent.purchase_total or reading.entities.purchase_total
    budgets = reading.entities.budgets
    if card is None or len(budgets) < 2 or budgets[1].added:
        return first
    where = card_positions(reading.text)
    if card_priced(reading.text, budgets[0], where) == card:
        return first
    own = next((m for m in budgets[1:] if card_priced(reading.text, m, where) == card), None)
    return own.amount if own is not None and (first is None or own.amount <= first) else first


HOURS_PER_DAY_MAX, CALENDAR_DAYS = 24.0, 30.0


def _repeated_use(ent: Entities) -> tuple[float | None, float | None]:
    """Hours a day and days a month from a job repeated ('~4 LoRA a month', 'one takes ~1h30'):
    each job on a day of its own; more jobs than days, or jobs longer than a day, spread over the
    whole month; more hours than the month holds, nothing read."""
    job = next((d.hours for d in ent.durations if d.hours and d.unit in ("hour", "minute")), None)
    if not ent.repeats_per_year or not job or job <= 0:
        return None, None
    jobs = ent.repeats_per_year / 12
    if job <= HOURS_PER_DAY_MAX and jobs <= CALENDAR_DAYS:
        return job, jobs
    per_day = jobs * job / CALENDAR_DAYS
    return (per_day, CALENDAR_DAYS) if per_day <= HOURS_PER_DAY_MAX else (None, None)


def _idle_phase(ent: Entities, text: str) -> dict[str, Any]:
    """The idle draw of a machine left on when it does not work ('~300 W idle, it stays on
    24/7'), when the message gives one."""
    from assistant.agent.offline.quantities import phrase_spans

    if ent.idle_w is None:
        return {}
    if phrase_spans("always_on", text):
        return {"idle_power_w": ent.idle_w, "always_on": True}
    if ent.idle_hours_per_day:
        return {"idle_power_w": ent.idle_w, "idle_hours_per_day": ent.idle_hours_per_day}
    return {}


RATE_FOR_ALL_SPAN = 16
RUNNING_SPAN = 40  # how far from a monthly amount its 'hosting' word may sit


def _running_costs(ent: Entities, text: str) -> tuple[float | None, bool]:
    """The monthly costs of owning the asker gives, added up ('plus about 2,500 €/month for
    hosting (colo + power)', 'rack fee EUR400/month + the ~EUR225/month power'), and whether they
    pay for the electricity."""
    from assistant.agent.offline.quantities import phrase_spans

    costs = [
        (
            m.amount,
            bool(phrase_spans("running_costs", near)),
            bool(phrase_spans("includes_power", near)),
        )
        for m, near in _monthly_amounts(ent, text)
    ]
    kept = [(amount, power) for amount, running, power in costs if running or power]
    if not any(running for _, running, _ in costs):
        return None, False  # a power bill alone is no cost of owning besides the electricity
    return sum(a for a, _ in kept), any(power for _, power in kept)


def _monthly_amounts(ent: Entities, text: str) -> Iterator[tuple[MoneyMention, str]]:
    """Each amount a month the message states, with the words around it."""
    for m in ent.money:
        at = text.find(m.text) if m.per == "month" and m.text else -1
        if at >= 0:
            yield m, text[max(0, at - RUNNING_SPAN) : at + len(m.text) + RUNNING_SPAN]


def _monthly_rent(ent: Entities, text: str) -> float | None:
    """The alternative to buying at a flat price a month ('continuer à louer un GPU pour ~8 000
    FCFA par mois', 'Colab Pro at $9.99/month'), not a running cost of owning."""
    from assistant.agent.offline.quantities import phrase_spans

    for m, near in _monthly_amounts(ent, text):
        if phrase_spans("monthly_rental", near) and not phrase_spans("running_costs", near):
            return m.amount
    return None


def _for_all(rate: float, ent: Entities, text: str) -> bool:
    """Whether the hourly price stated is that of all the cards together ('$5/h total')."""
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.agent.offline.skills.common import after_mention

    for m in ent.hourly_rates:
        after = after_mention(text, m, RATE_FOR_ALL_SPAN) if m.amount == rate else None
        if after is not None:
            # right after the price, in its own sentence: '$5/h total', not '$2/h. Total budget'
            return any(start == 0 for start, _ in phrase_spans("rate_for_all", after.lstrip(" (")))
    return False


SKILL = Skill(
    tool="rent_vs_buy",
    result=RentVsBuy,
    build=build,
    render=render,
    search_hint="achat location usage quotidien",
    slots=("gpus", "durations", "money", "condition", "power_w"),
    concepts=("buy", "rent", "break_even"),
    requires=("rent", "break_even"),
)
