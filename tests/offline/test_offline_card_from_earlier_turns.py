"""A question that names no card is about the card the asker named in an earlier turn."""

from __future__ import annotations

from assistant import ask

RADEON = [
    {
        "role": "user",
        "content": "I have a Radeon RX 7800 XT (16gb) in my Windows 11 PC. Can I run a local chat model without CUDA?",
    }
]
TWO_CARDS = [
    {
        "role": "user",
        "content": "On a une station avec 2 RTX 4060 Ti 16 Go. Les deux cartes s'additionnent-elles ?",
    }
]


def test_the_earlier_card_is_the_one_the_new_question_is_about() -> None:
    answer = ask(
        "which model size should I pick, and how fast will the words come out?", history=RADEON
    )
    assert any(c.arguments.get("gpu") == "Radeon RX 7800 XT" for c in answer.tool_calls)


def test_the_earlier_cards_count_carries_too() -> None:
    answer = ask(
        "Pour l'inférence, Qwen2.5-32B en Q4 réparti sur les 2 cartes avec llama.cpp : quelle vitesse ?",
        history=TWO_CARDS,
    )
    speed = next(c for c in answer.tool_calls if c.name == "llm_speed")
    assert speed.arguments["gpu"] == "GeForce RTX 4060 Ti 16GB"
    assert speed.arguments["gpu_count"] == 2


def test_a_card_the_new_question_names_wins() -> None:
    answer = ask("How fast is Llama 3.1 8B at q4 on an RTX 3060?", history=RADEON)
    speed = next(c for c in answer.tool_calls if c.name == "llm_speed")
    assert speed.arguments["gpu"] == "GeForce RTX 3060 12GB"


def test_a_bare_size_asked_now_replaces_the_earlier_model() -> None:
    history = [
        {"role": "user", "content": "Can I run Llama 3.3 70B on my M3 Max 36GB?"},
        {"role": "assistant", "content": "Not really: a 70B at 4-bit is ~42 GB."},
    ]
    text = ask("ok and how fast would a 32B Q4 actually be on this machine?", history=history).text
    head = text.split("\n")[0]
    assert "32B" in head and "70B" not in head, head


def test_the_system_the_asker_names_sets_which_rocm_list_answers() -> None:
    text = ask(
        "J'ai une RX 6800 XT sous Ubuntu 24.04. ROCm supporte officiellement toutes les Radeon "
        "depuis la série 6000, donc je peux installer PyTorch ROCm sans souci ?"
    ).text
    assert "Pas officiellement sous Linux" in text.split("\n")[0], text[:300]


def test_a_follow_up_that_asks_what_the_card_computes_gets_the_capability_first() -> None:
    # the earlier turn's model is not this question's: "does my 3090 compute in fp8?"
    history = [
        {"role": "user", "content": "J'utilise les poids fp8_scaled de Wan 2.2 dans ComfyUI."},
        {"role": "assistant", "content": "Oui, c'est le bon choix sur 24 Go."},
    ]
    text = ask(
        "mais du coup ma 3090 calcule en fp8 ? c'est pour ça que c'est plus rapide que le fp16 ?",
        history=history,
    ).text
    assert text.startswith("**Non** — GeForce RTX 3090"), text[:200]


def test_the_task_of_the_askers_earlier_message_picks_the_errors_entry() -> None:
    # fine-tuning said in the earlier message: the training out-of-memory entry, not inference's
    history = [
        {"role": "user", "content": "I am fine-tuning a ResNet50 on my shell photos on my T4"},
        {"role": "assistant", "content": "Good plan: start from the pretrained weights."},
    ]
    text = ask(
        "now I get this:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.53 GiB."
        " GPU 0 has a total capacity of 14.74 GiB of which 612.06 MiB is free.\nwhat do I do??",
        history=history,
    ).text
    assert text.startswith("Lower the per-step memory"), text[:200]
