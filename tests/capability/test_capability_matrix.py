"""Feature sets and per-SM limits by compute capability, checked against exact values."""

from __future__ import annotations

import pytest

from assistant.knowledge.features import (
    corpus_claims_for,
    feature_support,
    features_for_card,
    features_for_cc,
    normalize_cc,
    sm_limits,
)

AMPERE = {
    "tensor_cores",
    "mma_sync",
    "ldmatrix",
    "mma_sync_m16n8k16",
    "cp_async",
    "bf16",
    "tf32",
    "sparsity_2_4",
}
ADA = AMPERE | {"fp8"}

FP16 = {"fp16_math", "fp16_full_rate"}  # native FP16 math, at least at the FP32 rate

EXPECTED = {
    "7.0": FP16 | {"tensor_cores"},
    "7.5": FP16 | {"tensor_cores", "mma_sync", "ldmatrix"},
    "8.0": FP16 | AMPERE | {"fp64_tensor"},
    "8.6": FP16 | AMPERE,
    "8.9": FP16 | ADA,
    "9.0": FP16 | ADA | {"tma", "clusters", "dsmem", "wgmma", "fp64_tensor", "dpx"},
    "10.0": FP16
    | ADA
    | {"tma", "clusters", "dsmem", "tcgen05", "tmem", "fp4_fp6", "fp64_tensor", "dpx"},
    "10.3": FP16 | ADA | {"tma", "clusters", "dsmem", "tcgen05", "tmem", "fp4_fp6", "dpx"},
    "11.0": FP16 | ADA | {"tma", "clusters", "dsmem", "tcgen05", "tmem", "fp4_fp6"},  # Thor
    "12.0": FP16 | ADA | {"tma", "clusters", "dsmem", "fp4_fp6"},
    "12.1": FP16 | ADA | {"tma", "clusters", "dsmem", "fp4_fp6"},
    "6.1": {"fp16_math"},  # FP16 at 1/64 of the FP32 rate
    "5.2": set(),
}


@pytest.mark.parametrize("cc", sorted(EXPECTED))
def test_exact_feature_set(cc: str) -> None:
    have = {s.key for s in features_for_cc(cc) if s.supported}
    assert have == EXPECTED[cc]


@pytest.mark.parametrize(
    ("feature", "cc", "status", "target"),
    [
        ("wgmma", "9.0", "needs_target", "sm_90a"),
        ("tcgen05", "10.0", "needs_target", "sm_100a"),
        ("tmem", "10.3", "needs_target", "sm_103a"),
        ("fp4_fp6", "12.0", "needs_target", "sm_120a"),
        ("tcgen05", "12.0", "no", None),
        ("tmem", "12.1", "no", None),
        ("wgmma", "10.0", "no", None),
        ("tma", "12.0", "yes", None),
        ("cp_async", "7.5", "no", None),
        ("fp8", "8.9", "yes", None),
        ("fp8", "8.6", "no", None),
        ("tcgen05", "11.0", "needs_target", "sm_110a"),  # Jetson Thor
        ("wgmma", "11.0", "no", None),
        ("tcgen05", "11.1", "unknown", None),  # a compute capability the data does not have
    ],
)
def test_feature_support_status(feature: str, cc: str, status: str, target: str | None) -> None:
    s = feature_support(feature, cc)
    assert (s.status, s.required_target) == (status, target)
    assert s.sources


def test_arch_target_of_the_card_unlocks_arch_specific_features() -> None:
    assert feature_support("wgmma", "9.0", "sm_90a").status == "yes"
    assert feature_support("wgmma", "9.0", "sm_90").status == "needs_target"
    assert feature_support("tcgen05", None, "sm_100a").status == "yes"
    assert feature_support("tcgen05", None, "sm_120a").status == "no"


@pytest.mark.parametrize(
    ("cc", "smem_sm", "smem_block", "threads", "blocks", "regs"),
    [
        ("7.5", 64, 64, 1024, 16, 65536),
        ("8.0", 164, 163, 2048, 32, 65536),
        ("8.6", 100, 99, 1536, 16, 65536),
        ("8.9", 100, 99, 1536, 24, 65536),
        ("9.0", 228, 227, 2048, 32, 65536),
        ("10.0", 228, 227, 2048, 32, 65536),
        ("12.0", 100, 99, 1536, 24, 65536),
    ],
)
def test_sm_limits(
    cc: str, smem_sm: int, smem_block: int, threads: int, blocks: int, regs: int
) -> None:
    lim = sm_limits(cc)
    assert lim is not None
    got = (
        lim.shared_memory_per_sm_kb,
        lim.shared_memory_per_block_kb,
        lim.threads_per_sm,
        lim.blocks_per_sm,
        lim.registers_per_sm,
    )
    assert got == (smem_sm, smem_block, threads, blocks, regs)
    assert lim.warps_per_sm * 32 == lim.threads_per_sm


def test_sm_limits_unknown_cc_is_none() -> None:
    assert sm_limits("3.0") is None
    assert sm_limits("sm_89") is not None and sm_limits("sm_89").cc == "8.9"


@pytest.mark.parametrize(
    ("raw", "cc"),
    [
        ("sm_89", "8.9"),
        ("sm_120a", "12.0"),
        ("sm_90a", "9.0"),
        ("10.3", "10.3"),
        ("9", "9.0"),
        ("compute_100", "10.0"),
        ("CC 12.1", "12.1"),
        ("", None),
        ("none", None),
    ],
)
def test_normalize_cc(raw: str, cc: str | None) -> None:
    assert normalize_cc(raw) == cc


def test_non_nvidia_cards_get_not_applicable(amd_192gb) -> None:
    out = features_for_card(amd_192gb)
    assert {s.status for s in out} == {"not_applicable"}
    assert "AMD GPUs do not run CUDA" in out[0].note


def test_card_exception_gtx16_has_no_tensor_cores(make_card) -> None:
    gtx = make_card(name="GeForce GTX 1660 Super", architecture="Turing", compute_capability="7.5")
    rtx = make_card(name="GeForce RTX 2060", architecture="Turing", compute_capability="7.5")
    assert {s.key: s.supported for s in features_for_card(gtx)}["tensor_cores"] is False
    assert {s.key: s.supported for s in features_for_card(rtx)}["tensor_cores"] is True


def test_corpus_claims_scoped_by_cc() -> None:
    assert [c.key for c in corpus_claims_for("tcgen05", "12.0")] == [
        "rtx5090_tcgen05_table",
        "rtx5090_tcgen05_tmem_recommendation",
    ]
    assert corpus_claims_for("tcgen05", "10.0") == []
    assert [c.key for c in corpus_claims_for("tma", "12.0")] == [
        "hopper_only_tma_clusters",
        "no_consumer_tma_clusters",
    ]
    assert [c.key for c in corpus_claims_for("fp8", "8.9")] == ["fp8_listed_under_hopper"]
