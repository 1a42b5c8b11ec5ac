"""Electricity of a card you own: "how much does a 3090 cost to run per month?", "1080 Ti (250 W)
or 4060 Ti (165 W) at 0,27 €/kWh?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.numbers import HOURS_PER_UNIT
from assistant.agent.offline.quantities import HOURS_PER_DAY, asks_per_year, phrase_spans
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import (
    assumptions_line,
    at_stated_rate,
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
from assistant.tools.power import BatteryRuntime, PowerCost

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

MAX_COMPARED = 2
# The draw a bill is given for when the question names no card nor wattage: a unit to scale.
PER_DRAW_W = 100.0


def _price(result: PowerCost, lang: Lang) -> str:
    per_kwh = format_unit_price(result.electricity_price_per_kwh or 0.0, result.currency, lang)
    return pick(lang, f"{per_kwh}/kWh", f"{per_kwh} le kWh")


def _lead(result: PowerCost, yearly: bool, lang: Lang) -> str:
    """The asked period's cost first, with the asker's inputs: watts, hours, idle phase, price."""
    cur, n = result.currency, result.gpu_count
    name = result.gpu or pick(lang, "The machine", "La machine")
    # '2x 230 W cards + 150 W for the rest': one machine, its unnamed cards in its parts
    who = f"{n} × {name}" if n > 1 and (result.gpu or not result.system_w) else name
    watts = num(result.total_w or (result.power_w or 0) * n, lang, 0)
    draw = f"{watts} W{_parts(result, lang)}"
    if n > 1 and result.gpu is None and result.power_w and not result.system_w:
        # '4 stores, one Jetson each at 25 W'
        who = f"{n} machines"  # the same word in both languages
        each = num(result.power_w, lang, 0)
        draw = pick(
            lang, f"{each} W each ({watts} W in all)", f"{each} W chacune ({watts} W en tout)"
        )
    use = pick(
        lang,
        f"{draw} for {num(result.hours_per_day or 0, lang, 1)} h a day",
        f"{draw} pendant {num(result.hours_per_day or 0, lang, 1)} h par jour",
    )
    if result.idle_hours_per_day:
        machine_idle = (result.system_idle_w or 0) * (result.machines or 1)
        idle = num((result.idle_w or 0) * n + machine_idle, lang, 0)
        use += pick(
            lang,
            f" + idle at {idle} W for {num(result.idle_hours_per_day, lang, 1)} h",
            f" + au repos à {idle} W pendant {num(result.idle_hours_per_day, lang, 1)} h",
        )
    year, month, day = (money(v or 0.0, cur, lang) for v in
                        (result.cost_per_year, result.cost_per_month, result.cost_per_day))  # fmt: skip
    kwh = num(result.kwh_per_day or 0, lang, 2)
    energy = pick(lang, f"{kwh} kWh a day", f"{kwh} kWh par jour")
    if result.kwh_per_month:
        monthly = num(result.kwh_per_month, lang, 1)
        energy += pick(lang, f", {monthly} kWh a month", f", {monthly} kWh par mois")
    if yearly:
        figures = pick(lang, f"{year} a year", f"{year} par an")
        rest = pick(lang, f"{month} a month, {day} a day", f"{month} par mois, {day} par jour")
    else:
        figures = pick(lang, f"{month} a month", f"{month} par mois")
        rest = pick(lang, f"{day} a day, {year} a year", f"{day} par jour, {year} par an")
    return pick(
        lang,
        f"**{who} at {use}, at {_price(result, lang)}: {figures}** ({rest}; {energy}).",
        f"**{who} à {use}, à {_price(result, lang)} : {figures}** ({rest} ; {energy}).",
    )


def _per_draw(result: PowerCost, asked: Entities) -> bool:
    """The bill was computed for each 100 W, the question naming no card nor wattage."""
    return (
        result.gpu is None
        and result.power_w == PER_DRAW_W
        and result.gpu_count == 1
        and asked.power_w is None
        and not named_cards(asked)
    )


def _per_draw_lead(result: PowerCost, yearly: bool, lang: Lang) -> str:
    """'Each 100 W the card draws for 3 h a day costs 14.40 MAD a month at 1.60 MAD/kWh', then
    how to scale it: the question names no card."""
    cur = result.currency
    hours = num(result.hours_per_day or 0, lang, 1)
    month, year = (
        money(result.cost_per_month or 0.0, cur, lang),
        money(result.cost_per_year or 0.0, cur, lang),
    )
    figure, other = (year, month) if yearly else (month, year)
    idle_en = idle_fr = ""
    if result.idle_hours_per_day:
        idle_w = num(result.idle_w or 0, lang, 0)
        idle_h = num(result.idle_hours_per_day, lang, 1)
        idle_en = f", idling at {idle_w} W the other {idle_h} h,"
        idle_fr = f", au repos à {idle_w} W les {idle_h} h restantes,"
    return pick(
        lang,
        f"**Each 100 W the GPU draws for {hours} h a day{idle_en} costs {figure} "
        f"{'a year' if yearly else 'a month'} at {_price(result, lang)}** "
        f"({other} {'a month' if yearly else 'a year'}). The question names no card, so scale "
        "the working part by the card's draw under load in hundreds of watts (3× for a 300 W "
        "card; the rest of the PC adds its own), or name the card for its own figure.",
        f"**Chaque tranche de 100 W que tire le GPU pendant {hours} h par jour{idle_fr} coûte "
        f"{figure} {'par an' if yearly else 'par mois'} à {_price(result, lang)}** "
        f"({other} {'par mois' if yearly else 'par an'}). La question ne nomme pas de carte : "
        "multipliez la part en charge par la consommation de la carte, en centaines de watts "
        "(×3 pour une carte de 300 W ; le reste du PC s'y ajoute), ou nommez la carte pour son "
        "propre chiffre.",
    )


def _parts(result: PowerCost, lang: Lang) -> str:
    """' (cards 22,400 W + the rest of 4 servers 18,400 W) × PUE 1.4': what the draw is made of,
    when more than the cards is counted."""
    if not result.system_w and result.pue == 1.0:
        return ""
    m = result.machines
    out = ""
    if result.system_w:
        cards = num((result.power_w or 0) * result.gpu_count, lang, 0)
        rest = num(result.system_w * m, lang, 0)
        if result.system:
            rating = num((result.system_max_w or 0) / 1000, lang, 1)
            where = (
                pick(lang, f"{m} servers", f"{m} serveurs")
                if m > 1
                else pick(lang, "the server", "le serveur")
            )
            basis = (
                pick(lang, f", estimated from the {result.system}'s: no vendor rating for such a server",
                     f", estimé d'après le {result.system} : pas de chiffre du fabricant pour un tel serveur")
                if result.system_estimated
                else pick(lang, f", from the {result.system}'s {rating} kW rating",
                          f", d'après les {rating} kW max du {result.system}")
            )  # fmt: skip
        else:
            where = pick(lang, f"{m} machines" if m > 1 else "the machine",
                         f"{m} machines" if m > 1 else "la machine")  # fmt: skip
            basis = ""
        many = result.gpu_count > 1
        out = pick(
            lang,
            f" ({'cards' if many else 'card'} {cards} W + the rest of {where} {rest} W{basis})",
            f" ({'cartes' if many else 'carte'} {cards} W + le reste de {where} {rest} W{basis})",
        )
    if result.pue != 1.0:
        out += f" × PUE {num(result.pue, lang, 2)}"
    return out


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


def _psu_line(result: PowerCost, lang: Lang) -> str:
    """'No: a 250 W supply is too small for a Radeon RX 6600 XT (the vendor recommends 500 W)';
    the other cards of the machine, when there are, added up with it."""
    psu = result.psu
    if psu is None:
        return ""
    n, name = result.gpu_count, result.gpu or pick(lang, "the card", "la carte")
    who = f"{n} × {name}" if n > 1 else name
    if result.other_gpus:
        who, n = " + ".join([who, *result.other_gpus]), n + len(result.other_gpus)
    have, want = num(psu.psu_w, lang, 0), num(psu.recommended_w, lang, 0)
    cards = num(psu.cards_w, lang, 0)
    basis = (
        pick(lang, f"the vendor recommends {want} W", f"le fabricant recommande {want} W")
        if psu.basis == "vendor"
        else pick(
            lang,
            f"about {want} W is advisable: {cards} W of card{'s' if n > 1 else ''} plus the rest of a typical desktop",
            f"il faut viser environ {want} W : {cards} W de carte{'s' if n > 1 else ''} plus le reste d'un PC classique",
        )
    )
    if psu.verdict == "enough":
        return pick(
            lang,
            f"**Yes: a {have} W power supply is enough for {who}** ({basis}).",
            f"**Oui : une alimentation de {have} W suffit pour {who}** ({basis}).",
        )
    if psu.verdict == "tight":
        return pick(
            lang,
            f"**Tight: a {have} W power supply is below what {who} needs** ({basis}). It may run "
            "with a modest CPU, but load spikes can shut the machine down; a power limit on the "
            "card (`nvidia-smi -pl`) or a bigger supply fixes it.",
            f"**Juste : une alimentation de {have} W est en dessous de ce qu'il faut pour {who}** "
            f"({basis}). Ça peut tenir avec un processeur modeste, mais les pics de charge peuvent "
            "éteindre la machine ; brider la carte (`nvidia-smi -pl`) ou une alimentation plus "
            "grosse règle le problème.",
        )
    return pick(
        lang,
        f"**No: a {have} W power supply is too small for {who}** ({basis}); under load the "
        f"machine will shut down or fail to start. Get at least {want} W.",
        f"**Non : une alimentation de {have} W est trop faible pour {who}** ({basis}) ; en charge, "
        f"la machine s'éteindra ou ne démarrera pas. Prenez au moins {want} W.",
    )


def _span_total(result: PowerCost, question: str, lang: Lang) -> str:
    """'Over 3 months: €907': the electricity of the whole span the question gives (a job's
    length), before the daily, monthly and yearly figures."""
    span = _span_cost(result, question)
    if span is None:
        return ""
    words, total = span[0], money(span[1], result.currency, lang)
    return pick(lang, f"**Over {words}: {total}.** ", f"**Sur {words} : {total}.** ")


def _job_total(result: PowerCost, asked: Entities, lang: Lang) -> str:
    """'A 3 h session at 650 W: 1.95 kWh, €1.47': a run of some hours with no daily rate is
    priced as that run, before the figures of a day of use the tool assumes."""
    run = next(
        (d for d in asked.durations if d.per_day is None and d.unit in ("hour", "minute")), None
    )
    if (
        run is None
        or not run.hours
        or asked.hours_per_day is not None
        or asked.days_per_month is not None
        or result.cost_per_hour is None
        or result.total_w is None
    ):
        return ""
    kwh = result.total_w * run.hours / 1000
    cost = money(result.cost_per_hour * run.hours, result.currency, lang)
    watts = num(result.total_w, lang, 0)
    return pick(
        lang,
        f"**One {run.text} run at {watts} W: {num(kwh, lang, 2)} kWh, {cost}.** ",
        f"**Une séance de {run.text} à {watts} W : {num(kwh, lang, 2)} kWh, {cost}.** ",
    )


def _span_cost(result: PowerCost, question: str) -> tuple[str, float] | None:
    """The span the question gives (a job's length) and the electricity over it; None without
    one, or for a single month (the monthly figure is then the answer)."""
    words, hours = period_span(question)
    if words is None or hours is None or result.cost_per_day is None:
        return None
    months = hours / HOURS_PER_UNIT["month"]
    if round(months) >= 1 and abs(months - round(months)) < 0.02 and result.cost_per_month:
        if round(months) == 1:
            return None
        return words, result.cost_per_month * round(months)
    return words, result.cost_per_day * hours / 24


def render(result: PowerCost, question: str, lang: Lang) -> str:
    """The asked period's cost first (a year when the question asks per year), then the rest; an
    energy figure the question states about this card is checked first."""
    from assistant.agent.offline.entities import extract_entities

    if not result.found:
        if result.suggestions and result.gpu:
            return render_unknown(result.gpu, result.suggestions, lang)
        return pick(lang, result.summary, result.summary_fr)
    if result.psu is not None and "electricity" not in concepts_in(question):
        # 'is a 250 W PSU enough?': the supply's verdict (its basis said in it), not a bill
        # nobody asked for, nor the bill's assumptions (currency, price per kWh, hours)
        return _psu_line(result, lang)
    asked = extract_entities(question)
    # one run of some hours is the answer; a day of use the tool assumed would be noise
    text = _job_total(result, asked, lang).strip() or (
        _span_total(result, question, lang) + _lead(result, asks_per_year(question), lang)
    )
    if _per_draw(result, asked):
        text = _per_draw_lead(result, asks_per_year(question), lang)
    off_grid = [
        line
        for line in (_battery_line(result, lang, question), _generator_line(result, lang))
        if line
    ]
    if off_grid:  # 'how long does my power station last?', 'what does the generator cost?'
        # the grid's bill only when the question gives its price, or asks about electricity
        # with no generator (whose kWh the generator line prices)
        grid = asked.electricity_price is not None or (
            result.generator is None and "electricity" in concepts_in(question)
        )
        text = "\n\n".join(
            ([text, *off_grid] if _bill_asked_first(question) else [*off_grid, text])
            if grid
            else off_grid
        )
    if result.psu is not None:
        text = _psu_line(result, lang) + "\n\n" + text
    if asked.energy_kwh and asked.energy_card == result.gpu and asked.energy_period:
        text = check_energy(result, asked.energy_kwh, asked.energy_period, lang) + "\n\n" + text
    rent = _rent_line(result, lang)
    extra = " ".join(
        x for x in (rent, _idle_share(result, lang), _against_monthly(result, asked, lang)) if x
    )
    return "\n\n".join(
        p
        for p in (
            text + (" " + extra if extra else ""),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def _outage_check(battery: BatteryRuntime, question: str, lang: Lang) -> str:
    """': a 4 h outage is not covered': the runtime against an outage the question names."""
    from assistant.agent.offline.numbers import parse_durations

    spans = [d.hours for d in parse_durations(question) if d.hours and d.unit in ("hour", "minute")]
    if not spans:
        return ""
    outage = spans[0]
    length = num(outage, lang, 1)
    if battery.hours >= outage:
        return pick(
            lang, f": a {length} h outage is covered", f" : une coupure de {length} h passe"
        )
    return pick(
        lang, f": a {length} h outage is not covered", f" : une coupure de {length} h ne passe pas"
    )


def _bill_asked_first(question: str) -> bool:
    """The bill is asked before the battery or generator ('electricity q. … whats that per
    month? also … how long would the pc last on the battery?'): the answers keep that order. The
    battery's own capacity ('a 1.2 kWh battery') is no question about the bill."""
    from assistant.agent.offline.concepts import concept_starts
    from assistant.agent.offline.quantities import battery_capacity_span

    off_grid = concept_starts("battery", question) + concept_starts("generator", question)
    capacity = battery_capacity_span(question)
    bill = [
        b
        for b in concept_starts("electricity", question)
        if capacity is None or not capacity[0] <= b < capacity[1]
    ]
    return bool(bill and off_grid) and min(bill) < min(off_grid)


def _battery_line(result: PowerCost, lang: Lang, question: str = "") -> str:
    """'A 1,024 Wh battery runs the machine at 230 W for about 3.8 h (4.5 h with no loss).'"""
    b = result.battery
    if b is None:
        return ""
    wh, load = num(b.battery_wh, lang, 0), num(b.load_w, lang, 0)
    hours, ideal, eff = (
        num(b.hours, lang, 1),
        num(b.hours_ideal, lang, 1),
        pick(lang, f"{b.efficiency:.0%}", f"{b.efficiency * 100:.0f}\u202f%"),
    )
    outage = _outage_check(b, question, lang)
    return pick(
        lang,
        f"**A {wh} Wh battery runs the machine at {load} W for about {hours} h{outage}** ({ideal} h with "
        f"no loss at all; about {eff} of its Wh reach the machine through the inverter). Runtime "
        "= battery Wh × efficiency ÷ watts drawn: a lower power limit on the card stretches it.",
        f"**Une batterie de {wh} Wh fait tourner la machine à {load} W pendant environ {hours} h"
        f"{outage}** ({ideal} h sans aucune perte ; environ {eff} de ses Wh arrivent à la machine par "
        "l'onduleur). Autonomie = Wh de la batterie × rendement ÷ watts consommés : brider la "
        "carte l'allonge.",
    )


def _generator_line(result: PowerCost, lang: Lang) -> str:
    """'On the generator: 1.2 L/h × $1.60 = $1.92 an hour, $6.40 per kWh at 300 W.'"""
    g = result.generator
    if g is None or g.cost_per_hour is None or g.fuel_price_per_l is None:
        return ""
    cur = result.currency
    litres, price = num(g.fuel_l_per_h, lang, 2), money(g.fuel_price_per_l, cur, lang)
    hour, load = money(g.cost_per_hour, cur, lang), num(g.load_w, lang, 0)
    kwh = money(g.cost_per_kwh, cur, lang) if g.cost_per_kwh is not None else "?"
    return pick(
        lang,
        f"**On the generator: {litres} L/h × {price} = {hour} an hour, i.e. {kwh} per kWh the "
        f"machine uses at {load} W.** A generator burns much of its fuel even lightly loaded, so "
        "a large one feeding one PC pays far more per kWh than the grid.",
        f"**Sur le groupe électrogène : {litres} L/h × {price} = {hour} de l'heure, soit {kwh} "
        f"par kWh consommé par la machine à {load} W.** Un groupe brûle une bonne part de son "
        "carburant même peu chargé : un gros groupe pour un seul PC revient bien plus cher au "
        "kWh que le réseau.",
    )


def _idle_share(result: PowerCost, lang: Lang) -> str:
    """'The idle hours alone cost 97 € a year: what putting it to sleep when it waits would save.'"""
    if not result.idle_cost_per_year or not result.cost_per_year:
        return ""
    idle = money(result.idle_cost_per_year, result.currency, lang)
    return pick(
        lang,
        f"The idle hours alone cost {idle} a year: what sleeping or switching it off while it "
        "waits would save.",
        f"Les heures au repos coûtent à elles seules {idle} par an : c'est ce que la mise en "
        "veille ou l'arrêt pendant l'attente ferait économiser.",
    )


def _against_monthly(result: PowerCost, asked: Entities, lang: Lang) -> str:
    """'Against the 22 $ a month the question names: 1.98 $.' A monthly amount the asker gives (a
    subscription, a rental) set beside the electricity a month, in the same currency."""
    monthly = [m for m in asked.money if m.per == "month" and m.currency == result.currency]
    if len(monthly) != 1 or result.cost_per_month is None:
        return ""
    theirs = money(monthly[0].amount, result.currency, lang)
    ours = money(result.cost_per_month, result.currency, lang)
    return pick(
        lang,
        f"Against the {theirs} a month the question names: {ours} of electricity a month.",
        f"Face aux {theirs} par mois de la question : {ours} d'électricité par mois.",
    )


def combine(results: list[PowerCost], question: str, lang: Lang) -> str:
    """Two cards' electricity side by side: the second named against the first, and how much
    more or less it costs."""
    from assistant.agent.offline.entities import extract_entities

    found = [r for r in results if r.found and r.cost_per_month is not None]
    if len(found) != MAX_COMPARED or extract_entities(question).energy_kwh:
        return ""
    a, b = found
    cur, yearly = a.currency, asks_per_year(question)
    period = pick(lang, "a year" if yearly else "a month", "par an" if yearly else "par mois")
    if a.gpu == b.gpu:
        return _two_draws(a, b, yearly, question, lang)

    def cost(r: PowerCost) -> float:
        """The card's electricity cost a year or a month, as the question asks."""
        return (r.cost_per_year if yearly else r.cost_per_month) or 0.0

    def card(r: PowerCost) -> str:
        """The card's name with its power draw; several cards (and their machines) in all."""
        if r.gpu_count > 1 and r.total_w:
            return f"{r.gpu_count} × {r.gpu} ({num(r.total_w, lang, 0)} W)"
        name = r.gpu or pick(lang, "the machine", "la machine")  # a whole machine's draw
        return f"{name} ({num(r.power_w or 0, lang, 0)} W)"

    gap = abs(cost(b) - cost(a))
    saving = money(gap, cur, lang) + at_stated_rate(gap, cur, question, lang)
    hours = num(a.hours_per_day or 0, lang, 1)
    # the same hours for both, or the same work done faster on one: then each line gives its hours
    same = a.hours_per_day == b.hours_per_day
    span = pick(lang, f" and {hours} h a day", f" et {hours} h par jour") if same else ""
    work = "" if same else pick(lang, " for the same work", " pour le même travail")
    # The second card named is the one weighed against the first ('and if I move to a B580?'):
    # its cost, and how much more or less than the first's.
    more = cost(b) > cost(a)
    head = pick(
        lang,
        f"**At {_price(a, lang)}{span}{work}, {card(b)} costs {money(cost(b), cur, lang)} "
        f"{period} in electricity against {money(cost(a), cur, lang)} for {card(a)}: {saving} "
        f"{period} {'more' if more else 'less'}.**",
        f"**À {_price(a, lang)}{span}{work}, {card(b)} coûte {money(cost(b), cur, lang)} "
        f"{period} d'électricité contre {money(cost(a), cur, lang)} pour {card(a)} : {saving} "
        f"{period} {'de plus' if more else 'de moins'}.**",
    )
    lines = [f"- {_lead(r, yearly, lang).replace('**', '')}" for r in (a, b)]
    return "\n\n".join(
        p
        for p in (head, "\n".join(lines), assumptions_line(a.assumptions, a.usd_per_eur, lang))
        if p
    )


def _two_draws(a: PowerCost, b: PowerCost, yearly: bool, question: str, lang: Lang) -> str:
    """One card at two power draws, in the order asked: the first draw's cost, then the other's
    and the difference (over the span the question gives, when it gives one)."""
    cur = a.currency
    spans = [_span_cost(r, question) for r in (a, b)]
    span_line = ""
    if spans[0] and spans[1]:
        words, first, second = (
            spans[0][0],
            money(spans[0][1], cur, lang),
            money(spans[1][1], cur, lang),
        )
        at = num(b.power_w or 0, lang, 0)
        span_line = pick(
            lang,
            f"**Over {words}: {first}; {second} at {at} W.** ",
            f"**Sur {words} : {first} ; {second} à {at} W.** ",
        )
    period = pick(lang, "a year" if yearly else "a month", "par an" if yearly else "par mois")

    def cost(r: PowerCost) -> float:
        return (r.cost_per_year if yearly else r.cost_per_month) or 0.0

    watts = num(b.power_w or 0, lang, 0)
    total = num((b.power_w or 0) * b.gpu_count, lang, 0)
    each = pick(lang, " each", " chacune") if b.gpu_count > 1 else ""
    both = f" ({total} W)" if b.gpu_count > 1 else ""
    gap = money(abs(cost(a) - cost(b)), cur, lang)
    less = cost(b) < cost(a)
    at = pick(lang, f"At {watts} W{each}{both}", f"À {watts} W{each}{both}")
    if a.power_w == b.power_w and a.hours_per_day != b.hours_per_day:
        # the same draw on two schedules ('24h/24, or off at night and at weekends?')
        hours = num(b.hours_per_day or 0, lang, 1)
        # a year billed for fewer days than it has: the working days given ('5 days a week')
        fewer_days = bool(
            b.cost_per_year and b.cost_per_day and b.cost_per_year < b.cost_per_day * 360
        )
        at = pick(lang, f"On {hours} h a day", f"Allumée {hours} h par jour") + (
            pick(lang, ", working days only", ", jours ouvrés seulement") if fewer_days else ""
        )
    second = pick(
        lang,
        f" **{at}: {money(cost(b), cur, lang)} {period}**, {gap} " + ("less." if less else "more."),
        f" **{at} : {money(cost(b), cur, lang)} {period}**, soit {gap} "
        + ("de moins." if less else "de plus."),
    )
    return "\n\n".join(
        p
        for p in (
            span_line + _lead(a, yearly, lang) + second,
            assumptions_line(a.assumptions, a.usd_per_eur, lang),
        )
        if p
    )


# 'and if I cap it at 300 W?' asks about a cap; 'after undervolting I measure 170 W' gives the draw.
_HYPOTHETICAL = re.compile(r"\b(?:if|what if|suppose|would|si|et si|en cas de)\b", re.IGNORECASE)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per card compared, or one for the wattage named; none without either."""
    cards: list[str | None] = [*named_cards(ent)[:MAX_COMPARED]]
    whole = reading.entities
    if whole.energy_card and whole.energy_card not in cards:
        cards = [whole.energy_card, *cards][:MAX_COMPARED]
    if cards and whole.speedups:
        # 'and if the same job runs 25 times faster on an H100?' (another sentence): that card
        # is compared too, whichever clause the electricity was asked in
        cards = [*cards, *(c for c in whole.speedups if c not in cards)][:MAX_COMPARED]
    named = concepts_in(reading.text)
    priced = reading.entities.electricity_price is not None
    if not cards and ent.power_w is None:
        if priced and "electricity" in named and whole.wall_w is None:
            # '1,60 DH le kWh, ~3 h par jour avec la carte à fond, combien par mois ?' with no
            # card said: the bill of each 100 W it draws, which any card's draw scales
            ent = ent.model_copy(update={"power_w": PER_DRAW_W})
        else:
            return []
    if not named & {"electricity", "psu", "generator"} and not priced and whole.battery_wh is None:
        return []  # 'a battery budget of 25 W': a power limit, with no bill or runtime to compute
    currency = currency_of(ent)
    alone = len(cards) <= 1
    rates = rental_rates(whole, reading.text)
    # hours stated in another clause of the message ('is my PSU enough? and 2 h a day, how much?')
    work, idle = ent.hours_per_day or whole.hours_per_day, ent.idle_hours_per_day
    busy = [d.per_day for d in whole.durations if d.per_day and d.per_day < HOURS_PER_DAY]
    if (
        idle is None
        and whole.always_on
        and busy
        and (ent.idle_w is not None or phrase_spans("idle", reading.text))
    ):
        # 'on 24/7 … 48 W idle and 230 W while generating, maybe 1 hr generating per day', 'on
        # 24/7, idle most of the time, 4 h a day under load': the hours named below the day's
        # are the working ones, the rest of the day idles (at the idle draw stated, else the
        # tool's sourced one)
        work, idle = busy[0], HOURS_PER_DAY - busy[0]
    if not work and idle is None and ent.utilisation and ent.idle_w is not None:
        # 'draws 1.85 kW loaded and 0.35 kW idle; we aim at 60 % occupancy': a machine with a
        # share of busy time and an idle draw is on all day
        work = HOURS_PER_DAY
    if work and idle is None and ent.utilisation and ent.utilisation < 1:
        # 'on 24/7, idle about 80 % of the time': busy a share of the hours, idle the rest
        work, idle = work * ent.utilisation, work * (1 - ent.utilisation)
    idle_w, machine_idle = ent.idle_w, None
    if idle_w is not None and whole.rest_w and idle_w < whole.rest_w and not whole.machines:
        # 'the box (600 W card + 250 W rest) idles at ~120 W': an idle draw below what the rest
        # of the machine draws working is the whole machine's, whichever card it holds
        idle_w, machine_idle = 0.0, ent.idle_w
    calls = []
    for card in cards or [None]:
        own = ent.card_power_w.get(card) if card else None
        checked = card is not None and card == whole.energy_card
        count = ent.gpu_count if card is None else (whole if checked else ent).count_of(card)
        own_count = card is not None and card in (whole if checked else ent).gpu_counts
        if (
            count
            and whole.machines
            and whole.counts_per_machine
            and not (count == whole.machines and not own_count)
        ):
            # '4 servers of 8x H100': 32 cards; '40 boxes with one Orin NX each': the message's
            # one count is the boxes', not a count per box
            count *= whole.machines
        elif not count and whole.machines and not whole.servers:
            # '20 lab PCs with an RTX 4060': one card in each; 'the mini pulls 70 W … two
            # minis': the draw named is each machine's
            count = whole.machines
        calls.append({
            "gpu": card, "power_w": own if own is not None or not alone else ent.power_w,
            "idle_w": idle_w if alone or machine_idle is not None else None,
            "system_idle_w": machine_idle,
            # A stated energy figure is checked against the most the cards can draw: all day.
            "hours_per_day": work or (HOURS_PER_DAY if checked else None),
            "idle_hours_per_day": idle if alone or machine_idle is not None else None,
            "gpu_count": count or 1, "days_per_month": whole.days_per_month,
            "always_on": whole.always_on if alone else None,
            "currency": currency, "usd_per_eur": ent.usd_per_eur,
            "electricity_price_per_kwh": electricity_price(ent, currency),
            "rent_rate": rates[0] if len(rates) == 1 else None,
            "machines": whole.machines if alone else None,
            # the rest of the PC draws the same whichever card sits in it
            "system_w": whole.rest_w if alone or not whole.machines else None,
            "servers": whole.servers, "pue": whole.pue,
            "psu_w": whole.psu_w if alone else None,
            "battery_wh": whole.battery_wh if alone else None,
            "fuel_l_per_h": whole.fuel_l_per_h if alone else None,
            "fuel_price_per_l": whole.fuel_price.amount if alone and whole.fuel_price else None,
        })  # fmt: skip
    if alone and whole.rest_w is not None and whole.wall_w is not None and ent.power_w is not None:
        # 'at the plug, 430 W for the card + 150 W for the rest': the parts, not one wall figure
        calls[0]["power_w"] = ent.power_w
    elif alone and whole.wall_w is not None:
        # The whole machine measured at the plug: the bill follows that, not the card's TGP.
        wall = {**calls[0], "gpu": None, "power_w": whole.wall_w, "gpu_count": 1}
        return _all_day_and_schedule(wall, ent, reading) or [wall]
    if alone and (both := _all_day_and_schedule(calls[0], ent, reading)):
        return both
    if (
        not alone
        and whole.psu_w is not None
        and not whole.options
        and "psu" in concepts_in(reading.text)
    ):
        # 'is my 850 W PSU enough for a 4080 Super plus a 3060?': one machine, its cards' draws
        # added up against the supply; 'a 5090 to replace the P4000': the new card alone
        replaced = bool(phrase_spans("replaces", reading.text))
        others = [] if replaced else [c["gpu"] for c in calls[1:] if c.get("gpu")]
        return [{**calls[0], "psu_w": whole.psu_w, "other_gpus": others}]
    if (
        not alone
        and not whole.options
        and not named & {"compare", "psu"}
        and not whole.speedups
        and not _HYPOTHETICAL.search(reading.text)
        and _in_one_sentence(reading.text)
    ):
        machine = _one_machine(calls)
        if machine is not None:
            # '3090 ~350 W + 2 x 3060 ~170 W, 8 h a day: what per month?': the cards of one
            # machine, named with '+' or 'and' and not weighed against each other, draw together
            return [{**machine, "idle_w": idle_w, "idle_hours_per_day": idle,
                     "always_on": whole.always_on, "system_w": whole.rest_w,
                     "system_idle_w": machine_idle, "rent_rate": None}]  # fmt: skip
    if not alone:
        _compared_use(calls, whole, ent, work)
    if (
        len(calls) == 1
        and calls[0]["gpu"] is not None
        and whole.power_cap_w is not None
        and whole.power_options == [whole.power_cap_w]
        and ent.idle_w is None
        and _HYPOTHETICAL.search(reading.text)
    ):
        # 'and if I cap it at 300 W?': the card's own draw (as stated, else its figure) first, then
        # the capped one.
        stated = ent.power_w if ent.power_w != whole.power_cap_w else None
        return [{**calls[0], "power_w": stated}, {**calls[0], "power_w": whole.power_cap_w}]
    if (
        len(calls) == 1
        and len(whole.power_options) >= MAX_COMPARED
        and (ent.idle_w is None or ent.idle_w not in whole.power_options)
    ):
        # One card at two draws ('600 W, or the 300 W version?'): each draw priced, as asked.
        first, second = whole.power_options[:MAX_COMPARED]
        calls = [{**calls[0], "power_w": watts} for watts in (first, second)]
    if alone:
        # 'a DGX A100 … at ~5 kW average': more than its cards could draw one by one, so the
        # figure is the whole machine's, as if read at the plug
        calls = [
            {**c, "gpu": None, "gpu_count": 1} if _above_one_cards_draw(c) else c for c in calls
        ]
    return calls


def _all_day_and_schedule(
    call: dict[str, Any], ent: Entities, reading: Reading
) -> list[dict[str, Any]]:
    """'on 24h/24 … and if we switch it off at night and at weekends (on 10 h a day, 5 days a
    week)?': no idle draw is given, so the bill on all day, then on the schedule; none otherwise."""
    whole = reading.entities
    hours = call.get("hours_per_day")
    if (
        not whole.always_on
        or ent.idle_w is not None
        or not hours
        or hours >= HOURS_PER_DAY
        or not phrase_spans("switched_off", reading.text)
    ):
        return []
    all_day = {**call, "hours_per_day": HOURS_PER_DAY, "days_per_month": None}
    return [{**all_day, "always_on": False}, {**call, "always_on": False}]


def _in_one_sentence(text: str) -> bool:
    """Whether every card the message names sits in one sentence ('3090 ~350 W + 2 x 3060'), not
    one card then another asked about in a sentence of its own ('And with a 4090 at 450 W?')."""
    from assistant.knowledge.matching import find_gpu_spans

    spans = find_gpu_spans(text)
    if not spans:
        return False
    start, end = min(s for _, s, _ in spans), max(e for _, _, e in spans)
    return re.search(r"[.?!](?:\s|$)", text[start:end]) is None


def _one_machine(calls: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One call for the cards of one machine: their draws (as stated, else each card's board
    power) times their counts, added up; None when a card's draw is unknown."""
    from assistant.knowledge.matching import match_gpu

    total = 0.0
    for call in calls:
        found = match_gpu(call["gpu"]).gpu if call.get("gpu") else None
        watts = call.get("power_w") or (found.tdp_w if found is not None else None)
        if not watts:
            return None
        total += float(watts) * (call.get("gpu_count") or 1)
    return {**calls[0], "gpu": None, "gpu_count": 1, "power_w": total}


# A stated draw above this many times a card's board power cannot be one card's.
ONE_CARD_AT_MOST = 2.0


def _above_one_cards_draw(call: dict[str, Any]) -> bool:
    """The draw the question states for its cards is the whole machine's: it is above what one of
    them can draw ('DGX A100 is rated 6.5 kW')."""
    from assistant.knowledge.matching import match_gpu

    watts, card = call.get("power_w"), call.get("gpu")
    if not watts or not card:
        return False
    found = match_gpu(card).gpu
    board = found.tdp_w if found is not None else None
    return board is not None and watts > ONE_CARD_AT_MOST * board


def _compared_use(
    calls: list[dict[str, Any]], whole: Entities, ent: Entities, work: float | None
) -> None:
    """Cards compared on the asker's figures: a draw measured at the wall is the asker's machine,
    the first card named ('my station (4090 + Threadripper) reads 620 W … and on an H100?'); a
    card that does the same job N times faster is busy 1/N of the hours."""
    if whole.wall_w is not None and not any(ent.card_power_w.get(c["gpu"]) for c in calls):
        calls[0]["power_w"] = whole.wall_w
    for call in calls:
        faster = whole.speedups.get(call["gpu"] or "")
        if work and faster and faster > 1:
            call["hours_per_day"] = work / faster


SKILL = Skill(
    tool="power_cost",
    result=PowerCost,
    build=build,
    render=render,
    combine=combine,
    search_hint="consommation électrique coût électricité",
    slots=(
        "gpus",
        "unknown_gpus",
        "power_w",
        "psu_w",
        "durations",
        "gpu_count",
        "money",
        "battery_wh",
        "fuel_l_per_h",
        "fuel_price",
    ),
    needs=("gpus", "unknown_gpus", "power_w"),
    concepts=("electricity", "psu", "battery", "generator"),
    requires=("electricity", "psu", "battery", "generator"),
)
