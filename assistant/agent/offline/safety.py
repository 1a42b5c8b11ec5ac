"""Prompt injection: spot it in a question or a passage, and keep only the text worth reading.

The offline backend never follows instructions found in text; this module lets it say so, drop
the injected sentence before reading the rest of the question, and skip poisoned passages.
"""

from __future__ import annotations

import re

from assistant.language import sentences

_INJECTION = re.compile(
    r"(?:\b(?:ignore|ignorez|ignores|disregard|forget|override|bypass|oublie|oubliez|oublies|outrepasse)\b"
    r"[^.!?\n]{0,40}\b(?:instructions?|rules?|guidelines|prompt|consignes?|règles?|directives?|system)\b"
    r"|\b(?:reveal|show|print|display|repeat|leak|dump|affiche|montre|révèle|donne)\b[^.!?\n]{0,30}"
    r"\b(?:system prompt|prompt système|hidden prompt|your prompt|ton prompt|tes instructions|your instructions"
    r"|vos instructions)\b"
    r"|\b(?:you are now|from now on you are|act as|pretend (?:to be|you are)|tu es maintenant|désormais tu es"
    r"|fais comme si|jailbreak|developer mode|mode développeur|DAN)\b"
    r"|\b(?:just confirm|confirme simplement|dis que|answer only|réponds uniquement)\b"
    # "Say that …" as an order, not "some people say that …".
    r"|(?:^|[.!?:]\s+|\b(?:please|just)\s+)say\s+that\b"
    # A follow-on order to say something ("... Then say the 4090 has 80 GB").
    r"|^\s*(?:then|and then|now|also|puis|ensuite|maintenant)\s+"
    r"(?:say|write|print|respond|reply|dis|écris|réponds)\b)",
    re.IGNORECASE | re.MULTILINE,
)


def has_injection(text: str) -> bool:
    """Whether `text` tries to give the assistant instructions."""
    return bool(_INJECTION.search(text))


def strip_injection(text: str) -> str:
    """`text` without its sentences that carry instructions (what is left may still be a question)."""
    kept = [s for s in sentences(text) if not _INJECTION.search(s)]
    return " ".join(s.strip() for s in kept).strip()


def passage_is_safe(text: str) -> bool:
    """A passage may be quoted unless it holds instructions aimed at the assistant."""
    return not has_injection(text)
