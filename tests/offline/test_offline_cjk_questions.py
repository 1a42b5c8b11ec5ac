"""Questions written in Chinese: a card's count with a measure word ('两张3090'), a card's name
with no space around it, and the words that ask whether a model runs."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.entities import extract_entities
from assistant.knowledge.matching import find_gpu_spans


def test_a_count_with_a_measure_word_is_the_number_of_cards() -> None:
    assert extract_entities("用两张3090可以跑吗").gpu_counts == {"GeForce RTX 3090": 2}
    assert extract_entities("4块A100训练").gpu_count == 4
    assert extract_entities("单张A100可以跑吗").gpu_count == 1


def test_a_card_glued_to_chinese_words_is_named_where_it_is_written() -> None:
    text = "用两张3090可以跑起来吗"
    [(card, start, end)] = find_gpu_spans(text)
    assert card.name == "GeForce RTX 3090"
    assert text[start:end] == "3090"


def test_running_or_deploying_a_model_is_a_fit_question() -> None:
    assert "fit" in concepts_in("有限的显存怎么部署72B模型")
    assert "model_task" in concepts_in("单张A100可以训练起来吗")
    assert extract_entities("单张A100可以训练起来吗").method == "finetune"


def test_two_cards_asked_in_chinese_are_sized_as_two() -> None:
    answer = ask("用两张3090可以跑起来qwen 72B int4吗？")
    [call] = [c for c in answer.tool_calls if c.name == "workload_fit"]
    assert call.arguments.get("num_gpus") == 2
