"""Keyword cues the skills and the writer still read: a rental, a small budget, linked cards,
a request for a card to buy. (Which kind of question it is, is decided by the fitted router.)"""

from __future__ import annotations

import re

from assistant.agent.offline.concepts import names_concept

_SMALL_BUDGET = re.compile(
    r"\b(?:small|tight|limited|low|modest|shoestring|student)\s+budget|\bon a budget\b|\bbudget (?:card|gpu|option)"
    r"|\bpetit budget|\bbudget (?:serré|limité|réduit|modeste|étudiant)|\bpas cher|\bbon marché|\bà petit prix"
    r"|\b(?:cheap|inexpensive|affordable|abordable)\b",
    re.IGNORECASE,
)

_LINK = re.compile(r"\bnv-?link\b|\bsli\b|\bpont\b|\bbridge\b", re.IGNORECASE)


def mentions_rent(text: str) -> bool:
    """Whether the text speaks of renting (an hourly rate, a cloud or a provider): the `rent`
    concept."""
    return names_concept("rent", text)


def asks_small_budget(text: str) -> bool:
    """A budget called small without an amount ("petit budget", "on a budget", "cheap")."""
    return bool(_SMALL_BUDGET.search(text))


def link_mentions(text: str) -> list[int]:
    """Where the text names a link between cards (NVLink, SLI, a bridge)."""
    return [m.start() for m in _LINK.finditer(text)]


def asks_about_card_link(text: str) -> bool:
    """Whether the question is about linking cards (NVLink), a figure of the card's own sheet."""
    return bool(_LINK.search(text))


def asks_which_card(text: str) -> bool:
    """Whether the question asks which card to get, or to choose among the ones it names: the
    `recommend` concept."""
    return names_concept("recommend", text)
