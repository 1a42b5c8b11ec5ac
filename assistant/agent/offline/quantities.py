"""The quantities of a cost or power question beyond amounts and durations: how many of each
card, each card's own power figure, the idle draw and the hours spent idle, an always-on
machine, a stated energy figure, and a question asking for a yearly figure.

The words that decide (idle, always on, per year) are data in `quantities.toml`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from assistant.agent.offline.numbers import Duration
from assistant.agent.offline.phrases import alternation, any_of, blank, tables, whole_phrases
from assistant.language import SENTENCE_END, sentence_start

# A count written before a card: "8x H100", "16 H100", "two 3090s", "deux RTX 3090".
_COUNT_WORDS = {
    "two": 2, "deux": 2, "dual": 2, "three": 3, "trois": 3, "four": 4, "quatre": 4,
    "five": 5, "cinq": 5, "six": 6, "eight": 8, "huit": 8, "ten": 10, "dix": 10,
}  # fmt: skip
_COUNT_BEFORE = re.compile(
    r"(?<![\d.,$€/])\b(two|deux|dual|three|trois|four|quatre|five|cinq|six|eight|huit|ten|dix|"
    # a size after the count stands apart from it: '2x 24GB 3090', '2 24GB cards', not the '64'
    # of 'the 64GB M4 Max'
    r"\d{1,3})(?:\s*[x×*]\s*|\s+|\s*(?!\d))(?:\d{1,3}\s*(?:gb|go|gib)\s+)?"
    r"(?:(?:of\s+(?:those|these|the)|de\s+ces)\s+)?"
    r"(?:-(?=(?:gpus?|cards?|way)\b))?"  # "an 8-GPU H200 node", "8-way H100"
    r"(?:(?:cartes?|cards?|way|gpus?|nvidia|geforce|amd|radeon|intel|arc|apple|tesla|quadro|used|new|cheap|"
    r"occasion|neuves?)\s+){0,2}$",
    re.IGNORECASE,
)
# Chinese and Japanese count cards with a numeral and a measure word, no space: '两张3090',
# '4块A100', '单卡'.
_CJK_COUNT_BEFORE = re.compile(
    r"(?:([两二双单一三四五六八十])|(\d{1,3}))\s*(?P<measure>张|块|個|个|枚|台)?\s*"
    r"(?:(?:nvidia|geforce|amd|radeon|tesla)\s*)?$",
    re.IGNORECASE,
)
_CJK_NUMERALS = {"一": 1, "单": 1, "两": 2, "二": 2, "双": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                 "八": 8, "十": 10}  # fmt: skip
MAX_COUNT = 512
# A number right after these names is a model's size or year ("MacBook Pro 16", "iMac 24").
_SIZE_OF = re.compile(r"\b(?:macbook(?:\s+(?:pro|air))?|imac|pro|air)\s*$", re.IGNORECASE)
_WATTS = re.compile(
    r"(?<![\d.])(?<!\d,)(\d{2,4}(?:[.,]\d+)?)\s*w(?:atts?)?(?![^\W\u3040-\u30ff\u4e00-\u9fff])",
    re.I,
)
# "1.9kW at the wall", "2 kW": kilowatts (not kWh)
_KILOWATTS = re.compile(r"(?<![\d.])(?<!\d,)(\d{1,2}(?:[.,]\d+)?)\s*kw(?!h)(?![^\W\d_])", re.I)
_ENERGY = re.compile(r"(?<![\d.,$€])(\d{1,3}(?:[ ,\u202f]\d{3})+|\d+(?:[.,]\d+)?)\s*kwh\b", re.I)
# How far after a card its own power figure may sit: "1080 Ti (250 W)", "4090 at full tilt (~350W".
CARD_POWER_SPAN = 30
IDLE_SPAN = 40
HOURS_PER_DAY = 24.0


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, re.Pattern[str]]:
    out = {}
    for table, lists in tables().items():
        for name, phrases in lists.items():
            key = table if name == "phrases" else f"{table}.{name}"
            # Chinese and Japanese write words without spaces: their phrases match anywhere.
            out[key] = re.compile(whole_phrases(phrases), re.I)
    return out


def phrase_spans(kind: str, text: str) -> list[tuple[int, int]]:
    """Where the phrases of one vocabulary list ('idle', 'always_on', 'per_year') occur."""
    return [m.span() for m in _vocabulary()[kind].finditer(text)]


_LENGTH = re.compile(
    r"(?<![\w.,])\d+(?:[.,]\d+)?\s*(?:h(?:ours?|rs?)?|heures?|min(?:utes?|s)?|s(?:ec(?:ondes?|onds?)?)?)\s*$",
    re.I,
)


RATE_AFTER_SPAN = 16  # room after 'of audio' for 'a year', 'par an'
LENGTH_BEFORE_SPAN = 16  # room before 'of audio' for '20 min', '1.5 hours'


def media_lengths(text: str) -> list[tuple[int, int]]:
    """Durations that measure recorded media ('20 min of audio', "20 min d'acapella"), not time
    spent: where each such length and its media words are written. A length per period ("200 h
    d'audio par an") is a workload to process, a pattern of use, and stays."""
    spans = []
    for start, end in phrase_spans("media_length", text):
        window = max(0, start - LENGTH_BEFORE_SPAN)
        m = _LENGTH.search(text[window:start])
        after = text[end : end + RATE_AFTER_SPAN]
        per = [
            s
            for kind in ("per_year", "per_month", "per_day")
            for s in phrase_spans(kind, after)
            if s[0] <= 2
        ]
        if m and not per:
            spans.append((window + m.start(), end))
    return spans


def asks_per_year(text: str) -> bool:
    """Whether the text asks for a figure per year."""
    return bool(phrase_spans("per_year", text))


def asks_per_month(text: str) -> bool:
    """Whether the text asks for a figure per month."""
    return bool(phrase_spans("per_month", text))


# 'adding a second used RX 6800', 'the 2nd A6000', 'une deuxième 3090': the card is one more of
# what the asker has, so there are that many in all
_ORDINAL_BEFORE = re.compile(
    r"\b(?:a|an|another|the|my|our|une?|la|le|ma|mon|notre)\s+"
    r"(second|2nd|third|3rd|fourth|4th|deuxi[eè]me|seconde?|2e|troisi[eè]me|3e|quatri[eè]me|4e)\s+"
    r"(?:(?:used|new|cheap|nvidia|geforce|amd|radeon|d'occasion|occasion|neuve?)\s+){0,2}$",
    re.IGNORECASE,
)
_ORDINALS = {"second": 2, "2nd": 2, "deuxième": 2, "deuxieme": 2, "seconde": 2, "2e": 2,
             "third": 3, "3rd": 3, "troisième": 3, "troisieme": 3, "3e": 3,
             "fourth": 4, "4th": 4, "quatrième": 4, "quatrieme": 4, "4e": 4}  # fmt: skip


def count_before(text: str, start: int) -> int | None:
    """The count written just before position `start` (a card's name), if any."""
    window = text[max(0, start - 32) : start]
    m = _COUNT_BEFORE.search(window)
    if not m:
        places = _places_each_holding(text, start)
        if places is not None:
            return places  # '12 gates, each with one AGX Orin'
        cjk = _CJK_COUNT_BEFORE.search(window)
        if cjk and (cjk.group(1) or cjk.group("measure")):  # '两张3090', '4块A100', not a bare '4'
            value = _CJK_NUMERALS[cjk.group(1)] if cjk.group(1) else int(cjk.group(2))
            return value if 1 <= value <= MAX_COUNT else None
        ordinal = _ORDINAL_BEFORE.search(window)
        return _ORDINALS.get(ordinal.group(1).lower()) if ordinal else None
    if _SIZE_OF.search(window[: m.start()]):
        return None  # "MacBook Pro 16 M4 Max": the 16 is the screen, not a count of chips
    value = _count_value(m.group(1))
    return value if 1 <= value <= MAX_COUNT else None


# 'GPU T4 x2', 'A100 ×4': a count written right after the card's name (not '3090 x2 faster')
_COUNT_AFTER = re.compile(
    r"\s*[x×]\s*(\d{1,3})\b(?!\s*(?:[.,]\d|faster|slower|plus|fois|times|speed|vitesse|gb|go\b))",
    re.IGNORECASE,
)


def count_after(text: str, end: int) -> int | None:
    """The count written right after a card's name ending at `end`, if any."""
    m = _COUNT_AFTER.match(text, end)
    value = int(m.group(1)) if m else 0
    return value if 2 <= value <= MAX_COUNT else None


def _places_each_holding(text: str, start: int) -> int | None:
    """'12 gates, each with one AGX Orin', '3 postes, chacun avec une 3090': one card in each of
    the places counted just before, so that many cards."""
    before = text[max(0, start - 2 * EACH_SPAN) : start]
    m = _each_holding().search(before)
    value = _count_value(m.group(1)) if m else 0
    return value if 2 <= value <= MAX_COUNT else None


@lru_cache(maxsize=1)
def _each_holding() -> re.Pattern[str]:
    return re.compile(
        rf"{_COUNTED}([^\W\d_]{{3,}})\s*,?\s*(?:{_vocabulary()['each'].pattern})\s+"
        r"(?:with|having|has|holding|running|avec|ayant|qui a)\s+(?:one|a|an|its own|un|une|1)\s+"
        r"(?:[\w-]+\s+){0,2}$",
        re.I,
    )


EACH_SPAN = 32  # how far after a card 'per store' or 'in each of the 3 servers' may sit
EACH_GAP = 14  # words between a card and 'each': 'un boîtier de 40 W chacun'
_COUNTED = rf"\b({'|'.join(w for w in _COUNT_WORDS if w != 'dual')}|\d{{1,3}})\s+"


def count_each(text: str, end: int) -> int | None:
    """How many places or machines hold one card each, when the words after the card (ending at
    `end`) say so: '4 stores, one Jetson each' → 4, 'a 3090 per machine … 3 machines' → 3."""
    after = text[end : end + EACH_SPAN]
    vocab = _vocabulary()
    counted = re.search(r"([^\W\d_]+)\W*$", text[:end])
    if counted is not None and vocab["each.times"].fullmatch(counted.group(1)):
        return None  # 'about 3 meetings a week and each takes 1.5 h': a span of time, no device
    per = re.match(
        rf"\s*(?:{vocab['each.per'].pattern})\s+(?:{_COUNTED})?([^\W\d_]{{3,}})", after, re.I
    )
    m: re.Match[str] | None
    if per is not None and vocab["each.times"].fullmatch(per.group(2)):
        return None  # 'one word per three minutes': a rate in time, not places
    if per is not None and per.group(1):  # 'in each of the 3 servers'
        m = per
    elif per is not None:  # the place named after 'per': its count anywhere in the message
        stem = re.escape(per.group(2).lower().rstrip("s")[:5])
        m = re.search(rf"{_COUNTED}{stem}", text, re.I)
    elif (
        each := re.match(rf"[^.!?\n;]{{0,{EACH_GAP}}}?(?:{vocab['each'].pattern})", after, re.I)
    ) and not vocab["each.times"].match(after[each.end() :].lstrip()):
        start = sentence_start(text, end)
        found = [
            c
            for c in re.finditer(rf"{_COUNTED}([^\W\d_]{{3,}})", text[start:end], re.I)
            if not vocab["each.times"].fullmatch(c.group(2))
        ]
        m = found[-1] if found else None
    else:
        return None
    value = _count_value(m.group(1)) if m else 0
    return value if 2 <= value <= MAX_COUNT else None


def _count_value(word: str) -> int:
    """A count written as a word or in digits ('four', 'deux', '8'); 0 when it is neither."""
    word = word.lower()
    return _COUNT_WORDS.get(word) or (int(word) if word.isdigit() else 0)


@dataclass(frozen=True)
class PowerFigures:
    """The power figures of a message: the working draw, the idle draw, and each card's own."""

    load_w: float | None = None
    load_options: tuple[float, ...] = ()
    idle_w: float | None = None
    card_w: dict[str, float] | None = None
    card_w_end: dict[str, int] | None = None  # where each card's own figure ends
    idle_at: int | None = None
    wall_w: float | None = None
    cap_w: float | None = None
    rest_w: float | None = None
    psu_w: float | None = None


def _watts(text: str) -> list[tuple[int, int, float]]:
    """Every power figure: (start, end, watts), in order; kilowatts count as watts."""
    found = [
        (m.start(), m.end(), float(m.group(1).replace(",", "."))) for m in _WATTS.finditer(text)
    ]
    found += [
        (m.start(), m.end(), 1000 * float(m.group(1).replace(",", ".")))
        for m in _KILOWATTS.finditer(text)
    ]
    return sorted(found)


# A clause ends at a comma, semicolon or full stop followed by a space ('$1.20' goes on).
_CLAUSE_BREAK = re.compile(r"[,;.!?]\s")


def _next_to(
    kind: str,
    text: str,
    watts: list[tuple[int, int, float]],
    skip: int | None,
    same_clause: bool = False,
) -> float | None:
    """The power figure nearest a phrase of one vocabulary list, if one is close (not `skip`);
    with `same_clause`, a figure in the same clause as the phrase first ('450W, PSU is 850W')."""
    i = _nearest(kind, text, watts, skip, same_clause)
    return watts[i][2] if i is not None else None


def _nearest(
    kind: str,
    text: str,
    watts: list[tuple[int, int, float]],
    skip: int | None,
    same_clause: bool = False,
) -> int | None:
    """The index of the figure `_next_to` reads, or None."""
    spans = phrase_spans(kind, text)

    def apart(pos: int, w_end: int, start: int, end: int) -> tuple[int, int]:
        lo, hi = (w_end, start) if w_end <= start else (end, pos)
        crosses = same_clause and bool(_CLAUSE_BREAK.search(text[lo:hi]))
        return int(crosses), max(start - w_end, pos - end, 0)

    near = sorted(
        (min(apart(pos, w_end, start, end) for start, end in spans), w, i)
        for i, (pos, w_end, w) in enumerate(watts)
        if spans and i != skip
    )
    return next((i for (_, distance), _, i in near[:1] if distance <= IDLE_SPAN), None)


def _following(
    kind: str, text: str, watts: list[tuple[int, int, float]], skip: int | None
) -> int | None:
    """The index of the power figure written right after a phrase, in its clause ('the rest of
    the PC maybe 100W'), or None: there the figure before it is another's ('the card is 150W and
    the rest of the PC maybe 100W')."""
    after = [
        (pos - end, i)
        for _, end in phrase_spans(kind, text)
        for i, (pos, _, _) in enumerate(watts)
        if i != skip and 0 <= pos - end <= IDLE_SPAN and not _CLAUSE_BREAK.search(text[end:pos])
    ]
    return min(after)[1] if after else None


_ADDED = re.compile(rf"\s*{any_of('added')}", re.I)


def _added_to(text: str, w_end: int) -> bool:
    """Whether the rest of the machine is said to come on top of the figure ending at `w_end`
    ('140 W max + le reste', '300 W plus the rest'): that figure is another part's."""
    rest = [start for start, _ in phrase_spans("rest_of_machine", text) if start >= w_end]
    if not rest:
        return False
    between = text[w_end : min(rest)]
    return len(between) <= IDLE_SPAN and bool(_ADDED.search(between))


_ADDED_BEFORE = re.compile(rf"{any_of('added')}\s*{any_of('hedge')}?\s*$", re.IGNORECASE)
ADDED_SPAN = 24  # how far before a figure the word that adds it may sit


def _added_part(text: str, watts: list[tuple[int, int, float]], skip: int | None) -> int | None:
    """A figure said to come on top of a first one ('the 25W mode, plus say 10W each for camera +
    carrier board'): the rest of each machine beside its cards, or None."""
    for i, (pos, _, _) in enumerate(watts):
        if i == 0 or i == skip:
            continue
        if _ADDED_BEFORE.search(text[max(0, pos - ADDED_SPAN) : pos]):
            return i
    return None


PER_CARD_SPAN = 16  # how far after a figure a per-card word may sit: '700 W each'


def _machine_draw(text: str, watts: list[tuple[int, int, float]], skip: int | None) -> float | None:
    """What a server or node named just before the figure draws as a whole, in one clause; not a
    figure said to be each card's ('8 H100 at 700 W each', the per_gpu words)."""
    index = _following("machine_draw", text, watts, skip)
    if index is None:
        return None
    _, w_end, w = watts[index]
    follows = text[w_end : w_end + PER_CARD_SPAN].lstrip()
    return None if any(start == 0 for start, _ in phrase_spans("per_gpu", follows)) else w


def read_power(text: str, card_spans: list[tuple[str, int, int]]) -> PowerFigures:
    """Working and idle watts, and the watts written right after each card's name."""
    watts = _watts(text)
    if not watts:
        return PowerFigures()
    idle_index = None
    for start, end in phrase_spans("idle", text)[:1]:
        # An idle word belongs to the nearest power figure, if one is close.
        distance = [max(start - w_end, pos - end, 0) for pos, w_end, _ in watts]
        nearest = min(range(len(watts)), key=distance.__getitem__)
        if distance[nearest] <= IDLE_SPAN:
            idle_index = nearest
    # 'and 80 W the rest of the time' is idle time, not the rest of the machine
    unidle = blank(text, phrase_spans("idle", text))
    rest_index = _following("rest_of_machine", unidle, watts, idle_index)
    if rest_index is None:
        rest_index = _nearest("rest_of_machine", unidle, watts, idle_index)
        if rest_index is not None and _added_to(unidle, watts[rest_index][1]):
            # '4 cartes à 140 W max + le reste': the cards' figure, not the rest's
            rest_index = None
    if rest_index is None:
        rest_index = _added_part(unidle, watts, idle_index)
    # 'a 250 W PSU' rates the power supply: not a draw
    psu_index = _nearest("psu", text, watts, idle_index, same_clause=True)
    skip = {idle_index, rest_index, psu_index}
    if psu_index is not None:
        # '1000 W PSU... so 1 kW x 24 h?': the supply's rating said again is still no draw
        rating = watts[psu_index][2]
        skip |= {i for i, (_, _, w) in enumerate(watts) if w == rating}
    load = [w for i, (_, _, w) in enumerate(watts) if i not in skip]
    settled = _nearest("average_draw", text, watts, idle_index, same_clause=True)
    if settled is not None and settled not in skip and len(load) > 1:
        # 'de 450 à 1000 W. Si on compte 900 W en moyenne': the draw settled on comes first
        load.remove(watts[settled][2])
        load.insert(0, watts[settled][2])
    card_w: dict[str, float] = {}
    card_w_end: dict[str, int] = {}
    ordered = sorted(card_spans, key=lambda c: c[1])
    for n, (name, _, end) in enumerate(ordered):
        limit = min(end + CARD_POWER_SPAN, ordered[n + 1][1] if n + 1 < len(ordered) else len(text))
        own = [
            (w, w_end)
            for i, (pos, w_end, w) in enumerate(watts)
            if end <= pos < limit and i not in skip
        ]
        if own and name not in card_w:
            card_w[name], card_w_end[name] = own[0]
    idle = watts[idle_index] if idle_index is not None else None
    unrest = blank(text, phrase_spans("rest_of_machine", text))  # 'rest of the pc' is no wall
    wall = _next_to("wall", unrest, watts, idle_index) or _machine_draw(text, watts, idle_index)
    if psu_index is not None and wall == watts[psu_index][2]:
        wall = None  # 'dans le PC actuel (alim 450 W)': the supply's rating, not the PC's draw
    return PowerFigures(
        wall_w=wall,
        cap_w=_next_to("power_cap", text, watts, idle_index),
        rest_w=watts[rest_index][2] if rest_index is not None else None,
        psu_w=watts[psu_index][2] if psu_index is not None else None,
        load_w=load[0] if load else None,
        load_options=tuple(dict.fromkeys(load)),
        idle_w=idle[2] if idle else None,
        card_w=card_w or None,
        card_w_end=card_w_end or None,
        idle_at=idle[0] if idle else None,
    )


BATTERY_SPAN = 60  # how far from a Wh figure a battery word may sit, in its clause
_STORED = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:[ ,\u202f]\d{3})+|\d+(?:[.,]\d+)?)\s*(k?)wh\b", re.IGNORECASE
)
# '1,2 L/h de gasoil', '1.2 litres per hour', 'burns about 1.2 L an hour'
_FUEL_RATE = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(?:l|litres?|liters?)\s*(?:/\s*|(?:per|par|an?|une?|de\s+l'|à\s+l'|l')\s*)"
    r"(?:h|hours?|hr|heures?)\b",
    re.IGNORECASE,
)


def read_battery(text: str) -> float | None:
    """A battery's capacity in Wh, when an energy figure sits in a sentence with a battery word of
    the concept vocabulary ('an EcoFlow Delta 2 (1024 Wh)', 'un onduleur de 1,5 kWh')."""
    m = _battery_capacity(text)
    if m is None:
        return None
    value = float(re.sub(r"[ ,\u202f](?=\d{3}\b)", "", m.group(1)).replace(",", "."))
    return value * 1000 if m.group(2) else value


def battery_capacity_span(text: str) -> tuple[int, int] | None:
    """Where the battery's capacity is written ('1.2 kWh' in 'a 1.2 kWh battery'): an energy
    figure that is no energy used."""
    m = _battery_capacity(text)
    return None if m is None else m.span()


def _battery_capacity(text: str) -> re.Match[str] | None:
    from assistant.agent.offline.concepts import concept_starts

    batteries = concept_starts("battery", text)
    for m in _STORED.finditer(text):
        near = [
            s
            for s in batteries
            if abs(s - m.start()) <= BATTERY_SPAN
            and not SENTENCE_END.search(text[min(s, m.end()) : max(s, m.start())])
        ]
        if near:
            return m
    return None


def read_fuel_rate(text: str) -> float | None:
    """A generator's fuel use in litres per hour ('~1,2 L/h de gasoil')."""
    m = _FUEL_RATE.search(text)
    return float(m.group(1).replace(",", ".")) if m else None


TOTAL_SPAN = 20  # how far after a power figure 'each' or 'in total' may sit


def per_card_watts(text: str, end: int, watts: float, count: int, tdp: float | None) -> float:
    """One card's draw from the figure written after 'N × card' (ending at `end`): the figure
    itself when it is each card's ('2x 3090 at 350 W each'), the figure shared among the cards
    when it is all of theirs ('4x 4090 at 1800 W total'). With neither said, the figure nearer
    N × the card's board power than to one card's is all of theirs ('2x 3090 à ~700 W')."""
    if count <= 1:
        return watts
    after = text[end : end + TOTAL_SPAN]
    vocab = _vocabulary()
    if vocab["each"].match(after.lstrip()) or vocab["power_total.each"].match(after.lstrip()):
        return watts
    if vocab["power_total"].match(after.lstrip()):
        return watts / count
    if tdp and abs(watts - count * tdp) < abs(watts - tdp):
        return watts / count
    return watts


def idle_hours(
    text: str, durations: list[Duration], figures: PowerFigures
) -> tuple[float | None, float | None]:
    """(working hours a day, idle hours a day) when the message gives an idle phase.

    Two daily durations: the one nearer the idle figure is the idle one. An always-on machine:
    the hours it does not work, it idles."""
    daily = [d for d in durations if d.per_day is not None]
    if figures.idle_w is None or not daily:
        return None, None
    if len(daily) >= 2 and figures.idle_at is not None:
        at = figures.idle_at
        idle = min(daily[:2], key=lambda d: abs(d.start - at))
        work = next(d for d in daily[:2] if d is not idle)
        return work.per_day, idle.per_day
    work_hours = daily[0].per_day
    beside = _beside_idle(text, durations, work_hours)
    if beside is not None:
        # '6h a day at full tilt and idling ~60W the other 18h', '3 h/jour en charge et 5 h au
        # repos': a span of hours next to an idle word, within the day, is the idle hours a day
        return work_hours, beside
    if phrase_spans("always_on", text) and work_hours is not None:
        return work_hours, max(0.0, HOURS_PER_DAY - work_hours)
    return work_hours, None


def _beside_idle(text: str, durations: list[Duration], work: float | None) -> float | None:
    """Hours with no period of their own, next to an idle word, that fit in the day beside the
    working hours; None when there are none."""
    if work is None:
        return None
    spans = phrase_spans("idle", text)
    for d in durations:
        if d.per_day is not None or d.per_month is not None or not d.hours:
            continue
        end = d.start + len(d.text)
        near = any(max(start - end, d.start - stop, 0) <= IDLE_SPAN for start, stop in spans)
        if near and d.hours + work <= HOURS_PER_DAY:
            return d.hours
    return None


_PER_YEAR = {"year": 1.0, "an": 1.0, "month": 12.0, "mois": 12.0, "week": 52.0, "semaine": 52.0}
_COUNT = r"\d{1,3}|" + "|".join(_COUNT_WORDS)
# A count with no job named ('~4 par mois') is a number of jobs only when small and not paid.
BARE_REPEATS_MAX = 31
PAID_BEFORE_SPAN = 16


@lru_cache(maxsize=1)
def _repeats_pattern() -> re.Pattern[str]:
    nouns = sorted(set(tables()["repeated_job"]["phrases"]), key=len, reverse=True)
    alternatives = "|".join(r"\s*".join(map(re.escape, p.split())) for p in nouns)
    return re.compile(
        # the thing repeated may be named before: 'des LoRA de mes clients (~4 par mois)'
        rf"(?<![$€£¥\d.,])\b(?P<n>{_COUNT})\s+(?:such\s+|similar\s+|de\s+ces\s+|ces\s+|of\s+these\s+)?"
        rf"(?:(?P<job>{alternatives})\s*)?(?:a|an|per|par|each|every|/|chaque)\s+(?P<per>{'|'.join(_PER_YEAR)})\b",
        re.IGNORECASE,
    )


def repeats_per_year(text: str) -> float | None:
    """How many times a year a job is repeated: 'four such runs a year', '2 fois par mois' (24)."""
    for m in _repeats_pattern().finditer(text):
        count = _count_value(m.group("n"))
        if not count:
            continue
        if not m.group("job") and (
            count > BARE_REPEATS_MAX
            or phrase_spans("paid_amount", text[max(0, m.start() - PAID_BEFORE_SPAN) : m.start()])
        ):
            continue  # 'I pay 50 a month' is an amount, not a job done fifty times
        return count * _PER_YEAR[m.group("per").lower()]
    return None


@dataclass(frozen=True)
class EnergyFigure:
    """An energy figure the message states: 'monthly power alone is about 5,600 kWh'."""

    kwh: float
    period: Literal["day", "month", "year"]
    card: str | None


def read_energy(text: str, card_spans: list[tuple[str, int, int]]) -> EnergyFigure | None:
    """The first energy figure (not a price per kWh), the period its sentence names (a month when
    none), and the card named last before it."""
    for m in _ENERGY.finditer(text):
        if text[m.end() : m.end() + 3].lstrip().startswith("/"):
            continue
        raw = re.sub(r"[ \u202f]", "", m.group(1))
        raw = raw.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw) else raw
        start = max(text.rfind(c, 0, m.start()) for c in ".?!\n") + 1
        ends = [i for i in (text.find(c, m.end()) for c in ".?!\n") if i >= 0]
        sentence = text[start : min(ends, default=len(text))]
        period: Literal["day", "month", "year"] = "month"
        for kind, name in (("per_day", "day"), ("per_year", "year"), ("per_month", "month")):
            if phrase_spans(kind, sentence):
                period = name  # type: ignore[assignment]
        before = [name for name, s, _ in card_spans if s < m.start()]
        return EnergyFigure(float(raw.replace(",", ".")), period, before[-1] if before else None)
    return None


_SPEED = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(?:t/s|tok/s|tokens?\s*/\s*s(?:ec)?|tokens? (?:per|a) second|"
    r"tokens? par seconde|tps)\b",
    re.I,
)
OBSERVED_SPAN = 30  # how far before a speed 'I only get' may sit


def observed_speed(text: str) -> float | None:
    """The generation speed the asker sees on their own machine ('I only get around 3t/s'), or
    None; a speed hoped for ('can I get 30 tok/s?') is not one."""
    for m in _SPEED.finditer(text):
        before = text[max(0, m.start() - OBSERVED_SPAN) : m.start()]
        if re.search(r"\b(?:can|could|will|would|should)\s+(?:i|we|it)\s+get\b", before, re.I):
            continue
        if phrase_spans("observed_speed", before):
            return float(m.group(1).replace(",", "."))
    return None


_PUE = re.compile(
    r"\bPUE\b\s*(?:(?:of|de|=|:|is|est|at|à|around|about|environ|d'environ|~|≈)\s*){0,2}~?\s*"
    r"(?P<after>[1-3](?:[.,]\d{1,2})?)(?![\d%])|(?<![\d.,])(?P<before>[1-3][.,]\d{1,2})\s*(?:de\s+)?PUE\b",
    re.IGNORECASE,
)


def read_pue(text: str) -> float | None:
    """A data centre's power usage effectiveness: 'a PUE of 1.4', 'PUE 1,3'."""
    m = _PUE.search(text)
    if not m:
        return None
    value = float((m.group("after") or m.group("before")).replace(",", "."))
    return value if 1.0 <= value <= 3.0 else None


# A figure with its unit is no count of machines ('4 L4 à 72 W + le reste du serveur').
_MEASURE_UNIT = r"(?:k?w|watts?|[gtm]b|[gtm]o|gib|mb/s|gb/s|h|hours?|heures?|%|€|\$)(?!\w)"


@lru_cache(maxsize=1)
def _machines_pattern() -> re.Pattern[str]:
    nouns = whole_phrases(tables()["machines"]["phrases"])
    return re.compile(
        rf"(?<![\d.,$€/])\b(?P<n>{_COUNT})(?!\s*[x×])(?!\s*{_MEASURE_UNIT})\s+(?P<inside>(?:[^\s,.;:!?]+\s+){{0,5}}?)"
        rf"(?:{nouns})",
        re.IGNORECASE,
    )


def read_machines(text: str) -> tuple[int | None, tuple[int, int] | None]:
    """How many machines hold the cards ('4 DGX-style 8x H100 servers': 4), and the span of the
    words between the count and the noun, where a card's count is a count per machine."""
    m = _machines_pattern().search(text)
    if not m:
        return None, None
    value = _count_value(m.group("n"))
    if not 1 <= value <= MAX_COUNT:
        return None, None
    return value, m.span("inside")


def in_servers(text: str) -> bool:
    """Whether the cards sit in servers or a data centre."""
    return bool(phrase_spans("servers", text))


_SHARE = re.compile(r"(?<![\d.,])(\d{1,2}(?:[.,]\d+)?)\s*(?:%|percent|pour\s*cent)", re.I)
_SHARE_PER = re.compile(
    r"^.{0,40}?\b(?:per|a|an|par|each|every|chaque)\s+(hour|heure|day|jour|week|semaine|month|mois)\b",
    re.I,
)
_PER_HOURS = {"hour": 1.0, "heure": 1.0, "day": 24.0, "jour": 24.0, "week": 168.0,
              "semaine": 168.0, "month": 730.0, "mois": 730.0}  # fmt: skip
INTERRUPTED_SPAN = 60


def interruption_share(text: str) -> tuple[float, float | None] | None:
    """How often spot instances are taken back, when the text says it with a percentage: (the
    share, the hours it is per), the hours None when it is per job ('10% of spot jobs get
    interrupted'); ('5% per hour', 1.0)."""
    spans = phrase_spans("interrupted", text)
    if not spans:
        return None
    for m in _SHARE.finditer(text):
        if not any(abs(start - m.end()) <= INTERRUPTED_SPAN or abs(m.start() - end) <= INTERRUPTED_SPAN
                   for start, end in spans):  # fmt: skip
            continue
        share = float(m.group(1).replace(",", ".")) / 100
        if not 0 < share < 1:
            continue
        per = _SHARE_PER.match(text[m.end() :])
        return share, _PER_HOURS[per.group(1).lower()] if per else None
    return None


REWORK_SPAN = 24  # how far after 'redo' its share may be: 'redo ~20% of the work'


def rework_share(text: str) -> float | None:
    """The share of the work the asker expects to do again on spot, when a percentage follows a
    redo word: 'if evictions make us redo ~20% of the work' (0.2), 'refaire 15 % du calcul'."""
    for _, end in phrase_spans("rework", text):
        m = _SHARE.search(text[end : end + REWORK_SPAN])
        if m:
            share = float(m.group(1).replace(",", ".")) / 100
            return share if 0 <= share <= 1 else None
    return None


HOLDER_SPAN = 48  # how far before a memory figure its holder may be: 'the game itself uses about'
USED_BY_SPAN = 12  # how far after a figure 'used by' may start: '5.5 GB VRAM used by'


def memory_in_use(text: str, figures: list[tuple[int, int, float]]) -> list[int]:
    """Which memory figures (start, end, GB) are held by something other than the model: a holder
    then a use word before the figure in one clause ('the game itself uses about 5.5 GB'), or a
    'used by' right after it ('2 Go déjà pris par Windows'). Their indexes in `figures`."""
    holders = phrase_spans("memory_holders", text)
    uses = phrase_spans("memory_use", text)
    used_by = phrase_spans("memory_used_by", text)
    found = []
    for i, (start, end, _) in enumerate(figures):
        lo = max(0, start - HOLDER_SPAN)
        breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text, lo, start)]
        lo = max([lo, *breaks])
        before = any(
            lo <= h_start and h_end <= u_start and u_end <= start
            for h_start, h_end in holders
            for u_start, u_end in uses
        )
        after = any(
            0 <= s - end <= USED_BY_SPAN and not _CLAUSE_BREAK.search(text[end:s])
            for s, _ in used_by
        )
        if before or after:
            found.append(i)
    return found


_COUNT_NUMBER = r"\d{1,3}(?:[ ,.\u202f\u00a0]\d{3})+|\d+(?:[.,]\d+)?"
_SCALE = {"k": 1e3, "thousand": 1e3, "mille": 1e3, "m": 1e6, "million": 1e6, "millions": 1e6}
_PER_SECONDS = {"s": 1.0, "sec": 1.0, "second": 1.0, "seconde": 1.0, "min": 60.0, "minute": 60.0,
                "h": 3600.0, "hr": 3600.0, "hour": 3600.0, "heure": 3600.0}  # fmt: skip


def _amount(number: str, scale: str | None) -> float:
    """'400,000' → 400000; '0,8' → 0.8; '2' with 'millions' → 2e6."""
    if re.fullmatch(r"\d{1,3}(?:[ ,.\u202f\u00a0]\d{3})+", number):
        value = float(re.sub(r"\D", "", number))
    else:
        value = float(number.replace(",", "."))
    return value * _SCALE.get((scale or "").lower().rstrip("s") or "", 1.0) if scale else value


@lru_cache(maxsize=1)
def _work_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A count of items ('400,000 pages', '2 millions de paragraphes') and a rate of items
    ('0.8 pages/s', '50 paragraphes par seconde')."""
    items = rf"(?:{alternation(tables()['work_items']['phrases'])})(?!\w)"
    scale = r"(?:\s*(?P<scale>k|thousand|mille|m|millions?)\b)?"
    count = re.compile(
        rf"(?<![\d.,])(?P<num>{_COUNT_NUMBER}){scale}\s*(?:de\s+|d')?(?P<item>{items})", re.I
    )
    per = r"(?:/\s*|\s+(?:per|a|an|par|à la|a la|each|every)\s+|\s+)"
    unit = r"(?P<unit>s|sec|seconde?|second|min|minute|h|hr|hour|heure)s?\b"
    rate = re.compile(rf"(?<![\d.,])(?P<num>\d+(?:[.,]\d+)?)\s*(?P<item>{items}){per}{unit}", re.I)
    return count, rate


def work_hours(text: str) -> float | None:
    """The length of a job given as a count of items and a rate of the same items ('400,000 pages
    … 0.8 pages/s' is 139 h), or None."""
    count_pattern, rate_pattern = _work_patterns()
    rates = list(rate_pattern.finditer(text))
    if not rates:
        return None
    taken = [m.span() for m in rates]
    for m in count_pattern.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue  # the rate's own number
        item = m.group("item").lower().rstrip("s")
        for r in rates:
            if r.group("item").lower().rstrip("s") != item:
                continue
            per_second = (
                float(r.group("num").replace(",", "."))
                / _PER_SECONDS[r.group("unit").lower().rstrip("s") or "s"]
            )
            count = _amount(m.group("num"), m.group("scale"))
            if per_second > 0 and count > 0:
                return count / per_second / 3600
    return None
