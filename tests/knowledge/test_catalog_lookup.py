"""lookup_gpu and compare_gpus: exact results, unknowns as values, never a raise on a bad name."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from assistant.tools.lookup import GpuComparisonQuery, GpuQuery, compare_gpus, lookup_gpu


def _feature(result, key: str) -> dict:  # type: ignore[no-untyped-def]
    return next(f for f in result.features if f["key"] == key)


def test_lookup_5090() -> None:
    r = lookup_gpu(GpuQuery(name="5090"))
    assert r.found and r.gpu is not None
    assert r.gpu.name == "GeForce RTX 5090"
    assert (r.gpu.compute_capability, r.gpu.arch_target, r.gpu.vram_gb) == ("12.0", "sm_120a", 32)
    assert r.sources and r.sources == r.gpu.sources
    assert "tcgen05" in r.message  # the corpus correction travels with the card


def test_lookup_carries_feature_support() -> None:
    pytest.importorskip("assistant.knowledge.features")
    r = lookup_gpu(GpuQuery(name="RTX 5090"))
    assert _feature(r, "wgmma")["supported"] is False
    assert _feature(r, "tcgen05")["supported"] is False
    h100 = lookup_gpu(GpuQuery(name="H100"))
    assert _feature(h100, "wgmma")["supported"] is True
    assert _feature(h100, "wgmma")["required_target"] == "sm_90a"
    b200 = lookup_gpu(GpuQuery(name="B200"))
    assert _feature(b200, "tcgen05")["supported"] is True


def test_jetson_thor_has_the_blackwell_datacenter_tensor_core_path() -> None:
    """CC 11.0 (Thor, sm_110a) has tcgen05 and Tensor Memory, and the features every Blackwell has."""
    thor = lookup_gpu(GpuQuery(name="Jetson AGX Thor"))
    assert thor.gpu is not None and thor.gpu.compute_capability == "11.0"
    assert _feature(thor, "tcgen05")["supported"] is True
    assert _feature(thor, "tcgen05")["required_target"] == "sm_110a"
    for key in ("tmem", "tma", "bf16", "fp8", "tensor_cores", "cp_async"):
        assert _feature(thor, key)["supported"] is True, key
    assert _feature(thor, "wgmma")["supported"] is False


def test_lookup_unknown_is_a_value() -> None:
    r = lookup_gpu(GpuQuery(name="RTX 9090"))
    assert not r.found
    assert r.gpu is None and r.features == []
    assert "GeForce RTX 4090" in r.suggestions
    assert "not in the GPU catalog" in r.message and "Did you mean" in r.message


def test_lookup_short_name_lists_variants() -> None:
    r = lookup_gpu(GpuQuery(name="H100"))
    assert r.gpu is not None and r.gpu.name == "H100 SXM5 80GB"
    assert "H100 PCIe 80GB" in r.alternatives
    assert "Other variants" in r.message


def test_empty_name_is_a_validation_error() -> None:
    with pytest.raises(ValidationError):
        GpuQuery(name="")


def test_compare_needs_two_names() -> None:
    with pytest.raises(ValidationError):
        GpuComparisonQuery(gpus=["4090"])


def test_compare_3090_4090() -> None:
    c = compare_gpus(GpuComparisonQuery(gpus=["a used 3090", "RTX 4090"]))
    assert [card.name for card in c.cards] == ["GeForce RTX 3090", "GeForce RTX 4090"]
    assert c.unknown == []
    rows = {row.field: row for row in c.rows}
    assert rows["vram_gb"].values == [24, 24]
    assert rows["vram_gb"].best is None
    assert rows["bandwidth_gbs"].values == [936, 1008]
    assert rows["bandwidth_gbs"].best == "GeForce RTX 4090"
    assert rows["tdp_w"].best == "GeForce RTX 3090"
    assert rows["nvlink"].values == [True, False]
    assert "Same VRAM on every card: 24 GB." in c.notes
    assert "NVLink: only GeForce RTX 3090." in c.notes
    assert any("165.2 TFLOPS" in n for n in c.notes)


def test_compare_notes_more_vram() -> None:
    c = compare_gpus(GpuComparisonQuery(gpus=["RTX 4090", "RTX 5090", "H100"]))
    assert "H100 SXM5 80GB has the most VRAM: 80 GB (2.5× the next)." in c.notes
    assert any(
        n.startswith("H100 SXM5 80GB has the highest compute capability") is False for n in c.notes
    )
    assert any("GeForce RTX 5090 has the highest compute capability (12.0" in n for n in c.notes)


def test_compare_with_unknown_name() -> None:
    c = compare_gpus(GpuComparisonQuery(gpus=["4090", "RTX 9090", "3090"]))
    assert [card.name for card in c.cards] == ["GeForce RTX 4090", "GeForce RTX 3090"]
    assert [u.name for u in c.unknown] == ["RTX 9090"]
    assert "GeForce RTX 4090" in c.unknown[0].suggestions
    assert "'RTX 9090' is not in the GPU catalog" in c.message


def test_compare_across_vendors() -> None:
    c = compare_gpus(GpuComparisonQuery(gpus=["H100", "MI300X", "M2 Ultra"]))
    assert len(c.cards) == 3
    assert any(n.startswith("Different vendors") for n in c.notes)
    rows = {row.field: row for row in c.rows}
    assert rows["vram_gb"].values == [80, 192, 192]
    assert rows["vram_gb"].best is None  # a tie
    assert rows["bandwidth_gbs"].best == "Instinct MI300X"


def test_compare_deduplicates() -> None:
    c = compare_gpus(GpuComparisonQuery(gpus=["4090", "RTX 4090"]))
    assert len(c.cards) == 1
    assert "nothing to compare" in c.message


def test_a_rate_written_as_a_fraction_has_leaders_and_a_tie_names_them_all() -> None:
    result = compare_gpus(
        GpuComparisonQuery(gpus=["RTX 6000 Ada", "A100 40GB SXM4", "H100 SXM5 80GB"])
    )
    fp64 = next(r for r in result.rows if r.field == "fp64_ratio")
    assert fp64.values == ["1/64", "1/2", "1/2"]
    assert fp64.best is None  # a tie: no single best
    assert fp64.leaders == ["A100 40GB SXM4", "H100 SXM5 80GB"]
    vram = next(r for r in result.rows if r.field == "vram_gb")
    assert vram.best == "H100 SXM5 80GB" and vram.leaders == ["H100 SXM5 80GB"]
