"""What several skills share: the cards a question names, its currency, rates, and answer lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.agent.offline.texts import in_language, num, pick
from assistant.language import Lang

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities

MAX_CARDS = 3


def named_cards(ent: Entities) -> list[str]:
    """The cards a question names, known first, then unknown ones (at most MAX_CARDS)."""
    return [*ent.gpus, *ent.unknown_gpus][:MAX_CARDS]


def currency_of(ent: Entities) -> str | None:
    """The currency of the first amount the question gives."""
    return ent.money[0].currency if ent.money else None


def hourly_rates(ent: Entities) -> list[float]:
    return [m.amount for m in ent.hourly_rates]


def render_unknown(name: str, suggestions: list[str], lang: Lang) -> str:
    """A card the catalog does not know: said plainly, with near names."""
    near = ", ".join(suggestions[:5])
    text = pick(
        lang,
        f"**{name}** is not in the GPU catalog, so I give no specifications or verdict for it "
        "(I never invent a card).",
        f"**{name}** n'est pas dans le catalogue de GPU : je ne donne donc ni caractéristiques ni "
        "verdict pour cette carte (je n'invente jamais de carte).",
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
