"""Pasted error messages: the data's integrity, which message a question pastes, and the entry
that then opens the answer (hand-written questions, not the golden sets')."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.error_messages import fold, messages, pasted
from assistant.knowledge.entries import LANGUAGES, get_entry


def test_every_message_names_entries_that_exist_in_both_languages() -> None:
    for message in messages():
        assert message.entries, message.text
        assert message.seen.startswith("https://"), message.text
        for entry_id in message.entries:
            for language in LANGUAGES:
                assert get_entry(entry_id, language) is not None, (message.text, entry_id)


def test_no_message_is_listed_twice_or_is_a_line_every_cuda_error_prints() -> None:
    folded = [fold(m.text) for m in messages()]
    assert len(set(folded)) == len(folded)
    for line in (
        "CUDA kernel errors might be asynchronously reported at some other API call",
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
    ):
        assert pasted(line) is None


def test_matching_folds_case_quotes_and_line_breaks() -> None:
    found = pasted(
        "got `RuntimeError: CUDA error: no kernel image is\n  available for EXECUTION on the device`"
    )
    assert found is not None and found.entries == ("no-kernel-image",)


def test_the_longer_message_wins_over_one_it_contains() -> None:
    found = pasted("RuntimeError: MPS backend out of memory (MPS allocated: 8.1 GB)")
    assert found is not None and found.entries == ("apple-mps-out-of-memory",)


def test_the_first_pasted_message_counts() -> None:
    found = pasted(
        "RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
        "installation, then: CUDA error: no kernel image is available for execution on the device"
    )
    assert found is not None and found.entries[0] == "pytorch-sm-not-compatible"


def test_a_question_without_a_message_pastes_none() -> None:
    assert pasted("Which GPU should I buy to learn CUDA for 500 euros?") is None


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        # the boilerplate every asynchronous CUDA error prints must not pull the answer elsewhere
        (
            "Bonjour, pendant mon finetuning : RuntimeError: CUDA error: no kernel image is "
            "available for execution on the device. CUDA kernel errors might be asynchronously "
            "reported at some other API call. For debugging consider passing "
            "CUDA_LAUNCH_BLOCKING=1. Que faire ?",
            "no-kernel-image",
        ),
        (
            "My old Tesla card prints 'CUDA driver version is insufficient for CUDA runtime "
            "version' when I start the container, help",
            "driver-insufficient",
        ),
        (
            "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
            "8.0. Your Tesla V100 GPU has compute capability 7.0",
            "bf16-error-use-float16",
        ),
        (
            "users pip install torch and get: UserWarning: CUDA initialization: The NVIDIA driver "
            "on your system is too old (found version 12020). Do we upgrade the whole cluster?",
            "pytorch-driver-too-old",
        ),
        (
            'docker compose up fails: could not select device driver "nvidia" with capabilities: '
            "[[gpu]]",
            "docker-nvidia-container-toolkit",
        ),
    ],
)
def test_a_pasted_message_leads_with_the_entry_that_explains_it(
    question: str, entry_id: str
) -> None:
    reply = ask(question)
    entry = get_entry(entry_id, reply.language)
    assert entry is not None
    at = reply.text.find(entry.answer[:80])
    assert at >= 0, reply.text[:400]
    # before any other entry quoted, and after at most a capability verdict on the card named
    others = reply.text.find("From the knowledge base")
    assert others < 0 or at < others
    assert reply.text[:at].count("\n\n") <= 3, reply.text[:at]
    assert "nearest question" not in reply.text.lower()
