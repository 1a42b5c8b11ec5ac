"""The leads of a rent-vs-buy answer that follow the asker's own pattern of use: both options
totalled over a period ('over 3 years at 40 % of the time'), or the rent a month at their working
days and when buying catches up."""

from __future__ import annotations

from assistant.agent.offline.texts import money, num, pick
from assistant.language import Lang
from assistant.tools.buy import RentVsBuy
from assistant.tools.cost_base import DAYS_PER_MONTH


def use_words(result: RentVsBuy, lang: Lang) -> str:
    """'10 h a day, 22 days a month' (the days only when the asker counts them)."""
    text = pick(
        lang,
        f"{num(result.hours_per_day, lang)} h a day",
        f"{num(result.hours_per_day, lang)} h par jour",
    )
    if result.utilisation < 1:
        share = num(result.utilisation * 100, lang, 0)
        text = pick(lang, f"{share} % of the time ({text})", f"{share} % du temps ({text})")
    if result.days_per_month != DAYS_PER_MONTH:
        days = num(result.days_per_month, lang)
        text += pick(lang, f", {days} days a month", f", {days} jours par mois")
    return text


def period_head(
    result: RentVsBuy, gpu: str, period: str, lang: Lang, rented: str | None = None
) -> str:
    """Both options totalled over the asker's period, the saving first; `rented` names the card
    rented when it is not the one bought ('buy a 5090 … or keep renting an L40S')."""
    cur = result.currency
    rent, own = result.rent_total or 0.0, result.own_total or 0.0
    used = num(result.hours_used, lang, 0)
    saving = money(abs(rent - own), cur, lang)
    cheaper_rent = rent < own
    winner = (
        pick(lang, "renting", "la location") if cheaper_rent else pick(lang, "buying", "l'achat")
    )
    elec = money(own - (result.net_purchase or 0.0), cur, lang)
    running = bool(result.running_per_month)
    what_en = "running costs" if running else "electricity"
    what_fr = "de frais de fonctionnement" if running else "d'électricité"
    # the card owned is named only when another one is rented
    owned_en, owned_fr = (f"{gpu} ", f"pour {gpu} ") if rented else ("", "")
    return pick(
        lang,
        f"**Over {period} at {use_words(result, lang)}, i.e. {used} h of use, {winner} is cheaper "
        f"by {saving}**: renting {rented or gpu} costs {money(rent, cur, lang)} "
        f"({used} h × {money(result.rent_rate, cur, lang)}/h) against {money(own, cur, lang)} to own "
        f"{owned_en}({money(result.net_purchase, cur, lang)} net purchase + {elec} {what_en}).",
        f"**Sur {period} à {use_words(result, lang)}, soit {used} h d'usage, {winner} revient moins "
        f"cher de {saving}** : louer {rented or gpu} coûte {money(rent, cur, lang)} "
        f"({used} h × {money(result.rent_rate, cur, lang)}/h) contre {money(own, cur, lang)} en "
        f"propriété {owned_fr}({money(result.net_purchase, cur, lang)} d'achat net + {elec} "
        f"{what_fr}).",
    )


def monthly_head(result: RentVsBuy, gpu: str, lang: Lang) -> str:
    """The rent a month at the asker's pattern of use, then when buying catches up."""
    cur = result.currency
    month = money(result.rent_per_month, cur, lang)
    pattern = pick(
        lang,
        f"{num(result.hours_per_day, lang)} h × {num(result.days_per_month, lang)} days × "
        f"{money(result.rent_rate, cur, lang)}/h",
        f"{num(result.hours_per_day, lang)} h × {num(result.days_per_month, lang)} jours × "
        f"{money(result.rent_rate, cur, lang)}/h",
    )
    if result.break_even_months is None or result.break_even_hours is None:
        return pick(
            lang,
            f"**Renting costs {month} a month ({pattern}), and buying {gpu} never catches up** "
            "at these prices.",
            f"**La location coûte {month} par mois ({pattern}), et l'achat de {gpu} n'est jamais "
            "rentabilisé** à ces prix.",
        )
    months = num(result.break_even_months, lang)
    bare = (result.net_purchase or 0.0) / (result.rent_per_month or 1.0)
    return pick(
        lang,
        f"**Renting costs {month} a month ({pattern}), so buying {gpu} at "
        f"{money(result.purchase_price, cur, lang)} pays off after about {months} months** "
        f"({num(result.break_even_hours, lang, 0)} h of use, electricity counted; "
        f"{num(bare, lang)} months without it).",
        f"**La location coûte {month} par mois ({pattern}) : l'achat de {gpu} à "
        f"{money(result.purchase_price, cur, lang)} est rentabilisé après environ {months} mois** "
        f"({num(result.break_even_hours, lang, 0)} h d'usage, électricité comprise ; "
        f"{num(bare, lang)} mois sans elle).",
    )


def break_even_note(result: RentVsBuy, lang: Lang) -> str:
    """The break-even after a period's totals, in hours and months of this use."""
    if result.break_even_hours is None or result.break_even_months is None:
        return pick(
            lang,
            " Buying never pays off at these prices.",
            " À ces prix, l'achat n'est jamais rentabilisé.",
        )
    return pick(
        lang,
        f" Break-even: {num(result.break_even_hours, lang, 0)} h of use, about "
        f"{num(result.break_even_months, lang)} months at this pace.",
        f" Seuil de rentabilité : {num(result.break_even_hours, lang, 0)} h d'usage, soit environ "
        f"{num(result.break_even_months, lang)} mois à ce rythme.",
    )
