"""Card names inside other words and other scripts: a model's name glued to a card's ('bge-m3'),
a bare model number with one card of that name ('la B60'), Chinese and Japanese laptop words,
Chinese system memory (内存) that is not the card's (显存); instances named side by side, a count of
GPUs asked about, and "or …?" after a question."""

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


def test_instances_weighed_side_by_side_are_each_looked_up() -> None:
    from assistant import ask

    answer = ask(
        "g4dn.xlarge vs g5.xlarge vs g6.xlarge - what GPU is in each and whats the on-demand price?"
    )
    looked_up = [c.arguments.get("instance") for c in answer.tool_calls]
    assert looked_up[:3] == ["g4dn.xlarge", "g5.xlarge", "g6.xlarge"]
    for card in ("T4", "A10G", "L4"):
        assert f"1 × {card}" in answer.text


def test_a_count_asked_about_is_not_the_askers() -> None:
    assert extract_entities("all on ONE L4 24GB? or do I need 2 gpus.").gpu_count is None
    assert extract_entities("will I need 4 GPUs for 70B?").gpu_count is None
    assert extract_entities("I have 2 GPUs with 24GB each").gpu_count == 2


def test_a_question_opening_on_or_is_the_previous_ones_alternative() -> None:
    from assistant.agent.offline.sentences import asked_sentences

    asked = asked_sentences(
        "Llama 3.3 70B Q4_K_M is 42.5 GB. Does that fit the 48GB card with a 32k context? or "
        "only short context?"
    )
    assert asked == ["Does that fit the 48GB card with a 32k context? or only short context?"]
    assert len(asked_sentences("How much VRAM does it need? What about speed?")) == 2


def test_cards_asked_about_one_after_the_other_are_each_checked() -> None:
    from assistant import ask

    apart = ask("Will Llama 3.1 8B fit on my 3060? And on a 4060?")
    fits = [c.arguments.get("gpu") for c in apart.tool_calls if c.name == "workload_fit"]
    assert fits == ["GeForce RTX 3060 12GB", "GeForce RTX 4060"]
    # cards in one sentence are one machine, as before
    together = ask("I have a 3090 and a 3060 in my PC, can I run Llama 3.1 70B at q4?")
    calls = [c.arguments for c in together.tool_calls if c.name == "workload_fit"]
    assert calls[0]["gpus"] == ["GeForce RTX 3090", "GeForce RTX 3060 12GB"]
