"""Currencies besides EUR, USD and GBP: read in text, converted at dated reference rates, stated."""

from __future__ import annotations

import pytest

from assistant.money import (
    CURRENCIES,
    SETTINGS_CURRENCIES,
    convert,
    format_money,
    other_currencies,
    other_rate_assumption,
    parse_money,
)
from assistant.tools.power import PowerQuery, power_cost


def test_table_and_type_list_the_same_currencies() -> None:
    table = set(other_currencies().by_code)
    assert table == set(CURRENCIES) - set(SETTINGS_CURRENCIES)
    assert all(c.per_eur is None or c.per_eur > 0 for c in other_currencies().by_code.values())


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("a server for about S$45,000 instead of AWS", 45000, "SGD"),
        ("Budget CHF 1'200 pour une carte", 1200, "CHF"),
        ("la carte coûte 45 000 CHF", 45000, "CHF"),
        ("j'ai 1 500 $ CA", 1500, "CAD"),
        ("₹80,000 for a laptop", 80000, "INR"),
        ("Rs. 1,50,000 budget", 150000, "INR"),
        ("R$ 5.000 de orçamento", 5000, "BRL"),
        ("预算 ¥5000 买显卡", 5000, "CNY"),
        ("予算は¥150,000です", 150000, "JPY"),
        ("12000 円のグラボ", 12000, "JPY"),
        ("预算1.5万元", 15000, "CNY"),
        ("15万円くらい", 150000, "JPY"),
        ("on paie environ 5 DA le kWh", 5, "DZD"),
        ("City Power charges me roughly R3.40/kWh", 3.4, "ZAR"),
        ("Band A at N209.5/kWh", 209.5, "NGN"),
        ("the box costs N6.5m", 6_500_000, "NGN"),
        ("they pay like 4.2 pesos per kWh", 4.2, "MXN"),
        ("about 60 rupees per unit. how much PKR?", 60, "PKR"),
        ("about 60 rupees per unit", 60, "INR"),
        ("12 000 pesos chilenos al mes", 12000, "CLP"),
        # points for thousands, a comma for the decimals
        ("PLN tariff Rp 1.444,70/kWh", 1444.7, "IDR"),
        ("budget Rp 12.500.000 for a laptop", 12_500_000, "IDR"),
        ("la carte coûte 2.499,99 €", 2499.99, "EUR"),
    ],
)
def test_amounts_in_other_currencies_are_read(text: str, amount: float, currency: str) -> None:
    found = parse_money(text)
    assert [(p.amount, p.currency) for p in found] == [(amount, currency)]


def test_a_price_per_kwh_in_another_currency() -> None:
    (price,) = parse_money("electricity is 0.32 AUD per kWh")
    assert (price.amount, price.currency, price.per) == (0.32, "AUD", "kwh")


@pytest.mark.parametrize(
    "text",
    [
        "PHP 8 on the server", "rm 3 files", "I TRY 3 times", "try 3 times",
        # a one-letter sign needs a unit or a multiplier after the amount
        "my AMD R9 390", "an Intel N100 mini PC", "a 5m cable",
    ],
)  # fmt: skip
def test_words_that_look_like_codes_are_no_money(text: str) -> None:
    assert parse_money(text) == []


def test_conversion_goes_through_the_euro_at_the_table_rate() -> None:
    sgd_per_eur = other_currencies().by_code["SGD"].per_eur
    assert convert(sgd_per_eur, "SGD", "EUR") == pytest.approx(1.0)
    assert convert(1.0, "EUR", "CHF") == pytest.approx(other_currencies().by_code["CHF"].per_eur)
    assert convert(100, "USD", "SGD", usd_per_eur=1.25) == pytest.approx(80 * sgd_per_eur)


def test_formatting() -> None:
    assert format_money(45000, "SGD") == "S$45,000.00"
    assert format_money(1200, "CHF") == "CHF 1,200.00"
    assert format_money(120000, "JPY") == "¥120,000"
    assert format_money(1200, "CHF", "fr") == "1\u202f200,00\u00a0CHF"


def test_a_result_in_another_currency_states_its_rate() -> None:
    r = power_cost(
        PowerQuery(power_w=450, hours_per_day=8, electricity_price_per_kwh=0.32, currency="AUD")
    )
    assert r.currency == "AUD"
    stated = other_rate_assumption("AUD")
    assert stated is not None and stated in r.assumptions
    assert other_currencies().date in stated
    assert other_rate_assumption("USD") is None


def test_a_monthly_amount_with_a_comma_is_thousands_an_hourly_one_a_decimal() -> None:
    from assistant.agent.offline.entities import extract_entities

    (colo,) = extract_entities("colocation at S$3,800/month").money
    assert (colo.amount, colo.currency, colo.per) == (3800.0, "SGD", "month")
    (rate,) = extract_entities("une 4090 à 1,500 $/h").money
    assert rate.amount == 1.5


def test_cfa_francs_are_read_at_their_fixed_parity() -> None:
    from assistant import ask
    from assistant.money import Money, other_rate_assumption

    assert Money(amount=655.957, currency="XOF").to("EUR").amount == pytest.approx(1.0)
    assert "98/683/EC" in (other_rate_assumption("XOF") or "")
    answer = ask(
        "Notre serveur tire environ 700 W en moyenne, 24 h sur 24, à Dakar. Le kWh nous coûte "
        "environ 120 FCFA. Ça fait combien par mois ?"
    )
    text = answer.text.replace("\u202f", " ").replace("\xa0", " ")
    assert "60 480 FCFA" in text, answer.text  # 0.7 kW x 24 h x 30 days x 120 FCFA


def test_a_kwh_price_is_bounded_in_euros_not_in_units() -> None:
    from pydantic import ValidationError

    assert PowerQuery(power_w=300, electricity_price_per_kwh=120, currency="XOF")
    with pytest.raises(ValidationError):
        PowerQuery(power_w=300, electricity_price_per_kwh=120, currency="EUR")


def test_bare_cents_are_the_messages_other_dollar() -> None:
    from assistant.money import parse_money

    found = parse_money("A g6.xlarge in Sydney is AU$1.35/hr on-demand; our power is 34c/kWh")
    assert [(p.amount, p.currency, p.per) for p in found] == [
        (1.35, "AUD", "hour"),
        (0.34, "AUD", "kwh"),
    ]
    # with no other dollar, cents stay US cents
    assert parse_money("power is 34c/kWh")[0].currency == "USD"


def test_a_currency_without_a_rate_is_computed_in_never_converted() -> None:
    from assistant.money import NoExchangeRate, has_rate

    assert not has_rate("DZD") and has_rate("MXN") and has_rate("USD")
    with pytest.raises(NoExchangeRate):
        convert(5, "DZD", "EUR")
    r = power_cost(
        PowerQuery(power_w=1400, hours_per_day=24, electricity_price_per_kwh=5, currency="DZD",
                   gpu="RTX 3090")
    )  # fmt: skip
    assert r.currency == "DZD"
    assert r.cost_per_day == pytest.approx(1.4 * 24 * 5)
    assert any("No exchange rate is on record for DZD" in a for a in r.assumptions)


def test_a_rate_stated_per_dollar_converts_the_other_amounts() -> None:
    from assistant.agent.offline.entities import extract_entities
    from assistant.money import parse_pair_rates

    (pair,) = parse_pair_rates("we budget at N1,600 per dollar")
    assert (pair.base, pair.quote, pair.rate) == ("USD", "NGN", 1600)
    money = extract_entities(
        "We're on Band A at N209.5/kWh. A rented 4090 is about $0.59/h; we budget at N1,600 per "
        "dollar."
    ).money
    assert [(m.amount, m.currency) for m in money] == [(209.5, "NGN"), (0.59 * 1600, "NGN")]


def test_an_amount_that_cannot_be_converted_is_left_out_not_mixed() -> None:
    from assistant.agent.offline.entities import extract_entities

    money = extract_entities("le kWh est à 5 DA, et louer coûte 0,80 $/h").money
    assert [(m.amount, m.currency) for m in money] == [(5, "DZD")]


@pytest.mark.parametrize(
    "question",
    [
        "PI got a small hardware grant (~1.2M ISK): buy an RTX 4000 Ada or keep it as cloud "
        "credits?",
        "J'ai 50 000 DA pour louer un GPU, combien d'heures de A100 ?",
    ],
)
def test_prices_from_the_data_in_a_currency_with_no_rate_get_a_clear_answer(question: str) -> None:
    from assistant import ask

    text = ask(question).text
    assert "no exchange rate is on record" in text, text
    assert "Sorry" not in text and "failed (" not in text, text


@pytest.mark.parametrize(
    ("text", "base", "quote", "rate"),
    [
        ("dollar is ~48.5 EGP", "USD", "EGP", 48.5),
        ("the dollar at 4,100 COP", "USD", "COP", 4100),
        ("l'euro vaut 655 FCFA", "EUR", "XOF", 655),
        ("le dollar est à 130 gourdes", "USD", "HTG", 130),
    ],
)
def test_a_rate_stated_without_a_one(text: str, base: str, quote: str, rate: float) -> None:
    from assistant.money import parse_pair_rates

    (pair,) = parse_pair_rates(text)
    assert (pair.base, pair.quote, pair.rate) == (base, quote, rate)


def test_a_rate_written_with_its_one_is_read_once() -> None:
    from assistant.money import parse_pair_rates

    assert len(parse_pair_rates("1 USD = 83 INR")) == 1


def test_a_dollar_rate_in_words_converts_a_rental_price() -> None:
    from assistant.agent.offline.entities import extract_entities

    money = extract_entities(
        "buy a used RTX 3090 for 38,000 EGP, or rent a 4090 at ~$0.35/hr. dollar is ~48.5 EGP"
    ).money
    assert [(m.amount, m.currency) for m in money] == [
        (38000, "EGP"),
        (pytest.approx(0.35 * 48.5), "EGP"),
    ]


def test_the_currency_asked_for_is_the_answers() -> None:
    from assistant.agent.offline.entities import extract_entities

    money = extract_entities("La VM est à ~3,40 €/h, 200 heures. Ça fait combien en FCFA ?").money
    assert [(m.amount, m.currency) for m in money] == [(pytest.approx(3.40 * 655.957), "XOF")]
    # A currency with no rate on record and none stated: the amounts stay in their own.
    kept = extract_entities("Rent is 2 $/h. How much is that in gourdes?").money
    assert [(m.amount, m.currency) for m in kept] == [(2, "USD")]


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("le kWh de la génératrice revient à environ 55 gourdes, le serveur tire 300 W", 55, "HTG"),
        ("one kWh costs NT$4.5 and the mini pulls 70W", 4.5, "TWD"),
    ],
)
def test_a_kwh_named_before_its_price(text: str, amount: float, currency: str) -> None:
    from assistant.agent.offline.entities import extract_entities

    price = extract_entities(text).electricity_price
    assert price is not None and (price.amount, price.currency) == (amount, currency)


def test_a_unit_price_keeps_its_decimals_in_a_currency_without_cents() -> None:
    from assistant.money import format_unit_price

    assert format_unit_price(4.5, "TWD") == "NT$4.5"
    assert format_unit_price(750, "MGA", "fr") == "750\u00a0Ar"
    assert format_money(4.6, "TWD") == "NT$5"


def test_a_shared_currency_word_asked_for_is_the_member_the_message_names() -> None:
    from assistant.money import asked_currency

    assert asked_currency("my boss wants it in pesos. dollar at 4,050 COP") == "COP"
    assert asked_currency("combien en pesos ?") == "MXN"  # the family's first, as for amounts
