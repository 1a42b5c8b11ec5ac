"""English or French? Word, accent and stopword cues that hold up on very short messages."""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["en", "fr"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[a-zàâäçéèêëîïôöûùüÿœæ']+", re.IGNORECASE)

# Words that are (almost) only ever French or only ever English. Words shared by both
# languages ("a", "on", "six", "question", "instance", "service") are left out on purpose.
_FRENCH = _words(
    """
    le la les des du de un une et en est sont ou où au aux avec pour par sur dans sans chez
    je tu il elle nous vous ils elles mon ma mes ton ta tes son sa ses notre votre leur
    ce cet cette ces ça cela qui que quoi quel quelle quels quelles combien comment pourquoi
    quand puis peux peut pouvez dois doit faut faire fait coûte coute coûtent coutent
    louer location loue acheter achat achète occasion neuf neuve carte cartes heures heure
    jours jour semaine semaines mois ans année pas plus moins très trop aussi
    mais donc alors si bien mieux entre contre vers quelques beaucoup autre autres
    oublié oubliée oublie éteindre laisser stockage disque mémoire partagée vaut suffit
    suffisant bonjour salut merci aide parle parles réponds oublie précédentes
    entraîner entraînement modèle modèles apprendre programmation partie parties
    d'un d'une l'achat l'heure qu'est-ce c'est j'ai n'est
    """
)
_ENGLISH = _words(
    """
    the is are was were be been what which who whom whose how much many why when where
    can could should would will does do did my your our their his her its this that these those
    for with from into about than then there here and or but not no yes if of to at by it
    i you we they me us them rent renting rented buy buying bought used new card cards hours
    hour days day week weeks month months year years per cost costs price prices cheap cheaper
    cheapest worth enough need needs want run running train training learn learning part parts
    hello hi thanks thank please help previous forgot forgotten left leave
    storage disk memory shared compare versus better best should support supports fit fits
    weekend spend spending get got have has any some each every also only just
    """
)
STOPWORDS = _FRENCH | _ENGLISH
# Grammar words only: a sentence holding one of these is not French, whatever its technical terms.
ENGLISH_FUNCTION_WORDS = _words(
    """
    the is are was were be been of to and or with for from which that this these those has have had
    only not no on in at by it its can could would should when where what how than then there per
    into about also but if your you we they their will does do did an any every each such none
    give given assumed used see
    """
)
_ACCENTS = re.compile(r"[àâçéèêëîïôûùœ]", re.IGNORECASE)
_FRENCH_PATTERNS = re.compile(
    r"\b(?:qu'|c'est|j'ai|l'|d'|n'|s'|est-ce|y a-t-il|puis-je|peut-on|dois-je|\d+\s?(?:€|eur)\b|\d+\s?go\b|\d+\s?ko\b)",
    re.IGNORECASE,
)


def language_scores(text: str) -> tuple[float, float]:
    """(French score, English score) from stopwords, accents and French elisions."""
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    fr = sum(1.0 for w in words if w in _FRENCH)
    en = sum(1.0 for w in words if w in _ENGLISH)
    fr += 0.75 * len(_ACCENTS.findall(text))
    fr += 1.0 * len(_FRENCH_PATTERNS.findall(text))
    return fr, en


def english_function_words(text: str) -> int:
    """How many English grammar words `text` holds."""
    return sum(1 for w in _WORD.findall(text) if w.lower() in ENGLISH_FUNCTION_WORDS)


# A pasted error, from its name to the end of its line ("torch.OutOfMemoryError: CUDA out of
# memory...", "Traceback (most recent call last):"): the program's words, not the asker's.
_PASTED_ERROR = re.compile(
    r"\b[\w.]*(?:Error|Exception|Traceback|Warning)\b[^\n]*|```.*?```", re.DOTALL
)


def pasted_error_spans(text: str) -> list[tuple[int, int]]:
    """Where a message quotes a program's error (its name to the end of the line, or a fenced
    block): the program's words, not the asker's."""
    return [m.span() for m in _PASTED_ERROR.finditer(text)]


# Letters French does not use (Vietnamese, Polish, Spanish, German... and every non-Latin
# script): a message written with them is in neither language served, and is answered in English.
# Where a sentence ends: after '.', '!', '?' or ';' and a space ('3.5 GB' and '$1.20' go on, and
# so does a text cut right after '3.'), after a CJK full stop, question or exclamation mark
# ('2080ti，那个更快？' needs no space), or at a line break. The mark stays with its sentence.
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[\u3002\uff1f\uff01\uff1b])\s*|\n\s*")


def sentences(text: str) -> list[str]:
    """The sentences of `text`, in order, each with its closing mark."""
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def sentence_start(text: str, pos: int) -> int:
    """Where the sentence that holds `pos` starts."""
    return max((m.end() for m in SENTENCE_END.finditer(text, 0, pos)), default=0)


def sentence_before(text: str) -> str:
    """The end of `text` that belongs to its last sentence (what comes before a word, in its own
    sentence)."""
    return text[sentence_start(text, len(text)) :]


def sentence_after(text: str) -> str:
    """The start of `text` up to the end of its first sentence."""
    end = SENTENCE_END.search(text)
    return text if end is None else text[: end.start()]


_FRENCH_LETTERS = frozenset("àâäçéèêëîïôöûùüÿœæ")
_UNIT_LETTERS = frozenset("\u00b5\u03bc")  # micro ('500 µs'), in any language
OTHER_LANGUAGE_LETTERS = 2


def other_language(text: str) -> bool:
    """Whether `text` is written in a language other than English or French (by its letters)."""
    others = sum(
        1
        for c in text
        if c.isalpha() and ord(c) > 127 and c.lower() not in _FRENCH_LETTERS | _UNIT_LETTERS
    )
    return others >= OTHER_LANGUAGE_LETTERS


# Scripts written without spaces (Chinese, Japanese, Korean) and their full-width forms.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"[{_CJK}]")


def has_cjk(text: str) -> bool:
    """Whether the text holds Chinese, Japanese or Korean characters: scripts that put no space
    between words, so their words are found inside a run of characters ('40G内存可以')."""
    return bool(_CJK_CHAR.search(text))


_SCRIPT_EDGE = re.compile(rf"(?<=[{_CJK}])(?=[A-Za-z0-9$€])|(?<=[A-Za-z0-9%])(?=[{_CJK}])")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def separate_scripts(text: str) -> str:
    """Latin words and figures set apart from the CJK text around them, with full-width
    punctuation and digits in their ASCII form: '我的RTX 3060能跑Qwen2.5 14B吗？' reads as
    '我的 RTX 3060 能跑 Qwen2.5 14B 吗?'. Other text is unchanged."""
    return _SCRIPT_EDGE.sub(" ", text.translate(_FULL_WIDTH))


# The share of a message's letters that must be in one of these scripts for it to be written in
# that language (a Chinese question quoting an English error is still Chinese).
SCRIPT_SHARE = 0.1
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def cjk_language(text: str) -> Literal["zh", "ja", "ko"] | None:
    """Chinese, Japanese or Korean, when the message is written in one of them (by its script:
    Hangul is Korean, kana Japanese, Han characters alone Chinese); None otherwise."""
    text = _PASTED_ERROR.sub(" ", text)
    letters = sum(1 for c in text if c.isalpha())
    hangul, kana, han = (len(p.findall(text)) for p in (_HANGUL, _KANA, _HAN))
    if not letters or (hangul + kana + han) / letters < SCRIPT_SHARE:
        return None
    if hangul >= max(kana, 1):
        return "ko"
    return "ja" if kana else "zh"


PASTED_LOG_LINES = 3  # lines a message needs for its first and last to frame a pasted log


def detect_language(text: str, default: Lang = "en") -> Lang:
    """The language of `text`: "fr" or "en"; `default` when there is no cue at all. Pasted error
    messages are left out when the asker's own words give a cue. A message in another language
    gets English, the more widely read of the two."""
    own = _PASTED_ERROR.sub(" ", text)
    if other_language(own):
        return "en"
    lines = [line for line in text.splitlines() if line.strip()]
    if own != text and len(lines) >= PASTED_LOG_LINES:
        # a pasted log sits between the asker's own first and last lines ('ComfyUI me sort ça :
        # … log … j'ai fait une bêtise ?'), its lines not all named as an error
        fr, en = language_scores(_PASTED_ERROR.sub(" ", lines[0] + "\n" + lines[-1]))
        if fr != en:
            return "fr" if fr > en else "en"
    fr, en = language_scores(own)
    if fr == en == 0:
        fr, en = language_scores(text)
    if fr == en:
        return default
    return "fr" if fr > en else "en"
