"""How a GPU name is normalised for the name index: tokens, the words that do not count, a card
count ("8x A100"), the laptop reading ("my laptop's 4060") and the parts that near-name
suggestions compare (family, model number, variant). The vocabulary is in data/gpu_names.toml."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from assistant.knowledge.names import edit_distance, fold
from assistant.language import has_cjk

NAMES_FILE = "gpu_names.toml"
LAPTOP = "laptop"


@dataclass(frozen=True)
class GpuVocabulary:
    """The words of data/gpu_names.toml (a plain dataclass: read on every command, kept light)."""

    filler: frozenset[str]
    variant_words: frozenset[str]
    laptop_words: frozenset[str]
    glued_suffixes: tuple[str, ...]
    vendor_words: dict[str, frozenset[str]]
    machine_lines: frozenset[tuple[str, str]] = frozenset()  # word pairs: ("macbook", "pro")
    school_before: tuple[str, ...] = ()  # "en M1": a university year, not an Apple chip
    school_after: tuple[str, ...] = ()  # "M1 IA"


@cache
def vocabulary() -> GpuVocabulary:
    """The packaged GPU-name vocabulary (read once; a missing or empty list is an error)."""
    from assistant.knowledge.loader import DataFileError, read_toml_table

    raw = read_toml_table(NAMES_FILE)
    try:
        vocab = GpuVocabulary(
            filler=frozenset(raw["filler"]),
            variant_words=frozenset(raw["variant_words"]),
            laptop_words=frozenset(raw["laptop_words"]),
            glued_suffixes=tuple(raw["glued_suffixes"]),
            vendor_words={v: frozenset(w) for v, w in raw.get("vendor_words", {}).items()},
            machine_lines=frozenset(_pair(line) for line in raw.get("machine_lines", [])),
            school_before=tuple(raw.get("school_year", {}).get("before", [])),
            school_after=tuple(raw.get("school_year", {}).get("after", [])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"{NAMES_FILE}: missing or malformed list {exc}") from exc
    if not (vocab.filler and vocab.laptop_words and vocab.glued_suffixes):
        raise DataFileError(f"{NAMES_FILE}: an empty word list")
    return vocab


def _pair(line: str) -> tuple[str, str]:
    """A two-word machine line ("macbook pro") as a word pair; any other length is an error."""
    first, second = line.split()
    return first, second


@cache
def _glued_re() -> re.Pattern[str]:
    alts = "|".join(sorted(vocabulary().glued_suffixes, key=len, reverse=True))
    return re.compile(rf"(?<=\d)({alts})\b")


_COUNT = re.compile(r"^\s*(\d{1,2})\s*[x×*]\s*(?=\S)", re.I)
_COUNT_AFTER = re.compile(r"\s+[x×*]\s*(\d{1,2})\s*$", re.I)


def split_count(text: str) -> tuple[int, str]:
    """'8x A100' / '8 × H100' / 'A100 x8' → (8, 'A100'); anything else → (1, text)."""
    m = _COUNT.match(text)
    if m and int(m.group(1)) >= 1:
        return int(m.group(1)), text[m.end() :]
    m = _COUNT_AFTER.search(text)
    if m and int(m.group(1)) >= 1:
        return int(m.group(1)), text[: m.start()]
    return 1, text


_MEM = re.compile(r"\b(\d{1,3})\s*(go|gib|gb|g)\b")
_ELISION = re.compile(r"\b(?:[ldjnsc]|qu)'(?=[a-z0-9])")
_PUNCT = re.compile(r"[^a-z0-9.'+\- ]+")
_FAMILY_GLUED = re.compile(r"\b(rtx|gtx|rx|gt|amd|nvidia|radeon|geforce|arc)(?=\d)")


def tokens(text: str) -> list[str]:
    """Fold, French 'Go' → 'gb', 'rtx4090' → 'rtx 4090', '12 GB' → '12gb', laptop words →
    'laptop', punctuation out."""
    return list(_tokens(text))


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    s = fold(text)
    if has_cjk(s):  # '笔记本电脑上的': these scripts put no space after a word
        s = _cjk_laptop_re().sub(f" {LAPTOP} ", s)
    s = _MEM.sub(r"\1gb", s)  # 12 Go, 24 GB, 80G → 12gb
    s = _ELISION.sub("", s)  # French elision: l'A100 → A100
    s = _PUNCT.sub(" ", s)  # ™ ® © and other punctuation
    s = s.replace("-", " ")  # driver names: "A100-SXM4-80GB", "P100-PCIE-16GB"
    s = _FAMILY_GLUED.sub(r"\1 ", s)
    s = _glued_re().sub(r" \1", s)  # 4070ti → 4070 ti, 7900xtx → 7900 xtx
    laptop = vocabulary().laptop_words
    out = []
    for tok in s.split():
        tok = tok.strip(".'-+")
        if tok.endswith("'s"):
            tok = tok[:-2]
        if tok in laptop:
            tok = LAPTOP
        if tok:
            out.append(tok)
    return tuple(out)


@cache
def _cjk_laptop_re() -> re.Pattern[str]:
    """The Chinese and Japanese laptop words, found inside a run of those scripts."""
    cjk = {fold(w) for w in vocabulary().laptop_words if has_cjk(w)}
    words = sorted(cjk, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words)) or r"(?!)")


def vendor_hint(toks: list[str]) -> str | None:
    """The maker a name's words point to ('tesla m4' → 'nvidia'), None if none or several."""
    found = vendors_named(toks)
    return next(iter(found)) if len(found) == 1 else None


def vendors_named(toks: list[str]) -> frozenset[str]:
    """Every maker the words point to ('an AMD eGPU on an Intel MacBook': amd, intel, apple)."""
    return frozenset(v for v, words in vocabulary().vendor_words.items() if words & set(toks))


def core_tokens(text: str) -> list[str]:
    """Tokens without the words that do not name a card."""
    return list(_core_tokens(text))


@lru_cache(maxsize=8192)
def _core_tokens(text: str) -> tuple[str, ...]:
    filler = vocabulary().filler
    return tuple(t for t in _tokens(text) if t not in filler)


def normalize(text: str) -> str:
    """The normalised spelling of a name (all tokens, filler kept)."""
    return " ".join(tokens(text))


def key(toks: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The index key of a token list: order does not matter ('H100 80GB SXM' = 'H100 SXM 80GB')."""
    return tuple(sorted(toks))


_MODEL = re.compile(r"^([a-z]*)(\d+)([a-z]*)$")


def parts(toks: list[str] | tuple[str, ...]) -> tuple[str, str, tuple[str, ...]] | None:
    """(family, model number, variant) of a name's core tokens, for near-name distances:
    'gtx 1080 ti' → ('gtx', '1080', ('ti',)); 'mi300x' → ('mi', '300', ('x',)). None without a
    model number."""
    best: tuple[int, int, re.Match[str]] | None = None
    for i, tok in enumerate(toks):
        m = _MODEL.match(tok)
        if (
            m
            and not tok.endswith("gb")
            and (best is None or len(m.group(2)) > len(best[2].group(2)))
        ):
            best = (i, len(m.group(2)), m)  # the longest number is the model number
    if best is None:
        return None
    i, _, m = best
    family = " ".join([*toks[:i], m.group(1)]).strip()
    variant = tuple(t for t in (m.group(3), *toks[i + 1 :]) if t)
    return family, m.group(2), variant


def distance(
    a: tuple[str, str, tuple[str, ...]], b: tuple[str, str, tuple[str, ...]], cap: int = 3
) -> int:
    """How far two names are: number edits, plus one for another family, plus variant edits."""
    d = edit_distance(a[1], b[1], cap)
    if d > cap:
        return d
    d += 0 if a[0] == b[0] else 1
    return d + edit_distance(a[2], b[2], cap)
