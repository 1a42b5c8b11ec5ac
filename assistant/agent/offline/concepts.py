"""The concept vocabulary (concepts.toml): which concepts a question names, by their terms."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources

from assistant.knowledge.names import fold, fold_keep_length
from assistant.language import has_cjk


def _concepts_file() -> str:
    return resources.files("assistant.agent.offline").joinpath("concepts.toml").read_text("utf-8")


@lru_cache(maxsize=1)
def concept_patterns() -> dict[str, re.Pattern[str]]:
    """concept id → one pattern over its English and French terms (folded)."""
    out = {}
    for concept, table in tomllib.loads(_concepts_file()).items():
        terms = [fold(t) for lang in ("en", "fr") for t in table.get(lang, [])]
        terms += _names_from(table.get("names_from"))
        parts = [
            r"(?<!\w)"
            + re.escape(t.rstrip("*")).replace(r"\ \*\ ", r"\s+\S+\s+")
            + (r"\w*" if t.endswith("*") else r"(?!\w)")
            for t in sorted(terms, key=len, reverse=True)
        ] + [_bounded(fold(p)) for p in table.get("patterns", [])]
        out[concept] = re.compile("|".join(parts), re.IGNORECASE)
    return out


@lru_cache(maxsize=1)
def router_concepts() -> frozenset[str]:
    """The concepts the router reads: all but those marked `router = false`, which qualify a
    question (the machine runs macOS) without saying which tool answers it."""
    return frozenset(
        concept
        for concept, table in tomllib.loads(_concepts_file()).items()
        if table.get("router", True)
    )


def _names_from(data: str | None) -> list[str]:
    """Terms a concept takes from a data file instead of listing them: "programs", the names of
    the programs whose GPU support the software tool checks."""
    if data is None:
        return []
    if data != "programs":
        raise ValueError(f"concepts.toml: unknown names_from {data!r}")
    from assistant.knowledge.programs import program_names

    return program_names()


def vocabulary_text() -> str:
    """The vocabulary as text: concepts.toml and the names it takes from data (what the router
    was fitted on; a change in either makes it stale)."""
    from assistant.knowledge.programs import program_names

    return _concepts_file() + "\n# names_from programs: " + " | ".join(program_names())


def _bounded(pattern: str) -> str:
    """A pattern matched as whole words; Chinese, Japanese or Korean text has no spaces between
    words, so a pattern written in it matches anywhere."""
    if has_cjk(pattern):
        return f"(?:{pattern})"
    # a Chinese, Japanese or Korean character next to a Latin word is a boundary too ('有人试过
    # 2080ti 22g'): only Latin letters and digits glued to the term make it another word
    return f"(?<![^\\W{_CJK}])(?:{pattern})(?![^\\W{_CJK}])"


_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"


@lru_cache(maxsize=1024)
def _named(text: str) -> frozenset[str]:
    """The concepts a text names, once per text (a turn asks again for the same sentences)."""
    folded = fold(text)
    return frozenset(c for c, pattern in concept_patterns().items() if pattern.search(folded))


def concepts_in(text: str) -> set[str]:
    """The concepts a question names."""
    return set(_named(text))


def names_concept(concept: str, text: str) -> bool:
    """Whether the text names one concept."""
    if concept not in concept_patterns():
        raise KeyError(concept)
    return concept in _named(text)


def concept_starts(concept: str, text: str) -> list[int]:
    """Where in the text (offsets into it as written) each term of a concept starts: "buy a 3090
    or rent an A100" → the buying word's offset, for the card named after it."""
    pattern = concept_patterns()[concept]
    return [m.start() for m in pattern.finditer(fold_keep_length(text))]


FAILURE_CONCEPTS = frozenset({"error", "slow_report", "out_of_memory"})


def reports_failure(text: str) -> bool:
    """The question reports a failure: an error, a crash, a freeze, a run far slower than expected."""
    return bool(FAILURE_CONCEPTS & concepts_in(text))
