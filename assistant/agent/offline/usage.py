"""How much the asker uses what they price: working days a week or month, the share of the time
a card is busy, and how much faster one option runs than another.

The words that decide are data in `quantities.toml` (`working_days`, `utilisation`, `speedup`);
this module only places numbers next to them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from assistant.agent.offline.numbers import HOUR_UNIT, same_sentence_before
from assistant.agent.offline.phrases import any_of
from assistant.agent.offline.quantities import alternation, phrase_spans, tables
from assistant.language import sentence_start
from assistant.tools.cost_base import DAYS_PER_MONTH

WEEKS_PER_MONTH = 52 / 12
MAX_DAYS = {"week": 7.0, "month": 31.0, "year": 366.0}
WEEKDAYS = 5.0
# The period a count of working days is given per: '5 days a week', '200 jours par an'
_PERIODS = {
    "week": "week", "semaine": "week", "month": "month", "mois": "month", "mo": "month",
    "year": "year", "an": "year", "année": "year", "annee": "year",
}  # fmt: skip
_NUMBER_WORDS = {
    "one": 1.0, "un": 1.0, "une": 1.0, "two": 2.0, "deux": 2.0, "three": 3.0, "trois": 3.0,
    "four": 4.0, "quatre": 4.0, "five": 5.0, "cinq": 5.0, "six": 6.0, "seven": 7.0, "sept": 7.0,
    "ten": 10.0, "dix": 10.0,
}  # fmt: skip
_NUMBER = r"\d+(?:[.,]\d+)?|" + "|".join(_NUMBER_WORDS)
_PERCENT = r"(?P<pct>\d+(?:[.,]\d+)?)\s*(?:%|percent|pour\s*cent)"
# How far before a percentage a word saying "in use" may sit: "used about 40 %".
BEFORE_SPAN = 28
AFTER_GAP = r"\s*(?:(?:of|de|d'|du)\s+)?"


def _number(raw: str) -> float:
    raw = raw.lower()
    return _NUMBER_WORDS.get(raw) or float(raw.replace(",", "."))


@lru_cache(maxsize=1)
def _working_days_pattern() -> re.Pattern[str]:
    words = tables()["working_days"]
    days, qualifiers = alternation(words["days"]), alternation(words["qualifiers"])
    working = alternation(words["working"])
    return re.compile(
        rf"(?<![\w.,])(?P<n>{_NUMBER})\s*(?P<q1>(?:{qualifiers})\s+)?(?:(?P<qd>{working})|{days})\b"
        rf"(?P<q2>\s+(?:{qualifiers}))?"
        rf"(?:\s*(?:/\s*|(?:a|an|per|par|each|every|chaque)\s+|(?:in|dans)\s+(?:a|the|le|la)\s+)"
        rf"(?P<per>{'|'.join(_PERIODS)})\b"
        # '6 jours sur 7', '6 days out of 7': days of a week
        r"|(?P<of_week>\s*(?:out\s+of|sur|/)\s*(?:7|seven|sept)\b))?",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class WorkingDays:
    """Days of use a month, and where the message says so."""

    per_month: float
    start: int
    end: int


def working_days(text: str) -> WorkingDays | None:
    """'22 working days a month' (22), '5 days a week' or '5 jours sur 7' (about 21.7), '22 jours
    ouvrés' (a month), '220 working days' or '220 days a year' (a year's, about 18.3 a month),
    'weekdays only' (five days a week). Seven days a week is every day of the month.

    A count of days needs a period or a working qualifier to be a pattern of use; a bare
    '10 days' is a span of time."""
    for m in _working_days_pattern().finditer(text):
        per = "week" if m.group("of_week") else (m.group("per") or "").lower()
        if not per and not (m.group("q1") or m.group("q2") or m.group("qd")):
            continue
        unit = _PERIODS.get(per, "month")  # a working qualifier and no period: a month's
        days = _number(m.group("n"))
        if not per and unit == "month" and MAX_DAYS["month"] < days <= MAX_DAYS["year"]:
            unit = "year"  # '220 working days': more than a month holds, so a year's
        if not 0 < days <= MAX_DAYS[unit]:
            continue
        per_month = (
            days * WEEKS_PER_MONTH if unit == "week" else days / 12 if unit == "year" else days
        )
        if unit == "week" and days == MAX_DAYS["week"]:
            per_month = DAYS_PER_MONTH  # '7 jours sur 7': every day of the month
        return WorkingDays(per_month, m.start(), m.end())
    weekdays = phrase_spans("working_days.weekdays", text)
    if weekdays:
        start, end = weekdays[0]
        return WorkingDays(WEEKDAYS * WEEKS_PER_MONTH, start, end)
    return None


@lru_cache(maxsize=1)
def _utilisation_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = tables()["utilisation"]
    after = re.compile(rf"{_PERCENT}{AFTER_GAP}(?:{alternation(words['after'])})\b", re.I)
    before = re.compile(rf"(?:{alternation(words['before'])})\b", re.I)
    return after, before


_BARE_PERCENT = re.compile(_PERCENT, re.I)


def utilisation(text: str) -> float | None:
    """The share of the time a card is in use (0.4 for '40 % of the time', 'utilisée à 40 %';
    0.2 for 'idle 80 % of the time')."""
    after, before = _utilisation_patterns()
    m = after.search(text)
    if m is None:
        m = next(
            (
                p
                for p in _BARE_PERCENT.finditer(text)
                if before.search(text[max(0, p.start() - BEFORE_SPAN) : p.start()])
            ),
            None,
        )
    if m is None:
        return None
    share = float(m.group("pct").replace(",", ".")) / 100
    if phrase_spans("idle", same_sentence_before(text, m.start(), BEFORE_SPAN)):
        share = 1 - share  # 'idle about 80 % of the time': busy the rest
    return share if 0 < share <= 1 else None


def discount(text: str) -> float | None:
    """The discount a spot rate gets, as a fraction ('~65% off' → 0.65, '60-70% cheaper' →
    0.65, the middle of a range), or None."""
    words = alternation(tables()["discount"]["after"])
    m = re.search(
        rf"(\d{{1,2}}(?:[.,]\d+)?)(?:\s*(?:-|–|to|à)\s*(\d{{1,2}}(?:[.,]\d+)?))?\s*%\s*(?:{words})\b",
        text,
        re.IGNORECASE,
    )
    if m is None:
        return None
    low = float(m.group(1).replace(",", "."))
    high = float((m.group(2) or m.group(1)).replace(",", "."))
    return (low + high) / 200


@lru_cache(maxsize=1)
def _speedup_pattern() -> re.Pattern[str]:
    words = tables()["speedup"]
    return re.compile(
        rf"(?<![\w.,])(?:(?P<n>{_NUMBER})\s*(?:x|×|times|fois)"
        rf"|{_PERCENT})\s*(?:(?:as|aussi)\s+)?(?:(?P<slower>{alternation(words['slower'])})"
        rf"|{alternation(words['faster'])})\b"
        rf"|(?P<half>{alternation(words['half'])})\b",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class Speedup:
    """One option runs `factor` times faster (below 1: slower); the phrase starts at `start`."""

    factor: float
    start: int


@lru_cache(maxsize=1)
def _applied_pattern() -> re.Pattern[str]:
    words = alternation(tables()["speedup"]["applied"])
    return re.compile(
        rf"\s*,?\s*(?:{words})\s*{any_of('hedge')}?\s*\d+(?:[.,]\d+)?\s*(?:{HOUR_UNIT})\b",
        re.IGNORECASE,
    )


def speedups(text: str) -> list[Speedup]:
    """Every speed-up the message states: '2x faster' (2), '30 % plus rapide' (1.3), 'half the
    time' (2); and every slow-down, as a factor below 1: '2.5x longer' (0.4). One whose hours the
    asker already worked out ('~2x faster so ~100 h') is not applied again."""
    out = []
    for m in _speedup_pattern().finditer(text):
        if _applied_pattern().match(text, m.end()):
            continue
        if m.group("half"):
            factor = 2.0
        elif m.group("pct"):
            factor = 1 + float(m.group("pct").replace(",", ".")) / 100
        else:
            factor = _number(m.group("n"))
        if 1 < factor <= 1000:
            out.append(Speedup(1 / factor if m.group("slower") else factor, m.start()))
    return out


def speedup_by_card(text: str, card_spans: list[tuple[str, int, int]]) -> dict[str, float]:
    """Each speed-up given to the card it describes: the last card named before it in its
    sentence ('the H100, 2x faster'), else the first named after it ('2x faster H100s')."""
    out: dict[str, float] = {}
    for s in speedups(text):
        start = sentence_start(text, s.start)
        before = [name for name, pos, _ in card_spans if start <= pos < s.start]
        after = [name for name, pos, _ in card_spans if pos > s.start]
        card = before[-1] if before else (after[0] if after else None)
        if card is not None and card not in out:
            out[card] = s.factor
    return out


def always_on(text: str) -> bool:
    """Whether the machine runs all day ('24/7', 'jour et nuit')."""
    return bool(phrase_spans("always_on", text))


@lru_cache(maxsize=1)
def _continuous_job_pattern() -> re.Pattern[str]:
    words = tables()["continuous_job"]
    tasks, spans = alternation(words["tasks"]), alternation(words["spans"])
    span = rf"(?:{_NUMBER}|a|an|one|un|une)\s*-?\s*(?:{spans})"
    return re.compile(
        rf"(?<![\w-])(?:{tasks})(?![\w-])[^.?!\n]{{0,40}}?"
        rf"(?<![\w-])(?:(?:for|during|over|pendant|durant|de|d')\s*)?(?:about\s+|environ\s+)?"
        rf"{span}\b(?!\s*(?:a|an|per|par|each|every|chaque|/)\s*(?:week|month|semaine|mois)\b)"
        rf"|(?<![\w.,])\b{span}\s+(?:of\s+|d'|de\s+)?(?:{tasks})(?![\w-])",
        re.IGNORECASE,
    )


def continuous_job(text: str) -> bool:
    """Whether the message prices a job that runs through a span of days or months ('a 6-month
    training run', 'entraîner un modèle pendant 3 mois'): with no daily use given, all day."""
    if working_days(text) is not None:
        return False  # '3 days a week' is a pattern of use, not a job running through a span
    return bool(_continuous_job_pattern().search(text))


@lru_cache(maxsize=1)
def _concurrent_pattern() -> re.Pattern[str]:
    words = tables()["concurrent"]
    units, simultaneous = alternation(words["units"]), alternation(words["words"])
    return re.compile(
        rf"(?<![\w.,])(?P<n>\d{{1,5}})\s+(?P<before>(?:{simultaneous})\s+)?(?:{units})\b"
        rf"(?P<after>\s+(?:{simultaneous})\b)?",
        re.IGNORECASE,
    )


@lru_cache(maxsize=1)
def _users_pattern() -> re.Pattern[str]:
    """A count, the people it counts, a verb of using the model, then a simultaneous word:
    '10 géologues l'utilisent en même temps'."""
    words = tables()["concurrent"]
    uses, simultaneous = alternation(words["uses"]), alternation(words["words"])
    return re.compile(
        rf"(?<![\w.,])(?P<n>\d{{1,5}})\s+[^\W\d_]{{3,}}(?:\s+\S+){{0,2}}?\s+(?:{uses})\b"
        rf"[^.?!\n]{{0,30}}?(?:{simultaneous})\b",
        re.IGNORECASE,
    )


def concurrent_requests(text: str) -> int | None:
    """How many requests are served at once ('50 concurrent users', '20 requêtes simultanées',
    '10 users at the same time', 'to serve 30 people'), or None; a bare '50 users' is no count
    of simultaneous ones,
    except in a question about the KV cache or a context length, which every user being served
    holds."""
    found = concurrent_count(text)
    return found[0] if found else None


@lru_cache(maxsize=1)
def _approximate_pattern() -> tuple[re.Pattern[str], dict[str, int]]:
    table: Any = tables()["concurrent"]["approximate"]  # a table of numbers, not of phrases
    counts = {str(k).lower(): int(v) for k, v in table.items()}
    return (
        re.compile(
            rf"\b(?:an?|une)\s+({'|'.join(counts)})\s+(?:of\s+|de\s+|d['’]\s*)?",
            re.IGNORECASE,
        ),
        counts,
    )


def _as_numbers(text: str) -> str:
    """Rough counts written as words replaced by their numbers ('a dozen users' → '12 users')."""
    pattern, counts = _approximate_pattern()
    return pattern.sub(lambda m: f"{counts[m.group(1).lower()]} ", text)


def concurrent_count(text: str) -> tuple[int, int] | None:
    """(the count of requests served at once, where it starts in the text), as
    `concurrent_requests` reads it."""
    text = _as_numbers(text)
    each_holds = _KV_CACHE.search(text) is not None or _CONTEXT.search(text) is not None
    for m in _concurrent_pattern().finditer(text):
        if m.group("before") or m.group("after") or each_holds or _served(text[: m.start()]):
            return int(m.group("n")), m.start()
    users = _users_pattern().search(text)
    return (int(users.group("n")), users.start()) if users else None


def _served(before: str) -> bool:
    """A server's verb right before the count: 'to serve 30 people', 'pour servir 30 personnes'."""
    return _serving_pattern().search(before) is not None


@lru_cache(maxsize=1)
def _serving_pattern() -> re.Pattern[str]:
    verbs = alternation(tables()["concurrent"]["serving"])
    return re.compile(rf"(?<![\w])(?:{verbs})\s+{any_of('hedge')}?\s*$", re.IGNORECASE)


_KV_CACHE = re.compile(r"\bkv[\s-]?cache\b", re.IGNORECASE)
# A context length said with the users ('64 users at 32k context'): each user holds one.
_CONTEXT = re.compile(r"\b(?:context|contexte)\b", re.IGNORECASE)
