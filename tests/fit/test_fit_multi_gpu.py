"""Several cards, identical or not: sharded against one copy per card, from hand calculations."""

from __future__ import annotations

import pytest

from assistant.tools.fit import FitQuery, estimate_fit
from assistant.tools.fit.cards import split_cards

GB = 2**30


def test_four_a10g_llama2_70b_fp16_does_not_fit_even_sharded_but_fits_at_8_bit() -> None:
    fp16 = estimate_fit(FitQuery(model="Llama 2 70B", gpus=["4x A10G"], precision="fp16"))
    assert fp16.multi_gpu is not None and fp16.multi_gpu.cards == 4
    assert fp16.multi_gpu.total_vram_gb == 96  # 4 x 24 GB, as sold
    # weights alone: 68.98B x 2 B = 128.5 GB, more than the 96 GB of the four cards together
    assert fp16.multi_gpu.sharded_gb > 96 and fp16.multi_gpu.whole_gb > 128
    assert fp16.verdict == "does_not_fit"
    assert all(c.verdict == "does_not_fit" for c in fp16.cards)
    assert "not one pool" in fp16.message and "pas un seul bloc" in fp16.message_fr
    int8 = estimate_fit(FitQuery(model="Llama 2 70B", gpus=["4x A10G"], precision="int8"))
    assert int8.verdict == "fits"
    # each card: a quarter of the sharded part plus its own activations and CUDA context
    shared, kept = int8.multi_gpu.sharded_gb, int8.multi_gpu.per_card_gb  # type: ignore[union-attr]
    assert int8.total_gb == pytest.approx(shared / 4 + kept, abs=0.02)
    assert any("8" in o.change or "int" in o.change for o in fp16.fits_with)


def test_identical_cards_by_count_equal_a_list() -> None:
    by_count = estimate_fit(
        FitQuery(model="Llama 3.1 70B", gpu="A10G", num_gpus=4, precision="int8")
    )
    by_list = estimate_fit(FitQuery(model="Llama 3.1 70B", gpus=["A10G"] * 4, precision="int8"))
    assert by_count.total_gb == by_list.total_gb and by_count.verdict == by_list.verdict


def test_replicate_needs_the_whole_model_on_each_card() -> None:
    shard = estimate_fit(
        FitQuery(model="Llama 3.1 8B", gpus=["2x RTX 3060 12GB"], precision="bf16")
    )
    copy = estimate_fit(
        FitQuery(
            model="Llama 3.1 8B", gpus=["2x RTX 3060 12GB"], precision="bf16", multi_gpu="replicate"
        )
    )
    one = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="RTX 3060 12GB", precision="bf16"))
    assert shard.verdict == "fits" and copy.verdict == "does_not_fit"
    assert copy.total_gb == one.total_gb  # every card holds all of it
    assert copy.multi_gpu is not None and copy.multi_gpu.whole_gb == pytest.approx(
        2 * one.total_gb, abs=0.02
    )  # type: ignore[operator]
    assert any(n.startswith("One copy per card") for n in copy.multi_gpu.notes)


def test_mixed_cards_share_in_proportion_to_memory() -> None:
    result = estimate_fit(
        FitQuery(model="Llama 3.1 70B", gpus=["RTX 3060 12GB + RTX 3090"], precision="q4_k_m")
    )
    assert result.multi_gpu is not None and result.multi_gpu.total_vram_gb == 36
    loads = {c.gpu: c.load_gb for c in result.cards}
    shared, kept = result.multi_gpu.sharded_gb, result.multi_gpu.per_card_gb
    assert loads["GeForce RTX 3090"] == pytest.approx(shared * 24 / 36 + kept, abs=0.02)
    assert loads["GeForce RTX 3060 12GB"] == pytest.approx(shared * 12 / 36 + kept, abs=0.02)
    # the smallest card is the fullest relative to its size: its figures are reported
    assert result.total_gb == pytest.approx(loads["GeForce RTX 3060 12GB"], abs=0.02)
    assert any("Different cards" in n for n in result.multi_gpu.notes)


def test_interconnect_note_follows_the_catalog() -> None:
    pcie = estimate_fit(FitQuery(model="Llama 3.1 70B", gpus=["2x RTX 4090"], precision="int4"))
    assert pcie.multi_gpu is not None and pcie.multi_gpu.interconnect == "pcie"
    assert any(n.startswith("No NVLink") for n in pcie.multi_gpu.notes)
    nvlink = estimate_fit(FitQuery(model="Llama 3.1 70B", gpus=["8x H100 SXM"], precision="bf16"))
    assert nvlink.multi_gpu is not None and nvlink.multi_gpu.interconnect == "nvlink"
    assert nvlink.verdict == "fits"


def test_unknown_card_among_several_is_a_value() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 8B", gpus=["RTX 3090", "RTX 9999"]))
    assert result.verdict == "unknown" and "RTX 9999" in result.message and result.total_gb is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4x A10G", [(4, "A10G")]),
        ("RTX 3090 + RTX 4090", [(1, "RTX 3090"), (1, "RTX 4090")]),
        ("2 × 3090, 4090", [(2, "3090"), (1, "4090")]),
        ("A100 x8", [(8, "A100")]),
        ("3090 et 4090", [(1, "3090"), (1, "4090")]),
    ],
)
def test_split_cards(text: str, expected: list[tuple[int, str]]) -> None:
    assert split_cards(text) == expected


def test_a_count_without_a_card_still_splits_the_model() -> None:
    one = estimate_fit(FitQuery(model="Llama 3.1 70B", precision="int4"))
    two = estimate_fit(FitQuery(model="Llama 3.1 70B", precision="int4", num_gpus=2))
    w1 = sum(x.gb for x in one.breakdown if x.item == "weights")
    w2 = sum(x.gb for x in two.breakdown if x.item == "weights")
    assert w2 == pytest.approx(w1 / 2, abs=0.002)


def test_equal_shares_with_a_count_and_no_card_split_like_the_default() -> None:
    query = {"model": "Llama 3.1 70B", "precision": "int4", "vram_gb": 24, "num_gpus": 2}
    even = estimate_fit(FitQuery(**query))
    equal = estimate_fit(FitQuery(**query, multi_gpu="equal"))
    assert equal.total_gb == even.total_gb and equal.verdict == even.verdict
