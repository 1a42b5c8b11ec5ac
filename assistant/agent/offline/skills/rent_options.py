"""Two rentals weighed for the same work: "A100 at 0.50 €/h for 2,000 h, or H100 at 0.90 €/h if
it is twice as fast?" — each option's cost, then what the cheaper one saves."""

from __future__ import annotations

from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.texts import hours, money, num, pick
from assistant.language import Lang
from assistant.tools.cost import RentCost


def billed_words(result: RentCost, lang: Lang) -> str:
    """How the hours paid follow from the hours asked: '2,000 h ÷ 2 (2× faster) = 1,000 h'."""
    billed = result.hours_billed if result.hours_billed is not None else result.hours
    steps = hours(result.hours, lang)
    if result.utilisation != 1:
        share = num(result.utilisation * 100, lang, 0)
        steps += pick(lang, f" × {share} % in use", f" × {share} % d'utilisation")
    if result.speedup > 1:
        factor = num(result.speedup, lang)
        steps += pick(lang, f" ÷ {factor} for the speed-up", f" ÷ {factor} pour l'accélération")
    elif result.speedup < 1:
        factor = num(1 / result.speedup, lang)
        steps += pick(lang, f" × {factor} as it is slower", f" × {factor} car plus lent")
    return f"{steps} = {hours(billed, lang)}"


def combine(results: list[RentCost], question: str, lang: Lang) -> str:
    """Both options' costs in the lead, and the saving of the cheaper one."""
    found = [r for r in results if r.found and r.cost_typical is not None]
    if len(found) != 2 or found[0].currency != found[1].currency or not parse_durations(question):
        return ""  # without hours of work to price, each option is answered on its own
    a, b = found
    cheap, dear = sorted((a, b), key=lambda r: r.cost_typical or 0.0)
    saving = (dear.cost_typical or 0.0) - (cheap.cost_typical or 0.0)
    head = pick(
        lang,
        f"**{_labelled(a, lang)}; {_labelled(b, lang)}.**",
        f"**{_labelled(a, lang)} ; {_labelled(b, lang)}.**",
    )
    if saving > 0:
        head += pick(
            lang,
            f" **{cheap.gpu} is cheaper by {money(saving, cheap.currency, lang)}.**",
            f" **{cheap.gpu} revient moins cher de {money(saving, cheap.currency, lang)}.**",
        )
    else:
        head += pick(lang, " Both cost the same.", " Les deux coûtent autant.")
    if any(r.n_prices for r in found):
        head += pick(
            lang,
            " (A card without a rate of yours is priced at the typical sourced rate.)",
            " (Une carte sans tarif donné est comptée au tarif typique relevé.)",
        )
    return head


def _labelled(result: RentCost, lang: Lang) -> str:
    """'A100 80GB SXM4: 1,000 € (2,000 h × 0.50 €/h)'."""
    cur, n = result.currency, result.gpu_count
    who = f"{n} × {result.gpu}" if n > 1 else str(result.gpu)
    billed = result.hours_billed if result.hours_billed is not None else result.hours
    hours_part = billed_words(result, lang) if billed != result.hours else hours(billed, lang)
    rate = f"{money(result.rate_typical, cur, lang)}/h"
    count = f"{n} × " if n > 1 else ""
    total = money(result.cost_typical, cur, lang)
    return pick(lang, f"{who}: {total}", f"{who} : {total}") + f" ({count}{hours_part} × {rate})"
