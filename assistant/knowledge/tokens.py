"""The search's tokenizer, one for French and English: what the keyword index and the knowledge
base's question matching both count as a word.

Accents are folded ("mémoire" = "memoire"), elisions dropped ("l'heure" -> "heure"), common words of
both languages removed, and a light stemmer maps inflections of both languages onto one form
("louée", "louer", "loue" -> "lou"; "prices" -> "pric"; "battery", "batteries" -> "batteri").
"""

from __future__ import annotations

import re

from assistant.knowledge.names import fold as fold_name

_STOP_FR = [
    "a",
    "à",
    "ai",
    "aie",
    "as",
    "au",
    "aux",
    "avec",
    "avez",
    "avons",
    "ayant",
    "c",
    "ça",
    "ce",
    "ceci",
    "cela",
    "celle",
    "celles",
    "celui",
    "ces",
    "cet",
    "cette",
    "chez",
    "ci",
    "comme",
    "comment",
    "d",
    "dans",
    "de",
    "des",
    "donc",
    "dont",
    "du",
    "elle",
    "elles",
    "en",
    "entre",
    "es",
    "est",
    "et",
    "été",
    "être",
    "eu",
    "fait",
    "faire",
    "fais",
    "il",
    "ils",
    "j",
    "je",
    "l",
    "la",
    "le",
    "les",
    "leur",
    "leurs",
    "lui",
    "m",
    "ma",
    "mais",
    "me",
    "même",
    "mes",
    "moi",
    "mon",
    "n",
    "ne",
    "ni",
    "nos",
    "notre",
    "nous",
    "on",
    "ont",
    "ou",
    "où",
    "par",
    "pas",
    "peu",
    "peut",
    "peux",
    "pour",
    "pourquoi",
    "qu",
    "quand",
    "que",
    "quel",
    "quelle",
    "quelles",
    "quels",
    "qui",
    "quoi",
    "s",
    "sa",
    "sans",
    "se",
    "ses",
    "si",
    "son",
    "sont",
    "soit",
    "suis",
    "sur",
    "t",
    "ta",
    "te",
    "tes",
    "toi",
    "ton",
    "tu",
    "un",
    "une",
    "vos",
    "votre",
    "vous",
    "y",
    "serait",
    "sera",
    "ai-je",
    "est-ce",
    "puis-je",
    "dois-je",
    "faut",
    "il",
    "y",
    "a",
    "cest",
    "quest",
    "jai",
]
_STOP_EN = [
    "a",
    "about",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "for",
    "from",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "on",
    "or",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "i'm",
    "im",
    "ive",
    "i've",
    "id",
    "i'd",
    "dont",
    "don't",
    "should",
    "get",
    "got",
    "really",
    "please",
    "tell",
    "know",
    "want",
    "need",
]


def fold(text: str) -> str:
    """The name index's `fold` (lower case, no accents, plain apostrophes), ligatures spelled out."""
    return fold_name(text.replace("œ", "oe").replace("Œ", "oe").replace("æ", "ae"))


STOPWORDS = frozenset(fold(w) for w in (*_STOP_FR, *_STOP_EN))

_UNIT = re.compile(r"\b(\d+(?:[.,]\d+)?)(gb|go|gib|mb|mo|ko|kb|tb|to|w|kw|kwh|h|k)\b")
_WORD = re.compile(r"[a-z0-9]+(?:[._][a-z0-9]+)*")
_ELISION = re.compile(r"\b(?:l|d|j|qu|n|s|c|m|t|jusqu|lorsqu|puisqu)'")


def stem(word: str) -> str:
    """A light stemmer shared by French and English: inflections only, never meaning."""
    if len(word) <= 3 or any(ch.isdigit() for ch in word) or "." in word or "_" in word:
        return word
    if word.endswith("aux") and len(word) > 5:
        word = word[:-3] + "al"
    elif word[-1] in "sx" and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix, keep in (("ing", 5), ("ee", 4), ("er", 4), ("ez", 4), ("ed", 4), ("e", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep - 1:
            word = word[: -len(suffix)]
            break
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"
    return word


def raw_tokens(text: str) -> list[str]:
    """Folded words before stop-word removal and stemming (compounds like cp.async kept)."""
    text = _ELISION.sub(" ", fold(text))
    text = _UNIT.sub(r"\1 \2", text)
    return _WORD.findall(text)


def tokenize(text: str) -> list[str]:
    """Index terms of a text: folded, without common words, stemmed; compounds also split."""
    out: list[str] = []
    for word in raw_tokens(text):
        if word in STOPWORDS:
            continue
        out.append(stem(word))
        if "." in word or "_" in word:
            out.extend(stem(part) for part in re.split(r"[._]", word) if part not in STOPWORDS)
    return out
