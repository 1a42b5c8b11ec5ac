"""What several skills share: the cards a question names, its currency, rates, and answer lines."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.agent.offline.texts import gb, in_language, num, pick
from assistant.language import Lang

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities, MoneyMention
    from assistant.money import Currency

MAX_CARDS = 4  # "H100, GH200, A100 and RTX 6000 Ada: FP64?" compares all four


def named_cards(ent: Entities) -> list[str]:
    """The cards a question names, known first, then unknown ones (at most MAX_CARDS)."""
    return [*ent.gpus, *ent.unknown_gpus][:MAX_CARDS]


def currency_of(ent: Entities) -> str | None:
    """The currency of the first amount the question gives."""
    return ent.money[0].currency if ent.money else None


def hourly_rates(ent: Entities) -> list[float]:
    """The hourly rates named, as amounts."""
    return [m.amount for m in ent.hourly_rates]


# How far after an hourly amount a word may say it is electricity: '$0.10/hr in electricity'.
ELECTRICITY_SPAN = 24


def rental_rates(ent: Entities, text: str) -> list[float]:
    """The hourly rates named, less those the text says are electricity costs."""
    from assistant.agent.offline.quantities import phrase_spans

    kept = []
    for m in ent.hourly_rates:
        if not phrase_spans("electricity_cost", after_mention(text, m, ELECTRICITY_SPAN) or ""):
            kept.append(m.amount)
    return kept


def after_mention(text: str, mention: MoneyMention, span: int) -> str | None:
    """The `span` characters right after an amount as written in the text; None when the text
    does not hold it."""
    at = text.find(mention.text) if mention.text else -1
    return text[at + len(mention.text) : at + len(mention.text) + span] if at >= 0 else None


def render_unknown(name: str, suggestions: list[str], lang: Lang) -> str:
    """A card that neither the catalog nor the long-tail database knows: said plainly, as a card
    that may not exist, with near names."""
    from assistant.knowledge.gpus import load_catalog
    from assistant.knowledge.longtail import long_tail_rows

    known = num(len(load_catalog().gpus) + len(long_tail_rows().rows), lang, 0)
    near = ", ".join(suggestions[:5])
    text = pick(
        lang,
        f"**I know no GPU called {name}**: it is in none of the {known} cards of my catalog and "
        "GPU database, so it may not exist, or it is written differently. I give no "
        "specifications or verdict for it (I never invent a card).",
        f"**Je ne connais aucun GPU nommé {name}** : il ne figure parmi aucune des {known} cartes "
        "de mon catalogue et de ma base de GPU, il n'existe donc peut-être pas, ou il s'écrit "
        "autrement. Je ne donne ni caractéristiques ni verdict pour cette carte (je n'invente "
        "jamais de carte).",
    )
    if near:
        text += pick(lang, f" Did you mean: {near}?", f" Vouliez-vous dire : {near} ?")
    return text


def assumptions_line(assumptions: list[str], usd_per_eur: float | None, lang: Lang) -> str:
    """A cost result's assumptions, as a small line (the exchange rate first in French)."""
    kept = [a for a in (in_language(a, lang) for a in assumptions) if a]
    if lang == "fr" and usd_per_eur:
        kept.insert(
            0, f"Taux de change supposé : 1 EUR = {num(usd_per_eur, lang, 4)} USD (réglable)."
        )
    if not kept:
        return ""
    return f"<sub>{pick(lang, 'Assumptions: ', 'Hypothèses : ')}" + " ".join(kept[:3]) + "</sub>"


def price_unknown(
    gpu: str | None, found: bool, message: str | None, suggestions: list[str], lang: Lang
) -> str | None:
    """The answer when a cost tool has no price for the card (or doesn't know it), else None."""
    if found:
        return None
    if gpu:
        # A known card without the price data the tool needs: say which data is missing.
        purchase = "purchase" in (message or "")
        kind_fr = "d'achat" if purchase else "de location"
        return pick(
            lang,
            f"**No {'purchase' if purchase else 'rental'} price for {gpu}** in the price data, "
            "so I can't give a figure (I never make one up). Give the price and I'll compute it.",
            f"**Pas de prix {kind_fr} pour {gpu}** dans les données "
            "de prix : je ne peux donc pas donner de chiffre (je n'en invente jamais). Donnez le prix et je ferai le calcul.",
        )
    text = message or ""
    name = text.split("'")[1] if "'" in text else "?"
    return render_unknown(name, suggestions, lang)


def money_inputs(ent: Entities) -> dict[str, object]:
    """The money inputs a question gives every cost tool: its currency, its exchange rate."""
    return {"currency": currency_of(ent), "usd_per_eur": ent.usd_per_eur}


def electricity_price(ent: Entities, currency: str | None) -> float | None:
    """The question's price per kWh, in `currency` (at the question's exchange rate, if any); a
    price said without a currency is taken in the answer's."""
    from assistant.money import convert, normalize_currency

    price = ent.electricity_price
    if price is None:
        return ent.bare_kwh_price  # no currency said: read in the answer's own
    target = normalize_currency(currency) if currency else price.currency
    return convert(price.amount, price.currency, target, ent.usd_per_eur)


PRICE_AFTER_CARD = 48  # how far after a card's name its price may sit: 'la 5090 (disons 2 500 €)'


def card_positions(text: str) -> dict[str, int]:
    """Where each card is first named in the text."""
    from assistant.knowledge.matching import find_gpu_spans

    where: dict[str, int] = {}
    for card, start, _ in find_gpu_spans(text):
        where.setdefault(card.name, start)
    return where


def card_priced(text: str, mention: MoneyMention, where: dict[str, int]) -> str | None:
    """The card named right before an amount, whose price it is ('des 4090 à 0,35 $/h')."""
    at = text.find(mention.text) if mention.text else -1
    if at < 0:
        return None
    before = [(start, card) for card, start in where.items() if start < at]
    if not before:
        return None
    start, card = max(before)
    return card if at - start <= PRICE_AFTER_CARD else None


def hours_for(ent: Entities, cards: list[str | None], index: int, total: float) -> float:
    """The hours meant for the card at `index`: paired in order when the question gives one span
    per card ('~30 h on an A100 or ~70 h on a 4090'), else the job's `total`."""
    spans = [d.hours for d in ent.durations if d.per_day is None and d.hours is not None]
    if len(cards) > 1 and len(spans) == len(cards) and index < len(spans):
        return float(spans[index] or total)
    return total


def rate_for(ent: Entities, cards: list[str | None], index: int) -> float | None:
    """The hourly rate meant for the card at `index`: paired in order when the question gives one
    rate per card ('A100 at 1.29 $/h and H100 at 2.49 $/h'), else the one rate given."""
    rates = hourly_rates(ent)
    if len(rates) > 1 and len(rates) in (len(cards), len(named_cards(ent))) and index < len(rates):
        return rates[index]
    return rates[0] if rates else None


# How far after 'switched off' words a span of time is the time off (characters).
OFF_SPAN = 40


def period_span(question: str) -> tuple[str | None, float | None]:
    """The calendar span the question totals over, as written ('3 ans', 'a 3-month run'), with
    its hours; (None, None) when it gives none. Days of a working pattern are no span."""
    from assistant.agent.offline.numbers import parse_durations
    from assistant.agent.offline.phrases import blank
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.agent.offline.usage import working_days

    days = working_days(question)  # '6 jours sur 7' is a pattern of use, not a span
    if days is not None:
        question = blank(question, [(days.start, days.end)])
    off = [end for _, end in phrase_spans("switched_off", question)]
    span = next(
        (
            d
            for d in parse_durations(question)
            if d.hours
            and d.unit not in ("hour", "minute")
            # 'et si on l'éteint la nuit et le week-end': the weekend is time off, not a span
            and not any(0 <= d.start - end <= OFF_SPAN and "." not in question[end : d.start]
                        for end in off)
        ),
        None,
    )  # fmt: skip
    if span is None:
        return None, None
    written = span.text.replace("-", " ")  # 'a 3-month run' → '3 month'
    if re.fullmatch(r"\d+(?:[.,]\d+)? (?:day|week|month|year)", written) and span.count > 1:
        written += "s"
    return written, span.hours


def memory_pick(able: list[str], lang: Lang) -> str:
    """Several cards meet the goal: the one with the most memory (what fits in it bounds the
    models and data worked on), else the newest compute capability; '' when none stands out."""
    from assistant.knowledge.cuda_support import version_key
    from assistant.knowledge.matching import match_gpu

    cards = [c for c in (match_gpu(name).gpu for name in able) if c is not None]
    if len(cards) < 2 or len(cards) != len(able):
        return ""
    ranked = sorted(
        cards,
        key=lambda c: (c.vram_gb or 0.0, version_key(c.compute_capability or "0")),
        reverse=True,
    )
    best, other = ranked[0], ranked[1]
    if (best.vram_gb or 0.0) > (other.vram_gb or 0.0):
        why = pick(
            lang,
            f"it has more memory ({gb(best.vram_gb, lang)} against {gb(other.vram_gb, lang)}), "
            "which bounds the models and data you can work with",
            f"elle a plus de mémoire ({gb(best.vram_gb, lang)} contre {gb(other.vram_gb, lang)}), "
            "ce qui borne les modèles et les données que vous pourrez manipuler",
        )
    elif version_key(best.compute_capability or "0") > version_key(other.compute_capability or "0"):
        why = pick(
            lang,
            f"same memory, newer architecture ({best.arch_target} against {other.arch_target})",
            f"même mémoire, architecture plus récente ({best.arch_target} contre {other.arch_target})",
        )
    else:
        return ""
    return pick(
        lang,
        f" At a similar price, take the **{best.name}**: {why}.",
        f" À prix comparable, prenez la **{best.name}** : {why}.",
    )


def at_stated_rate(amount: float, currency: Currency, question: str, lang: Lang) -> str:
    """' (≈ $175 at the rate you give)': an amount also in the other currency of a rate the
    question states ('use ~ARS 1,200 per USD'); '' when it states none for this currency."""
    from assistant.agent.offline.texts import money
    from assistant.money import convert_stated, parse_pair_rates

    pairs = parse_pair_rates(question)
    pair = next((p for p in pairs if currency in (p.base, p.quote)), None)
    if pair is None:
        return ""
    other = pair.base if pair.quote == currency else pair.quote
    shown = money(convert_stated(amount, currency, other, pairs), other, lang)
    return pick(lang, f" (≈ {shown} at the rate you give)", f" (≈ {shown} au taux indiqué)")
