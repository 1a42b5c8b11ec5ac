"""How a GPU name is normalised for the name index: tokens, the words that do not count, a card
count ("8x A100"), the laptop reading ("my laptop's 4060") and the parts that near-name
suggestions compare (family, model number, variant). The vocabulary is in data/gpu_names.toml."""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, Field

from assistant.knowledge.names import edit_distance, fold

NAMES_FILE = "gpu_names.toml"
LAPTOP = "laptop"


class GpuVocabulary(BaseModel):
    """The words of data/gpu_names.toml."""

    filler: frozenset[str]
    variant_words: frozenset[str]
    laptop_words: frozenset[str] = Field(min_length=1)
    glued_suffixes: tuple[str, ...]


@cache
def vocabulary() -> GpuVocabulary:
    """The packaged GPU-name vocabulary (read once)."""
    from assistant.knowledge.loader import read_toml_table

    return GpuVocabulary.model_validate(read_toml_table(NAMES_FILE))


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


def tokens(text: str) -> list[str]:
    """Fold, French 'Go' → 'gb', 'rtx4090' → 'rtx 4090', '12 GB' → '12gb', laptop words →
    'laptop', punctuation out."""
    s = fold(text)
    s = re.sub(r"\b(\d{1,3})\s*(go|gib|gb|g)\b", r"\1gb", s)  # 12 Go, 24 GB, 80G → 12gb
    s = re.sub(r"\b(?:[ldjnsc]|qu)'(?=[a-z0-9])", "", s)  # French elision: l'A100 → A100
    s = re.sub(r"[™®©]", " ", s)
    s = re.sub(r"[^a-z0-9.'+\- ]+", " ", s)
    s = s.replace("-", " ")  # driver names: "A100-SXM4-80GB", "P100-PCIE-16GB"
    s = re.sub(r"\b(rtx|gtx|rx|gt)(?=\d)", r"\1 ", s)
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
    return out


def core_tokens(text: str) -> list[str]:
    """Tokens without the words that do not name a card."""
    filler = vocabulary().filler
    return [t for t in tokens(text) if t not in filler]


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
