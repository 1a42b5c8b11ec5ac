"""Counts of cards said around their draw ('2x 230 W cards', '12 gates, each with one AGX Orin'),
working days written as one word, a rand price that is no card, the AGX Orin 32GB module, and the
fastest of several cards that all hold the model."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.usage import working_days
from assistant.knowledge.matching import match_gpu


def test_a_count_before_each_cards_draw_is_the_number_of_cards() -> None:
    text = ask(
        "the box runs 10 h a day on 22 workdays: 2x 230 W cards + ~150 W for the rest of the "
        "system at full load, tariff 0,25 €/kWh. monthly cost?"
    ).text
    first = text.split("\n")[0]
    assert "610 W" in first and "cards 460 W" in first
    assert "€33.55 a month" in first  # 0.61 kW × 10 h × 22 days × €0.25


def test_a_workday_count_is_a_months_days_of_use() -> None:
    days = working_days("10 h a day on 22 workdays")
    assert days is not None and days.per_month == 22


def test_places_each_with_one_card_count_the_cards() -> None:
    ent = extract_entities("12 gates, each with one AGX Orin 32GB at its 40 W max mode")
    assert ent.gpu_counts == {"Jetson AGX Orin 32GB": 12}


def test_a_rand_price_per_kwh_is_no_card() -> None:
    ent = extract_entities("one Jetson at 40 W, tariff about R3,20/kWh")
    assert not any(g.startswith("Radeon") for g in ent.gpus)
    assert ent.electricity_price is not None and ent.electricity_price.currency == "ZAR"


def test_the_agx_orin_32gb_is_its_own_module() -> None:
    card = match_gpu("AGX Orin 32GB").gpu
    assert card is not None and card.name == "Jetson AGX Orin 32GB"
    assert card.vram_gb == 32 and card.tdp_w == 40 and card.sm_count == 14
    assert match_gpu("AGX Orin").gpu.name == "Jetson AGX Orin 64GB"


def test_the_fastest_of_cards_that_all_hold_the_model_is_the_one_with_most_bandwidth() -> None:
    text = ask(
        "for chatting with 12B models which one spits out tokens fastest, 3080 10GB vs B580 vs "
        "3060 12GB?"
    ).text
    assert "GeForce RTX 3080" in text.split("\n")[0]
    assert "with less memory to spare" not in text


def test_a_count_right_after_the_card_is_its_count() -> None:
    assert extract_entities("Kaggle « GPU T4 x2 », ou la P100 ?").gpu_counts["T4"] == 2
    assert extract_entities("is the 4090 x2 faster than a 3090").gpu_counts == {}


def test_memory_added_up_across_cards_is_answered_no_first() -> None:
    text = ask(
        "J'ai encore ma vieille RTX 3060 12 Go. Si je la mets à côté de la 4070 Ti Super, "
        "ComfyUI verra 28 Go ?"
    ).text
    assert text.startswith("**Non : la mémoire de GeForce RTX 3060 12GB et GeForce RTX 4070 Ti")
    pair = ask("on Kaggle, GPU T4 x2 gives 32 GB for my model? or is the P100 better?").text
    assert pair.startswith("**No: the memory of 2 × T4 does not add up")
    # a figure that is one card's own memory is no sum
    assert not ask("RTX 3060 12 GB and RTX 4070 Ti Super: is 16 GB enough?").text.startswith(
        "**No: the memory"
    )
