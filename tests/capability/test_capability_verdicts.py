"""The verdict table: real catalog cards through match_gpu, exact verdicts and missing items."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from assistant.knowledge.topics import get_topic
from assistant.tools.capability import CapabilityQuery, assess, check_capability, list_topics

CASES = [
    # gpu, topic, verdict, missing
    (
        "RTX 4090",
        "megakernels",
        "partial",
        ["tma", "wgmma or tcgen05", "shared memory ≥ 227 KB per SM", "VRAM ≥ 40 GB"],
    ),
    ("RTX 5090", "tcgen05", "no", ["tcgen05"]),
    ("B200", "tcgen05", "yes", []),
    ("H100", "wgmma", "yes", []),
    ("RTX 4090", "FP8", "yes", []),
    ("T4", "FP8", "no", ["fp8"]),
    ("MI300X", "tcgen05", "no", ["NVIDIA GPU"]),
    ("H100", "megakernels", "yes", []),
    (
        "RTX 5090",
        "megakernels",
        "partial",
        ["wgmma or tcgen05", "shared memory ≥ 227 KB per SM", "VRAM ≥ 40 GB"],
    ),
    ("RTX 5090", "TMA", "yes", []),
    ("RTX 5090", "Tensor Memory", "no", ["tmem"]),
    ("RTX 5090", "FP4", "yes", []),
    ("H100", "FP4", "no", ["fp4_fp6"]),
    ("B300", "tmem", "yes", []),
    ("GB10", "tcgen05", "no", ["tcgen05"]),
    ("T4", "partie 4", "no", ["cp_async"]),
    ("RTX 3060", "partie 4", "partial", ["tma", "wgmma", "tcgen05"]),
    ("H100", "partie 4", "partial", ["tcgen05"]),
    ("T4", "partie 2", "yes", []),
    ("T4", "part 7", "partial", ["bf16"]),
    ("M3 Max", "partie 1", "yes", []),
    ("M3 Max", "Metal", "yes", []),
    ("M3 Max", "CUDA", "no", ["NVIDIA GPU"]),
    ("MI300X", "ROCm", "yes", []),
    ("RTX 4090", "ROCm", "no", ["AMD GPU"]),
    ("GTX 1660", "tensor core mma", "no", ["tensor_cores"]),
    ("T4", "Triton", "partial", ["compute capability ≥ 8.0"]),
    ("V100", "Nsight", "partial", ["compute capability ≥ 7.5"]),
    ("P100", "Nsight", "no", ["compute capability ≥ 7.0"]),
    ("H100", "TMA/wgmma GEMM", "yes", []),
    ("RTX 5090", "tcgen05 kernels", "no", ["tcgen05", "tmem"]),
    ("L4", "FP8 training", "yes", []),
]


@pytest.mark.parametrize(("gpu", "topic", "verdict", "missing"), CASES)
def test_verdict_table(gpu: str, topic: str, verdict: str, missing: list[str]) -> None:
    v = check_capability(CapabilityQuery(gpu=gpu, topic=topic))
    assert (v.verdict, v.missing) == (verdict, missing)
    assert v.sources and v.reasons


def test_4090_megakernels_gives_the_corpus_answer() -> None:
    v = check_capability(CapabilityQuery(gpu="my 4090", topic="megakernels"))
    assert v.gpu == "GeForce RTX 4090"
    assert v.verdict == "partial"
    text = " ".join(v.reasons)
    assert "work on any architecture" in text
    assert "Ada Lovelace (sm_89) has no Tensor Memory Accelerator (TMA)" in text
    assert "no wgmma" in text
    assert "100 KB of shared memory per SM instead of 227 KB" in text
    assert "about 24 GB" in text
    notes = [s.note or "" for s in v.sources]
    assert any("Pouvez-vous travailler sur les megakernels" in n for n in notes)
    assert any(s.url and "docs.nvidia.com" in s.url for s in v.sources)
    assert v.corpus_note is None
    assert v.cheapest_alternative and "H100" in v.cheapest_alternative


def test_5090_tcgen05_says_the_corpus_differs() -> None:
    v = check_capability(CapabilityQuery(gpu="RTX 5090", topic="tcgen05"))
    assert v.verdict == "no"
    assert v.compute_capability == "12.0"
    assert "sm_120a" in v.reasons[0] and "only on CC 10.0 via sm_100a" in v.reasons[0]
    assert v.corpus_note is not None
    assert "la Tensor Memory" in v.corpus_note and "1.4 L'achat" in v.corpus_note
    assert v.cheapest_alternative and "B200" in v.cheapest_alternative


def test_b200_tcgen05_has_no_corpus_note() -> None:
    v = check_capability(CapabilityQuery(gpu="B200", topic="tcgen05"))
    assert v.corpus_note is None
    assert v.cheapest_alternative is None
    assert any("compile for sm_100a" in r for r in v.reasons)


def test_unknown_gpu_gives_suggestions_never_specs() -> None:
    v = check_capability(CapabilityQuery(gpu="RTX 9090", topic="megakernels"))
    assert v.verdict == "unknown"
    assert v.gpu == "RTX 9090"
    assert v.compute_capability is None and v.arch_target is None and v.sources == []
    assert "GeForce RTX 4090" in v.suggestions


def test_unknown_topic_gives_topic_suggestions() -> None:
    v = check_capability(CapabilityQuery(gpu="RTX 4090", topic="megakernal"))
    assert v.verdict == "unknown"
    assert v.suggestions[0] == "megakernels"


def test_empty_input_is_a_validation_error() -> None:
    with pytest.raises(ValidationError):
        CapabilityQuery(gpu="", topic="tma")


def test_fixture_cards_without_catalog(ada_24gb, hopper_80gb, amd_192gb) -> None:
    mk = get_topic("megakernels")
    assert mk is not None
    assert assess(ada_24gb, mk).verdict == "partial"
    assert assess(hopper_80gb, mk).verdict == "yes"
    assert assess(amd_192gb, mk).verdict == "partial"
    tc = get_topic("tcgen05")
    assert tc is not None
    assert assess(amd_192gb, tc).verdict == "no"


def test_list_topics_has_parts_and_features() -> None:
    keys = {t.key: t for t in list_topics()}
    assert keys["megakernels"].part == 8
    assert keys["tcgen05"].kind == "feature"
    assert {"triton", "rocm_hip", "metal_mojo", "nsight_profiling", "fp4_inference"} <= set(keys)


@pytest.mark.parametrize(
    ("gpu", "topic", "verdict"),
    [
        ("MI300X", "fp8", "yes"),  # CDNA 3 MFMA takes FP8 (FNUZ)
        ("MI300X", "bf16", "yes"),
        ("MI300X", "fp4_fp6", "no"),
        ("RX 7900 XTX", "fp8", "no"),  # RDNA 3 WMMA: FP16/BF16 only
        ("RX 7900 XTX", "bf16", "yes"),
        ("RX 9070 XT", "fp8", "yes"),  # RDNA 4 WMMA takes FP8
        ("RX 6800 XT", "bf16", "no"),  # RDNA 2: no matrix instructions
    ],
)
def test_an_amd_card_s_number_formats_come_from_its_matrix_instructions(
    gpu: str, topic: str, verdict: str
) -> None:
    v = check_capability(CapabilityQuery(gpu=gpu, topic=topic))
    assert v.verdict == verdict, v.reasons
    assert not any("NVIDIA CUDA feature" in r for r in v.reasons)
    assert any("matrix instructions" in r for r in v.reasons)
    assert v.sources
    assert not v.cuda_only  # its own matrix cores, not a CUDA feature it lacks
    assert not any(r.startswith("Instead of CUDA") for r in v.reasons)


def test_a_cuda_feature_on_another_maker_s_card_says_what_to_use_instead() -> None:
    v = check_capability(CapabilityQuery(gpu="RX 7900 XTX", topic="wgmma"))
    assert v.verdict == "no" and v.cuda_only
    assert v.instead and any(r.startswith("Instead of CUDA") for r in v.reasons)


@pytest.mark.parametrize("gpu", ["Arc A380", "Apple M2"])
def test_a_number_format_on_intel_or_apple_is_not_called_missing(gpu: str) -> None:
    """BF16 is no CUDA invention: Intel's and Apple's GPUs have their own forms, which the data
    does not describe, so the verdict is unknown, never a "no" it cannot back."""
    verdict = check_capability(CapabilityQuery(gpu=gpu, topic="bf16"))
    assert verdict.verdict == "unknown", verdict
    assert "does not describe" in verdict.reasons[0]


def test_a_known_card_with_an_unsettled_verdict_is_not_called_unknown() -> None:
    from assistant import ask

    answer = ask("Does the Arc A770 support BF16?")
    assert "I know no GPU called" not in answer.text, answer.text
    assert "Not known here" in answer.text


def test_triton_runs_on_intel_gpus_with_a_note_only_they_get() -> None:
    """Intel's XPU backend runs Triton on Max, Flex and Arc cards; the note about it is shown
    for Intel cards and never under an NVIDIA card's verdict."""
    intel = check_capability(CapabilityQuery(gpu="Data Center GPU Max 1550", topic="triton"))
    assert intel.verdict == "yes" and not intel.cuda_only
    assert any("XPU backend" in r for r in intel.reasons)
    assert any("intel-xpu-backend-for-triton" in (s.url or "") for s in intel.sources)
    nvidia = check_capability(CapabilityQuery(gpu="H100", topic="triton"))
    assert not any("XPU backend" in r for r in nvidia.reasons)
    apple = check_capability(CapabilityQuery(gpu="Apple M2", topic="triton"))
    assert apple.verdict == "no"


@pytest.mark.parametrize(
    ("question", "metal"),
    [
        ("Our Mac Pro 2019 has a Radeon Pro W6800X: can it run CUDA code under macOS?", True),
        ("Can my RX 6800 run CUDA code on Ubuntu?", False),
    ],
)
def test_an_amd_card_under_macos_is_sent_to_metal_not_rocm(question: str, metal: bool) -> None:
    from assistant import ask

    text = ask(question).text
    assert ("no ROCm" in text) is metal, text
    assert ("Use AMD ROCm" in text) is not metal, text
