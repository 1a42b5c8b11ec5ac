"""Every catalog row: parses, is unique, is sourced, and its CUDA figures agree with its CC."""

from __future__ import annotations

import tomllib

import pytest

from assistant.knowledge.gpus import FIGURE_FIELDS, GpuCard, load_catalog
from assistant.knowledge.loader import data_path
from assistant.knowledge.matching import normalize_gpu_name

CATALOG = load_catalog()
CARDS = CATALOG.gpus
IDS = [c.name for c in CARDS]

# Per-SM shared memory, max per block (KB) and FP64 ratio by compute capability
# (CUDA Programming Guide 13.x Tables 30-31; 6.0 and 7.0 from the legacy guide).
CC_LIMITS = {
    "6.0": (64, 48, "1/2"),
    "6.2": (64, 48, "1/32"),  # Jetson TX2: FP64 4 results/clock/SM against 128 FP32
    "7.0": (96, 96, "1/2"),
    "7.2": (96, 96, "1/32"),  # Jetson Xavier: FP64 2 results/clock/SM against 64 FP32
    "7.5": (64, 64, "1/32"),
    "8.0": (164, 163, "1/2"),
    "8.6": (100, 99, "1/64"),
    "8.7": (164, 163, "1/64"),
    "8.9": (100, 99, "1/64"),
    "9.0": (228, 227, "1/2"),
    "10.0": (228, 227, "1/2"),
    "10.3": (228, 227, "1/64"),
    "11.0": (228, 227, None),  # Thor: CCCL's sm_110 traits; no FP64 rate published
    "12.0": (100, 99, "1/64"),
    "12.1": (100, 99, "1/64"),
}


def test_catalog_size_and_vendors() -> None:
    assert len(CARDS) >= 45
    vendors = {c.vendor for c in CARDS}
    assert vendors == {"nvidia", "amd", "apple"}
    assert {c.segment for c in CARDS} >= {"consumer", "laptop", "datacenter", "embedded", "apple"}


def test_raw_rows_parse_strictly() -> None:
    raw = tomllib.loads(data_path("gpus.toml").read_text(encoding="utf-8"))["gpu"]
    assert len(raw) == len(CARDS)
    for row in raw:
        GpuCard.model_validate(row)


def test_unknown_field_is_rejected() -> None:
    row = CARDS[0].model_dump()
    row["vram"] = 24
    with pytest.raises(ValueError):
        GpuCard.model_validate(row)


def test_names_unique() -> None:
    normalized = [normalize_gpu_name(c.name) for c in CARDS]
    assert len(set(normalized)) == len(normalized)


def test_no_alias_shared_by_two_cards() -> None:
    owner: dict[str, str] = {}
    for card in CARDS:
        for key in {normalize_gpu_name(k) for k in (card.name, *card.aliases)}:
            assert key not in owner, f"'{key}' names both {owner[key]} and {card.name}"
            owner[key] = card.name


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_every_figure_has_a_source(card: GpuCard) -> None:
    assert card.sources, card.name
    for field in FIGURE_FIELDS:
        if getattr(card, field) is not None:
            sources = card.source_for(field)
            assert sources and all(s.title for s in sources), (card.name, field)
    for source in [*card.sources, *card.figure_sources.values()]:
        assert source.url or source.title.startswith("Corpus") or source.note, source


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_compute_capability_and_target(card: GpuCard) -> None:
    if card.vendor != "nvidia":
        assert card.compute_capability is None
        if card.vendor == "amd":
            assert card.arch_target and card.arch_target.startswith("gfx")
            assert card.compute_units_kind == "CU"
        else:
            assert card.compute_units_kind == "GPU core"
        return
    cc = card.compute_capability
    assert cc in CC_LIMITS or card.shared_memory_per_sm_kb is None, card.name
    major, minor = cc.split(".")
    assert card.arch_target is not None
    assert card.arch_target.removeprefix("sm_").rstrip("af") == f"{major}{minor}"
    # The arch-specific target where it unlocks features (wgmma, tcgen05, block-scaled FP4).
    if cc in {"9.0", "10.0", "10.3", "11.0", "12.0", "12.1"}:
        assert card.arch_target.endswith("a"), card.name
    else:
        assert not card.arch_target.endswith("a"), card.name


@pytest.mark.parametrize("card", [c for c in CARDS if c.vendor == "nvidia"], ids=lambda c: c.name)
def test_nvidia_limits_follow_compute_capability(card: GpuCard) -> None:
    assert card.compute_capability is not None
    if card.compute_capability not in CC_LIMITS:
        # A compute capability the tables here lack: no figure is guessed.
        assert card.shared_memory_per_sm_kb is None and card.fp64_ratio is None, card.name
        return
    per_sm, per_block, ratio = CC_LIMITS[card.compute_capability]
    assert card.shared_memory_per_sm_kb == per_sm
    assert card.shared_memory_per_block_kb == per_block
    # A cut-down board (the H20) may leave its FP64 rate unstated; when given it follows the CC.
    assert card.fp64_ratio in (ratio, None), card.name


def test_limits_agree_with_feature_data() -> None:
    features = pytest.importorskip("assistant.knowledge.features")
    for card in CARDS:
        if card.vendor != "nvidia":
            continue
        limits = features.sm_limits(card.compute_capability)
        if limits is None:
            continue
        assert limits.shared_memory_per_sm_kb == card.shared_memory_per_sm_kb, card.name
        assert limits.shared_memory_per_block_kb == card.shared_memory_per_block_kb, card.name


@pytest.mark.parametrize(
    ("name", "cc", "target", "vram", "sms"),
    [
        ("GeForce RTX 5090", "12.0", "sm_120a", 32, 170),
        ("GeForce RTX 4090", "8.9", "sm_89", 24, 128),
        ("GeForce RTX 3090", "8.6", "sm_86", 24, 82),
        ("GeForce RTX 3060 12GB", "8.6", "sm_86", 12, 28),
        ("T4", "7.5", "sm_75", 16, 40),
        ("A100 80GB SXM4", "8.0", "sm_80", 80, 108),
        ("H100 SXM5 80GB", "9.0", "sm_90a", 80, 132),
        ("H100 PCIe 80GB", "9.0", "sm_90a", 80, 114),
        ("B200", "10.0", "sm_100a", 180, None),
        ("B300", "10.3", "sm_103a", 288, None),
        ("GB10 (DGX Spark)", "12.1", "sm_121a", 128, 48),
        ("Jetson AGX Orin 64GB", "8.7", "sm_87", 64, 16),
    ],
)
def test_key_figures(name: str, cc: str, target: str, vram: float, sms: int | None) -> None:
    card = CATALOG.by_name(name)
    assert card is not None
    assert (card.compute_capability, card.arch_target, card.vram_gb, card.sm_count) == (
        cc,
        target,
        vram,
        sms,
    )


def test_dense_fp16_tensor_figures() -> None:
    expected = {
        "RTX 4090": 165.2,
        "RTX 3090": 71,
        "RTX 5090": 209.5,
        "H100 SXM": 989.4,
        "A100": 312,
    }
    for name, tflops in expected.items():
        card = CATALOG.by_name(name)
        assert card is not None and card.fp16_tensor_tflops == tflops, name


def test_no_tensor_figure_for_cards_without_tensor_cores() -> None:
    for name in ("GTX 1660", "P100"):
        card = CATALOG.by_name(name)
        assert card is not None and card.fp16_tensor_tflops is None


def test_consumer_nvlink() -> None:
    linked = {c.name for c in CARDS if c.segment == "consumer" and c.nvlink}
    assert linked == {"GeForce RTX 2080 Ti", "GeForce RTX 3090", "GeForce RTX 3090 Ti"}


def test_corpus_corrections_are_recorded() -> None:
    rtx5090 = CATALOG.by_name("RTX 5090")
    assert rtx5090 is not None and rtx5090.corpus_note and "tcgen05" in rtx5090.corpus_note
    b200 = CATALOG.by_name("B200")
    assert b200 is not None and b200.corpus_note and "192" in b200.corpus_note


def test_corpus_cards_present() -> None:
    for name in (
        "T4", "P100", "GTX 1660", "RTX 3060 12GB", "3090", "4070 Ti Super", "4090", "5090",
        "RTX 6000 Ada", "L4", "L40S", "A100 40GB", "A100 80GB", "H100", "H200", "B200",
        "MI250X", "MI300X", "M2 Max",
    ):  # fmt: skip
        assert CATALOG.by_name(name) is not None, name


def test_load_catalog_is_cached() -> None:
    assert load_catalog() is CATALOG


def test_every_note_has_its_french_text() -> None:
    noted = [c for c in CATALOG.gpus if c.notes]
    assert noted
    assert [c.name for c in noted if not c.notes_fr] == []
