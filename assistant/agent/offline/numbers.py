"""Durations and percentages in English and French: '100 hours', '3 mois', 'a weekend',
'8h/day', '2 h par jour', 'three hours daily', '20 %'."""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, Field

from assistant.agent.offline.phrases import any_of
from assistant.language import sentence_before

HOURS_PER_UNIT = {
    "minute": 1 / 60,
    "hour": 1.0,
    "day": 24.0,
    "week": 168.0,
    "month": 730.0,
    "year": 8760.0,
}

_WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "un": 1,
    "une": 1,
    "two": 2,
    "deux": 2,
    "three": 3,
    "trois": 3,
    "four": 4,
    "quatre": 4,
    "five": 5,
    "cinq": 5,
    "six": 6,
    "seven": 7,
    "sept": 7,
    "eight": 8,
    "huit": 8,
    "nine": 9,
    "neuf": 9,
    "ten": 10,
    "dix": 10,
    "twelve": 12,
    "douze": 12,
    "fifteen": 15,
    "quinze": 15,
    "twenty": 20,
    "vingt": 20,
    "thirty": 30,
    "trente": 30,
    "forty": 40,
    "quarante": 40,
    "fifty": 50,
    "cinquante": 50,
    "hundred": 100,
    "cent": 100,
    "half": 0.5,
    "demi": 0.5,
    "couple": 2,
    "few": 3,
    "quelques": 3,
    "several": 3,
    "plusieurs": 3,
}

HOUR_UNIT = r"(?:gpu[\s-]?)?(?:hours?|hrs?|h)|heures?(?:[\s-]gpu)?|gpu[\s-]?h"
_UNITS = {
    "minute": r"minutes?|mins?|mn",
    "hour": HOUR_UNIT,
    "day": r"days?|jours?|j|nights?|nuits?",
    "week": r"weeks?(?!-?ends?)|semaines?|wk",
    "month": r"months?|mois|mo",
    "year": r"years?|ans?(?!\s+(?:hour|hr|h)\b)|années?|yr",  # "0.80 an hour" is a rate
}
_UNIT_ALT = "|".join(f"(?P<{k}>{v})" for k, v in _UNITS.items())
# '3,000 GPU-hours', '1 500 heures': thousands separators before the decimal form.
_NUM = r"\d{1,3}(?:(?:,|\u202f| )\d{3})+(?![\d.,])|\d+(?:[.,]\d+)?|" + "|".join(
    sorted(_WORD_NUMBERS, key=len, reverse=True)
)


@cache
def _duration_re() -> re.Pattern[str]:
    # 'per working day', 'every workday': a day of work qualified with the working-day words of
    # quantities.toml
    from assistant.agent.offline.phrases import alternation, tables

    qualifiers = alternation(tables()["working_days"]["qualifiers"])
    return re.compile(
        rf"(?<![\w.,$€])(?P<num>{_NUM})(?:\s*-\s*|\s*)(?:(?:de|d')\s*)?"
        # '1h30', '2 h 45 min': hours and minutes, one length of time
        rf"(?:h\s?(?P<mins>[0-5]\d)(?:\s*(?:min|mn|m))?\b|(?:{_UNIT_ALT})\b)"
        # '8 h of use a day', '1 hr generating per day': the activity between length and period
        rf"(?P<rate>(?:\s+(?:of|de|d')\s*[^\W\d_]{{3,}}|\s+[^\W\d_]{{2,}}ing)?\s*(?:/\s*|(?:a|an|per|par|each|every|chaque)\s+)"
        rf"(?:(?:{qualifiers})\s*)?(?P<per>day|jour|j|d|night|nuit|evening|soir|soirée|soiree|week|semaine|month|mois|year|yr|an|année|annee)\b"
        rf"|\s+(?P<adv>daily|nightly|weekly|monthly|yearly|annually|quotidiennes?|par jour|par nuit|a day|per day|a night|per night"
        # "an 8-hour workday": the hours of each day of work
        rf"|work-?days?|working days?|business days?))?",
        re.IGNORECASE,
    )


_WEEKEND = re.compile(r"\b(?:(?:a|the|one|un|le|tout le|all)\s+)?week-?ends?\b", re.IGNORECASE)
_LONG_WEEKEND = re.compile(
    r"\blong\s+week-?end\b|\bweek-?end\s+(?:prolongé|de trois jours)\b", re.I
)
_WEEKEND_SPAN = re.compile(
    r"\b(?:friday|vendredi)\b.{0,40}\b(?:monday|lundi)\b", re.IGNORECASE | re.DOTALL
)
_DAILY_USE = re.compile(
    r"\b(?:(?:every|each) (?:day|night|evening)|daily|nightly|tous les (?:jours|soirs)|toutes les nuits|chaque (?:jour|nuit|soir)|quotidien(?:nement)?"
    # a schedule of days or nights: '10 h, 5 nuits par semaine', 'idles for 8 h on those days'
    r"|on (?:those|these|such|working|work|school) days|(?:nights?|days?|evenings?) (?:a|per) week"
    r"|(?:nuits?|jours?|soirs?|soirées?) par semaine|ces jours-là|les jours ouvrés)\b",
    re.I,
)
# How far before a length of time a word like "nightly" may sit in the same sentence.
DAILY_BEFORE = 40
DAILY_AFTER = 32  # and after it: '10 h, 5 nuits par semaine'
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|percent|pour\s*cent)", re.IGNORECASE)
_PER_DAY_DIVISOR = {"day": 1.0, "week": 7.0, "month": 30.4, "year": 365.0}
# Time of day ("9 h du matin") and ages are not durations to bill.
_NOT_DURATION_AFTER = re.compile(
    r"^\s*(?:du matin|du soir|am\b|pm\b|ago|old|d'(?:â|a)ge|d'anciennet)", re.I
)
# A thing's age, not a span of use: "(bronze, 6 ans)", "mon alim de 6 ans", "aged 6 years"
_AGE_BEFORE = re.compile(
    r"(?:\(\s*[^()]{0,40},\s*|\b(?:vieille de|vieux de|âgée? de|agee? de|aged|age of)\s+"
    r"|\b(?:pc|ordi\w*|alim\w*|cartes?|gpus?|machines?|portables?|laptops?)\s+de\s+)$",
    re.I,
)


class Duration(BaseModel):
    """A length of time: total hours, or a daily usage rate."""

    text: str
    hours: float | None = Field(default=None, description="Total hours when it is a span")
    per_day: float | None = Field(default=None, description="Hours per day when it is a rate")
    unit: str = "hour"
    count: float = 1.0
    start: int = Field(default=0, description="Where it starts in the text")
    per_month: float | None = Field(
        default=None,
        description="Hours a month, when the rate was said per month ('40 h par mois')",
    )


def _number(raw: str) -> float | None:
    raw = raw.lower()
    if raw in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[raw])
    if re.fullmatch(r"\d{1,3}(?:(?:,|\u202f| )\d{3})+", raw):
        return float(re.sub(r"[,\u202f ]", "", raw))
    try:
        return float(raw.replace(",", "."))
    except ValueError:
        return None


def _which_unit(m: re.Match[str]) -> str:
    for unit in _UNITS:
        if m.group(unit):
            return unit
    return "hour"


def _per_key(word: str) -> str:
    word = word.lower()
    if word.startswith(("even", "soir")):
        return "day"  # '3 hours every evening', '2 h chaque soir'
    if word.startswith("y") or word in ("an", "année", "annee", "annually"):
        return "year"
    if word.startswith(("w", "s")):
        return "week"
    if word.startswith("m"):
        return "month"
    return "day"


# "3-4 LoRAs a week (each ~1.5h)", "deux rendus par semaine de 3 h chacun": runs per period...
_RUNS = re.compile(
    rf"(?<![\w.,$€])(?P<n>\d+(?:\s*[-–]\s*\d+)?|{'|'.join(k for k in _WORD_NUMBERS if len(k) > 2)})"
    r"\s+(?P<what>[^\W\d_]{3,}(?:\s+[^\W\d_]{3,})?)\s+(?:a|per|par|each|every|chaque|/)\s*"
    r"(?P<per>week|semaine|month|mois|day|jour)\b",
    re.IGNORECASE,
)
# ...and a length said to be each run's, just before or after it.
_EACH = re.compile(
    r"\b(?:each|chacune?|per (?:run|job|session)|par (?:run|job|session)|à chaque fois|every time)\b",
    re.IGNORECASE,
)
EACH_SPAN = 20
# 'a dossier takes ~2 minutes … 300 dossiers a month': one of the things counted, and its length
_ONE_TAKES = re.compile(
    r"\b(?:a|an|one|un|une)\s+(?P<noun>[^\W\d_]{3,})\s+(?:takes?|lasts?|prend|dure|demande)"
    rf"\s*{any_of('hedge')}?\s*$",
    re.IGNORECASE,
)


def _one_takes(before: str, counted: str) -> bool:
    """The words before a length say it is one of the things counted ('un dossier prend ~')."""
    m = _ONE_TAKES.search(before)
    return m is not None and m["noun"].lower().rstrip("s") == counted.split()[0].lower().rstrip("s")


_TIME_WORDS = re.compile(rf"^(?:{'|'.join(_UNITS.values())})$", re.IGNORECASE)


def _range_mean(raw: str) -> float | None:
    """'3-4' → 3.5, '5' → 5, 'three' → 3."""
    parts = [_number(p.strip()) for p in re.split(r"[-–]", raw)]
    values = [p for p in parts if p is not None]
    return sum(values) / len(values) if values and len(values) == len(parts) else None


def _runs_per_day(text: str, found: list[tuple[int, Duration]]) -> list[tuple[int, Duration]]:
    """Runs a period times each run's length is a daily rate: '3-4 LoRAs a week (each ~1.5h)' is
    0.75 h a day; the period's own words ('a week') are then no span."""
    for m in _RUNS.finditer(text):
        if _TIME_WORDS.match(m.group("what").split()[0]):
            continue  # '10 hours a week' is a rate the duration pattern reads already
        runs = _range_mean(m.group("n"))
        each = [
            (start, d)
            for start, d in found
            if d.hours is not None
            and d.unit in ("hour", "minute")
            and (
                (
                    _EACH.search(text[max(0, start - EACH_SPAN) : start + len(d.text) + EACH_SPAN])
                    and abs(start - m.end()) < 3 * EACH_SPAN
                )
                or _one_takes(text[max(0, start - 2 * EACH_SPAN) : start], m.group("what"))
            )
        ]
        if not runs or not each:
            continue
        start, run = each[0]
        per_run = run.hours or 0.0
        rate = run.model_copy(
            update={
                "hours": None,
                "per_day": per_run * runs / _PER_DAY_DIVISOR[_per_key(m.group("per"))],
            }
        )
        return [
            (s, rate if s == start else d)
            for s, d in found
            if s == start or not m.start() <= s < m.end()
        ]
    return found


def same_sentence_before(text: str, start: int, span: int = DAILY_BEFORE) -> str:
    """The words just before `start` (at most `span` characters) in its own sentence: "Nightly
    risk batch takes ~2.5 h"."""
    window = text[max(0, start - span) : start]
    return sentence_before(window)


# A time of day: '9h', '19h30', '9:00', '9am', '7 pm'.
def _clock(name: str) -> str:
    return (
        rf"(?P<{name}>\d{{1,2}})(?:\s*h(?P<{name}_h>\d{{2}})?|:(?P<{name}_m>\d{{2}})"
        rf"|\s*(?P<{name}_half>[ap])\.?m\.?)"
    )


_CLOCK_WINDOW = re.compile(
    rf"(?<![\w.,:]){_clock('a')}\s*(?:-|–|à|to|until|till|jusqu'à|(?P<joined>and|et))\s*"
    rf"{_clock('b')}(?![\w:])",
    re.IGNORECASE,
)
_BETWEEN = re.compile(r"\b(?:between|entre)\s*$", re.IGNORECASE)


def _clock_hour(m: re.Match[str], name: str) -> float:
    hour, half = int(m.group(name)), m.group(f"{name}_half")
    if half:
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    return hour + int(m.group(f"{name}_h") or m.group(f"{name}_m") or 0) / 60


def _clock_windows(text: str) -> list[tuple[int, int, float]]:
    """Daily windows written as times of day ('9h-19h', 'de 22h à 6h', '9am to 5pm', '9:00-17:30'):
    (start, end, hours a day). A range of two short hours ('2h-3h') is a length, not a window: a
    window ends after noon, wraps past midnight, or is written with minutes or am/pm."""
    out = []
    for m in _CLOCK_WINDOW.finditer(text):
        first, last = _clock_hour(m, "a"), _clock_hour(m, "b")
        if max(first, last) >= 24:
            continue
        if m.group("joined") and not _BETWEEN.search(text[max(0, m.start() - 10) : m.start()]):
            continue  # '9h and 18h' is two lengths unless 'between' opens it
        written = any(m.group(g) for g in ("a_m", "a_half", "b_m", "b_half"))
        if not (written or last >= 13 or last < first):
            continue
        out.append((m.start(), m.end(), (last - first) % 24 or 24.0))
    return out


def parse_durations(text: str) -> list[Duration]:
    """Every duration in `text`, in order: spans (`hours`) and usage rates (`per_day`); a window
    of the day ('9h-19h') is its hours a day."""
    found: list[tuple[int, Duration]] = []
    windows = _clock_windows(text)
    found += [
        (start, Duration(text=text[start:end], per_day=hours, unit="hour", count=hours))
        for start, end, hours in windows
    ]
    taken: list[tuple[int, int]] = [(start, end) for start, end, _ in windows]
    for m in _duration_re().finditer(text):
        if any(s <= m.start() < e for s, e, _ in windows):
            continue
        count = _number(m.group("num"))
        if count is None or count <= 0 and m.group("num") in _WORD_NUMBERS:
            continue
        if re.search(r"(?:^|[\s(])[-−]$", text[max(0, m.start() - 2) : m.start()]):
            count = -count  # "-5 hours": kept negative, so the tool can reject it plainly
        unit = _which_unit(m)
        if _NOT_DURATION_AFTER.match(text[m.end() :]):
            continue
        if unit == "year" and _AGE_BEFORE.search(text[max(0, m.start() - 48) : m.start()]):
            continue
        if m.group("num").lower() in ("a", "an", "un", "une") and unit in ("hour", "minute"):
            # "an hour" alone is a price unit ("$2 an hour"), not a job length
            before = text[max(0, m.start() - 12) : m.start()]
            if re.search(r"(?:\d|\$|€)\s*$", before) or re.search(r"(?:per|par|/)\s*$", before):
                continue
        if unit == "hour" and re.search(
            r"(?:\$|€)\s*$|/\s*$", text[max(0, m.start() - 3) : m.start()]
        ):
            continue
        hours = count * HOURS_PER_UNIT[unit]
        if m.group("mins"):
            hours += int(m.group("mins")) / 60
        rate_word = m.group("per") or m.group("adv")
        if rate_word:
            key = (
                "day"
                if m.group("adv") and re.search(r"jour|day|quotid|night|nuit", m.group("adv"), re.I)
                else None
            )
            key = key or _per_key(rate_word.split()[-1] if m.group("adv") else rate_word)
            if m.group("adv") and re.search(r"weekly", m.group("adv"), re.I):
                key = "week"
            if m.group("adv") and re.search(r"monthly", m.group("adv"), re.I):
                key = "month"
            if m.group("adv") and re.search(r"yearly|annually", m.group("adv"), re.I):
                key = "year"
            found.append(
                (
                    m.start(),
                    Duration(
                        text=m.group(0).strip(),
                        per_day=hours / _PER_DAY_DIVISOR[key],
                        per_month=hours if key == "month" else None,
                        unit=unit,
                        count=count,
                    ),
                )
            )
        elif _DAILY_USE.search(text[m.end() : m.end() + DAILY_AFTER]) or _DAILY_USE.search(
            same_sentence_before(text, m.start())
        ):
            found.append(
                (
                    m.start(),
                    Duration(text=m.group(0).strip(), per_day=hours, unit=unit, count=count),
                )
            )
        else:
            found.append(
                (m.start(), Duration(text=m.group(0).strip(), hours=hours, unit=unit, count=count))
            )
        taken.append(m.span())
    for pattern, hours in ((_LONG_WEEKEND, 72.0), (_WEEKEND_SPAN, 60.0), (_WEEKEND, 48.0)):
        for m in pattern.finditer(text):
            if any(s <= m.start() < e for s, e in taken):
                continue
            found.append(
                (m.start(), Duration(text=m.group(0).strip(), hours=hours, unit="weekend"))
            )
            taken.append(m.span())
    found.sort(key=lambda item: item[0])
    found = _runs_per_day(text, found)
    return [d.model_copy(update={"start": start}) for start, d in found]


def parse_percentages(text: str) -> list[float]:
    """Every percentage in `text`, as numbers (20 for '20 %')."""
    return [float(m.group(1).replace(",", ".")) for m in _PERCENT.finditer(text)]
