"""Buying against a flat price a month (a GPU rented by the month, a notebook subscription); a
follow-up that is a new question of its own; a rental total at the exchange rate the asker gives."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy


def test_a_flat_monthly_price_is_spread_over_the_hours_of_use() -> None:
    r = rent_vs_buy(RentVsBuyQuery(gpu="RTX 3060", purchase_price=300, rent_per_month_flat=12,
                                   hours_per_day=2, days_per_month=30, power_w=170,
                                   electricity_price_per_kwh=0.25, currency="EUR"))  # fmt: skip
    assert r.rent_rate == pytest.approx(12 / 60)
    electricity = 0.170 * 0.25 * 60  # a month at 2 h a day
    assert r.break_even_months == pytest.approx(300 / (12 - electricity), rel=1e-6)


def test_buying_against_a_subscription_is_answered_in_months() -> None:
    answer = ask(
        "I could buy an RTX 3060 for 300 euros or keep paying Colab Pro at 11.79 €/month. "
        "I use it about 2 h a day. When does buying pay off?"
    )
    call = next(c for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert call.arguments["rent_per_month_flat"] == 11.79
    assert call.arguments["purchase_price"] == 300
    assert answer.text.startswith(
        "**Against €11.79 a month, buying GeForce RTX 3060 12GB at €300 pays off after about"
    )


def test_a_price_in_another_sentence_than_the_choice_is_the_purchase() -> None:
    answer = ask(
        "Un portable avec RTX 4060 8 Go coûte environ 750 000 FCFA ici. Vaut-il mieux l'acheter "
        "ou continuer à louer un GPU pour ~8 000 FCFA par mois ?"
    )
    call = next(c for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert call.arguments["purchase_price"] == 750000
    assert call.arguments["rent_per_month_flat"] == 8000
    assert "94 mois de location" in answer.text


def test_a_follow_up_that_is_a_question_of_its_own_gets_its_own_tool() -> None:
    history = [
        {"role": "user", "content": "Mon portable a une RTX 3050 4 Go : SD 1.5 et SDXL, ça tient ?"}
    ]
    answer = ask(
        "Sinon je peux louer un GPU. Sur RunPod j'ai vu une RTX 4090 à 0,34 $/h. Je ferais ~40 h "
        "par mois. Avec 1 $ ≈ 600 FCFA ça me fait combien par mois ?",
        history=history,
    )
    call = next(c for c in answer.tool_calls if c.name == "rent_cost")
    assert call.arguments["hours"] == 40 and call.arguments["rate_per_hour"] == 0.34
    head = answer.text.split("\n")[0]
    assert "13,60\u00a0$" in head and "8\u202f160\u00a0FCFA au taux indiqué" in head


def test_a_card_asked_whether_it_runs_something_unnamed_gets_its_side() -> None:
    """'Can RTX8000 48G run with inference?', '8 * 3090 supports fine-tuning?': the card's side,
    not a shopping list or a spec sheet."""
    for question in (
        "VRAM consumption — Can RTX8000 48G run with inference?",
        "May I ask if 8 * 3090 supports fine-tuning training",
        "For Nvidia GPU, does it support GPUs with compute capability 6.0, e.g., P100?",
    ):
        names = [c.name for c in ask(question).tool_calls]
        assert names[0] == "card_readiness", (question, names)
        assert "recommend_gpus" not in names


def test_an_out_of_memory_while_generating_is_not_answered_with_training_fixes() -> None:
    answer = ask(
        "Avec SDXL j'ai ça : torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
        "20.00 MiB. GPU 0 has a total capacity of 4.00 GiB of which 0 bytes is free. Je fais quoi ?"
    )
    assert "pendant l'entraînement" not in answer.text
    assert "gradient" not in answer.text.split("\n")[0]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("a vendor quotes Rs 3.4 lakh", 340_000),
        ("2 lakh rupees", 200_000),
        ("₹1.5 crore", 15_000_000),
    ],
)
def test_lakh_and_crore(text: str, amount: float) -> None:
    from assistant.money import parse_money

    assert parse_money(text)[0].amount == amount


def test_a_rate_per_dollar_sign_and_a_break_even_in_two_words() -> None:
    from assistant.money import parse_pair_rates

    (pair,) = parse_pair_rates("we use ~Rs 88 per $.")
    assert (pair.base, pair.quote, pair.rate) == ("USD", "INR", 88.0)
    answer = ask(
        "We run about 500 GPU-hours/month on-demand at $1.212/h, and we use ~Rs 88 per $. A vendor "
        "quotes Rs 3.4 lakh for a workstation with an RTX 4090. How many months to break even?"
    )
    call = next(c for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert call.arguments["purchase_price"] == pytest.approx(340_000 / 88)
    assert call.arguments["rent_rate"] == 1.212
    assert answer.text.startswith("**Buying GeForce RTX 4090 pays off after")
