"""Knowledge leads found through an entry's "asked" phrasings (hand-written questions, not the
graded sets'), and the guards that keep a calculator's figures and other cards' entries out."""

from __future__ import annotations

import re

import pytest

from assistant import ask
from assistant.agent.offline.knowledge_lead import settings
from assistant.agent.offline.lead_match import (
    about_something_else,
    asked_texts,
    entry_subjects,
    other_model_kind,
    title_coverage,
)
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.knowledge.entries import get_entry, load_entries

NOTE = re.compile(r"<sub>(?:Knowledge base|Base de connaissances) ?: \*(?P<title>[^*]+)\*")


def _lead_title(text: str) -> str | None:
    found = NOTE.search("\n\n".join(text.split("\n\n")[:3]))
    return found.group("title") if found else None


def test_every_phrasing_is_matched_with_its_entry() -> None:
    ids, texts = asked_texts()
    pairs = set(zip(ids, texts, strict=True))
    entries = load_entries()
    assert len(texts) == len(entries) + sum(len(e.asked) for e in entries)
    for entry in entries:
        assert (entry.id, entry.title) in pairs
        assert all((entry.id, p) in pairs for p in entry.asked)


@pytest.mark.parametrize(
    ("question", "entry_ids"),
    [
        (
            "My Kaggle notebook lists two T4 cards in nvidia-smi, yet training keeps only the "
            "first one busy. How do I get both working?",
            ("nb-kaggle-two-t4",),
        ),
        (
            "Loading Phi-2 with attn_implementation='flash_attention_2' on my RTX 2070 crashes "
            "with RuntimeError: FlashAttention only supports Ampere GPUs or newer. What can I do?",
            # which cards run it, or how to get round the error: both answer the question
            ("flash-attention-error-use-sdpa", "flash-attention-gpus"),
        ),
    ],
)
def test_a_long_question_worded_unlike_the_title_leads_with_its_entry(
    question: str, entry_ids: tuple[str, ...]
) -> None:
    entries = [get_entry(entry_id, "en") for entry_id in entry_ids]
    assert all(e is not None for e in entries)
    for candidate in entries:
        assert candidate is not None
        assert question.lower() not in {t.lower() for t in [candidate.title, *candidate.asked]}
    answer = ask(question)
    entry = next((e for e in entries if e and _lead_title(answer.text) == e.title), None)
    assert entry is not None, answer.text
    assert answer.text.startswith(" ".join(entry.answer.split())[:60])
    assert not any(p in answer.text for p in entry.asked)  # phrasings are never shown
    assert "<!--" not in answer.text


def test_a_calculator_question_keeps_its_figures_and_no_lead() -> None:
    answer = ask(
        "How much does renting an A100 for 300 hours cost, and is the memory of two A100s pooled?"
    )
    assert "rent_cost" in {c.name for c in answer.tool_calls}
    assert _lead_title(answer.text) is None, answer.text
    assert re.search(r"300 h", answer.text)


def test_entries_about_other_card_families_are_left_out() -> None:
    generic = settings().generic_topics
    a100 = read_turn(Conversation("Can two A100 cards be joined with NVLink?"))
    turing = read_turn(Conversation("Can two RTX 2080 Ti cards be joined with NVLink?"))
    # The 4090 entry names the RTX 4090 and 5090 only; the bridge entry's answer covers 2080 Tis.
    assert about_something_else(a100, "multigpu-4090-no-nvlink", generic)
    assert not about_something_else(turing, "multigpu-nvlink-bridge-not-merge", generic)
    # An entry whose title names no card is never about other cards.
    assert not about_something_else(a100, "multigpu-vram-does-not-pool", generic)


def test_entries_about_another_makers_gpus_are_left_out() -> None:
    """An entry about one maker's GPUs (Intel Arc) is about something else for a question on
    another maker's card or naming another maker, and stays for one on that maker's cards; an
    entry whose title names two makers (CUDA code on an Intel Arc) is filtered by neither."""
    generic = settings().generic_topics
    arc = "intel-arc-image-generation-speed"
    a100 = read_turn(Conversation("My A100-SXM4-40GB on Colab is unexpectedly slow, why?"))
    nvidia = read_turn(Conversation("ComfyUI portable for NVIDIA says the driver is too old"))
    b580 = read_turn(Conversation("Stable Diffusion XL is very slow on my B580, why?"))
    assert about_something_else(a100, arc, generic)
    assert about_something_else(nvidia, arc, generic)
    assert not about_something_else(b580, arc, generic)
    assert not about_something_else(a100, "intel-arc-cuda-only-apps", generic)


def test_an_entry_whose_title_names_one_makers_cards_is_that_makers() -> None:
    """An entry whose title names only NVIDIA cards (the 4090 and 5090 have no NVLink) is about
    something else for a question that names AMD or Intel but no card; a question on NVIDIA
    keeps it."""
    generic = settings().generic_topics
    nvlink = "multigpu-4090-no-nvlink"
    amd = read_turn(Conversation("Can I run this simulation code with an AMD video card?"))
    intel = read_turn(Conversation("Will it work with Intel graphics instead?"))
    nvidia = read_turn(Conversation("Can two NVIDIA GeForce cards be linked?"))
    assert about_something_else(amd, nvlink, generic)
    assert about_something_else(intel, nvlink, generic)
    assert not about_something_else(nvidia, nvlink, generic)


def test_a_program_asked_on_another_makers_gpu_gets_the_back_end_answer() -> None:
    """Whether a program runs on a maker's GPU with no card named (an AMD card, Intel graphics,
    no NVIDIA GPU at all) is answered by what decides it, the program's back-ends, in either
    language: never by an entry about NVLink or an APU's memory setting."""
    asked = [
        "Is it possible to run the OpenFOAM GPU solver with an AMD graphics card?",
        "Can this tool run without an NVIDIA GPU? I only have Intel graphics.",
        "Ce programme de simulation peut-il tourner sans carte NVIDIA, sur une Radeon ?",
    ]
    for question in asked:
        text = ask(question).text
        assert _lead_title(text) is not None, question
        assert "back-end" in text.split("\n")[0], (question, text[:300])


def test_an_entry_about_another_feature_is_left_out() -> None:
    generic = settings().generic_topics
    fp4 = read_turn(Conversation("Is FP4 available on the RTX 5090?"))
    assert about_something_else(fp4, "rtx5090-no-tcgen05", generic)
    assert not about_something_else(fp4, "fp4", generic)


def test_entry_subjects_name_real_entries_and_concepts() -> None:
    from assistant.agent.offline.concepts import concept_patterns

    ids = {e.id for e in load_entries()}
    concepts = set(concept_patterns())
    subjects = entry_subjects()
    assert subjects
    for entry_id, names in subjects.items():
        assert entry_id in ids, entry_id
        assert names and set(names) <= concepts, (entry_id, names)


def test_failure_entries_name_real_entries_and_topics() -> None:
    from assistant.agent.offline.lead_match import _failure_entries, _subjects_file

    entries = load_entries()
    listed = _subjects_file()["failures"]
    assert set(listed["entries"]) <= {e.id for e in entries}
    assert set(listed["topics"]) <= {e.topic for e in entries}
    found = _failure_entries()
    assert "psu-transient-shutdown" in found and "multigpu-torchrun" not in found


@pytest.mark.parametrize(
    ("question", "entry", "other"),
    [
        # Speed or card names alone do not make a question about hashcat or power supplies.
        (
            "Et en vitesse ? Un pote avec une RTX 3060 dit que la sienne ira plus vite.",
            "hashcat-gpu-choice",
            True,
        ),
        (
            "Is my RTX 4090 or RTX 4080 faster for password cracking with hashcat?",
            "hashcat-gpu-choice",
            False,
        ),
        (
            "Does anyone run this program on an RTX 4070 successfully?",
            "psu-required-system-power-by-card",
            True,
        ),
        ("Is a 650W PSU enough for an RTX 4070?", "psu-required-system-power-by-card", False),
        ("Quelle alimentation pour une RTX 4070 ?", "psu-required-system-power-by-card", False),
        ("Why is my RTX 4090 slower than my friend's RTX 4070?", "laptop-gpu-tgp", True),
        ("Two RTX 4070 laptops differ in speed, why?", "laptop-gpu-tgp", False),
        ("CUDA out of memory on my 3070 when training GO-SLAM", "dataloader-docker-shm", True),
        (
            "DataLoader bus error inside Docker, insufficient shared memory",
            "dataloader-docker-shm",
            False,
        ),
    ],
)
def test_an_entry_about_a_narrow_subject_needs_the_subject_named(
    question: str, entry: str, other: bool
) -> None:
    reading = read_turn(Conversation(question))
    assert about_something_else(reading, entry, settings().generic_topics) is other


def test_title_coverage_weighs_an_entrys_own_words_over_common_ones() -> None:
    # The FLUX LoRA entry shares "train", "LoRA" and "GB" with both questions; only one says FLUX.
    about_flux = title_coverage("How much VRAM to train a FLUX LoRA on my 16 GB card?")
    about_llama = title_coverage("How much VRAM to train a LoRA on my 16 GB card?")
    assert about_flux["flux-lora-training-vram"] > about_llama["flux-lora-training-vram"]
    assert about_flux["flux-lora-training-vram"] > 0.9
    assert all(0.0 <= v <= 1.0 for v in about_flux.values())


@pytest.mark.parametrize(
    ("question", "other"),
    [
        ("Can anyone train the llama-lora on a single V100?", True),  # a family, no size
        ("only 3 t/s with a 13b model on my 3090", True),  # a bare size: a language model
        ("FLUX LoRA on a 12 GB card, how long?", False),
        ("my V100 runs out of memory while training", False),  # no model named: no conflict
    ],
)
def test_an_entry_about_another_kind_of_model(question: str, other: bool) -> None:
    assert other_model_kind(question, "flux-lora-training-vram") is other


@pytest.mark.parametrize(
    ("text", "vendor"),
    [
        ("rocminfo shows gfx1100 fine", "amd"),
        ("torch.xpu.is_available() is False", "intel"),
        ("is MLX faster than MPS for LoRA?", "apple"),
        ("pip install torch with cu126", None),
        ("ROCm or XPU?", None),
    ],
)
def test_a_stack_s_words_name_its_maker(text: str, vendor: str | None) -> None:
    from assistant.knowledge.stacks import stack_vendor

    assert stack_vendor(text) == vendor


def test_an_entry_answered_for_one_maker_is_left_out_for_another_s_stack() -> None:
    generic = settings().generic_topics
    amd = read_turn(Conversation("torch.cuda.is_available() is False, rocminfo shows gfx1100"))
    nvidia = read_turn(Conversation("torch.cuda.is_available() is False on my RTX 3060"))
    assert about_something_else(amd, "torch-cuda-not-available", generic)
    assert not about_something_else(nvidia, "torch-cuda-not-available", generic)


@pytest.mark.parametrize(
    ("question", "other"),
    [
        ("Sapphire Radeon RX 7700 XT 12GB — will this GPU be enough for the app?", True),
        ("Can I use my RX 7900 XTX and an RTX 3060 together for one model?", False),
        ("I have an RTX 3060 and an RX 6800 in the same PC, can llama.cpp use both?", False),
        ("2x RX 7900 XTX for Llama 70B?", False),
    ],
)
def test_a_multi_gpu_entry_needs_several_gpus_in_the_question(question: str, other: bool) -> None:
    reading = read_turn(Conversation(question))
    assert about_something_else(reading, "multigpu-amd-plus-nvidia", settings().generic_topics) is (
        other
    )


def test_a_desktop_entry_is_left_out_for_a_jetson() -> None:
    generic = settings().generic_topics
    orin = read_turn(
        Conversation("pip install torch on the orin: torch.cuda.is_available() = False")
    )
    desktop = read_turn(
        Conversation("pip install torch on my PC: torch.cuda.is_available() = False")
    )
    assert about_something_else(orin, "torch-cuda-not-available", generic)
    assert not about_something_else(desktop, "torch-cuda-not-available", generic)
    assert not about_something_else(orin, "jetson-pytorch-install", generic)
