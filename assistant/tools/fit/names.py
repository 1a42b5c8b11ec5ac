"""Reading a model name for the fit estimate: the size written in it ("32B", "8x22B", "30B-A3B"),
and whether a known model found inside a longer name is really that model.

Matching itself is the catalog's (`assistant.knowledge.model_matching.match_model`); this module only
refuses a match that would answer for a different model, and reads a size for a generic one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from assistant.knowledge.loader import read_toml_table
from assistant.knowledge.models import MODELS_FILE, ModelSpec, load_memory_rules

# "8x22B" (experts x size), "30B-A3B" / "235B A22B" (total and active), "32B", "1.5b"
_EXPERTS = re.compile(r"(?<![\w.])(\d{1,3})\s*[x×]\s*(\d+(?:[.,]\d+)?)\s*b\b", re.I)
_ACTIVE = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*b[\s_-]*a(\d+(?:[.,]\d+)?)\s*b\b", re.I)
_SIZE = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(?:b|bn)\b", re.I)
_WORD = re.compile(r"[a-z0-9.]+", re.I)
_GLUED = re.compile(r"^[-_.:/][A-Za-z0-9]")


@dataclass(frozen=True)
class NameSize:
    """A parameter count read from a model name, and how it was read."""

    total_b: float
    active_b: float | None
    how: str


def _num(text: str) -> float:
    return float(text.replace(",", "."))


def read_size(name: str) -> NameSize | None:
    """The size a model name states: '8x22B' (8 experts of 22B: at most 176B, since experts share
    attention and embeddings), '30B-A3B' (30B total, 3B active), '32B'; None when it states none."""
    m = _ACTIVE.search(name)
    if m:
        total, active = _num(m.group(1)), _num(m.group(2))
        return NameSize(total, active, f"'{m.group(0)}': {total:g}B in all, {active:g}B active")
    m = _EXPERTS.search(name)
    if m:
        n, each = int(m.group(1)), _num(m.group(2))
        return NameSize(
            n * each,
            None,
            f"'{m.group(0)}': {n} experts of {each:g}B, at most {n * each:g}B in all "
            "(real mixtures share attention and embeddings, so slightly less)",
        )
    m = _SIZE.search(name)
    if m and _num(m.group(1)) > 0:
        return NameSize(_num(m.group(1)), None, f"'{m.group(0)}'")
    return None


@lru_cache(maxsize=1)
def _word_lists() -> tuple[frozenset[str], frozenset[str]]:
    rules = read_toml_table(MODELS_FILE).get("name_rules", {})
    same = frozenset(w.lower() for w in rules.get("same_model_words", []))
    other = frozenset(w.lower() for w in rules.get("other_model_words", []))
    return same, other


def _harmless(word: str, spec: ModelSpec) -> bool:
    """A word that may sit beside a model's name without changing which model it is."""
    same, other = _word_lists()
    w = word.lower().strip(".")
    if not w or w in same:
        return True
    if w in other:
        return False
    if load_memory_rules().format(w) is not None:
        return True
    size = _SIZE.fullmatch(w)
    if size:
        return abs(_num(size.group(1)) - spec.params_b) <= 0.2 * spec.params_b
    return bool(re.fullmatch(r"v?\d{4}|v\d+(\.\d+)*", w))  # release tags: 2407, 0324, v0.3


def other_model(text: str, spec: ModelSpec, matched: str | None) -> str | None:
    """Why `text` names a different model than `spec`, found inside it as `matched`; None when
    nothing around the match changes the model. Only what is glued to the match (the same
    hyphenated name) and the word right after it are read, so a whole question still resolves."""
    if not matched:
        return None
    start = text.lower().find(matched.lower())
    if start < 0:
        return None
    after = text[start + len(matched) :]
    before = text[:start]
    glued_after = re.match(r"^(?:[-_.:/][A-Za-z0-9.]+)+", after)
    glued_before = re.search(r"(?:[A-Za-z0-9.]+[-_:/])+$", before)
    words: list[str] = []
    if glued_after:
        words += _WORD.findall(glued_after.group(0))
    if glued_before:
        words += _WORD.findall(glued_before.group(0))
    rest = after[glued_after.end() :] if glued_after else after
    following = _WORD.findall(rest)[:1]
    for word in words:
        if not _harmless(word, spec):
            return f"'{word}' in the name"
    same, other = _word_lists()
    for word in following:
        w = word.lower()
        if w in other:
            return f"'{word}' after '{matched}'"
        size = _SIZE.fullmatch(w) or _EXPERTS.fullmatch(w)
        if size and not _harmless(w, spec):
            return f"the size '{word}'"
        if re.fullmatch(r"\d+(\.\d+)?", w) and not re.fullmatch(r"\d{4}", w):
            return f"the version '{word}'"
    return None
