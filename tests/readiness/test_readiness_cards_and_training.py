"""Several cards and a training question: memory per card (not pooled), and the largest models
each way of fine-tuning fits."""

from __future__ import annotations

from assistant import ask
from assistant.tools.readiness import ReadinessQuery, card_readiness


def test_several_cards_do_not_pool_and_training_gets_its_largest_models() -> None:
    one = card_readiness(ReadinessQuery(gpu="RTX 3090", training=True))
    eight = card_readiness(ReadinessQuery(gpu="RTX 3090", gpu_count=8, training=True))
    assert eight.gpu_count == 8 and "do not pool" in eight.message
    assert one.largest_lora and eight.largest_lora and one.largest_full_finetune
    assert eight.largest_full_finetune is not None
    assert eight.largest_lora.params_b > one.largest_lora.params_b
    assert eight.largest_full_finetune.params_b >= one.largest_full_finetune.params_b
    plain = card_readiness(ReadinessQuery(gpu="RTX 3090"))
    assert plain.largest_lora is None and plain.largest_full_finetune is None


def test_is_my_pair_of_cards_enough_for_training() -> None:
    answer = ask("I only have 2 RTX 4090. Is it enough for training?")
    call = next(c for c in answer.tool_calls if c.name == "card_readiness")
    assert call.arguments["gpu_count"] == 2 and call.arguments["training"] is True
    assert "**Fine-tuning** (2 × 24 GB)" in answer.text
