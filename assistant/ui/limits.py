"""Edge limits shared by the interfaces: a per-key token bucket and the message-length check.

The buckets live in the process that serves the request. They hold no conversation, so
any replica can answer any user; behind several replicas each one limits on its own.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

RATE_TEXT = {
    "en": "You are sending messages faster than I can answer them. Please wait {seconds} s and ask again.",
    "fr": "Vous envoyez des messages plus vite que je ne peux y répondre. Attendez {seconds} s puis reposez votre question.",
}
LENGTH_TEXT = {
    "en": "Your message is {length:,} characters long; the limit is {limit:,}. Please shorten it and ask again.",
    "fr": "Votre message fait {length:,} caractères ; la limite est de {limit:,}. Raccourcissez-le et reposez votre question.",
}
EMPTY_TEXT = {
    "en": "Please type a question, for example: “Can my RTX 4090 do megakernels?”",
    "fr": "Écrivez une question, par exemple : « Quelles fonctionnalités a ma RTX 5090 ? »",
}
ERROR_TEXT = {
    "en": "Sorry — something went wrong while answering. Please try again in a moment.",
    "fr": "Désolé — un problème est survenu pendant la réponse. Réessayez dans un instant.",
}


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Allows `per_minute` messages per key, with bursts up to `burst` (default: `per_minute`)."""

    def __init__(
        self,
        per_minute: int,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 10_000,
    ) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self.rate = per_minute / 60.0
        self.capacity = float(burst if burst is not None else per_minute)
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def acquire(self, key: str) -> float:
        """Take one token for `key`: 0.0 when allowed, else the seconds to wait for the next one."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.pop(key, None) or _Bucket(self.capacity, now)
            bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.updated) * self.rate)
            bucket.updated = now
            self._buckets[key] = bucket
            while len(self._buckets) > self._max_keys:
                self._buckets.popitem(last=False)  # forget the least recently seen key
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.rate


def rate_message(wait_s: float, language: str = "en") -> str:
    """The polite refusal for a sender who must wait `wait_s` seconds."""
    return RATE_TEXT.get(language, RATE_TEXT["en"]).format(seconds=max(1, round(wait_s + 0.49)))


def length_message(length: int, limit: int, language: str = "en") -> str:
    """The polite refusal for a message of `length` characters over `limit`."""
    text = LENGTH_TEXT.get(language, LENGTH_TEXT["en"]).format(length=length, limit=limit)
    return text.replace(",", " ") if language == "fr" else text


def guess_language(text: str) -> str:
    """The language to answer an edge message in (the agent's own detector, cheap)."""
    try:
        from assistant.language import detect_language

        return detect_language(text[:2000]) or "en"
    except Exception:  # an edge message must never fail
        return "en"
