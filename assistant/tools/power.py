"""Running cost of a card you own: its power × hours × the electricity price, per day and per
month; the extra over leaving it idle; and how that compares with renting the same card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from assistant.knowledge.prices import hourly_price_range
from assistant.knowledge.running import CardDraw, RunningCosts, SystemDraw, load_running_costs
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.money import (
    configured_electricity_price,
    format_money,
    format_number,
    format_unit_price,
    has_rate,
)
from assistant.tools.cost_base import DAYS_PER_MONTH, CostResult, MoneyQuery, money_context

if TYPE_CHECKING:
    from assistant.knowledge.gpus import GpuCard

DAYS_PER_YEAR = 365.0

FORMULA = (
    "cost = ((watts × hours + idle watts × idle hours) × cards + rest of each machine × machines × hours on) ÷ 1000 × PUE "
    "× price per kWh; per month = per day × days; extra over idle = (watts − idle watts) ÷ 1000 × hours × price per kWh"
)


FORMULA_FR = (
    "coût = ((watts × heures + watts au repos × heures au repos) × cartes + reste de chaque machine × machines × heures allumées) ÷ 1000 "
    "× PUE × prix du kWh ; par mois = par jour × jours ; surcoût par rapport au repos = (watts − watts au repos) ÷ 1000 × heures "
    "× prix du kWh"
)


class PowerQuery(MoneyQuery):
    """What does it cost in electricity to run a card I own?"""

    gpu: str | None = Field(default=None, max_length=200, description="The card, e.g. 'RTX 3090'")
    gpu_count: int = Field(default=1, ge=1, le=4096, description="How many such cards, in all")
    machines: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="How many machines (PCs, servers) hold the cards (default: one, or as many servers as the cards fill)",
    )
    system_w: float | None = Field(
        default=None,
        ge=0,
        le=50_000,
        description="Draw of the rest of each machine (CPU, board, fans, power-supply losses), in watts",
    )
    system_idle_w: float | None = Field(
        default=None,
        ge=0,
        le=50_000,
        description="Draw of the rest of each machine while the cards idle, in watts (default: "
        "system_w); with idle_w 0, a whole machine's idle draw as measured ('the box idles at 120 W')",
    )
    servers: bool = Field(
        default=False,
        description="The cards sit in servers: the rest of each server is taken from the vendor's system rating where the data has one, and a server runs 24 h a day unless told otherwise",
    )
    pue: float | None = Field(
        default=None,
        ge=1.0,
        le=3.0,
        description="Data-centre power usage effectiveness: the facility's draw ÷ the machines' draw",
    )
    power_w: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Draw per card while working, in watts (default: a sourced typical draw, else the TDP); with no card, the whole machine's draw",
    )
    idle_w: float | None = Field(
        default=None, ge=0, le=2_000, description="Draw per card while idle, in watts"
    )
    hours_per_day: float | None = Field(
        default=None, gt=0, le=24, description="Hours of work per day (default 8)"
    )
    idle_hours_per_day: float = Field(
        default=0,
        ge=0,
        le=24,
        description="Hours per day the card is on but idle (e.g. 24 - hours_per_day for a machine left on); 0: off when not working",
    )
    days_per_month: float = Field(
        default=DAYS_PER_MONTH, gt=0, le=31, description="Days in a month"
    )
    always_on: bool = Field(
        default=False,
        description="The machine stays on every day: on the days without work (fewer "
        "`days_per_month` than the calendar's) it idles all day",
    )
    electricity_price_per_kwh: float | None = Field(
        default=None,
        ge=0,
        description="Electricity price per kWh in `currency` (the caller fills the configured one)",
    )
    rent_rate: float | None = Field(
        default=None,
        gt=0,
        description="Price per hour of renting one such card, to compare with (default: the price data's typical)",
    )
    psu_w: float | None = Field(
        default=None,
        gt=0,
        le=20_000,
        description="Rating of the machine's power supply, in watts, to check against the cards",
    )
    other_gpus: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Other cards in the same machine, added to the power-supply check "
        "('an RTX 4080 Super plus an RTX 3060')",
    )
    battery_wh: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="A battery, power station or UPS that runs the machine during a power cut, "
        "in watt-hours: how long it lasts at the machine's draw",
    )
    fuel_l_per_h: float | None = Field(
        default=None,
        gt=0,
        le=1_000,
        description="A generator's fuel use while it runs the machine, in litres per hour",
    )
    fuel_price_per_l: float | None = Field(
        default=None, ge=0, description="The fuel's price per litre, in `currency`"
    )


class PsuCheck(BaseModel):
    """Whether a power supply is big enough for the cards: the vendor's recommendation for the
    card where the data has one, else the cards' TDP plus a typical desktop's rest."""

    psu_w: float
    cards_w: float = Field(description="The cards' board power, all together")
    recommended_w: float = Field(description="The supply the machine should have")
    basis: str = Field(description="vendor (the card's recommended supply) / estimate")
    floor_w: float = Field(description="Below this the machine cannot run under load")
    verdict: str = Field(description="enough / tight / short")


class BatteryRuntime(BaseModel):
    """How long a battery runs the machine: its watt-hours × the share that reaches the machine ÷
    the machine's draw."""

    battery_wh: float
    load_w: float = Field(description="What the battery feeds: cards and the rest of the machine")
    efficiency: float
    hours: float = Field(description="Runtime after conversion losses")
    hours_ideal: float = Field(description="Runtime with no loss at all: battery Wh ÷ load W")


class GeneratorCost(BaseModel):
    """A generator's fuel cost while it runs the machine: litres per hour × price per litre, and
    that per kWh the machine draws."""

    fuel_l_per_h: float
    fuel_price_per_l: float | None = None
    cost_per_hour: float | None = None
    cost_per_kwh: float | None = Field(
        default=None, description="Fuel per hour ÷ the machine's kW: the price of its energy"
    )
    load_w: float


class PowerCost(CostResult):
    """Electricity cost of running the card, with the formula and its inputs."""

    found: bool = True
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    gpu: str | None = None
    gpu_count: int = 1
    machines: int = 1
    power_w: float | None = Field(default=None, description="Per card")
    system_w: float = Field(default=0.0, description="The rest of each machine")
    pue: float = 1.0
    total_w: float | None = Field(
        default=None, description="Cards and machines at work, before the PUE"
    )
    system: str | None = Field(
        default=None, description="The vendor server whose rating gives the rest of each machine"
    )
    system_max_w: float | None = None
    system_estimated: bool = Field(
        default=False,
        description="The server is a stand-in: no vendor rating for a server of this card",
    )
    power_basis: str | None = Field(default=None, description="typical (sourced) / TDP / given")
    idle_w: float | None = None
    system_idle_w: float | None = Field(
        default=None, description="The rest of each machine while idle, when given apart"
    )
    hours_per_day: float | None = None
    idle_hours_per_day: float = 0.0
    electricity_price_per_kwh: float | None = None
    kwh_per_day: float | None = None
    kwh_per_month: float | None = None
    idle_cost_per_year: float | None = Field(
        default=None, description="What the idle hours alone cost a year (what sleep would save)"
    )
    cost_per_hour: float | None = None
    cost_per_day: float | None = None
    cost_per_month: float | None = None
    cost_per_year: float | None = Field(
        default=None, description="Per day × 365, or × 12 months of the working days given"
    )
    extra_over_idle_per_day: float | None = None
    extra_over_idle_per_month: float | None = None
    rent_rate: float | None = Field(
        default=None,
        description="Rental price per hour of the cards: the given rate, else the typical",
    )
    rent_rate_given: bool = Field(default=False, description="Whether rent_rate is the caller's")
    electricity_share_of_rent: float | None = Field(
        default=None, description="Electricity per hour ÷ rental price per hour"
    )
    psu: PsuCheck | None = Field(default=None, description="The power-supply check, when asked")
    battery: BatteryRuntime | None = Field(
        default=None, description="How long a battery runs the machine, when one is given"
    )
    generator: GeneratorCost | None = Field(
        default=None, description="What a generator's fuel costs, when its use is given"
    )
    other_gpus: list[str] = Field(
        default_factory=list, description="The other cards of the machine in the supply check"
    )
    formula: str = FORMULA
    formula_fr: str = FORMULA_FR
    inputs: dict[str, float] = Field(default_factory=dict)
    summary_fr: str = ""


def power_cost(q: PowerQuery) -> PowerCost:
    """Electricity cost of running a card you own: its power (a sourced typical draw, else the TDP,
    or power_w) × hours × the electricity price, per hour, day and month; the extra cost over
    leaving it idle; and the electricity per hour next to the price of renting the same card."""
    from assistant.knowledge.matching import match_gpu

    cur, rate, assumptions = money_context(q)
    base = {"currency": cur, "usd_per_eur": rate, "gpu_count": q.gpu_count}
    data = load_running_costs()
    sources: list[Source] = []
    card = None
    if q.gpu is not None:
        m = match_gpu(q.gpu)
        card = m.gpu
        if card is None and q.power_w is None:
            msg = f"'{q.gpu}' is not in the GPU catalog; give power_w."
            return PowerCost(found=False, message=msg, suggestions=m.suggestions, gpu=q.gpu,
                             summary=msg, summary_fr="Carte absente du catalogue : donnez power_w.",
                             assumptions=assumptions, **base)  # fmt: skip
    row = data.card(card.name) if card else None
    system = data.system(card.name) if card and q.servers else None
    if system is None and card and q.servers:
        system = data.stand_in(card.name)  # no vendor server of this card: a similar one's rest
    stand_in = system is not None and card is not None and system.gpu != card.name
    if q.power_w is not None:
        watts, basis = q.power_w, "given"
    elif system and card and not stand_in and not (row and row.typical_w) and not card.tdp_w:
        # NVIDIA rates some cards only as part of their server (B200): the system's share per card.
        watts, basis = system.max_w / system.gpus, "system"
        sources.append(system.source)
        assumptions.append(
            f"Power: {watts:g} W a card, {system.name}'s {system.max_w:g} W maximum shared over its {system.gpus} cards."
        )
    elif row and row.typical_w:
        watts, basis = row.typical_w, "typical"
        sources.append(row.source)
        assumptions.append(
            f"Power: {watts:g} W, a sourced typical draw (TDP {card.tdp_w if card else '?'} W)."
        )
    elif card and card.tdp_w:
        watts, basis = card.tdp_w, "TDP"
        sources += card.source_for("tdp_w")
        assumptions.append(
            f"Power: {watts:g} W, the card's TDP: a card working flat out; LLM decoding often draws less."
        )
    else:
        msg = (
            "No power figure for this card; give power_w."
            if card
            else "Say which card, or give power_w."
        )
        return PowerCost(found=False, message=msg, gpu=card.name if card else q.gpu, summary=msg,
                         summary_fr="Pas de puissance connue : donnez power_w.", assumptions=assumptions, **base)  # fmt: skip
    if q.idle_w is not None:
        idle = q.idle_w
    elif row and row.idle_w is not None:
        idle = row.idle_w
        sources.append(row.source)
    else:
        idle = data.idle_w
        sources.append(data.idle_source)
        assumptions.append(f"Idle: {idle:g} W, a typical desktop card at idle.")
    idle = min(idle, watts)
    around_the_clock = q.servers or q.pue is not None
    default_hours = 24.0 if around_the_clock else data.hours_per_day
    hours = q.hours_per_day if q.hours_per_day is not None else default_hours
    if q.hours_per_day is None:
        why = ", as servers usually run" if around_the_clock else ""
        assumptions.append(f"Use: {hours:g} hours a day (none given{why}).")
    machines, rest_w = _machines(q, system, watts, card.name if card else None, assumptions)
    if system and q.system_w is None and basis != "system":
        sources.append(system.source)
    pue = q.pue or 1.0
    price = q.electricity_price_per_kwh
    if price is None:  # a Python caller that gave none: the configured price
        price = configured_electricity_price(cur, rate)
    assumptions.append(
        f"Electricity: {format_unit_price(price, cur)} per kWh (the question's, else "
        "GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH)."
    )
    n = q.gpu_count
    idle_hours = min(q.idle_hours_per_day, 24 - hours)
    rest_idle = rest_w if q.system_idle_w is None else q.system_idle_w
    rest_day = (rest_w * hours + rest_idle * idle_hours) * machines
    kwh_day = ((watts * hours + idle * idle_hours) * n + rest_day) / 1000 * pue
    total_w = watts * n + rest_w * machines
    per_hour = total_w / 1000 * price * pue
    per_day = kwh_day * price
    extra_day = (watts - idle) * n / 1000 * hours * price * pue
    counted = (
        "the rest of each machine is counted too"
        if rest_w
        else "only the card's own draw is counted, not the rest of the machine"
    )
    assumptions.append(f"A month is {q.days_per_month:g} days of use; {counted}.")
    if q.pue:
        assumptions.append(
            f"PUE {pue:g}: the facility draws {pue:g} × what the machines draw (cooling, power conversion)."
        )
    rent = share = None
    if q.rent_rate is not None:
        rent = q.rent_rate * n
        share = per_hour / rent
    elif card is not None and has_rate(cur):
        rng = hourly_price_range(card.name, currency=cur, usd_per_eur=rate)
        if rng is not None:
            rent = rng.typical * n
            share = per_hour / rent if rent else None
            sources += rng.sources[:3]
    others = [c for n in q.other_gpus for c in [match_gpu(n).gpu] if c is not None]
    psu = _psu_check(
        q, row, card.tdp_w if card and card.tdp_w else watts, others, sources, assumptions
    )
    drawn = total_w * pue  # what a battery or a generator feeds
    battery = _battery(q.battery_wh, drawn, data, sources, assumptions)
    generator = _generator(q, drawn)
    name = card.name if card else (q.gpu or "the card")
    who = f"{n} × {name}" if n > 1 else name
    # Days of use a month below the calendar's (working days): a year is twelve such months.
    working_days = q.days_per_month < DAYS_PER_MONTH
    year_days = q.days_per_month * 12 if working_days else DAYS_PER_YEAR
    per_month, per_year = per_day * q.days_per_month, per_day * year_days
    kwh_month = kwh_day * q.days_per_month
    idle_kwh_month = (idle * n + rest_idle * machines) * idle_hours / 1000 * pue * q.days_per_month
    if q.always_on and working_days and (idle or rest_idle):
        # Left on: the calendar's other days are idle all day (cards and the rest of the machine).
        off_days = DAYS_PER_YEAR / 12 - q.days_per_month
        kwh_off = (idle * n + rest_idle * machines) * 24 / 1000 * pue
        kwh_month += kwh_off * off_days
        idle_kwh_month += kwh_off * off_days
        per_month += kwh_off * off_days * price
        per_year = per_month * 12
        assumptions.append(
            f"Left on: the other {off_days:.1f} days of each month it idles all day "
            f"({format_number(kwh_off, 2)} kWh a day)."
        )
    idle_en = f" and idle at {idle * n:g} W for {idle_hours:g} h" if idle_hours else ""
    idle_fr = f" et au repos à {idle * n:g} W pendant {idle_hours:g} h" if idle_hours else ""
    if idle_hours and q.system_idle_w is not None:
        whole_idle = idle * n + rest_idle * machines
        idle_en = f" and idle at {whole_idle:g} W in all for {idle_hours:g} h"
        idle_fr = f" et au repos à {whole_idle:g} W en tout pendant {idle_hours:g} h"
    if rest_w or q.pue:
        pue_en = f" × PUE {pue:g}" if q.pue else ""
        where = f"{machines} machines" if machines > 1 else "the machine"
        where_fr = f"{machines} machines" if machines > 1 else "la machine"
        idle_en += f" (cards {watts * n:g} W + the rest of {where} {rest_w * machines:g} W{pue_en})"
        idle_fr += (
            f" (cartes {watts * n:g} W + le reste de {where_fr} {rest_w * machines:g} W{pue_en})"
        )
    summary = (
        f"Running {who} at {total_w:g} W for {hours:g} h a day{idle_en} costs {format_money(per_day, cur)} a day, "
        f"{format_money(per_month, cur)} a month and {format_money(per_year, cur)} a year at "
        f"{format_unit_price(price, cur)}/kWh ({format_number(kwh_day, 2)} kWh a day"
        + (
            ")."
            if idle_hours
            else f"; {format_money(extra_day * q.days_per_month, cur)} a month more than leaving it idle)."
        )
    )
    summary_fr = (
        f"Faire tourner {who} à {total_w:g} W pendant {hours:g} h par jour{idle_fr} coûte {format_money(per_day, cur, 'fr')} "
        f"par jour, {format_money(per_month, cur, 'fr')} par mois et {format_money(per_year, cur, 'fr')} par an à "
        f"{format_unit_price(price, cur, 'fr')} le kWh ({format_number(kwh_day, 2, 'fr')} kWh par jour"
        + (
            ")."
            if idle_hours
            else f" ; {format_money(extra_day * q.days_per_month, cur, 'fr')} de plus par mois que de la laisser au repos)."
        )
    )
    if rent is not None and share is not None:
        summary += (
            f" Electricity is {format_money(per_hour, cur)}/h against {format_money(rent, cur)}/h to rent the same: "
            f"{share:.0%} of the rental price."
        )
        summary_fr += (
            f" L'électricité coûte {format_money(per_hour, cur, 'fr')}/h contre {format_money(rent, cur, 'fr')}/h "
            f"pour louer la même : {share * 100:.0f}\u202f% du prix de location."
        )
    if psu is not None:
        word = {"enough": "is enough", "tight": "is tight", "short": "is too small"}[psu.verdict]
        mot = {"enough": "suffit", "tight": "est juste", "short": "est trop faible"}[psu.verdict]
        how = "the vendor's figure" if psu.basis == "vendor" else "cards + a typical desktop"
        comment = "chiffre du fabricant" if psu.basis == "vendor" else "cartes + un PC classique"
        summary = f"Power supply: {psu.psu_w:g} W {word} for {who} (recommended {psu.recommended_w:g} W, {how}). {summary}"
        summary_fr = f"Alimentation : {psu.psu_w:g} W {mot} pour {who} ({psu.recommended_w:g} W recommandés, {comment}). {summary_fr}"
    return PowerCost(
        gpu=name if card or q.gpu else None, power_w=watts, power_basis=basis, idle_w=idle,
        machines=machines, system_w=rest_w, pue=pue, total_w=total_w, system_idle_w=q.system_idle_w,
        system=system.name if system and q.system_w is None else None,
        system_max_w=system.max_w if system and q.system_w is None else None,
        system_estimated=stand_in,
        hours_per_day=hours,
        idle_hours_per_day=idle_hours, electricity_price_per_kwh=price, kwh_per_day=kwh_day,
        kwh_per_month=kwh_month, cost_per_hour=per_hour,
        idle_cost_per_year=idle_kwh_month * price * 12 if idle_kwh_month else None,
        cost_per_day=per_day, cost_per_month=per_month, cost_per_year=per_year,
        extra_over_idle_per_day=extra_day, extra_over_idle_per_month=extra_day * q.days_per_month,
        rent_rate=rent, rent_rate_given=q.rent_rate is not None, electricity_share_of_rent=share,
        psu=psu, battery=battery, generator=generator,
        other_gpus=[c.name for c in others] if psu is not None else [],
        inputs={"watts": watts, "cards": n, "idle_watts": idle, "hours_per_day": hours,
                "machines": machines, "rest_of_machine_watts": rest_w, "pue": pue,
                "idle_hours_per_day": idle_hours,
                "price_per_kwh": price, "days_per_month": q.days_per_month},
        summary=summary, summary_fr=summary_fr, assumptions=assumptions,
        sources=dedupe_sources(sources), **base,
    )  # fmt: skip


def _battery(
    battery_wh: float | None,
    load_w: float,
    data: RunningCosts,
    sources: list[Source],
    assumptions: list[str],
) -> BatteryRuntime | None:
    """How long the battery lasts at the machine's draw, after the inverter's losses."""
    if battery_wh is None or load_w <= 0:
        return None
    eff = data.battery_efficiency
    sources.append(data.battery_source)
    assumptions.append(
        f"Battery: {eff:.0%} of its rated Wh reaches the machine through the inverter (a typical "
        "AC output); a battery is rarely drained to empty, so keep a margin."
    )
    return BatteryRuntime(
        battery_wh=battery_wh,
        load_w=load_w,
        efficiency=eff,
        hours=battery_wh * eff / load_w,
        hours_ideal=battery_wh / load_w,
    )


def _generator(q: PowerQuery, load_w: float) -> GeneratorCost | None:
    """The generator's fuel per hour, and per kWh of what the machine draws."""
    if q.fuel_l_per_h is None:
        return None
    price = q.fuel_price_per_l
    per_hour = q.fuel_l_per_h * price if price is not None else None
    per_kwh = per_hour / (load_w / 1000) if per_hour is not None and load_w > 0 else None
    return GeneratorCost(
        fuel_l_per_h=q.fuel_l_per_h,
        fuel_price_per_l=price,
        cost_per_hour=per_hour,
        cost_per_kwh=per_kwh,
        load_w=load_w,
    )


def _machines(
    q: PowerQuery,
    system: SystemDraw | None,
    watts: float,
    card: str | None,
    assumptions: list[str],
) -> tuple[int, float]:
    """How many machines hold the cards, and the draw of the rest of each: the asker's figure,
    else, for servers, the vendor system's rating less its cards' draw."""
    machines = q.machines or 1
    if system is not None and q.machines is None:
        machines = max(1, -(-q.gpu_count // system.gpus))
    if q.system_w is not None:
        return machines, q.system_w
    if system is None:
        return machines, 0.0
    if system.gpu != card:
        # A stand-in: its own cards come off its rating, whatever the asked card draws.
        from assistant.knowledge.matching import match_gpu

        own = match_gpu(system.gpu).gpu
        rest = max(0.0, system.max_w - system.gpus * (own.tdp_w if own and own.tdp_w else 0.0))
        assumptions.append(
            f"Servers: {machines} × {system.gpus}-card servers; the data has no vendor rating for a "
            f"{card} server, so the rest of each (CPUs, network cards, fans) is estimated as "
            f"the {system.name}'s, {rest:g} W ({system.max_w:g} W at most less its {system.gpus} cards)."
        )
        return machines, rest
    rest = max(0.0, system.max_w - system.gpus * watts)
    assumptions.append(
        f"Servers: {machines} × {system.name}, rated {system.max_w:g} W at most for {system.gpus} cards; "
        f"the rest of each server (CPUs, switches, fans) is counted as {rest:g} W."
    )
    return machines, rest


def _other_cards_w(others: list[GpuCard], assumptions: list[str]) -> float:
    """The board power of the other cards in the machine (their TDP from the catalog)."""
    total = 0.0
    for card in others:
        if card.tdp_w:
            total += card.tdp_w
            assumptions.append(f"{card.name} in the same machine: {card.tdp_w:g} W (its TDP).")
    return total


def _psu_check(
    q: PowerQuery,
    row: CardDraw | None,
    board_w: float,
    others: list[GpuCard],
    sources: list[Source],
    assumptions: list[str],
) -> PsuCheck | None:
    """The asked power supply against the cards (`others`: the machine's other cards, matched):
    the vendor's figure for one card where the data has it, else board power × cards + a typical
    desktop's rest, rounded up to 50 W."""
    if q.psu_w is None or q.gpu is None:
        return None  # a supply is checked against named cards, never against a bare wattage
    data = load_running_costs()
    n = q.gpu_count
    cards_w = board_w * n + _other_cards_w(others, assumptions)
    if n == 1 and row is not None and row.psu_w and not q.other_gpus:
        recommended, basis = row.psu_w, "vendor"
        sources.append(row.source)
    else:
        recommended = -(-(cards_w + data.psu_rest_w) // 50) * 50
        basis = "estimate"
        sources.append(data.psu_source)
        assumptions.append(
            f"Power supply: {cards_w:g} W of cards + {data.psu_rest_w:g} W for the rest of a typical "
            "desktop, as vendors' recommended supplies imply, rounded up to 50 W."
        )
    floor = cards_w + data.psu_floor_w
    verdict = "enough" if q.psu_w >= recommended else "tight" if q.psu_w >= floor else "short"
    return PsuCheck(
        psu_w=q.psu_w,
        cards_w=cards_w,
        recommended_w=recommended,
        basis=basis,
        floor_w=floor,
        verdict=verdict,
    )
