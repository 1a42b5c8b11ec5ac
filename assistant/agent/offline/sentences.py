"""The questions a message asks, each as its own sentence, apart from the sentences around them."""

from __future__ import annotations

import re
from functools import lru_cache

from assistant.language import SENTENCE_END

MIN_CLAUSE_WORDS = 3
# a question's clause starts after a sentence's end or a colon ('Short version: can it run 70B?')
_CLAUSE_END = re.compile(rf"{SENTENCE_END.pattern}|(?<=:)\s+")
# 'which wheel runs on a 5090, and is sm_90a fine for Hopper?': two questions in one sentence
_JOINED_QUESTION = re.compile(
    r",\s*(?:and|or|et|ou)\s+(?=(?:is|are|does|do|can|could|should|will|would|what|which|how|"
    r"est-ce|peut-on|puis-je|faut-il|quel|quelle|comment)\b)",
    re.IGNORECASE,
)


# a question that opens on "or" offers the previous one's alternative
_ALTERNATIVE = re.compile(r"(?:or|ou|or else|ou bien|sinon)\b", re.IGNORECASE)


@lru_cache(maxsize=256)
def _asked(text: str) -> tuple[str, ...]:
    pieces = text.split("?")
    asked: list[str] = []
    for piece in pieces[:-1]:
        sentences = [s.strip() for s in _CLAUSE_END.split(piece) if s.strip()]
        if not sentences:
            continue
        sentence = sentences[-1]
        if asked and _ALTERNATIVE.match(sentence):
            # 'Does it fit with a 32k context? or only short context?': the same question's
            # other answer, not a question of its own
            asked[-1] = f"{asked[-1]} {sentence}?"
            continue
        if len(sentence.split()) < MIN_CLAUSE_WORDS + 1 and len(sentences) > 1:
            sentence = f"{sentences[-2]} {sentence}"
        for part in _JOINED_QUESTION.split(sentence):
            if len(part.split()) >= MIN_CLAUSE_WORDS:
                asked.append(part.strip(" ,") + "?")
    return tuple(asked)


def asked_sentences(text: str) -> list[str]:
    """The questions a message asks, each as its own sentence (the words before each question
    mark back to the previous sentence's end; a very short one keeps the sentence before it; a
    sentence that joins two questions with ", and is..." is two; "or only short context?" after a
    question is that question's alternative, not a question of its own)."""
    return list(_asked(text))
