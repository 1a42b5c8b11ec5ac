"""The per-key token bucket and the polite edge messages."""

from __future__ import annotations

import pytest

from assistant.ui.limits import RateLimiter, guess_language, length_message, rate_message


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_the_burst_then_refills_at_the_rate():
    clock = Clock()
    limiter = RateLimiter(per_minute=6, clock=clock)
    assert [limiter.acquire("a") for _ in range(6)] == [0.0] * 6
    assert limiter.acquire("a") == pytest.approx(10.0)  # one token every 10 s
    assert limiter.acquire("b") == 0.0  # other users are not affected
    clock.now += 10.0
    assert limiter.acquire("a") == 0.0
    assert limiter.acquire("a") == pytest.approx(10.0)


def test_bucket_forgets_old_keys_beyond_its_size():
    clock = Clock()
    limiter = RateLimiter(per_minute=1, clock=clock, max_keys=2)
    assert limiter.acquire("a") == 0.0
    assert limiter.acquire("b") == 0.0
    assert limiter.acquire("c") == 0.0
    assert len(limiter._buckets) == 2
    assert limiter.acquire("a") == 0.0  # "a" was forgotten: a fresh bucket


def test_bad_rate_is_refused():
    with pytest.raises(ValueError):
        RateLimiter(per_minute=0)


def test_messages_in_both_languages():
    assert rate_message(9.2, "en") == (
        "You are sending messages faster than I can answer them. Please wait 10 s and ask again."
    )
    assert rate_message(0.1, "fr").startswith("Vous envoyez des messages plus vite")
    assert "Attendez 1 s" in rate_message(0.1, "fr")
    assert length_message(100_000, 4000, "en") == (
        "Your message is 100,000 characters long; the limit is 4,000. Please shorten it and ask again."
    )
    assert length_message(100_000, 4000, "fr").startswith("Votre message fait 100 000 caractères")
    assert guess_language("Quelles fonctionnalités a ma RTX 5090 ?") == "fr"
    assert guess_language("Will Llama 3 70B fit in 24 GB?") == "en"
