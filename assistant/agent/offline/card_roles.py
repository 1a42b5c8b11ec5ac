"""How a question relates the cards it names (card_roles.toml): the memory size the asker gives
each card, how many of each, and whether the cards are options to choose between ("a 5080 or a
4090") rather than one machine ("a 3090 and a 4090")."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

from assistant.agent.offline.phrases import whole_phrases
from assistant.knowledge.gpu_names import vocabulary
from assistant.knowledge.names import fold, fold_keep_length
from assistant.language import sentence_after, sentence_before

ROLES_FILE = "card_roles.toml"
# A memory size as people write it: '24GB', '12 Go', '16 GiB', '8g'
_MEMORY_SIZE = r"(\d{1,3}(?:[.,]\d)?)\s*(?:gb|go|gib|g)\b"
# How far before a card's name its memory size may be written ('my 64GB MacBook Pro M3 Max')
BEFORE_WINDOW = 24


class CardRoleWords(BaseModel):
    options: list[str]
    pick_one: list[str]
    pick_among: list[str]
    memory_links: list[str]
    not_card_memory: list[str]
    chipsets: list[str]
    requirement: list[str]
    owner: list[str]
    not_owner: list[str]
    elsewhere: list[str]


@dataclass(frozen=True)
class CardSpan:
    """Where a question names a card, and which catalog card it is."""

    start: int
    end: int
    name: str


@lru_cache(maxsize=1)
def role_words() -> CardRoleWords:
    """The words of card_roles.toml that give a named card its role in a question."""
    text = resources.files("assistant.agent.offline").joinpath(ROLES_FILE).read_text("utf-8")
    return CardRoleWords.model_validate(tomllib.loads(text))


def is_chipset(name: str) -> bool:
    """A motherboard chipset's name ('B550', 'Z790'), shaped like a card's but not one."""
    return name.strip().lower() in role_words().chipsets


def _words(terms: list[str]) -> str:
    return "|".join(re.escape(fold(t)) for t in sorted(terms, key=len, reverse=True))


@lru_cache(maxsize=1)
def _machine_memory() -> re.Pattern[str]:
    words = _whole_words(role_words().not_card_memory)
    return re.compile(rf"\s*\+?\s*(?:(?:of|de|d')\s*)?(?:{words})", re.I)


def _whole_words(terms: list[str]) -> str:
    """The terms, folded, as whole words (a Chinese or Japanese one anywhere: '40G内存可以')."""
    return whole_phrases([fold(t) for t in terms], edge=r"\w")


def names_machine_memory(after: str) -> bool:
    """Whether the words right after a memory size make it the computer's memory or disk, not a
    card's: '64GB of RAM', '100GB+ of system memory', '16 Go de mémoire vive'."""
    return bool(_machine_memory().match(fold(after)))


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    words = role_words()
    options = re.compile(rf"(?<![\w']){'(?:' + _words(words.options) + ')'}(?![\w'])")
    size = _MEMORY_SIZE
    not_card = rf"(?!\s*(?:{_whole_words(words.not_card_memory)}))"
    after = re.compile(
        rf"^\s*[(,\-]?\s*(?:(?:{_words(words.memory_links)})\s*)?{size}{not_card}", re.I
    )
    # a size written as its own word inside the name ('GTX 1650 4Go'), not the tail of a model
    # number ('A10G' is no 10 GB card)
    inside = re.compile(rf"(?<![\w.]){size}{not_card}", re.I)
    # 'my 64GB MacBook Pro M3 Max': a machine line may stand between the size and the chip
    lines = "|".join(rf"{a}\s*{b}" for a, b in sorted(vocabulary().machine_lines))
    before = re.compile(rf"{size}\s*(?:(?:{lines})\s*)?$", re.I)
    return options, after, inside, before


APPLE_WINDOW = 64
_APPLE_MEMORY = re.compile(
    r"(?<![\d.,])(\d{1,3})\s*(?:gb|go|gib)\b(?!\s*/)"
    r"(?!\s*(?:ssd|storage|disk|disque|de stockage|nvme|drive))",
    re.I,
)


def card_memory(text: str, spans: list[CardSpan]) -> dict[str, float]:
    """The memory size the asker gives each named card: inside or right after its name ('GTX 1650
    4Go', 'RTX 3060 with 6GB VRAM', 'GTX 970 (4gb') or right before it ('my 8gb 3070')."""
    _, after, inside, before = _patterns()
    folded = fold(text)
    if len(folded) != len(text):  # a ligature unfolded: keep the spans' offsets right
        folded = text.lower()
    sizes: dict[str, set[float]] = {}
    for span in sorted(spans, key=lambda s: s.start):
        m = (
            inside.search(folded, span.start, span.end)
            # after it, in its own sentence: '2080ti，那个更快？ — 一个显存16g' gives no card the 16g
            or after.match(sentence_after(folded[span.end : span.end + 32]))
            or before.search(folded[max(0, span.start - BEFORE_WINDOW) : span.start])
            or (
                # an Apple chip's memory is the Mac's RAM, often said a little later:
                # "M3 Max 14-core CPU/30-core GPU, with 36GB of RAM"
                _APPLE_MEMORY.search(folded[span.end : span.end + APPLE_WINDOW])
                if span.name.startswith("Apple ")
                else None
            )
        )
        if m:
            sizes.setdefault(span.name, set()).add(float(m.group(1).replace(",", ".")))
    # A name given two sizes ("a 4060 Ti 8g ... or a 4060 Ti 16g") names two cards, not one size.
    return {name: found.pop() for name, found in sizes.items() if len(found) == 1}


def are_options(text: str, spans: list[CardSpan]) -> bool:
    """Whether the named cards are alternatives: an option word stands between two of them."""
    ordered = sorted(spans, key=lambda s: s.start)
    for first, second in zip(ordered, ordered[1:], strict=False):
        between = text[first.end : second.start] if second.start >= first.end else ""
        if first.name != second.name and options_between(between):
            return True
    distinct = {s.name for s in ordered}
    if len(distinct) >= 2:
        words = role_words()
        among = re.compile(rf"(?<![\w'])(?:{_words(words.pick_among)})(?![\w'])")
        # the pick word right before the first card ('cheapest of', 'entre'), within its sentence
        # (a period inside a name, 'g4dn.xlarge', ends none)
        lead = sentence_before(fold(text[: ordered[0].start]))[-PICK_AMONG_SPAN:]
        # after the last card named ('… and the 5060 Ti cost the same. which one for LLMs? is the
        # 4060 Ti faster?': the pick word follows the 5060 Ti, not the 4060 Ti named again)
        last_new = max(min(s.start for s in ordered if s.name == n) for n in distinct)
        after = next(s.end for s in ordered if s.start == last_new)
        return asks_to_pick(text[after:]) or bool(among.search(lead))
    return False


PICK_AMONG_SPAN = 60  # how far before the first card a 'cheapest of' may sit


def options_between(text: str) -> bool:
    """An option word stands in this stretch of text ('16 Go à 699 € ou 24 Go'): what it
    separates are alternatives."""
    return bool(_patterns()[0].search(fold(text)))


def asks_to_pick(text: str) -> bool:
    """The message asks to pick one of the cards it names ('laquelle prendre ?', 'which one
    should I get?')."""
    return bool(_pick_words().search(fold(text)))


@lru_cache(maxsize=1)
def _pick_words() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w']){'(?:' + _words(role_words().pick_one) + ')'}(?![\w'])")


def card_counts(text: str, spans: list[CardSpan], default: int | None = 1) -> dict[str, int]:
    """How many of each card ('4x 4060ti' → 4), from the words right before its first mention;
    a card with no count there is `default` of it, or, when `default` is None, the count of a
    later mention, else left out."""
    from assistant.agent.offline.quantities import count_after, count_before, count_each

    said: dict[str, int] = {}
    for span in sorted(spans, key=lambda s: s.start):
        count = count_before(text, span.start) or count_after(text, span.end)
        # '4 stores, one Jetson each' (several cards in each machine: read_machines multiplies)
        places = count_each(text, span.end) if (count or 1) == 1 else None
        if places is not None:
            count = places
        if span.name not in said and count is not None:
            said[span.name] = count
    most = max(said.values(), default=1)
    out: dict[str, int] = {}
    for span in sorted(spans, key=lambda s: s.start):
        if span.name in out:
            continue
        count = said.get(span.name)
        if count is None:
            count = _count_by_number(text, span.name)
        if count is None and most > 1 and _PLURAL.search(text[span.start : span.end]):
            count = most  # 'an 8x H100 node, or H200s?': as many of the other card
        count = count or default
        if count is not None:
            out[span.name] = count
    return out


_PLURAL = re.compile(r"\d[a-z]*s\b", re.I)  # 'H200s', '3090s', 'A100s'
_MODEL_NUMBER = re.compile(r"\b\d{3,5}\b")


def _count_by_number(text: str, name: str) -> int | None:
    """A count written before the card's bare model number elsewhere in the message: 'the 2nd RX
    6800 … rig = 2x 6800' (2). Only the 'N x' form: '2 6800' is no count."""
    from assistant.agent.offline.quantities import MAX_COUNT

    for number in _MODEL_NUMBER.findall(name):
        m = re.search(rf"(?<![\w.])(\d{{1,3}})\s*[x×]\s*{number}\b", text, re.I)
        if m and 1 < int(m.group(1)) <= MAX_COUNT:
            return int(m.group(1))
    return None


def card_vendors(names: list[str]) -> set[str]:
    """The makers of the catalog cards named ('nvidia', 'amd', 'apple', 'intel')."""
    from assistant.knowledge.matching import match_gpu

    return {card.vendor for name in names for card in [match_gpu(name).gpu] if card}


def own_variants(
    text: str, known: list[str], spans: list[CardSpan]
) -> tuple[list[str], list[CardSpan], dict[str, float], dict[str, float], dict[str, float]]:
    """The cards as the asker has them: a memory size they give picks the variant that has it
    ('RTX 3060 with 6GB' is the laptop 3060); a smaller size no variant has is kept as theirs; a
    larger one no variant has is a false premise, returned apart to be corrected ('my 4090 has
    48 GB'). Last, every size stated with a name, as `card_memory` read it."""
    from assistant.knowledge.gpu_names import LAPTOP, tokens
    from assistant.knowledge.matching import match_gpu, memory_variant

    stated = card_memory(text, spans)
    laptop = LAPTOP in tokens(text)
    renamed: dict[str, str] = {}
    memory: dict[str, float] = {}
    claims: dict[str, float] = {}
    for name, size in stated.items():
        card = match_gpu(name).gpu
        if card is None or card.vram_gb == size:
            continue
        variant = memory_variant(card, size, laptop=laptop)
        if variant is not None and variant.name in known:
            continue  # the size belongs to the other card named ("a 4060 Ti 8g, or the 16g")
        if variant is not None:
            renamed[name] = variant.name
        elif card.vram_gb and size < card.vram_gb:
            # Less than the catalog's size (a Mac bought with less memory) is the asker's; more
            # is a false premise ("my 4090 has 48 GB"), and the catalog's size stands.
            memory[name] = size
        elif _modded(text):
            memory[name] = size  # '2080ti魔改22G': more memory than sold, fitted since
        elif card.vram_gb and card.curated and not card.unified_memory:
            claims[name] = size  # a long-tail card lists one size of several; a Mac its largest
    if renamed:
        known = list(dict.fromkeys(renamed.get(k, k) for k in known))
        spans = [CardSpan(s.start, s.end, renamed.get(s.name, s.name)) for s in spans]
    first = {s.name: s.start for s in sorted(spans, key=lambda s: -s.start)}
    known.sort(key=lambda k: first.get(k, len(text)))  # in order of mention
    return known, spans, memory, claims, stated


def _modded(text: str) -> bool:
    """The message says a card was modded with more memory (concepts.toml `memory_mod`)."""
    from assistant.agent.offline.concepts import names_concept

    return names_concept("memory_mod", text)


REQUIREMENT_WINDOW = 64  # how far before a card's name, in its sentence, a requirement word sits


@lru_cache(maxsize=1)
def _requirement_words() -> re.Pattern[str]:
    return re.compile(_whole_words(role_words().requirement), re.I)


@lru_cache(maxsize=1)
def _owner_words() -> re.Pattern[str]:
    """The asker's own card: 'I have a 4070', 'my 3080', "j'ai une 4060"."""
    from assistant.agent.offline.phrases import tables

    words = [*role_words().owner, *tables()["owned_model"]["phrases"]]
    return re.compile(_whole_words(words), re.I)


def requirement_cards(text: str, spans: list[CardSpan]) -> list[str]:
    """The cards a message names as what a project asks for ('the requirements could use a
    3070', 'tested on an A100'), in order: a requirement word before the name, in its sentence
    ('minimum RTX 3090 required, I have a 4070': the asker's card comes after their own words)."""
    return _cards_after(text, spans, _requirement_words(), _owner_words())


@lru_cache(maxsize=1)
def _elsewhere_words() -> re.Pattern[str]:
    return re.compile(_whole_words(role_words().elsewhere), re.I)


def elsewhere_cards(text: str, spans: list[CardSpan]) -> list[str]:
    """The cards a message names as someone else's or as what the asker's card is compared with
    ('like my friend does on his desktop 5090', 'basically the desktop 5090'): such a word before
    every mention of the name, in its sentence, with no owner word between them ('a friend says
    the one I have, a 3090, is fine' keeps it)."""
    words, owner = _elsewhere_words(), _owner_words()
    return [
        name
        for name in dict.fromkeys(s.name for s in spans)
        if all(_cards_after(text, [s], words, owner) for s in spans if s.name == name)
    ]


@lru_cache(maxsize=1)
def _not_owner_words() -> re.Pattern[str]:
    """A requirement word, or the asker saying what they do not have ('I do not have the 8
    RTX4090 GPUs mentioned in your article')."""
    return re.compile(_whole_words([*role_words().requirement, *role_words().not_owner]), re.I)


def owned_cards(text: str, spans: list[CardSpan]) -> list[str]:
    """The cards a message names as the asker's own ('I only have a GTX 1660 Ti', 'my 3080',
    "j'ai une 4060"): an owner word before the name, in its sentence, with no requirement word
    or denial of having ('due to my limited resources, I do not have the 8 RTX4090') after it."""
    return _cards_after(text, spans, _owner_words(), _not_owner_words())


def _cards_after(
    text: str, spans: list[CardSpan], role: re.Pattern[str], other: re.Pattern[str]
) -> list[str]:
    """The cards whose sentence, before the name, says a `role` word after any `other` word."""
    found: list[str] = []
    for span in spans:
        before = fold(text[max(0, span.start - REQUIREMENT_WINDOW) : span.start])
        sentence = sentence_before(before)
        said = [m.end() for m in role.finditer(sentence)]
        against = [m.end() for m in other.finditer(sentence)]
        if said and max(said) > max(against, default=-1) and span.name not in found:
            found.append(span.name)
    return found


_SIZE = re.compile(rf"(?<![\w.,]){_MEMORY_SIZE}", re.I)


def requirement_memory(text: str) -> tuple[float, int] | None:
    """The memory a project asks for, when the message gives a size rather than a card
    ('requires at least 16GB of VRAM', 'minimum 24 Go de VRAM'), and where the size starts: the
    first size within a short span after a requirement word, in its sentence, that is neither
    the computer's RAM nor after the asker's own words ('minimum …, I have 12 GB')."""
    folded = fold_keep_length(text)
    for m in _requirement_words().finditer(folded):
        after = sentence_after(folded[m.end() : m.end() + REQUIREMENT_WINDOW])
        for size in _SIZE.finditer(after):
            if _owner_words().search(after[: size.start()]):
                break
            if not names_machine_memory(after[size.end() :]):
                return float(size.group(1).replace(",", ".")), m.end() + size.start()
    return None
