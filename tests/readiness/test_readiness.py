"""A program whose needs are not given, on one card: the tool gathers the card's side of the
answer, the skill says first that it depends on the program, and names the card's limits."""

from __future__ import annotations

from assistant import ask
from assistant.tools.readiness import ReadinessQuery, card_readiness


def test_an_old_nvidia_card_gets_its_memory_its_last_pytorch_and_no_fast_half() -> None:
    r = card_readiness(ReadinessQuery(gpu="GTX 1060 6GB"))
    assert r.gpu == "GeForce GTX 1060 6 GB" and r.vram_gb == 6
    assert r.compute_capability == "6.1"
    assert r.framework_supported == "partial" and r.framework_last and "cu126" in r.framework_last
    assert (r.fp16_full_rate, r.bf16) == ("no", "no")
    assert r.largest_llm is not None and r.largest_llm.total_gb < 6
    assert "depends on what the program needs" in r.message and "6 GB" in r.message


def test_a_mac_counts_the_share_of_memory_its_gpu_may_use_and_no_cuda() -> None:
    r = card_readiness(ReadinessQuery(gpu="Apple M1", vram_gb=8))
    assert r.vendor == "apple" and r.vram_gb is not None and r.vram_gb < 8
    assert "of its 8 GB that the GPU may use" in r.message
    assert "CUDA alone does not" in r.message
    assert r.cuda_only_code_runs is False


def test_an_unknown_card_is_said_plainly() -> None:
    r = card_readiness(ReadinessQuery(gpu="GTX 9999 Ultra"))
    assert r.gpu is None and "Unknown GPU" in r.message


def test_run_this_on_my_card_answers_with_the_card_and_not_another_question() -> None:
    answer = ask("is it possible for me to run this on GTX 1060 6gb? I just want to learn")
    assert [c.name for c in answer.tool_calls][0] == "card_readiness"
    first = answer.text.split("\n")[0]
    assert first.startswith("**It depends on what the program needs")
    assert "cu126" in answer.text and "The nearest question" not in answer.text


def test_the_french_question_gets_the_french_answer() -> None:
    answer = ask("Est-ce que ça tourne sur ma GTX 1650 ?")
    assert answer.text.startswith("**Cela dépend de ce que demande le programme")
    assert "4 Go" in answer.text


def test_a_named_model_or_program_goes_to_its_own_check() -> None:
    assert "card_readiness" not in [
        c.name for c in ask("Can I run Llama 3 8B on this GTX 1060 6GB?").tool_calls
    ]
    assert "card_readiness" not in [
        c.name for c in ask("Does ComfyUI run on this RX 6800?").tool_calls
    ]


def test_a_card_asked_to_run_a_program_the_catalog_does_not_know_gets_its_side() -> None:
    answer = ask("Can I use a Quadro K2200 to run facefusion smoothly?")
    assert [c.name for c in answer.tool_calls][0] == "card_readiness"
    assert answer.text.startswith("**It depends on what the program needs")


def test_a_card_not_detected_by_the_app_is_a_failure_not_a_card_to_size_up() -> None:
    answer = ask("My RTX 3070 is not detected by the app, it runs on the CPU.")
    assert "card_readiness" not in [c.name for c in answer.tool_calls]


def test_a_compatibility_question_no_tool_was_chosen_for_still_gets_the_cards_side() -> None:
    answer = ask("Is it compatible with a GTX 1080 Ti on Ubuntu 22.04?")
    assert "card_readiness" in [c.name for c in answer.tool_calls]
    assert "The nearest question" not in answer.text
