"""What a message asks over what it states (a purchase told, then a fit asked); one card named in
a follow-up about a pair; an average draw priced first; cards to buy for a model weighed as
options; several cards in equal shares under tensor parallelism; the count of each card placed;
a split named keeps the summed memory; a figure said higher with no 'than'; a workday's hours;
a card weighed in hindsight; a rare identifier that leads to its entry; the cards of one machine
billed together; buying against renting keeps the card bought."""

from __future__ import annotations

import re

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.lead_model import identifier_matches
from assistant.agent.offline.planner import tool_calls_for
from assistant.agent.offline.premises import pooled_memory, spec_claim
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.tools.fit import FitQuery, estimate_fit


def _calls(question: str, history: list[tuple[str, str]] | None = None) -> list[tuple[str, dict]]:
    reading = read_turn(Conversation(question, history=history or []))
    return [(c.name, c.args) for c in tool_calls_for(reading)]


def test_a_purchase_stated_does_not_make_the_question_a_rent_or_buy() -> None:
    calls = _calls(
        "Court stenographer. bought a used MacBook Pro M1 Max, 64GB, 32-core GPU ($1,700). "
        "can it run Llama 3.3 70B at Q4? how much of the 64GB can the GPU actually use?"
    )
    assert calls and calls[0][0] == "workload_fit"
    assert "rent_vs_buy" not in [name for name, _ in calls]


HVAC = [
    (
        "user",
        "found a used Quadro RTX 8000 48GB on ebay for $1,400. i want to run llama 3.3 70b at "
        "4bit. will it fit?",
    ),
    ("assistant", "It fits."),
    (
        "user",
        "and speed? other option is 2 used 3090s for about the same money, is that faster?",
    ),
    ("assistant", "The 3090s are faster."),
]


def test_the_card_of_a_follow_up_is_the_single_card_not_the_pair() -> None:
    text = ask(
        "power bill check. the card is rated 295W. lets say it averages 250W during work hours, "
        "10 h a day, 22 workdays a month, at 15 cents/kWh. what does that add per month?",
        history=HVAC,
    ).text
    first = text.split("\n")[0]
    assert "Quadro RTX 8000 at 250 W" in first  # the card, at the average said, first
    assert "3090" not in first
    assert "$8.25 a month" in first


def test_an_average_draw_is_priced_before_the_rating() -> None:
    ent = extract_entities("the card is rated 295W. lets say it averages 250W during work hours")
    assert ent.power_options[:2] == [250.0, 295.0]


def test_cards_to_buy_for_a_model_are_weighed_as_options() -> None:
    calls = _calls(
        "investor suggests selling our 4 RTX 4090s and buying one RTX PRO 6000 Blackwell 96GB "
        "instead. for Llama 3.3 70B 4-bit serving, better or worse?"
    )
    names = [name for name, _ in calls]
    assert "rent_vs_buy" not in names
    assert names.count("workload_fit") == 2  # each option against the model


def test_a_count_of_cards_is_not_compared_as_one_card() -> None:
    text = ask("4x RTX 4090 or one RTX PRO 6000 Blackwell, which should we buy?").text
    assert "Same memory (96 GB)" in text
    assert "more memory (96 GB against 24 GB)" not in text  # no second pick, card by card


def test_would_the_last_card_also_work_makes_options() -> None:
    ent = read_turn(
        Conversation(
            "a full fine-tune of Qwen2.5-32B in bf16 mixed precision: does it fit on one 8x H200 "
            "node with FSDP? would 8x H100 80GB also work?"
        )
    ).entities
    assert ent.options
    assert ent.count_of("H200 SXM 141GB") == 8 and ent.count_of("H100 SXM5 80GB") == 8


def test_equal_shares_let_the_smallest_card_limit() -> None:
    query = {"model": "14B", "precision": "bf16", "gpus": ["RTX 4090", "RTX 3060 12GB"]}
    proportional = estimate_fit(FitQuery(**query))
    equal = estimate_fit(FitQuery(**query, multi_gpu="equal"))
    assert proportional.verdict != "does_not_fit"
    assert equal.verdict == "does_not_fit"  # half of ~28 GB on the 12 GB card
    assert equal.multi_gpu is not None and equal.multi_gpu.mode == "equal"
    loads = {c.gpu: c.load_gb for c in equal.cards}
    assert len(set(loads.values())) == 1  # the same share on each card


def test_a_tensor_parallel_engine_asks_for_equal_shares() -> None:
    calls = _calls(
        "I have a server with a rtx4090 and a rtx3060. can Sglang use the 24G of the RTX4090 + "
        "12G of the RTX3060 to run a 14B model in bf16?"
    )
    fits = [args for name, args in calls if name == "workload_fit"]
    assert fits and fits[0].get("multi_gpu") == "equal"


def test_each_card_is_placed_as_many_times_as_counted() -> None:
    calls = _calls(
        "J'ai une RTX 3090 + 2 RTX 3060 12 Go. Total 48 Go : est-ce que Llama 3.3 70B en Q4_K_M "
        "passe avec llama.cpp ?"
    )
    fits = [args for name, args in calls if name == "workload_fit"]
    assert fits and any(g.startswith("2x ") and "3060" in g for g in fits[0]["gpus"])


def test_a_named_split_keeps_the_summed_memory() -> None:
    split = "RTX 3090 + 2 RTX 3060 12 Go, total 48 Go : Llama 70B en Q4 passe avec llama.cpp ?"
    bare = "RTX 3090 + 2 RTX 3060 12 Go, total 48 Go : Llama 70B en Q4 passe ?"
    assert not pooled_memory(split, extract_entities(split))
    assert pooled_memory(bare, extract_entities(bare))


def test_a_figure_said_higher_with_no_than_is_checked() -> None:
    claim = spec_claim(
        "la 4060 Ti 16 Go est plus rapide qu'une 3060 12 Go pour les LLM parce que sa bande "
        "passante est plus élevée. vrai ?"
    )
    assert claim is not None and not claim.holds
    assert claim.field == "bandwidth_gbs"


def test_hours_every_workday_are_hours_a_day() -> None:
    ent = extract_entities("the batch runs ~6 h every workday (~21 days/month)")
    assert [d.per_day for d in ent.durations] == [6.0]


def test_a_card_weighed_in_hindsight_is_compared_with_the_one_owned() -> None:
    history = [
        ("user", "we got a Radeon RX 9070 (16GB). Is it supported by ROCm on Ubuntu 24.04?"),
        ("assistant", "Yes."),
    ]
    text = ask(
        "in hindsight would an RTX 5070 12GB have been smarter? same price here", history=history
    ).text
    first = text.split("\n")[0]
    assert "Radeon RX 9070" in first and "16 GB against 12 GB" in first


def test_chinese_card_requests_name_the_recommend_concept() -> None:
    assert "recommend" in concepts_in("准备自搭paddle环境，有推荐的显卡型号吗？")
    assert "domain" in concepts_in("显存不够怎么办")


def test_a_rare_identifier_names_its_entry() -> None:
    assert "amd-apu-support" in identifier_matches("ROCm 7.0 with gfx1103 not detected")
    assert identifier_matches("which GPU should I buy?") == frozenset()


def test_the_cards_of_one_machine_draw_together() -> None:
    text = ask(
        "Électricité : 3090 ~350 W + 2 x 3060 ~170 W, en charge 8 h par jour, 30 jours. Je paie "
        "environ 1,6 DH le kWh. ça me coûte combien par mois ?"
    ).text
    first = text.split("\n")[0]
    assert (
        "690 W" in first and "265\u00a0MAD par mois" in first
    )  # 350 + 2 × 170, not one vs another


def test_buying_against_renting_does_not_pull_in_an_earlier_card() -> None:
    history = [
        ("user", "does a full fine-tune of Qwen2.5-32B fit on 8x H200? would 8x H100 80GB work?"),
        ("assistant", "Both fit."),
    ]
    text = ask(
        "longer term: buy our own 8x H200 box (quote ~$300k) vs keep renting at ~$3.50/GPU-hour? "
        "we'd use it maybe 40% of the time. break-even?",
        history=history,
    ).text
    first = text.split("\n")[0]
    assert "8 × H200 SXM 141GB" in first and "H100" not in first
    hours = int(re.search(r"after ([\d,]+) hours", first).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert 10_000 < hours < 12_000  # $300,000 against 8 × $3.50 an hour, less the power


def test_a_model_s_active_parameters_are_no_card() -> None:
    ent = extract_entities("5080 (16gb). can i run Wan 2.2, the 14B one (A14B?) at 720p?")
    assert ent.unknown_gpus == []
    assert ent.gpus == ["GeForce RTX 5080"]
