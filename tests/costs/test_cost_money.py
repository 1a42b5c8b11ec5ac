"""Money: conversion at the configured rate, EN/FR formatting, and amounts read from sentences."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.money import (
    Money,
    convert,
    format_money,
    format_unit_price,
    normalize_currency,
    parse_exchange_rate,
    parse_money,
    pound_assumption,
    rate_assumption,
)


def test_convert_uses_the_configured_rate() -> None:
    assert convert(100, "EUR", "USD") == pytest.approx(108.0)
    assert convert(108, "USD", "EUR") == pytest.approx(100.0)
    assert convert(5, "USD", "USD") == 5


def test_convert_with_an_explicit_rate() -> None:
    assert convert(10, "EUR", "USD", usd_per_eur=1.25) == pytest.approx(12.5)
    assert convert(12.5, "USD", "EUR", usd_per_eur=1.25) == pytest.approx(10.0)


def test_rate_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.settings import reset_settings

    monkeypatch.setenv("GPU_ADVISOR_USD_PER_EUR", "1.5")
    reset_settings()
    assert convert(2, "EUR", "USD") == pytest.approx(3.0)
    assert "1 EUR = 1.5 USD" in rate_assumption()


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_convert_rejects_a_bad_rate(bad: float) -> None:
    with pytest.raises(ValueError):
        convert(1, "EUR", "USD", usd_per_eur=bad)


@pytest.mark.parametrize(
    ("amount", "currency", "lang", "expected"),
    [
        (2.5, "USD", "en", "$2.50"),
        (2.5, "EUR", "en", "€2.50"),
        (2.5, "EUR", "fr", "2,50\u00a0€"),
        (0.8, "USD", "fr", "0,80\u00a0$"),
        (1500, "EUR", "fr", "1\u202f500,00\u00a0€"),
        (1234567.891, "USD", "en", "$1,234,567.89"),
        (-3, "USD", "en", "-$3.00"),
        (0, "EUR", "en", "€0.00"),
    ],
)
def test_format_money(amount: float, currency: str, lang: str, expected: str) -> None:
    assert format_money(amount, currency, lang) == expected  # type: ignore[arg-type]


def test_format_money_refuses_nan() -> None:
    with pytest.raises(ValueError):
        format_money(float("nan"), "EUR")


def test_money_model_converts_and_rejects_nan() -> None:
    assert Money(amount=10, currency="EUR").to("USD").amount == pytest.approx(10.8)
    with pytest.raises(ValidationError):
        Money(amount=float("nan"), currency="EUR")


@pytest.mark.parametrize("text", ["eur", "€", "Euros", " EUR "])
def test_normalize_currency_eur(text: str) -> None:
    assert normalize_currency(text) == "EUR"


def test_normalize_currency_unknown() -> None:
    with pytest.raises(ValueError, match="unknown currency"):
        normalize_currency("doubloons")


@pytest.mark.parametrize(
    ("text", "amount", "currency", "per"),
    [
        ("J'ai 200 € pour apprendre", 200.0, "EUR", None),
        ("200€", 200.0, "EUR", None),
        ("with 200 euros", 200.0, "EUR", None),
        ("spot at $0.80/h", 0.80, "USD", "hour"),
        ("une instance spot à 0,80 $/h", 0.80, "USD", "hour"),
        ("2.50 USD per hour", 2.50, "USD", "hour"),
        ("1 500 € d'occasion", 1500.0, "EUR", None),
        ("a card for $1,500", 1500.0, "USD", None),
        ("$2.5 an hour", 2.5, "USD", "hour"),
        ("Colab Pro (~10 $/mois)", 10.0, "USD", "month"),
        ("40 $ de l'heure", 40.0, "USD", "hour"),
        ("EUR 12", 12.0, "EUR", None),
        ("my RTX 4090 for 200 €", 200.0, "EUR", None),
        ("under 2k€", 2000.0, "EUR", None),
        ("a $1.5k budget", 1500.0, "USD", None),
        ("électricité à 0,25 €/kWh", 0.25, "EUR", "kwh"),
        ("power costs 12 cents/kWh here", 0.12, "USD", "kwh"),
        ("on paie 19 centimes le kWh", 0.19, "EUR", "kwh"),
        ("about 22 ct/kWh", 0.22, "EUR", "kwh"),
        ("the kWh costs $0.41", 0.41, "USD", "kwh"),
        ("le kWh est à 0,1952 €", 0.1952, "EUR", "kwh"),
        ("rented at $3.10/GPU-hour", 3.10, "USD", "hour"),
        ("louées 1,95 € par GPU-heure", 1.95, "EUR", "hour"),
    ],
)
def test_parse_money(text: str, amount: float, currency: str, per: str | None) -> None:
    found = parse_money(text)
    assert len(found) == 1, found
    assert found[0].amount == pytest.approx(amount)
    assert found[0].currency == currency
    assert found[0].per == per
    assert found[0].per_hour is (per == "hour")


def test_parse_money_two_amounts_in_order() -> None:
    found = parse_money("Une instance spot à 0,80 $/h contre une instance dédiée à 2,50 $/h.")
    assert [(p.amount, p.per_hour) for p in found] == [(0.80, True), (2.50, True)]


def test_parse_money_range() -> None:
    (found,) = parse_money("H100 : 2,00 – 5,00 $ de l'heure")
    assert (found.amount, found.high, found.currency, found.per) == (2.0, 5.0, "USD", "hour")


def test_parse_money_ignores_numbers_without_currency() -> None:
    assert parse_money("an RTX 4090 with 24 GB, sm_89, 2026") == []
    assert parse_money("200 € and more")[0].per is None  # 'and' is not 'a d(ay)'


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            list("0123456789 ,.€$-–/hkEURSDeurosdlaj'") + ["\u00a0", "\u202f"]
        ),
        max_size=60,
    )
)
def test_parse_money_never_raises(text: str) -> None:
    for found in parse_money(text):
        assert math.isfinite(found.amount) and found.amount >= 0
        assert text[found.start : found.end].strip() == found.text


def test_parse_money_absurdly_long_number() -> None:
    assert parse_money("9" * 400 + " €") == []


@pytest.mark.parametrize(
    ("text", "usd_per_eur"),
    [
        ("convert with 1 € = 1,12 $", 1.12),
        ("at 1 EUR = 1.05 USD please", 1.05),
        ("taux : 1 $ = 0,80 €", 1.25),
        ("1€=1.1$", 1.1),
    ],
)
def test_parse_exchange_rate(text: str, usd_per_eur: float) -> None:
    stated = parse_exchange_rate(text)
    assert stated is not None
    assert stated.usd_per_eur == pytest.approx(usd_per_eur)
    assert text[stated.start : stated.end].startswith(("1", "$"))


def test_parse_exchange_rate_needs_two_currencies() -> None:
    assert parse_exchange_rate("I have 1 € and 5 $") is None
    assert parse_exchange_rate("1 € = 1 €") is None


@pytest.mark.parametrize(
    ("amount", "lang", "expected"),
    [
        (0.2516, "fr", "0,2516\u00a0€"),
        (0.32, "en", "€0.32"),
        (0.155, "en", "€0.155"),
        (0.3, "en", "€0.30"),
    ],
)
def test_format_unit_price_keeps_the_given_precision(
    amount: float, lang: str, expected: str
) -> None:
    assert format_unit_price(amount, "EUR", lang) == expected  # type: ignore[arg-type]


def test_pounds_convert_through_the_euro(monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.settings import reset_settings

    monkeypatch.setenv("GPU_ADVISOR_EUR_PER_GBP", "1.2")
    reset_settings()
    assert convert(10, "GBP", "EUR") == pytest.approx(12.0)
    assert convert(12, "EUR", "GBP") == pytest.approx(10.0)
    assert convert(10, "GBP", "USD", usd_per_eur=1.5) == pytest.approx(18.0)
    assert "1 GBP = 1.2 EUR" in pound_assumption()
    assert format_money(12.5, "GBP") == "£12.50"
    assert format_money(12.5, "GBP", "fr") == "12,50\u00a0£"


@pytest.mark.parametrize(
    ("text", "amount", "per"),
    [
        ("I'm in the UK paying 28p per kWh", 0.28, "kwh"),
        ("we pay 24p/kWh", 0.24, "kwh"),
        ("30 pence a kWh", 0.30, "kwh"),
        ("£0.27/kWh", 0.27, "kwh"),
        ("about £600 per seat", 600.0, None),
        ("budget 1 200 £", 1200.0, None),
    ],
)
def test_parse_money_reads_pounds_and_pence(text: str, amount: float, per: str | None) -> None:
    found = parse_money(text)
    assert [(m.amount, m.currency, m.per) for m in found] == [(pytest.approx(amount), "GBP", per)]


def test_a_p_that_is_no_penny_is_no_money() -> None:
    assert parse_money("a 1080p monitor at 144 Hz") == []
