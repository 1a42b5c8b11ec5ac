"""Many callers at once share one agent: same answers as one at a time, no errors."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.agent.api import ask

pytestmark = pytest.mark.slow  # the real offline backend

QUESTIONS = [
    "Can an RTX 3060 run FP8?",
    "Combien coûte une H100 pendant 100 heures ?",
    "Tell me about the RTX 9090",
    "What does 500 GB of storage cost for a month?",
]


def _key(answer):
    return (
        answer.text,
        [(c.name, c.arguments) for c in answer.tool_calls],
        answer.notices,
        answer.backend,
    )


def test_parallel_asks_match_sequential_ones() -> None:
    sequential = [_key(ask(q)) for q in QUESTIONS]
    with ThreadPoolExecutor(8) as pool:
        parallel = [_key(a) for a in pool.map(ask, QUESTIONS * 4)]
    assert parallel == sequential * 4
    assert all(backend == "offline" and notices == [] for _, _, notices, backend in parallel)
