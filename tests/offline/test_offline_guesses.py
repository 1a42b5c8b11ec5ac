"""Answers that used to lead with a guess: a "yes, it runs CUDA" to a card that is not detected,
a "no CUDA" to PyTorch code on a Radeon or Instinct card, a card check to a question it does not
answer, "more memory" for two cards that add up to the same, a rental rate left in another
sentence."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities


def _tools(answer) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.name for c in answer.tool_calls]


def test_an_nvidia_card_that_is_not_detected_gets_no_cuda_yes() -> None:
    answer = ask(
        "My RTX 3080 is not detected by the program, it says no GPU and runs on the CPU. CUDA 12.4 installed."
    )
    assert "gpu_capability" not in _tools(answer)
    assert not answer.text.startswith("**Yes**")
    zh = ask("识别不到显卡 我的显卡是3060 只能用CPU")
    assert "gpu_capability" not in _tools(zh)


def test_pytorch_code_on_an_amd_card_is_checked_against_rocm() -> None:
    ent = extract_entities("can my PyTorch CUDA code run on the MI300X without changes?")
    assert "rocm_hip" in ent.topics and "cuda_programming" not in ent.topics
    # without PyTorch, CUDA itself is what is asked about
    assert (
        "cuda_programming" in extract_entities("can I write CUDA kernels on an RX 7900 XTX?").topics
    )


def test_two_cards_adding_up_to_the_same_memory_are_not_called_roomier() -> None:
    answer = ask("deux RTX 3060 12 Go ou une RTX 3090 ? ça fait 24 Go dans les deux cas")
    first = answer.text.split("\n")[0]
    assert first.startswith("**Même mémoire (24 Go)**") and "plus de mémoire" not in answer.text


def test_a_guess_gives_way_to_the_entry_on_what_is_asked() -> None:
    # "CUDA" and a card: a capability check is called, and its "yes" answers nothing here; the
    # entry on splitting a GPU (MIG) does, as the answer or as the nearest question named.
    for question in (
        "I teach a CUDA class of 20 students and we have a single A100 80GB. Can each student get a slice of it?",
        "Je prépare un TP CUDA pour 30 étudiants avec une seule H100 80GB. Puis-je la découper pour que chacun ait son GPU ?",
    ):
        answer = ask(question)
        assert "gpu_capability" in _tools(answer)
        assert "MIG" in answer.text.split("\n\n")[0 if "MIG" in answer.text.split("\n\n")[0] else 1]
        assert "**Yes** —" not in answer.text and "**Oui** —" not in answer.text


def test_a_rental_rate_in_another_sentence_is_the_one_weighed() -> None:
    answer = ask(
        "I rent a 4090 at $0.42/h, about 50 h a month. Is buying a used one at $1,700 worth it?"
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert args["rent_rate"] == 0.42


def test_an_error_that_says_storage_is_not_a_storage_bill() -> None:
    answer = ask("RuntimeError: Placeholder storage has not been allocated on MPS device! on my M2")
    assert "storage_cost" not in _tools(answer)
    priced = ask("how much does 200 GB of persistent storage cost on a cloud GPU for a month?")
    assert "storage_cost" in _tools(priced)


def test_cuda_with_no_version_on_a_pascal_card_gives_the_range_not_a_no() -> None:
    from assistant.tools.software import SoftwareSupportQuery, software_support

    pascal = software_support(SoftwareSupportQuery(gpu="Tesla P40", software="CUDA"))
    assert pascal.supported == "unknown" and pascal.last == "CUDA 12.9"
    kepler = software_support(SoftwareSupportQuery(gpu="GTX 760", software="CUDA"))
    assert kepler.supported == "no" and kepler.software.startswith("CUDA 13")
    answer = ask("what's the performance of the P40 with CUDA for llama inference?")
    assert not answer.text.startswith("**No**")


def test_a_generic_yes_does_not_lead_when_another_tool_answers() -> None:
    answer = ask(
        "I have 3000 euros for a CUDA workstation for my company, is a TITAN RTX the right card?"
    )
    assert not answer.text.startswith("**Yes** —")


def test_which_one_after_two_cards_makes_them_options() -> None:
    answer = ask(
        "we have an RTX A6000 and an L40S free. which one for Llama 3 8B fine-tuning with LoRA?"
    )
    fits = [c.arguments for c in answer.tool_calls if c.name == "workload_fit"]
    assert len(fits) == 2 and all("gpus" not in f for f in fits)  # one card each, not sharded
    assert extract_entities("j'ai une 3090 et une 4080, laquelle pour SDXL ?").options
    assert not extract_entities("my rig has a 3090 and a 4090 for a 70B model").options
