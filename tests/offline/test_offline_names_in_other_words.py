"""Card names inside other words and other scripts: a model's name glued to a card's ('bge-m3'),
a bare model number with one card of that name ('la B60'), Chinese and Japanese laptop words, and
Chinese system memory (内存) that is not the card's (显存)."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities
from assistant.language import separate_scripts


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Can I put bge-m3 + a reranker on one L4?", ["L4"]),
        ("MacBook-M3 with 16GB", ["Apple M3"]),
        ("NVIDIA-A100 or Tesla-T4?", ["A100 80GB SXM4", "T4"]),
        ("RTX3090/RTX4090", ["GeForce RTX 3090", "GeForce RTX 4090"]),
        ("2x4090 or 8xH100", ["GeForce RTX 4090", "H100 SXM5 80GB"]),
    ],
)
def test_a_name_glued_to_another_word_is_no_card(text: str, cards: list[str]) -> None:
    assert extract_entities(text).gpus == cards


def test_a_bare_model_number_with_one_card_of_that_name() -> None:
    ent = extract_entities("Si la B60 tire 200 W et une 4090 450 W")
    assert ent.gpus[0] == "Arc Pro B60" and not ent.unknown_gpus
    # near names that both end that way are no pick ('the A60 or the B60?' names two cards)
    assert extract_entities("the A60 or the B60?").gpus == ["Arc Pro A60", "Arc Pro B60"]


def test_chinese_and_japanese_laptop_words_name_the_laptop_chip() -> None:
    zh = extract_entities(separate_scripts("笔记本电脑上的RTX3060,16G显存能跑的了1个batch吗?"))
    assert zh.gpus == ["GeForce RTX 3060 Mobile"]
    ja = extract_entities(separate_scripts("ノートパソコンのRTX 4060で動きますか"))
    assert ja.gpus == ["GeForce RTX 4060 Laptop GPU"]


def test_chinese_system_memory_is_not_the_cards() -> None:
    for text in ("1650显卡 40G内存可以跑起来Baichuan-13B-chat吗？", "我有40G内存，能跑13B吗"):
        assert extract_entities(separate_scripts(text)).vram_gb is None
    assert extract_entities(separate_scripts("我有24G显存，能跑13B吗")).vram_gb == 24
