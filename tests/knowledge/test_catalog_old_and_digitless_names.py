"""Names people write for old or number-less cards: ATI's Radeon HD cards, the TITANs, a laptop
chip after its brand, a board sold with another memory size than the database lists, and a name
sold with two chips whose CUDA support differs."""

from __future__ import annotations

from assistant.knowledge.matching import find_gpu_spans
from assistant.tools.software import SoftwareSupportQuery, software_support


def _names(text: str) -> list[str]:
    return [card.name for card, _, _ in find_gpu_spans(text)]


def test_an_ati_radeon_hd_card_is_an_amd_card() -> None:
    found = [card for card, _, _ in find_gpu_spans("my ATI Mobility Radeon HD 5470 laptop")]
    assert [c.name for c in found] == ["Mobility Radeon HD 5470"]
    assert found[0].vendor == "amd" and not found[0].curated


def test_a_board_with_twice_the_listed_memory_is_still_the_card() -> None:
    # the database lists the HD 5470 with 512 MB; boards shipped with 1 GB too
    assert _names("Video Type ATI Mobility Radeon HD 5470 1GB") == ["Mobility Radeon HD 5470"]
    # a curated card keeps its strict sizes: a 3060 with 8 GB is the 8 GB variant
    assert _names("RTX 3060 8GB") == ["GeForce RTX 3060 8 GB"]


def test_cards_without_a_model_number_are_found_in_sentences() -> None:
    assert _names("I have a Titan Xp and a TITAN V") == ["TITAN Xp", "TITAN V"]
    assert _names("my Titan RTX") == ["TITAN RTX"]
    assert _names("Radeon VII or a 3090?") == ["Radeon VII", "GeForce RTX 3090"]
    assert _names("Henry VII had no GPU") == []


def test_a_laptop_chip_after_its_brand_is_no_parameter_count() -> None:
    assert _names("will it work for the Geforce 720M with CUDA 10") == ["GeForce GT 720M"]
    assert _names("Geforce 940M") == ["GeForce 940M"]


def test_a_name_sold_with_two_chips_gets_each_chips_verdict() -> None:
    result = software_support(SoftwareSupportQuery(gpu="GeForce GT 730", software="CUDA 10"))
    assert result.supported == "yes" and result.compute_capability == "3.5"
    assert [(o.chip, o.compute_capability, o.supported) for o in result.other_chips] == [
        ("GF108", "2.1", "no")
    ]
    assert result.other_chips[0].last == "CUDA 8.0"
    # where both chips agree, nothing is added
    agree = software_support(SoftwareSupportQuery(gpu="GeForce GT 730", software="CUDA 8.0"))
    assert agree.supported == "yes" and agree.other_chips == []


def test_a_radeon_written_without_rx_is_the_rx_card() -> None:
    from assistant.knowledge.matching import match_gpu

    assert match_gpu("Radeon 9070").gpu is not None
    assert match_gpu("Radeon 9070").gpu.name == "Radeon RX 9070"  # type: ignore[union-attr]
    assert match_gpu("AMD Radeon 7600").gpu.name == "Radeon RX 7600"  # type: ignore[union-attr]
    # a number several RX cards share names none of them
    assert match_gpu("Radeon 7900").gpu is None
