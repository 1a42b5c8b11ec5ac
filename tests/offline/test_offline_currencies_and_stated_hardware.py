"""Amounts in several currencies are one currency for the tools; tax words before a rate's unit;
another maker's word before a card's number; what the asker says of their own hardware; a model
the question does not name; electricity is not a card's price; a missing price gives way to the
tool that answers; other programs on the card; new error messages and their entries."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.error_messages import pasted
from assistant.knowledge.matching import match_gpu
from assistant.money import parse_money, parse_pair_rates


def _tools(question: str) -> dict[str, dict[str, object]]:
    return {c.name: c.arguments for c in ask(question).tool_calls}


def test_amounts_in_two_currencies_convert_at_the_rate_the_question_states() -> None:
    ent = extract_entities(
        "une RTX 3090 usagée à 900 $ CA, ou louer une 4090 autour de 0,35 $ US/h. L'électricité "
        "c'est 0,08 $/kWh, pis 1 $ US ≈ 1,38 $ CA."
    )
    assert {m.currency for m in ent.money} == {"CAD"}
    rate = next(m for m in ent.money if m.per_hour)
    assert rate.amount == pytest.approx(0.35 * 1.38)
    # the bare "$" of a message that writes both dollars explicitly is the local one
    assert ent.electricity_price is not None and ent.electricity_price.amount == 0.08


def test_a_stated_rate_between_any_two_currencies_is_read() -> None:
    (pair,) = parse_pair_rates("on compte 1 USD = 83 INR pour la conversion")
    assert (pair.base, pair.quote, pair.rate) == ("USD", "INR", 83.0)


def test_without_a_stated_rate_the_reference_rates_convert() -> None:
    ent = extract_entities("The server costs S$45,000, or we rent at $1.86/h on AWS.")
    assert [m.currency for m in ent.money] == ["SGD", "SGD"]
    assert ent.money[1].amount != 1.86  # converted, not relabelled


@pytest.mark.parametrize(
    ("text", "amount"), [("une L40S à 1,40 € HT/h", 1.4), ("$2.10 excl. VAT per hour", 2.1)]
)
def test_a_tax_word_before_the_unit_keeps_the_rate_hourly(text: str, amount: float) -> None:
    (money,) = parse_money(text)
    assert (money.amount, money.per) == (amount, "hour")


def test_cents_followed_by_a_currency_code_are_that_currency() -> None:
    (money,) = parse_money("on grid at 38c/kWh (AUD)")
    assert (money.amount, money.currency, money.per) == (0.38, "AUD", "kwh")


def test_another_makers_word_before_a_number_is_not_that_card() -> None:
    ent = extract_entities("any chance to get support for the gfx1037 (radeon 610M)?")
    assert "GeForce 610M" not in ent.gpus
    assert ent.unknown_gpus == ["radeon 610M"]
    assert all(not s.startswith("GeForce") for s in match_gpu("radeon 610M").suggestions)
    assert extract_entities("AMD Radeon 780M iGPU").gpus == ["Radeon 780M"]


def test_hardware_the_asker_describes_is_not_probed() -> None:
    tools = _tools(
        "I would like to run it on my laptop, but I only have an integrated (Intel HD) graphics "
        "card. Does it make sense to run it without CUDA?"
    )
    assert "probe_gpus" not in tools


def test_a_model_the_question_does_not_name_gets_no_list_of_other_models() -> None:
    assert "models_for" not in _tools("Will this model run on a Jetson Nano 2GB?")
    assert "models_for" in _tools("What models can I run on my 12GB RTX 3060?")


def test_idle_for_the_other_hours_is_a_machine_left_on() -> None:
    ent = extract_entities("It's generating maybe 5 hrs a day and idles the other 19.")
    assert ent.always_on and ent.hours_per_day == 5


def test_an_electricity_question_asks_no_card_price() -> None:
    tools = _tools(
        "My 3090 rig pulls 420 W at the wall while generating and 95 W idle, 5 hrs a day. I'm on "
        "grid at 38c/kWh (AUD). What's that a month, and how much do I save at 280 W?"
    )
    assert "purchase_price" not in tools and "power_cost" in tools


def test_two_hourly_quotes_with_a_speedup_are_priced_per_job() -> None:
    answer = ask(
        "Un fournisseur propose une L40S à 1,40 € HT/h et une H100 à 2,80 € HT/h. Notre "
        "fine-tuning prend ~40 h sur L40S et la H100 irait 2,2× plus vite. Laquelle coûte le moins ?"
    )
    assert [c.name for c in answer.tool_calls if c.name != "search_corpus"] == [
        "rent_cost",
        "rent_cost",
    ]
    assert "56" in answer.text and "50,91" in answer.text
    assert "Pas de prix d'achat" not in answer.text


def test_a_fit_beside_a_game_and_obs_says_it_counts_the_model_alone() -> None:
    text = ask(
        "I run Mistral Nemo 12B Q4_K_M in LM Studio, OBS with NVENC and the game, all on one "
        "RTX 4070 Super 12GB. Is it too much for 12 GB?"
    ).text
    assert "model alone" in text


def test_an_amd_card_gets_no_cuda_feature_list_and_its_notes_in_english() -> None:
    text = ask("Instinct MI250X specs?").text
    assert "CUDA features" not in text
    assert "two GPUs of 64 GB" in text


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        (
            "ValueError: The model's max seq len (131072) is larger than the maximum number of "
            "tokens that can be stored in KV cache (41488).",
            "vllm-max-model-len-kv-cache",
        ),
        (
            "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
            "hip-no-binary-for-gpu",
        ),
    ],
)
def test_new_error_messages_lead_to_their_entries(message: str, entry: str) -> None:
    found = pasted(message)
    assert found is not None and found.entries == (entry,)
    assert f":{entry}:" in ask(message).text  # the cited passage's id


def test_the_card_after_the_renting_word_is_rented_the_other_bought() -> None:
    from assistant.agent.offline.skills.rent_vs_buy import buy_and_rental_cards

    text = (
        "une RTX 3090 usagée à 900 $ CA, ou louer une 4090 autour de 0,35 $ US/h. Au bout de "
        "combien de temps l'achat devient rentable ?"
    )
    assert buy_and_rental_cards(extract_entities(text), text) == (
        "GeForce RTX 3090",
        "GeForce RTX 4090",
    )
