"""Questions on training and serving setups, power states, edge boards and installs that no entry
answered before: each is answered by its entry's first sentence, asked in words the entry does
not hold, by an asker who is not at this machine."""

from __future__ import annotations

import pytest

from assistant import ask


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        (
            "pip install torch==2.3.0 fails: ERROR: Could not find a version that satisfies the "
            "requirement torch (from versions: none). I'm on Python 3.13 on Windows",
            "Because no published wheel matches your combination of Python version",
        ),
        (
            "The repo says you need an A100 80GB to train. I only have four RTX 3090s, is there "
            "any way?",
            "Yes, if you split the model itself; plain DDP cannot help",
        ),
        (
            "My laptop has no decent GPU. How do I train my model on a rented GPU machine from it?",
            "Run everything on the server and use the laptop as a window onto it",
        ),
        (
            "We're a small shop with maybe 50 customer chats a day. Which GPU do we need to host "
            "Llama 3.1 8B, is an H100 overkill?",
            "Yes, for tens of chats a day and a few at once an A100 or H100 is overkill",
        ),
        (
            "nvidia-smi shows my GPU stuck in P8 during training, is it throttling?",
            "Usually not: P-states are power levels the driver picks from the load",
        ),
        (
            "How can I make my 3090 quieter during overnight training runs?",
            "Lower the power limit: heat, and so fan speed, follows the watts drawn",
        ),
        (
            "My training gets slower after 20 minutes, GPU clocks drop. Why?",
            "Because the GPU lowers its clocks to respect its power limit or its temperature",
        ),
        (
            "Jetson Orin Nano 8GB: which LLM size can I actually run?",
            "Clearly less than 8 GB: GPU, CPU and OS share that one pool",
        ),
        (
            "Should I fine-tune Llama on our product catalogue or use RAG?",
            "Use retrieval and tool calls for facts, and keep fine-tuning for behaviour",
        ),
        (
            "I pip installed torch on my Jetson Orin and cuda is not available",
            "Install a PyTorch built for your JetPack, not the default one from PyPI",
        ),
        (
            "Do I need to buy the Orin Nano Super or can I update my old Orin Nano dev kit?",
            "It is not a new board",
        ),
    ],
)
def test_the_entry_opens_the_answer(question: str, opening: str) -> None:
    assert ask(question, at_machine=False).text.startswith(opening)
