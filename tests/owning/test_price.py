"""Purchase prices from the dated data: converted, dated, never invented."""

from __future__ import annotations

import pytest

from assistant.tools.price import PriceQuery, purchase_price_lookup

USD = {"currency": "USD", "usd_per_eur": 1.08}


def test_used_3090_in_dollars_with_the_date_seen() -> None:
    r = purchase_price_lookup(PriceQuery(gpu="used RTX 3090", **USD))
    assert r.found and r.condition == "used" and r.new is None
    assert r.used is not None and (r.used.low, r.used.high) == (500, 800)
    assert all(p.as_of for p in r.prices) and r.sources
    assert "seen 2026" in r.summary and "occasion" in r.summary_fr


def test_conversion_uses_the_given_rate() -> None:
    r = purchase_price_lookup(
        PriceQuery(gpu="RTX 4090", condition="new", currency="EUR", usd_per_eur=1.25)
    )
    assert r.new is not None and r.new.low == pytest.approx(1599 / 1.25)


@pytest.mark.parametrize(
    "name", ["7900 XTX", "Mac Studio", "RTX 4060 Ti 16GB", "RTX 3060 12GB", "RTX 5090"]
)
def test_commonly_asked_cards_have_prices(name: str) -> None:
    assert purchase_price_lookup(PriceQuery(gpu=name, **USD)).found


def test_no_price_is_never_invented() -> None:
    r = purchase_price_lookup(PriceQuery(gpu="A100", **USD))
    assert not r.found and r.new is None and r.used is None and not r.prices
    assert "No purchase price" in r.summary and "Pas de prix" in r.summary_fr


def test_rent_vs_buy_reads_the_same_data() -> None:
    from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy

    r = rent_vs_buy(RentVsBuyQuery(gpu="7900 XTX", rent_rate=0.5, power_w=355,
                                   electricity_price_per_kwh=0.2, **USD))  # fmt: skip
    assert r.purchase_price == pytest.approx(999)
