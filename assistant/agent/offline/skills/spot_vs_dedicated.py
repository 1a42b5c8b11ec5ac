"""Spot or on-demand: "spot at $0.80/h or dedicated at $2.50/h for a 100-hour run?"."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import names_concept
from assistant.agent.offline.defaults import defaults
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.quantities import HOURS_PER_DAY, phrase_spans, rework_share
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.cloud_instances import instance_named
from assistant.agent.offline.skills.common import assumptions_line, currency_of, hourly_rates
from assistant.agent.offline.texts import bullet_list, hours, money, num, pick
from assistant.agent.offline.usage import discount
from assistant.language import Lang
from assistant.tools.cost_base import DAYS_PER_MONTH
from assistant.tools.spot import SpotComparison, SpotOption

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

# Beyond this many times the job's length, an expected figure means "it won't finish".
ABSURD_FACTOR = 100
_NO_CHECKPOINTS = re.compile(
    r"\b(?:no|without|sans|pas de|aucune?|zero)\s+(?:\w+\s+)?(?:checkpoint\w*|sauvegardes?|saves?|saving)\b"
    r"|\b(?:can't|cannot|can not|won't|impossible de|ne peux pas|ne peut pas)\s+(?:\w+\s+){0,2}(?:checkpoint\w*|sauvegarder|save)\b",
    re.IGNORECASE,
)
_OPTION_RATE = re.compile(
    r"\b(spot|pre-?emptible|préemptible|interruptible|on-demand|à la demande|dedicated|dédiée?s?|reserved)\b"
    r"[^\d.?!]{0,18}?(\d+(?:[.,]\d+)?)(?!\s*(?:h\b|hours?|heures?|hrs?|min\w*|%|days?|jours?|gb|go|-hour))",
    re.IGNORECASE,
)


def spot_rates(ent: Entities, text: str) -> tuple[float, float] | None:
    """(spot, dedicated) rates the question gives, even with a currency on only one of them."""
    rates = sorted(hourly_rates(ent))
    if len(rates) >= 2:
        return rates[0], rates[-1]
    found: dict[str, float] = {}
    for m in _OPTION_RATE.finditer(text):
        kind = "spot" if re.match(r"spot|pre|pré|inter", m.group(1), re.I) else "dedicated"
        found.setdefault(kind, float(m.group(2).replace(",", ".")))
    if len(found) == 2 and found["spot"] < found["dedicated"]:
        return found["spot"], found["dedicated"]
    off = discount(text)
    if len(rates) == 1 and off is not None:
        # 'on-demand at $1.212/h ... spot at ~65% off': the spot rate is the discounted one
        return round(rates[0] * (1 - off), 4), rates[0]
    return None


def _option_name(option: SpotOption, lang: Lang) -> str:
    names = {
        "spot": pick(lang, "Spot, no checkpoints", "Spot, sans sauvegarde"),
        "spot_with_checkpoints": pick(lang, "Spot + checkpoints", "Spot + sauvegardes"),
        "dedicated": pick(lang, "Dedicated", "Dédiée"),
    }
    key = option.name
    if key == "spot" and option.checkpoint_interval_h:
        key = "spot_with_checkpoints"  # the question's own checkpoints
    name = names.get(key, key)
    if option.checkpoint_interval_h and option.name != "dedicated":
        name += pick(lang, " every ", " toutes les ") + hours(option.checkpoint_interval_h, lang)
    return name


def _option_line(
    option: SpotOption | None, cur: str, lang: Lang, job_hours: float, gpus: int = 1
) -> str | None:
    if option is None:
        return None
    name = _option_name(option, lang)
    colon = pick(lang, ": ", " : ")
    if not option.finishes:
        return (
            name
            + colon
            + pick(
                lang,
                "never finishes (interruptions too frequent)",
                "ne finit jamais (interruptions trop fréquentes)",
            )
        )
    per_gpu = pick(lang, " per GPU", " par GPU") if gpus > 1 else ""
    priced = f"{name} ({money(option.rate, cur, lang)}/h{per_gpu})"
    expected = option.expected_hours
    if expected is not None and job_hours > 0 and expected > ABSURD_FACTOR * job_hours:
        return (
            priced
            + colon
            + pick(
                lang,
                f"practically never finishes without checkpoints (expected > {ABSURD_FACTOR}× the job length)",
                f"ne finit pratiquement jamais sans sauvegarde (durée attendue > {ABSURD_FACTOR}× celle du travail)",
            )
        )
    lost = option.expected_lost_work_h
    chance = num(100 * option.p_interrupted, lang, 0)
    return (
        priced
        + colon
        + pick(lang, "expected ", "en moyenne ")
        + f"{money(option.expected_cost, cur, lang)}, {hours(expected, lang)}"
        + (
            pick(
                lang,
                f", {hours(lost, lang)} of work lost",
                f", {hours(lost, lang)} de travail perdu",
            )
            if lost
            else ""
        )
        + pick(
            lang, f", {chance} % chance of interruption", f", {chance} % de risque d'interruption"
        )
    )


def _rule(result: SpotComparison, advised: str, verdict: str, lang: Lang) -> str:
    rule = pick(
        lang,
        "Rule of thumb: spot for learning and interactive work (an interruption costs a few minutes), "
        "dedicated for a long run without checkpoints (an interruption destroys the work); spot + "
        "checkpoints + automatic restart divides the bill.",
        "En pratique : spot pour apprendre et expérimenter (une interruption coûte quelques minutes), "
        "dédiée pour un long entraînement sans sauvegarde (une interruption détruit tout le travail) ; "
        "spot + sauvegarde fréquente + reprise automatique divise la facture.",
    )
    if advised != verdict and advised == "spot_with_checkpoints":
        rule += pick(
            lang,
            " If you can add checkpoints (every 30 min) with automatic restart, spot becomes the cheaper option.",
            " Si vous pouvez ajouter des sauvegardes (toutes les 30 min) avec reprise automatique, le spot devient"
            " l'option la moins chère.",
        )
    elif result.savings_factor:
        factor = num(result.savings_factor, lang)
        rule += pick(lang, f" Here: ÷{factor}.", f" Ici : ÷{factor}.")
    return rule


def _per_month(result: SpotComparison, asked: Entities, lang: Lang) -> str:
    """'6 h each, about 22 nights a month': the month of runs at each rate and the gap, when the
    question says how many runs a month; '' otherwise."""
    runs = asked.days_per_month
    if not runs or result.job_hours > HOURS_PER_DAY:
        return ""
    cur, n = result.currency, result.gpu_count or 1
    each = result.job_hours * runs * n
    spot, dedicated = result.spot.rate * each, result.dedicated.rate * each
    count = num(runs, lang, 0)
    return pick(
        lang,
        f" **A month of {count} runs: {money(spot, cur, lang)} on spot against "
        f"{money(dedicated, cur, lang)} on demand, {money(dedicated - spot, cur, lang)} apart** "
        "(if never interrupted).",
        f" **Un mois de {count} exécutions : {money(spot, cur, lang)} en spot contre "
        f"{money(dedicated, cur, lang)} à la demande, soit {money(dedicated - spot, cur, lang)} "
        "d'écart** (sans interruption).",
    )


def _saving(result: SpotComparison, lang: Lang) -> str:
    """The asker's two rates: what spot saves on the job, before and after interruptions."""
    cur, n, job = result.currency, result.gpu_count, result.job_hours
    spot, dedicated = result.spot.rate, result.dedicated.rate
    most = (dedicated - spot) * job * n
    who = pick(lang, f"{n} GPUs × ", f"{n} GPU × ") if n > 1 else ""
    formula = (
        f"{who}{hours(job, lang)} × ({money(dedicated, cur, lang)} − {money(spot, cur, lang)})"
        + (pick(lang, "/GPU-h", "/h par GPU") if n > 1 else "/h")
    )
    text = pick(
        lang,
        f"**Spot saves up to {money(most, cur, lang)} on this job** ({formula}, if never "
        "interrupted)",
        f"**Le spot fait économiser jusqu'à {money(most, cur, lang)} sur ce travail** ({formula}, "
        "sans interruption)",
    )
    safe = result.spot_with_checkpoints or result.spot
    d_cost, s_cost = result.dedicated.expected_cost, safe.expected_cost
    if result.rework_fraction is not None and d_cost is not None and s_cost is not None:
        share = num(100 * result.rework_fraction, lang, 0)
        if s_cost < d_cost:
            return text + pick(
                lang,
                f"; **{money(d_cost - s_cost, cur, lang)} with {share} % of the work redone**, your "
                f"estimate ({money(s_cost, cur, lang)} on spot against {money(d_cost, cur, lang)}).",
                f" ; **{money(d_cost - s_cost, cur, lang)} avec {share} % du travail refait**, votre "
                f"estimation ({money(s_cost, cur, lang)} en spot contre {money(d_cost, cur, lang)}).",
            )
        return text + pick(
            lang,
            f"; with {share} % of the work redone, your estimate, spot costs "
            f"{money(s_cost, cur, lang)} against {money(d_cost, cur, lang)}: no saving.",
            f" ; avec {share} % du travail refait, votre estimation, le spot coûte "
            f"{money(s_cost, cur, lang)} contre {money(d_cost, cur, lang)} : aucune économie.",
        )
    if safe.finishes and d_cost is not None and s_cost is not None and s_cost < d_cost:
        every = hours(safe.checkpoint_interval_h, lang) if safe.checkpoint_interval_h else None
        text += pick(
            lang,
            f"; about {money(d_cost - s_cost, cur, lang)} expected once interruptions are paid for"
            + (f" (checkpoints every {every})" if every else ""),
            f" ; environ {money(d_cost - s_cost, cur, lang)} en moyenne une fois les interruptions "
            "payées" + (f" (sauvegardes toutes les {every})" if every else ""),
        )
    return text + "."


def render(result: SpotComparison, question: str, lang: Lang) -> str:
    """The option to take for the job, the assumptions it rests on, then each option's figures."""
    from assistant.agent.offline.entities import extract_entities

    asked = extract_entities(question)
    if _service(asked, question):
        return _service_month(result, lang)
    verdicts = {
        "spot": "Spot",
        "spot_with_checkpoints": pick(
            lang,
            "Spot, with frequent checkpoints and automatic restart",
            "Spot, avec sauvegardes fréquentes et reprise automatique",
        ),
        "dedicated": pick(lang, "Dedicated", "Dédiée"),
    }
    job = hours(result.job_hours, lang)
    advised = verdict = result.verdict
    if _NO_CHECKPOINTS.search(question):
        verdict = result.verdict_as_given  # the job as it is: no checkpoints
    head = pick(
        lang,
        f"**For a job of {job}: {verdicts.get(verdict, verdict)}.**",
        f"**Pour un travail de {job} : {verdicts.get(verdict, verdict)}.**",
    )
    if result.deadline and verdict == "dedicated":
        saved = money(
            (result.dedicated.expected_cost or 0.0) - (result.spot.expected_cost or 0.0),
            result.currency,
            lang,
        )
        head += pick(
            lang,
            f" With a deadline, spot's saving (about {saved}) does not cover the risk: after an "
            "interruption, spot capacity can take hours to come back.",
            f" Avec une échéance, l'économie du spot (environ {saved}) ne couvre pas le risque : après "
            "une interruption, la capacité spot peut mettre des heures à revenir.",
        )
    if not parse_durations(question):
        head += pick(
            lang,
            f" (The job length was not given: {job} assumed.)",
            f" (Durée non précisée : {job} supposées.)",
        )
    given_rates = spot_rates(asked, question)
    if given_rates is not None:
        # With a deadline the choice leads; otherwise what spot saves does.
        saving = _saving(result, lang) + _per_month(result, asked, lang)
        parts = (head, saving) if result.deadline else (saving, head)
        head = " ".join(parts)
    if given_rates is None:
        given = defaults().spot
        spot, dedicated = (
            money(given.spot_rate, given.currency, lang),
            money(given.dedicated_rate, given.currency, lang),
        )
        head += pick(
            lang,
            f" (Rates not given: the guide's example, spot {spot}/h against dedicated {dedicated}/h.)",
            f" (Tarifs non précisés : l'exemple du guide, spot à {spot}/h contre dédiée à {dedicated}/h.)",
        )
    cur = result.currency
    lines = [
        _option_line(option, cur, lang, result.job_hours, result.gpu_count)
        for option in (result.spot, result.spot_with_checkpoints, result.dedicated)
    ]
    if result.rework_fraction is not None:
        lines[0] = _estimated_line(result, lang)
    return "\n\n".join(
        p
        for p in (
            head,
            bullet_list([x for x in lines if x]),
            _rule(result, advised, verdict, lang),
            assumptions_line(result.assumptions, result.usd_per_eur, lang),
        )
        if p
    )


def _estimated_line(result: SpotComparison, lang: Lang) -> str:
    """Spot with the asker's own share of work redone: its hours and bill, nothing modelled."""
    spot, cur = result.spot, result.currency
    share = num(100 * (result.rework_fraction or 0.0), lang, 0)
    return pick(
        lang,
        f"Spot ({money(spot.rate, cur, lang)}/h), {share} % of the work redone: "
        f"{money(spot.expected_cost, cur, lang)} for {hours(spot.expected_hours, lang)}",
        f"Spot ({money(spot.rate, cur, lang)}/h), {share} % du travail refait : "
        f"{money(spot.expected_cost, cur, lang)} pour {hours(spot.expected_hours, lang)}",
    )


def _service(ent: Entities, question: str) -> bool:
    """Spot or on-demand for a machine that runs all the time ('monthly cost 24/7 for both?',
    'running 24/7 for a month'), not for a job of some length: months or years are how long the
    service runs, not a job's length (days or weeks of it may be a training run)."""
    calendar = ("month", "year")
    job = [d for d in parse_durations(question) if d.unit not in calendar]
    return ent.always_on and not job and not ent.work_hours


def _service_month(result: SpotComparison, lang: Lang) -> str:
    """A month of a machine that runs all the time at each rate, and what an interruption means
    for a service (checkpoints save a job, not a service people are using)."""
    cur, gpus = result.currency, result.gpu_count or 1
    month = result.job_hours
    spot, dedicated = result.spot, result.dedicated
    if spot is None or dedicated is None:
        return ""
    spot_month, dedicated_month = spot.rate * month * gpus, dedicated.rate * month * gpus
    saved = money(dedicated_month - spot_month, cur, lang)
    head = pick(
        lang,
        f"**Running 24/7 for a month ({hours(month, lang)}): {money(spot_month, cur, lang)} on "
        f"spot against {money(dedicated_month, cur, lang)} on demand** ({money(spot.rate, cur, lang)}/h "
        f"and {money(dedicated.rate, cur, lang)}/h; {saved} less on spot if its capacity holds all "
        "month).",
        f"**En marche 24 h/24 pendant un mois ({hours(month, lang)}) : {money(spot_month, cur, lang)} "
        f"en spot contre {money(dedicated_month, cur, lang)} à la demande** ({money(spot.rate, cur, lang)}/h "
        f"et {money(dedicated.rate, cur, lang)}/h ; {saved} de moins en spot si sa capacité tient tout "
        "le mois).",
    )
    rule = pick(
        lang,
        "For a service people use all day, spot is risky: the provider can take the machine back "
        "at short notice (the provider's interruption notice is minutes or seconds), and "
        "checkpoints save a batch job, not a live service. Keep the service on demand (or put an "
        "on-demand fallback behind it) and use spot for batch work that can restart.",
        "Pour un service utilisé toute la journée, le spot est risqué : le fournisseur peut "
        "reprendre la machine avec un court préavis (quelques minutes ou secondes selon le "
        "fournisseur), et les sauvegardes sauvent un traitement par lots, pas un service en "
        "cours d'utilisation. Gardez le service à la demande (ou avec un repli à la demande) et "
        "réservez le spot aux traitements qui peuvent reprendre.",
    )
    return "\n\n".join(
        p for p in (head, rule, assumptions_line(result.assumptions, result.usd_per_eur, lang)) if p
    )


def spot_on_examples(ent: Entities, text: str) -> bool:
    """Neither rates nor a job length given ('these spot instances can get killed: how do I
    resume training?'): the comparison would run on the guide's example alone."""
    return (
        spot_rates(ent, text) is None
        and _job_hours(ent) is None
        and not names_concept("on_demand", text)  # 'spot or dedicated?' is still the choice asked
    )


def _job_hours(ent: Entities) -> float | None:
    return ent.work_hours or next(
        (d.hours for d in ent.durations if d.hours and d.unit != "minute"), None
    )


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call with the rates, job length and checkpoint interval named, else the defaults; a
    machine that runs all the time is priced for a month."""
    given = spot_rates(ent, reading.text)
    fallback = defaults().spot
    spot, dedicated = given or (fallback.spot_rate, fallback.dedicated_rate)
    currency = (currency_of(ent) or fallback.currency) if given else fallback.currency
    checkpoint = next((d.hours for d in ent.durations if d.unit == "minute" and d.hours), None)
    job = _job_hours(ent)
    # Rates read off a named instance ('a3-highgpu-8g (8× H100) around $88/h') are the whole
    # instance's: its GPUs are not counted again.
    per_gpu = given and instance_named(reading.text) is None
    return [
        {"job_hours": job or (MONTH_HOURS if _service(ent, reading.text) else fallback.job_hours),
         "spot_rate": spot, "dedicated_rate": dedicated,
         "checkpoint_interval_h": checkpoint, "currency": currency,
         "gpu_count": ent.gpu_count if per_gpu else None,
         "interruptions_per_hour": _interruption_rate(reading.text, checkpoint or job),
         "rework_fraction": rework_share(reading.text),
         "deadline": bool(phrase_spans("deadline", reading.text))}
    ]  # fmt: skip


MONTH_HOURS = HOURS_PER_DAY * DAYS_PER_MONTH  # a month of a machine that never stops


def _interruption_rate(text: str, piece_hours: float | None) -> float | None:
    """The asker's interruption figure as a rate per hour: '10 % of spot jobs get interrupted'
    over jobs of 20 min is −ln(0.9) ÷ (1/3 h); '5 % per hour' is −ln(0.95) per hour."""
    from assistant.agent.offline.quantities import interruption_share

    found = interruption_share(text)
    if found is None:
        return None
    share, per_hours = found
    hours = per_hours or piece_hours
    return -math.log(1 - share) / hours if hours else None


SKILL = Skill(
    tool="spot_vs_dedicated",
    result=SpotComparison,
    build=build,
    render=render,
    search_hint="instance spot dédiée interrompue sauvegarde",
    slots=("money", "durations"),
    concepts=("spot",),
    requires=("spot",),
)
