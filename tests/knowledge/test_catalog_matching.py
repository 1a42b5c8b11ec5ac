"""How people write GPU names → catalog cards; unknown names → None with near names."""

from __future__ import annotations

import pytest

from assistant.knowledge.matching import (
    find_gpu_mentions,
    match_gpu,
    normalize_gpu_name,
    suggest_gpu_names,
)

ALIASES = [
    ("4090", "GeForce RTX 4090"),
    ("my 4090", "GeForce RTX 4090"),
    ("rtx4090", "GeForce RTX 4090"),
    ("RTX-4090", "GeForce RTX 4090"),
    ("GeForce RTX 4090 24GB", "GeForce RTX 4090"),
    ("NVIDIA GeForce RTX 4090", "GeForce RTX 4090"),
    ("a used RTX 3090", "GeForce RTX 3090"),
    ("5090", "GeForce RTX 5090"),
    ("RTX 5090 32 Go", "GeForce RTX 5090"),
    ("ma RTX 3060 12 Go", "GeForce RTX 3060 12GB"),
    ("RTX 3060", "GeForce RTX 3060 12GB"),
    ("une RTX 3060 d'occasion", "GeForce RTX 3060 12GB"),
    ("RTX 4070 Ti Super", "GeForce RTX 4070 Ti Super"),
    ("4070ti super", "GeForce RTX 4070 Ti Super"),
    ("4070 Super", "GeForce RTX 4070 Super"),
    ("2080Ti", "GeForce RTX 2080 Ti"),
    ("4090D", "GeForce RTX 4090 D"),  # the China-market card, glued "D"
    ("RTX 5090D", "GeForce RTX 5090 D"),
    ("GTX 1660", "GeForce GTX 1660"),
    ("H100 SXM5", "H100 SXM5 80GB"),
    ("H100", "H100 SXM5 80GB"),
    ("h100 pcie", "H100 PCIe 80GB"),
    ("H100 NVL", "H100 NVL 94GB"),
    ("an A100 80GB", "A100 80GB SXM4"),
    ("A100 40 Go", "A100 40GB SXM4"),
    ("l'A100", "A100 80GB SXM4"),
    ("A10", "A10"),
    ("A10G", "A10G"),
    ("Tesla T4", "T4"),
    ("L40S", "L40S"),
    ("L40", "L40"),
    ("RTX 6000 Ada", "RTX 6000 Ada Generation"),
    ("A6000", "RTX A6000"),
    ("RTX PRO 6000", "RTX PRO 6000 Blackwell"),
    ("DGX Spark", "GB10 (DGX Spark)"),
    ("Jetson AGX Orin", "Jetson AGX Orin 64GB"),
    ("GH200", "GH200 Grace Hopper 144GB"),
    ("Blackwell Ultra", "B300"),
    ("AMD Instinct MI300X", "Instinct MI300X"),
    ("mi325x", "Instinct MI325X"),
    ("Apple M2 Max", "Apple M2 Max"),
    ("M4 Max", "Apple M4 Max"),
]


@pytest.mark.parametrize(("text", "expected"), ALIASES)
def test_alias_matches(text: str, expected: str) -> None:
    m = match_gpu(text)
    assert m.gpu is not None, (text, m.suggestions)
    assert m.gpu.name == expected
    assert m.score == 1.0


@pytest.mark.parametrize(
    "text",
    [
        "RTX 9090",
        "GTX 2080",
        "RTX 4090 Ultra Max",
        "4090 Ti",
        "M7 Max",
        "H300",
        "GeForce",
        "",
        "2024",
    ],
)
def test_unknown_names_are_not_invented(text: str) -> None:
    m = match_gpu(text)
    assert m.gpu is None
    assert m.score == 0.0


def test_unknown_name_suggests_near_names() -> None:
    m = match_gpu("RTX 9090")
    assert m.gpu is None
    assert "GeForce RTX 3090" in m.suggestions[:3]
    assert "GeForce RTX 4090" in m.suggestions[:3]
    ultra = match_gpu("RTX 4090 Ultra Max")
    assert ultra.suggestions[0] == "GeForce RTX 4090"


def test_suggestions_are_genuinely_near() -> None:
    near = suggest_gpu_names("GTX 1080 Ti")
    assert {"GeForce GTX 1080", "GeForce GTX 1070 Ti"} <= set(near)
    assert "GeForce RTX 3090 Ti" not in near
    gtx2080 = match_gpu("GTX 2080")
    assert gtx2080.gpu is None
    assert {"GeForce RTX 2080", "GeForce GTX 1080"} <= set(gtx2080.suggestions)
    assert not any("Quadro 4000" in s for s in match_gpu("4090 Ti").suggestions)


def test_short_names_list_other_variants() -> None:
    h100 = match_gpu("H100")
    assert h100.gpu is not None and h100.gpu.name == "H100 SXM5 80GB"
    assert set(h100.alternatives) == {"H100 PCIe 80GB", "H100 NVL 94GB"}
    a100 = match_gpu("A100")
    assert a100.gpu is not None and a100.gpu.name == "A100 80GB SXM4"
    assert set(a100.alternatives) == {"A100 40GB SXM4", "A100 40GB PCIe", "A100 80GB PCIe"}
    assert match_gpu("H100 PCIe").alternatives == []


@pytest.mark.parametrize(
    ("driver_name", "expected"),
    [
        ("NVIDIA GeForce RTX 4090", "GeForce RTX 4090"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM5 80GB"),
        ("NVIDIA H100 PCIe", "H100 PCIe 80GB"),
        ("NVIDIA A100-SXM4-80GB", "A100 80GB SXM4"),
        ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM4"),
        ("NVIDIA A100-PCIE-40GB", "A100 40GB PCIe"),
        ("NVIDIA A100 80GB PCIe", "A100 80GB PCIe"),
        ("Tesla V100-SXM2-16GB", "Tesla V100 SXM2 16GB"),
        ("Tesla P100-PCIE-16GB", "Tesla P100 PCIe 16GB"),
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 Blackwell"),
        ("NVIDIA GB10", "GB10 (DGX Spark)"),
    ],
)
def test_driver_reported_names(driver_name: str, expected: str) -> None:
    """Names as nvidia-smi / NVML print them, for the probe."""
    m = match_gpu(driver_name)
    assert m.gpu is not None and m.gpu.name == expected


def test_matched_alias_is_reported() -> None:
    assert match_gpu("rtx4090").matched_alias == "GeForce RTX 4090"
    assert match_gpu("ma RTX 3060 12 Go").matched_alias == "GeForce RTX 3060 12GB"
    assert match_gpu("H100 SXM5").matched_alias == "H100 SXM5"


def test_normalize() -> None:
    assert normalize_gpu_name("GeForce RTX4090 24 GB") == "geforce rtx 4090 24gb"
    assert normalize_gpu_name("RTX 3060 12 Go") == "rtx 3060 12gb"
    assert normalize_gpu_name("RTX 4070Ti") == "rtx 4070 ti"
    assert normalize_gpu_name("can my 4090 go") == "can my 4090 go"


def test_suggestions_for_garbage_are_empty() -> None:
    assert suggest_gpu_names("zzzzqqqq") == []


def _names(text: str) -> list[str]:
    return [c.name for c in find_gpu_mentions(text)]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("can my 4090 do megakernels?", ["GeForce RTX 4090"]),
        ("compare a used 3090 and the RTX 4090", ["GeForce RTX 3090", "GeForce RTX 4090"]),
        ("compare my 4090 and a used 3090", ["GeForce RTX 4090", "GeForce RTX 3090"]),
        ("ma RTX 3060 12 Go suffit-elle ?", ["GeForce RTX 3060 12GB"]),
        ("GeForce RTX 4090 24GB or RTX 5090?", ["GeForce RTX 4090", "GeForce RTX 5090"]),
        ("is an rtx4090 enough", ["GeForce RTX 4090"]),
        ("rent an H100 SXM5 or a B200", ["H100 SXM5 80GB", "B200"]),
        ("an A100 80GB vs an A100 40GB", ["A100 80GB SXM4", "A100 40GB SXM4"]),
        ("Apple M2 Max or M4 Max for Metal?", ["Apple M2 Max", "Apple M4 Max"]),
        ("Puis-je louer l'H100 ou une MI300X ?", ["H100 SXM5 80GB", "Instinct MI300X"]),
        ("T4 on Colab, P100 on Kaggle", ["T4", "Tesla P100 PCIe 16GB"]),
        ("two 4090s or one RTX PRO 6000", ["GeForce RTX 4090", "RTX PRO 6000 Blackwell"]),
        ("4090 then 4090 again", ["GeForce RTX 4090"]),
        (
            "RTX 4070 Ti Super vs 4070 Super",
            ["GeForce RTX 4070 Ti Super", "GeForce RTX 4070 Super"],
        ),
    ],
)
def test_find_mentions(sentence: str, expected: list[str]) -> None:
    assert _names(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("a 4070 Ti is fine", "GeForce RTX 4070 Ti"),  # a long-tail card, never the 4070
        ("an RTX 3060 8GB", "GeForce RTX 3060 8 GB"),  # the 8 GB card, not the 12 GB one
        ("can my 1080 ti do tensor cores?", "GeForce GTX 1080 Ti"),
        ("my laptop has a 3070 Ti", "GeForce RTX 3070 Ti Mobile"),
    ],
)
def test_find_mentions_reaches_the_long_tail(sentence: str, expected: str) -> None:
    cards = find_gpu_mentions(sentence)
    assert [c.name for c in cards] == [expected]
    assert cards[0].curated is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my laptop has a 4060", "GeForce RTX 4060 Laptop GPU"),
        ("mon PC portable a une 4060", "GeForce RTX 4060 Laptop GPU"),
        ("RTX 4090 Laptop", "GeForce RTX 4090 Laptop GPU"),
        ("4060", "GeForce RTX 4060"),
    ],
)
def test_laptop_words_pick_the_laptop_chip(text: str, expected: str) -> None:
    m = match_gpu(text)
    assert m.gpu is not None and m.gpu.name == expected
    if "Laptop" in expected:
        assert m.gpu.segment == "laptop"
    assert [c.name for c in find_gpu_mentions(text)] == [expected]


def test_laptop_4090_is_not_the_desktop_chip() -> None:
    laptop = match_gpu("my laptop's RTX 4090").gpu
    desktop = match_gpu("RTX 4090").gpu
    assert laptop is not None and desktop is not None
    assert (laptop.chip, laptop.vram_gb) == ("AD103", 16)
    assert (desktop.chip, desktop.vram_gb) == ("AD102", 24)


@pytest.mark.parametrize(
    "sentence",
    [
        "I paid 3090 € for it",
        "it was $4090 in 2024",
        "budget 2025: 3060€",
        "in 2024 and 2026 prices fell",
        "what about an RTX 9090?",
        "I trained for 750 steps",
        "my M.2 SSD",
        "is the RX 8900 XTX out yet?",  # 'RX' alone is no card (the long tail's 'RX 580G')
        "",
    ],
)
def test_find_mentions_ignores_non_cards(sentence: str) -> None:
    assert _names(sentence) == []


def test_a_chip_sold_with_several_power_limits_is_found_by_its_bare_name() -> None:
    # The long tail lists the MX450 only as its 12 W, 25 W and 30.5 W variants: one chip.
    m = match_gpu("MX450")
    assert m.gpu is not None and m.gpu.name.startswith("GeForce MX450")
    assert m.gpu.compute_capability == "7.5"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("thinking of a MacBook Pro M4 Max with 64GB", "Apple M4 Max"),  # not an M4 Pro
        ("Mac mini M4 Pro", "Apple M4 Pro"),
        ("MacBook Air M2", "Apple M2"),
    ],
)
def test_a_machine_line_s_word_is_not_the_chip_s_variant(text: str, card: str) -> None:
    from assistant.knowledge.matching import find_gpu_spans

    assert [c.name for c, _, _ in find_gpu_spans(text)] == [card]


def test_a_laptop_model_number_after_its_series_is_a_card_not_a_size() -> None:
    from assistant.knowledge.matching import find_gpu_mentions

    assert [c.name for c in find_gpu_mentions("I have a GT 650M card")] == ["GeForce GT 650M"]
    assert [c.name for c in find_gpu_mentions("MX150 and 940M")] == [
        "GeForce MX150",
        "GeForce 940M",
    ]
    # a size followed by what it counts stays a size
    names = [c.name for c in find_gpu_mentions("a 650M parameter model on a GTX 1060")]
    assert "GeForce GT 650M" not in names and names
    # and so does one listed among parameter counts in billions
    sizes = [c.name for c in find_gpu_mentions("ESM-2 on one A100 40GB: 650M, 3B or 15B?")]
    assert "GeForce GT 650M" not in sizes and sizes
    assert "GeForce GT 650M" not in [c.name for c in find_gpu_mentions("650M or 3B model?")]


def test_a_capital_s_after_a_model_number_is_its_super_card_where_one_exists() -> None:
    from assistant.knowledge.matching import find_gpu_mentions

    assert [c.name for c in find_gpu_mentions("my card is a 2070S")] == ["GeForce RTX 2070 SUPER"]
    assert [c.name for c in find_gpu_mentions("我的显卡是2070S驱动是560.70")] == [
        "GeForce RTX 2070 SUPER"
    ]
    # a plural stays a plural: there is no RTX 3090 SUPER, and 'two 3090s' are two 3090s
    assert [c.name for c in find_gpu_mentions("two 3090s")] == ["GeForce RTX 3090"]
    assert [c.name for c in find_gpu_mentions("4090s are pricey")] == ["GeForce RTX 4090"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("on my 1070, how fast is Llama 3.1 8B?", "GeForce GTX 1070"),
        ("sur la 1070, ça tourne à combien de tokens/s ?", "GeForce GTX 1070"),
        ("ma 1080 Ti suffit ?", "GeForce GTX 1080 Ti"),
    ],
)
def test_an_owned_bare_model_number_names_a_long_tail_card(text: str, name: str) -> None:
    assert [c.name for c in find_gpu_mentions(text)] == [name]


@pytest.mark.parametrize(
    "text",
    ["my 1000 W power supply", "the 2020 model was better", "I have a 1500 budget", "1070 tokens"],
)
def test_a_bare_number_that_is_a_quantity_names_no_card(text: str) -> None:
    assert find_gpu_mentions(text) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("V620", "Radeon PRO V620"),
        ("radeon v620", "Radeon PRO V620"),
        ("W6800", "Radeon PRO W6800"),
    ],
)
def test_an_amd_pro_model_named_without_pro(text: str, name: str) -> None:
    assert match_gpu(text).gpu is not None and match_gpu(text).gpu.name == name


def test_a_tesla_model_is_not_taken_for_a_radeon_pro() -> None:
    card = match_gpu("V100").gpu
    assert card is not None and card.vendor == "nvidia"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("1x A100 80GB (a2-ultragpu-1g) or 4x L4 (g2-standard-48)", ["A100 80GB SXM4", "L4"]),
        ("is the a3-highgpu-8g an H100 machine?", ["H100 SXM5 80GB"]),
        ("yolo on a T4-16GB", ["T4"]),
    ],
)
def test_a_cloud_machine_type_names_no_card(text: str, names: list[str]) -> None:
    """'a2' in 'a2-ultragpu-1g' is a machine family, not the A2 card; a card written in one
    piece with its memory stays a card."""
    assert [c.name for c in find_gpu_mentions(text)] == names
