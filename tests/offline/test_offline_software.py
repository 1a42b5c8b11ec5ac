"""The `software_support` skill end to end: routed, and the first sentence answers."""

from __future__ import annotations

import pytest

from assistant import ask


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "My RTX 5090 with PyTorch cu124 fails: sm_120 is not compatible with the current PyTorch installation",
            r"**No** — ",
        ),
        ("CUDA 13 prend-il encore en charge la V100 ?", "**Non** — CUDA 13"),
        ("Up to which CUDA version can I go with a GTX 1080?", "CUDA 12.9"),
    ],
)
def test_software_questions_get_the_verdict(question: str, expected: str) -> None:
    answer = ask(question)
    assert "software_support" in [c.name for c in answer.tool_calls]
    assert expected in answer.text, answer.text
