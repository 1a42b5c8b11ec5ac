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


def test_a_hardware_feature_is_checked_before_a_toolkit_the_message_also_names() -> None:
    from assistant import ask

    answer = ask(
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0 — "
        "I run Quadro RTX 6000 GPUs with Driver Version: 550.54.14 and CUDA Version: 12.4."
    )
    names = [c.name for c in answer.tool_calls]
    assert "gpu_capability" in names
    if "software_support" in names:
        assert names.index("gpu_capability") < names.index("software_support")
    assert "CC 7.5" in answer.text


def test_a_driver_stated_beside_an_undetected_card_is_checked_against_it() -> None:
    answer = ask(
        "Which driver and PyTorch do I need for an RTX 5080? The box has driver 535 from the "
        "distribution and nvidia-smi does not see the card."
    )
    assert any(c.name == "software_support" for c in answer.tool_calls)
    assert "570" in answer.text


def test_a_toolkit_and_a_framework_asked_together_are_each_checked() -> None:
    answer = ask("Does a GTX 1080 still work with CUDA 13 and with the newest PyTorch?")
    checked = [c.arguments["software"] for c in answer.tool_calls if c.name == "software_support"]
    assert len(checked) == 2, checked
    assert "CUDA 12.9" in answer.text.split("\n\n")[0], answer.text  # the last toolkit, first
    assert "cu126" in answer.text  # the PyTorch wheels that still carry Pascal's kernels


def test_the_software_asked_at_the_end_of_a_long_message_is_the_one_checked() -> None:
    story = (
        "We run a small community workshop and people donated a pile of hardware over the last "
        "year: an old workstation, two monitors, a GTX 1080 and a box of cables. We would like to "
        "set up one shared machine for the members to try machine learning on, nothing fancy. "
    )
    answer = ask(story + "Can the GTX 1080 run CUDA 13?")
    assert answer.text.startswith("**No** — CUDA 13"), answer.text


def test_a_card_sold_with_two_chips_is_answered_per_chip() -> None:
    answer = ask("Will the Geforce 720M work with CUDA 10?")
    head = answer.text.split("\n\n")[0]
    assert head.startswith("**It depends on the chip**")
    assert "GK208" in head and "GF117" in head and "CUDA 8.0" in head
    assert "nvidia-smi -q" in answer.text


def test_cuda_on_a_card_of_another_maker_is_a_plain_no() -> None:
    answer = ask("Can my ATI Mobility Radeon HD 5470 use the CUDA toolkit?")
    assert answer.text.startswith("**No**") and "not an NVIDIA GPU" in answer.text.split("\n")[0]
