"""A card restated in brackets is one card; a desktop word keeps the desktop card beside a
laptop; each card quoted with its own price is rented at it; a feature asked in a clause with no
card is asked of the message's card; 'how do I check the cards are seen' gets the steps."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities


def _calls(answer, name: str) -> list[dict]:
    return [c.arguments for c in answer.tool_calls if c.name == name]


def test_a_system_restated_in_brackets_is_the_card_in_the_brackets() -> None:
    ent = extract_entities("we rent a DGX A100 (8x A100 40GB) for the semester")
    assert ent.gpus == ["A100 40GB SXM4"] and ent.gpu_count == 8


def test_a_memory_in_brackets_still_names_the_same_card() -> None:
    assert extract_entities("my 3060 (12GB) and a 4090").gpus == [
        "GeForce RTX 3060 12GB",
        "GeForce RTX 4090",
    ]


def test_a_desktop_card_beside_a_laptop_one_stays_the_desktop_card() -> None:
    ent = extract_entities("my laptop has an RTX 4080; the desktop 4080 at work has 16GB")
    assert ent.gpus[0] == "GeForce RTX 4080 Mobile" and "GeForce RTX 4080" in ent.gpus


def test_three_cards_with_three_prices_are_each_rented_at_their_own() -> None:
    calls = _calls(
        ask(
            "Vast shows A6000 $0.45/h, L40S $0.79/h and H200 $3.10/h, which is cheapest for a week?"
        ),
        "rent_cost",
    )
    assert [(c["gpu"], c["rate_per_hour"]) for c in calls] == [
        ("RTX A6000", 0.45),
        ("L40S", 0.79),
        ("H200 SXM 141GB", 3.10),
    ]


def test_a_feature_asked_in_a_later_clause_is_asked_of_the_same_card() -> None:
    topics = {
        c["topic"]
        for c in _calls(ask("Does the L4 do FP8? And what about TF32?"), "gpu_capability")
    }
    assert {"fp8", "tf32"} <= topics


def test_how_to_check_the_cards_are_seen_gets_steps_not_this_machine() -> None:
    answer = ask("How do I check that both GPUs are detected on our new server?")
    assert not _calls(answer, "probe_gpus")
    assert "nvidia-smi" in answer.text and "rocminfo" in answer.text


def test_a_second_card_put_in_the_same_pc_is_pooled_for_the_fit() -> None:
    calls = _calls(
        ask("I have a 3090. If I put it in the same PC as my 4090, do 48 GB hold a 70B model?"),
        "workload_fit",
    )
    assert calls and calls[0].get("gpus") == ["GeForce RTX 3090", "GeForce RTX 4090"]
