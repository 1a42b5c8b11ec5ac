"""Price data: every row parses, is sourced and dated, and names a card the catalog knows."""

from __future__ import annotations

import re

import pytest

from assistant.knowledge.matching import match_gpu
from assistant.knowledge.prices import (
    AS_OF_PATTERN,
    hourly_price_range,
    load_hourly_prices,
    load_purchase_prices,
    purchase_price,
)

ALL_ROWS = [*load_hourly_prices(), *load_purchase_prices()]


def test_data_loads() -> None:
    assert len(load_hourly_prices()) >= 60
    assert len(load_purchase_prices()) >= 10


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: f"{r.gpu}-{r.source[:20]}-{r.as_of}")
def test_every_row_is_sourced_and_dated(row) -> None:  # type: ignore[no-untyped-def]
    assert row.source.strip()
    assert re.match(AS_OF_PATTERN, row.as_of)
    assert 2020 <= int(row.as_of[:4]) <= 2026
    assert row.document or row.url or row.source, "a row needs somewhere to check it"
    src = row.to_source()
    assert "as of" in (src.note or "")
    assert 0 < row.low <= row.high


@pytest.mark.parametrize("name", sorted({r.gpu for r in ALL_ROWS}))
def test_every_gpu_name_resolves_in_the_catalog(name: str) -> None:
    from assistant.knowledge.prices import load_purchase_prices, purchase_rows

    if match_gpu(name).gpu is None:
        # a purchase row may name a card the catalog lacks (RX 7900 XTX): it must still be found by name
        assert name in {r.gpu for r in load_purchase_prices()}, (
            f"{name!r} does not resolve to a catalog card"
        )
        label, rows = purchase_rows(name)
        assert label == name and rows


def test_corpus_rows_are_dated_by_the_year_the_documents_state() -> None:
    corpus = [r for r in ALL_ROWS if r.document]
    assert {r.as_of for r in corpus if r.document == "000_6b3728bf6a0ed216"} == {"2026"}
    assert {r.as_of for r in corpus if r.document == "004_69057a231d026f76"} == {"2025"}
    assert all(r.as_of_note for r in corpus)


def test_corpus_hourly_table_is_complete() -> None:
    corpus = {
        r.gpu: (r.low, r.high) for r in load_hourly_prices() if r.document == "000_6b3728bf6a0ed216"
    }
    assert corpus == {
        "T4": (0.15, 0.40),
        "RTX 4090": (0.30, 0.90),
        "RTX 5090": (0.30, 0.90),
        "L4": (0.50, 1.50),
        "L40S": (0.50, 1.50),
        "A100 40GB": (1.00, 2.50),
        "A100 80GB": (1.00, 2.50),
        "H100": (2.00, 5.00),
        "H200": (3.00, 6.00),
        "B200": (5.00, 12.00),
        "MI300X": (2.00, 4.00),
    }


def test_no_duplicate_rows() -> None:
    keys = [
        (type(r).__name__, r.gpu, getattr(r, "provider", ""), getattr(r, "kind", ""),
         getattr(r, "condition", ""), r.as_of, r.low, r.high)
        for r in ALL_ROWS
    ]  # fmt: skip
    dups = {k for k in keys if keys.count(k) > 1}
    assert not dups


def test_h100_range_from_the_corpus_only() -> None:
    rng = hourly_price_range("H100", "indicative", currency="USD")
    assert rng is not None
    assert (rng.low, rng.high, rng.typical, rng.n) == (2.0, 5.0, 3.5, 1)
    assert rng.dates == ["2026"]


def test_h100_range_over_every_rental_kind() -> None:
    rng = hourly_price_range("my h100", currency="USD")
    assert rng is not None
    # corpus 2–5 and ten provider figures; spot excluded: lowest Vast.ai 1.47, highest GCP 11.06
    assert (rng.low, rng.high, rng.n) == (1.47, 11.06, 11)
    assert rng.typical == pytest.approx(3.99)
    assert len(rng.sources) == 11


def test_spot_prices_only_when_asked() -> None:
    rng = hourly_price_range("H100 SXM", "spot", currency="USD")
    assert rng is not None
    assert sorted([rng.low, rng.high]) == [2.623, 6.571]


def test_range_converts_to_euros() -> None:
    rng = hourly_price_range("H100", "indicative", currency="EUR", usd_per_eur=1.25)
    assert rng is not None
    assert (rng.low, rng.high) == (pytest.approx(1.6), pytest.approx(4.0))


def test_unknown_gpu_has_no_range() -> None:
    assert hourly_price_range("Voodoo 5") is None


def test_purchase_prices_from_the_corpus() -> None:
    used_3060 = purchase_price("RTX 3060 12 Go", "used", currency="EUR")
    assert used_3060 is not None
    assert (used_3060.low, used_3060.high) == (300, 600)
    new_5090 = purchase_price("RTX 5090", "new", currency="EUR", usd_per_eur=1.0)
    assert new_5090 is not None
    # corpus 2 000–3 000 € and the 1 999 $ launch price at parity
    assert (new_5090.low, new_5090.high, new_5090.n) == (1999, 3000, 2)
    assert purchase_price("RTX 5090", "used") is None
