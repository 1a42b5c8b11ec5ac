"""software_support: toolkit and PyTorch verdicts per compute capability, from hand-checked facts
(NVIDIA release notes and PTX ISA history, PyTorch's build lists and issue reports)."""

from __future__ import annotations

import pytest

from assistant.knowledge.cuda_support import (
    get_arch,
    get_toolkit,
    load_cuda_support,
    parse_cc,
    wheels_for,
)
from assistant.tools.software import SoftwareSupportQuery, software_support


def check(gpu: str, software: str):
    return software_support(SoftwareSupportQuery(gpu=gpu, software=software))


def test_every_row_has_a_source_and_the_table_is_consistent() -> None:
    data = load_cuda_support()
    assert all(a.sources for a in data.arches)
    assert all(t.sources for t in data.toolkits)
    assert all(w.sources for w in data.wheels)
    ccs = {a.cc for a in data.arches}
    for wanted in (
        "3.5",
        "5.0",
        "6.1",
        "7.0",
        "7.5",
        "8.6",
        "8.9",
        "9.0",
        "10.0",
        "10.3",
        "11.0",
        "12.0",
        "12.1",
    ):
        assert wanted in ccs
    assert {t.name for t in data.targets} >= {"sm_90a", "sm_100a", "sm_100f", "sm_120a", "sm_120f"}
    assert {w.variant for w in data.wheels} >= {
        "cu118",
        "cu121",
        "cu124",
        "cu126",
        "cu128",
        "cu129",
        "cu130",
    }


def test_first_and_last_toolkits_per_cc() -> None:
    assert (get_arch("6.1").first_toolkit, get_arch("6.1").last_toolkit) == ("8.0", "12.9")
    assert (get_arch("3.7").first_toolkit, get_arch("3.7").last_toolkit) == ("6.5", "11.8")
    assert (get_arch("8.9").first_toolkit, get_arch("8.9").last_toolkit) == ("11.8", None)
    assert get_arch("12.0").first_toolkit == "12.8"
    assert get_arch("12.1").first_toolkit == "12.9"
    assert get_arch("7.5").builds_with("13.0") and not get_arch("7.0").builds_with("13.0")


def test_driver_minimums() -> None:
    assert (get_toolkit("12.8").driver_linux, get_toolkit("12.8").driver_windows) == (
        "570.26",
        "570.65",
    )
    assert get_toolkit("13.0").driver_linux == "580.65.06"
    assert get_toolkit("13").version == "13.0"


def test_cc_text_is_read_strictly() -> None:
    assert parse_cc("sm_61") == "6.1"
    assert parse_cc("compute_120") == "12.0"
    assert parse_cc("CC 8.9") == "8.9"
    assert parse_cc("sm_90a") == "9.0"
    assert parse_cc("RTX 4090") is None
    assert parse_cc("GTX 1080") is None


def test_pascal_with_cuda_13_is_no_and_names_the_last_toolkit() -> None:
    result = check("sm_61", "CUDA 13")
    assert result.supported == "no"
    assert result.last == "CUDA 12.9" and result.minimum == "CUDA 8.0"
    assert "12.9" in result.fix and "12.9" in result.fix_fr
    assert "cu126" in result.fix  # the newest PyTorch wheels with Pascal kernels
    assert any("13.0" in s.title for s in result.sources)


def test_v100_with_cuda_13_is_no() -> None:
    result = check("Tesla V100", "CUDA 13.0")
    assert result.compute_capability == "7.0"
    assert result.supported == "no" and result.last == "CUDA 12.9"
    assert result.driver_linux == "580.65.06"


def test_rtx_5090_with_an_old_toolkit_needs_12_8_and_its_driver() -> None:
    result = check("RTX 5090", "CUDA 12.4")
    assert result.supported == "no" and result.minimum == "CUDA 12.8"
    assert "570.26" in result.fix and "570.65" in result.fix


def test_a_major_series_that_only_partly_supports_the_card() -> None:
    result = check("RTX 5090", "CUDA 12")
    assert result.supported == "partial"
    assert "12.8" in result.reason


def test_rtx_5090_with_pytorch_cu124_is_no_and_points_to_cu128() -> None:
    result = check("RTX 5090", "PyTorch cu124")
    assert result.kind == "pytorch" and result.supported == "no"
    assert result.minimum == "PyTorch 2.7 (cu128)"
    assert "cu128" in result.fix and "2.7" in result.fix
    assert all(not w.runs for w in result.wheels)
    assert "sm_120" not in result.wheels[0].architectures


def test_rtx_5090_with_pytorch_2_7_cu128_is_yes() -> None:
    result = check("RTX 5090", "2.7.0+cu128")
    assert result.supported == "yes"
    assert [(w.variant, w.torch, w.how) for w in result.wheels] == [("cu128", "2.7", "sass")]


def test_pascal_with_pytorch_2_8_depends_on_the_wheel() -> None:
    result = check("sm_61", "PyTorch 2.8")
    assert result.supported == "partial"
    runs = {w.variant: w.runs for w in result.wheels}
    assert runs == {"cu126": True, "cu128": False, "cu129": False}
    narrowed = check("sm_61", "torch 2.8 cu128")
    assert narrowed.supported == "no"
    assert "cu126" in narrowed.fix and "torch==2.8" in narrowed.fix


def test_an_ada_card_runs_on_ampere_sass() -> None:
    # no wheel ships sm_89; sm_86 machine code runs on 8.9
    result = check("RTX 4090", "PyTorch 2.5 cu124")
    assert result.supported == "yes"
    assert result.wheels[0].how == "sass"
    assert "sm_89" not in result.wheels[0].architectures


def test_sass_runs_on_later_minors_and_ptx_on_later_majors() -> None:
    ((wheel, _),) = wheels_for("cu129", "2.8")
    assert wheel.runs("12.1") == "sass"  # sm_120 machine code runs on 12.1 (GB10)
    assert wheel.runs("9.0") == "sass"
    assert wheel.runs("6.1") is None
    hopper_ptx = wheel.model_copy(update={"sm": ["9.0"], "ptx": ["9.0"]})
    assert hopper_ptx.runs("12.0") == "ptx"  # compute_90 PTX is compiled by the driver
    assert hopper_ptx.runs("8.9") is None  # PTX never runs on an older CC


def test_not_nvidia_and_unknown_inputs_are_values_not_errors() -> None:
    amd = check("MI300X", "CUDA 12.4")
    assert amd.supported == "not_applicable" and "ROCm" in amd.reason
    unknown = check("Voodoo 5 6000", "CUDA 12.4")
    assert unknown.supported == "unknown" and unknown.compute_capability is None
    unreadable = check("RTX 4090", "banana")
    assert unreadable.supported == "unknown" and unreadable.minimum == "CUDA 11.8"
    no_data = check("RTX 4090", "PyTorch 0.4")
    assert no_data.supported == "unknown" and "2.0" in no_data.reason


@pytest.mark.parametrize("field", ["gpu", "software"])
def test_empty_input_is_rejected_by_the_model(field: str) -> None:
    from pydantic import ValidationError

    args = {"gpu": "RTX 4090", "software": "CUDA 12.4", field: ""}
    with pytest.raises(ValidationError):
        SoftwareSupportQuery(**args)


def test_gtx_1080_by_name() -> None:
    cuda13 = check("GTX 1080", "CUDA 13")
    assert (cuda13.gpu, cuda13.compute_capability) == ("GeForce GTX 1080", "6.1")
    assert cuda13.supported == "no" and cuda13.last == "CUDA 12.9"
    torch29 = check("GTX 1080", "PyTorch 2.9")
    assert torch29.supported == "partial"
    assert "torch==2.9.*" in torch29.fix and torch29.fix.endswith("/whl/cu126")


def test_an_installed_driver_older_than_the_major_release_needs_turns_yes_into_no() -> None:
    # nvidia-smi's line pasted in a question: 470 is below the 525.60.13 every CUDA 12.x needs
    r = software_support(
        SoftwareSupportQuery(gpu="RTX 3090", software="CUDA 12.4, Driver Version: 470.182.03")
    )
    assert r.supported == "no"
    assert "470.182.03" in r.reason and "525.60.13" in r.reason
    assert r.fix and "525.60.13" in r.fix


def test_minor_version_compatibility_lets_a_12_0_driver_run_12_4() -> None:
    # a 12.4 build runs on any driver of the 12.x series (535 here), not only on 550+
    r = software_support(SoftwareSupportQuery(gpu="RTX 3090", software="CUDA 12.4 with driver 535"))
    assert r.supported == "yes"


def test_a_long_question_keeps_the_driver_it_pastes_at_its_end() -> None:
    from assistant.agent.offline.planner import plan_tool_calls
    from assistant.agent.offline.reading import Conversation

    question = (
        "shared lab server (4x RTX 3090), I compiled llama.cpp with CUDA 12.4 in my home dir and "
        "it says 'ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient "
        "for CUDA runtime version'. nvidia-smi shows Driver Version: 470.182.03. No root. options?"
    )
    calls = [
        c for c in plan_tool_calls(Conversation(question), set()) if c.name == "software_support"
    ]
    assert calls and "470.182.03" in calls[0].args["software"]


# Older framework releases: the CUDA their official GPU builds use decides on a newer card.


@pytest.mark.parametrize(
    ("gpu", "software", "supported"),
    [
        ("GeForce RTX 3090", "tensorflow1.8 doesn't work properly on RTX3090", "no"),
        ("GeForce RTX 3090", "TensorFlow 2.4", "yes"),
        ("GeForce RTX 4090", "torch 1.6", "no"),
        ("GeForce RTX 3090", "PyTorch 1.7 with CUDA 10.2", "no"),
        ("GeForce RTX 3090", "torch 1.8.1+cu111", "yes"),
    ],
)
def test_an_older_framework_release_on_a_newer_card(
    gpu: str, software: str, supported: str
) -> None:
    r = software_support(SoftwareSupportQuery(gpu=gpu, software=software))
    assert r.supported == supported
    assert any("tensorflow.org" in s.url or "pytorch.org" in s.url for s in r.sources)


def test_the_fix_names_the_first_release_that_runs_and_nvidias_tf1_builds() -> None:
    r = software_support(SoftwareSupportQuery(gpu="GeForce RTX 3090", software="TensorFlow 1.8"))
    assert r.minimum == "TensorFlow 2.4"
    assert r.fix is not None and "nvidia-tensorflow" in r.fix


def test_an_older_card_falls_back_to_the_programs_own_row() -> None:
    # which architectures each release compiled in is not in the data: no guess from CUDA alone
    r = software_support(SoftwareSupportQuery(gpu="Tesla K80", software="tensorflow 2.18"))
    assert r.software == "TensorFlow" and r.supported == "no"


def test_a_card_newer_than_the_oldest_wheels_gets_its_first_toolkits_driver() -> None:
    new = software_support(SoftwareSupportQuery(gpu="RTX 5090", software="PyTorch 2.7"))
    assert new.supported == "partial" and new.driver_linux == "570.26"
    old = software_support(SoftwareSupportQuery(gpu="RTX 3090", software="PyTorch 2.5"))
    assert old.driver_linux is None


def test_nvidia_smis_cuda_version_line_names_the_toolkit() -> None:
    r = software_support(
        SoftwareSupportQuery(
            gpu="Quadro RTX 6000", software="Driver Version: 550.54.14 and CUDA Version: 12.4"
        )
    )
    assert (r.software, r.supported) == ("CUDA 12.4", "yes")


@pytest.mark.parametrize(
    ("gpu", "first"),
    [
        ("RTX 3090", "PyTorch 1.7 (CUDA 11.0 build)"),  # sm_80 code runs on sm_86
        ("H100", "PyTorch 2.0 (cu118)"),  # CUDA 11.8 first built sm_90: the table's first wheel
        ("RTX 5090", "PyTorch 2.7 (cu128)"),
    ],
)
def test_the_first_pytorch_for_a_card_reaches_before_the_wheel_table(gpu: str, first: str) -> None:
    """The wheel table starts at PyTorch 2.0; a card that runs there ran on the older official
    builds whose CUDA builds for it, which the framework-build table gives."""
    result = software_support(SoftwareSupportQuery(gpu=gpu, software="PyTorch"))
    assert result.minimum == first
