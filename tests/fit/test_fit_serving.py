"""How many requests a card serves at once: the KV cache grows with each, the prefill workspace
does not (a server computes one prompt chunk per step for the whole batch)."""

from __future__ import annotations

from assistant.tools.fit.api import estimate_fit
from assistant.tools.fit.models import FitQuery


def _activations(batch: int) -> float:
    r = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="bf16", gpu="RTX 4090",
                              context_tokens=1500, batch_size=batch))  # fmt: skip
    return next(line.gb for line in r.breakdown if line.item == "activations")


def test_the_prefill_workspace_does_not_grow_with_the_batch() -> None:
    assert _activations(2) == _activations(20) > 0


def test_an_8b_in_bf16_on_24_gb_serves_about_thirty_conversations_of_1500_tokens() -> None:
    """About 5 GB left beside 15 GB of weights, about 0.2 GB of KV cache per 1,500 tokens."""
    r = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="bf16", gpu="RTX 4090",
                              context_tokens=1500))  # fmt: skip
    assert r.max_sequences is not None and 20 <= r.max_sequences <= 35
