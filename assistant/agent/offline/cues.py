"""Keyword cues the skills and the writer still read: a rental, a small budget, linked cards,
a request for a card to buy. (Which kind of question it is, is decided by the fitted router.)"""

from __future__ import annotations

import re

_RENT = re.compile(
    r"\b(?:rent\w*|hire|cloud|hourly|per hour|an hour|/h|louer|location|loue|à l'heure|de l'heure|horaire"
    r"|runpod|vast|lambda|coreweave|aws|gcp|azure)\b|/h\b",
    re.IGNORECASE,
)

_RECOMMEND = re.compile(
    r"\b(?:recommend\w*|suggest\w*|conseil\w*|recommand\w*|which (?:gpu|card)|what (?:gpu|card)|quel(?:le)? (?:gpu|carte)"
    r"|(?:what|which) (?:kind|type|sort) of (?:gpu|graphics card|card|hardware)"
    r"|quel (?:type|genre) de (?:carte|gpu|matériel)"
    r"|best (?:gpu|card)|meilleure? (?:gpu|carte)|should i (?:buy|get|rent)|what should i|que prendre"
    r"|que (?:me )?conseill\w*|cheapest (?:hardware|gpu|card)|moins cher"
    r"|(?:buy|get|purchase) (?:a |an |one |my first )?(?:new |used )?(?:gpu|graphics card|card)"
    r"|(?:acheter|prendre) (?:une |un )?(?:nouvelle |nouveau )?(?:carte|gpu))\b",
    re.IGNORECASE,
)

_SMALL_BUDGET = re.compile(
    r"\b(?:small|tight|limited|low|modest|shoestring|student)\s+budget|\bon a budget\b|\bbudget (?:card|gpu|option)"
    r"|\bpetit budget|\bbudget (?:serré|limité|réduit|modeste|étudiant)|\bpas cher|\bbon marché|\bà petit prix"
    r"|\b(?:cheap|inexpensive|affordable|abordable)\b",
    re.IGNORECASE,
)

_LINK = re.compile(r"\bnv-?link\b|\bsli\b|\bpont\b|\bbridge\b", re.IGNORECASE)


def mentions_rent(text: str) -> bool:
    """Whether the text speaks of renting (an hourly rate, a cloud or a provider)."""
    return bool(_RENT.search(text))


def asks_small_budget(text: str) -> bool:
    """A budget called small without an amount ("petit budget", "on a budget", "cheap")."""
    return bool(_SMALL_BUDGET.search(text))


def asks_about_card_link(text: str) -> bool:
    """Whether the question is about linking cards (NVLink), a figure of the card's own sheet."""
    return bool(_LINK.search(text))


def asks_which_card(text: str) -> bool:
    """Whether the question asks which card to get."""
    return bool(_RECOMMEND.search(text))
