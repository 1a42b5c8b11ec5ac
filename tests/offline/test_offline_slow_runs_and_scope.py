"""A run slower than the asker expected is explained first, ahead of a card's verdict; a question
about speed is no such report; a follow-up about a detector's frame rate stays in scope; cards
joined by a plus are both read; a model someone already fine-tuned is served, not trained."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.knowledge_lead import find_lead
from assistant.agent.offline.lead_match import reports_slow_run, slow_run_entries
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.agent.offline.scope import out_of_scope
from assistant.knowledge.entries import get_entry


@pytest.mark.parametrize(
    "text",
    [
        "My detector only gets about 4 fps on an RTX 3070 in PyTorch, I expected 25. What's wrong?",
        "Low FPS with the segmentation demo on my 3090, around 2 FPS. Why?",
        "Each image takes 300 ms on my L4 but the paper reports 40 ms on a V100. Why?",
        "After ten minutes the hash rate drops: it is slowing down from 300 to 90.",
        "Ma RTX 4070 ne fait que seulement 5 fps avec ce modèle, pourquoi c'est si lent ?",
        "在Orin上推理非常慢，只有3帧",
    ],
)
def test_a_measured_rate_the_asker_finds_low_is_a_slow_run(text: str) -> None:
    assert reports_slow_run(read_turn(Conversation(text)))


@pytest.mark.parametrize(
    "text",
    [
        "How many tokens per second will a 4090 do with Llama 3 8B?",
        "Is an RTX 3060 fast enough for SDXL?",
        "Which is faster for training, a 3090 or a 4080?",
    ],
)
def test_a_question_about_speed_is_no_slow_run(text: str) -> None:
    assert not reports_slow_run(read_turn(Conversation(text)))


def test_a_slow_run_is_explained_by_an_entry_on_slow_runs_before_any_verdict() -> None:
    text = (
        "Tested YOLOX inference with PyTorch on an RTX 3060 Ti and I only get around 1 fps; "
        "PyTorch and the driver are installed correctly. Anyone else?"
    )
    lead = find_lead(read_turn(Conversation(text)), [], None)
    assert lead is not None and lead.entry.id in slow_run_entries()
    answer = ask(text).text
    assert not answer.startswith("**Yes**")
    # the searched passages may make another slow-run entry the likelier one
    openings = [get_entry(e, "en") for e in slow_run_entries()]
    assert any(e is not None and answer.startswith(e.answer[:80]) for e in openings)


def test_slow_run_entries_are_real_entries_in_both_languages() -> None:
    for entry_id in slow_run_entries():
        assert get_entry(entry_id, "en") is not None and get_entry(entry_id, "fr") is not None


def test_a_frame_rate_follow_up_to_a_detector_stays_in_scope() -> None:
    earlier = "We run YOLO11s with OpenVINO on a Core Ultra NUC for forklift alerts."
    follow_up = "4 cameras at 15 fps, so 60 fps total; 9 ms per frame gives 111 fps, fine right?"
    assert not out_of_scope(follow_up, earlier)
    assert not out_of_scope("four 1080p cameras at 15 fps each: is 9 ms a frame enough?")
    assert out_of_scope("How many FPS in Cyberpunk with a 4070 at 1440p?")
    assert out_of_scope("How many FPS in Cyberpunk with a 4070?", "Is a 4070 good for gaming?")


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Does it support different gpus? For example 4060 Ti+4070", 2),
        ("a 3090+3060 box for llama.cpp", 2),
    ],
)
def test_cards_joined_by_a_plus_are_each_read(text: str, cards: int) -> None:
    assert len(extract_entities(text).gpus) == cards


def test_a_model_already_fine_tuned_and_then_served_is_inference() -> None:
    served = extract_entities(
        "We fine-tuned Llama 3.1 8B on our support tickets. Can we serve it in BF16 on one L4?"
    )
    assert served.method == "inference"
    failed = extract_entities("We fine-tuned Llama 3.1 8B with LoRA and got CUDA out of memory")
    assert failed.method is not None
    planned = extract_entities("we want to fine-tune Llama 3.1 8B and then serve it on one L4")
    assert planned.method is not None


@pytest.mark.parametrize(
    "text",
    [
        "What GPU do you use? Is a GeForce RTX 3080 Ti feasible?",
        "Would a PNY Quadro P5000 be able to handle the tasks?",
    ],
)
def test_a_card_asked_of_an_unnamed_program_gets_the_cards_side(text: str) -> None:
    answer = ask(text)
    assert "card_readiness" in [t.name for t in answer.tool_calls]
    assert not answer.text.startswith("**Which card depends on what you will run")
