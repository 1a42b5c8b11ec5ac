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
    answer = ask("Can my ATI Mobility Radeon HD 5470 use CUDA?")
    head = answer.text.split("\n")[0]
    assert head.startswith("**No**") and "CUDA runs only on NVIDIA GPUs" in head
    # a pre-GCN chip gets no ROCm advice: nothing AMD ships runs on it either
    assert "predates GCN" in answer.text and "Use AMD ROCm" not in answer.text
    asked = ask("Does CUDA 12 work on my Radeon RX 7900 XTX?")
    assert asked.text.startswith("**No** — Radeon RX 7900 XTX is not an NVIDIA GPU")


def test_the_versions_line_lists_the_versions() -> None:
    answer = ask("Does CUDA 11 work on a GTX 560 Ti?")
    line = next(p for p in answer.text.split("\n\n") if p.startswith("Versions for this card"))
    assert "first: CUDA 3.0" in line and "last: CUDA 8.0" in line


def test_a_jetson_runs_only_the_cuda_of_its_last_jetpack() -> None:
    from assistant.tools.software import SoftwareSupportQuery, software_support

    nano = software_support(SoftwareSupportQuery(gpu="Jetson Nano", software="CUDA 11.4"))
    assert nano.supported == "no" and nano.last == "CUDA 10.2"
    assert nano.platform_note and "JetPack" in nano.platform_note and "4.6" in nano.platform_note
    xavier = software_support(SoftwareSupportQuery(gpu="Jetson Xavier NX", software="CUDA 11.4"))
    assert xavier.supported == "yes"
    assert (
        software_support(
            SoftwareSupportQuery(gpu="Jetson Xavier NX", software="CUDA 12.2")
        ).supported
        == "no"
    )
    # an Orin is not capped here: nvcc's own range answers
    assert (
        software_support(
            SoftwareSupportQuery(gpu="Jetson AGX Orin", software="CUDA 12.6")
        ).supported
        == "yes"
    )


def test_tensorflow_builds_are_read_from_the_release_not_from_nvidia_smi() -> None:
    from assistant.tools.software import SoftwareSupportQuery, software_support

    # nvidia-smi's "CUDA Version: 12.1" is the driver's; TensorFlow 2.3 is built with CUDA 10.1
    tf23 = software_support(
        SoftwareSupportQuery(
            gpu="RTX 4090", software="RTX 4090 CUDA Version: 12.1 - TensorFlow==2.3"
        )
    )
    assert tf23.supported == "no" and "10.1" in tf23.reason
    tf112 = software_support(
        SoftwareSupportQuery(gpu="RTX 3090", software="but tensorflow=1.12.0 needs cuda 9.2")
    )
    assert tf112.supported == "no"
