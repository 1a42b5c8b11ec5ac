"""Cost answers that follow how the asker uses what they price: a machine left on all day, working
days a week or month, a share of the time in use, one option faster than another, a purchase
quote next to an hourly rate, their own spot and on-demand rates for several GPUs. Each answer's
first sentence carries the figure asked with those assumptions. Exact values, computed by hand in
the comments."""

from __future__ import annotations

from tests.owning.test_cost_questions import _run


def test_always_on_is_24_hours_a_day_en() -> None:
    # 3 x 350 W x 24 h = 25.2 kWh a day x $0.20 = $5.04 a day, x 365 = $1,839.60 a year
    calls, text = _run(
        "Three RTX 3090 at 350 W each running non-stop, power at $0.20/kWh: yearly bill?", "en"
    )
    assert calls["power_cost"][0]["hours_per_day"] == 24.0
    assert text.startswith("**3 × GeForce RTX 3090 at 1,050 W for 24 h a day, at $0.20/kWh: $1,840")


def test_always_on_is_24_hours_a_day_fr() -> None:
    # 2 x 300 W x 24 h = 14.4 kWh a day x 0.25 € = 3.60 € a day, x 30 = 108 € a month
    calls, text = _run(
        "Deux RTX 4080 à 300 W qui tournent jour et nuit, électricité à 0,25 €/kWh : combien par mois ?",
        "fr",
    )
    assert calls["power_cost"][0]["hours_per_day"] == 24.0
    assert "24 h par jour" in text.split("\n")[0]
    assert "108\u00a0€ par mois" in text.split("\n")[0]


def test_working_days_drive_the_monthly_rent_and_the_break_even_en() -> None:
    # Rent: 6 h x 20 days x $1.50 = $180 a month; $3,000 / $180 = 16.7 months before electricity.
    calls, text = _run(
        "Buy a used RTX A6000 for $3,000 or rent one at $1.50/h? We'd use it 6 h a day, "
        "20 working days a month.",
        "en",
    )
    (args,) = calls["rent_vs_buy"]
    assert args["days_per_month"] == 20.0 and args["hours_per_day"] == 6.0
    assert "rent_cost" not in calls
    first = text.split("\n")[0]
    assert first.startswith("**Renting costs $180 a month (6 h × 20 days × $1.50/h)")
    assert "16.7 months without it" in first


def test_days_a_week_become_days_a_month_fr() -> None:
    # 5 days a week = 5 x 52 / 12 = 21.67 days a month; 4 h x 21.67 x 0.80 € = 69.33 € a month
    calls, text = _run(
        "Acheter une RTX 4090 à 1 900 € ou la louer à 0,80 €/h, 4 h par jour, 5 jours par semaine ?",
        "fr",
    )
    (args,) = calls["rent_vs_buy"]
    assert round(args["days_per_month"], 2) == 21.67
    assert text.startswith(
        "**La location coûte 69,33\u00a0€ par mois (4 h × 21,7 jours × 0,80\u00a0€/h)"
    )


def test_a_utilisation_share_scales_the_rented_hours_fr() -> None:
    # Two years = 17,520 h; 25 % of it = 4,380 h x 3 € = 13,140 € of rent, against a 20,000 €
    # quote: renting is cheaper by 20,000 + electricity - 13,140.
    calls, text = _run(
        "On nous propose un devis à 20 000 € pour une L40S, ou la location à 3 €/h. Elle serait "
        "utilisée à 25 % sur 2 ans. Que choisir ?",
        "fr",
    )
    (args,) = calls["rent_vs_buy"]
    assert args["utilisation"] == 0.25 and args["period_hours"] == 17520.0
    first = text.split("\n")[0]
    assert first.startswith("**Sur 2 ans à 25 % du temps (6 h par jour), soit 4\u202f380 h d'usage")
    assert "la location revient moins cher" in first
    assert "13\u202f140\u00a0€" in first


def test_a_utilisation_share_scales_a_rental_en() -> None:
    # A month = 730 h; 60 % of it = 438 h x $2 = $876
    calls, text = _run("An L40S at $2/h for a month, busy about 60% of the time: cost?", "en")
    assert calls["rent_cost"][0]["utilisation"] == 0.6
    assert text.startswith("**L40S for a month (730 h × 60 % in use = 438 h) at $2/GPU-h: $876**")


def test_a_speed_up_divides_that_options_hours_en() -> None:
    # L4: 400 h x $0.70 = $280; A100 three times faster: 400 / 3 = 133.3 h x $1.80 = $240
    calls, text = _run(
        "A 400-hour job on an L4 at $0.70/h, or on an A100 at $1.80/h, which is 3x faster?", "en"
    )
    speedups = [a.get("speedup") for a in calls["rent_cost"]]
    assert speedups == [None, 3.0]
    assert text.startswith(
        "**L4: $280 (400 h × $0.70/h); A100 80GB SXM4: $240 (400 h ÷ 3 for the speed-up = 133 h "
        "× $1.80/h).** **A100 80GB SXM4 is cheaper by $40.**"
    )


def test_a_speed_up_divides_that_options_hours_fr() -> None:
    # RTX 4090: 300 h x 0,40 € = 120 €; H100 deux fois plus rapide : 150 h x 2 € = 300 €
    calls, text = _run(
        "Il me faut 300 heures de RTX 4090 à 0,40 €/h. Et avec une H100 à 2 €/h, deux fois plus "
        "rapide, ça coûterait combien ?",
        "fr",
    )
    assert [a.get("speedup") for a in calls["rent_cost"]] == [None, 2.0]
    assert "150 h × 2\u00a0€/h" in text
    assert "GeForce RTX 4090 revient moins cher de 180\u00a0€" in text


def test_the_askers_spot_rates_and_gpu_count_give_the_saving_first_en() -> None:
    # 16 GPUs x 5 days (120 h) x ($3.00 - $1.10) = $3,648
    calls, text = _run(
        "16 GPUs on-demand at $3.00/GPU/h or spot at $1.10 per GPU per hour for a 5-day "
        "training run: how much does spot save?",
        "en",
    )
    (args,) = calls["spot_vs_dedicated"]
    assert (args["spot_rate"], args["dedicated_rate"], args["gpu_count"]) == (1.1, 3.0, 16)
    assert text.startswith(
        "**Spot saves up to $3,648 on this job** (16 GPUs × 120 h × ($3 − $1.10)/GPU-h"
    )


def test_one_card_at_two_power_draws_en() -> None:
    # 450 W x 10 h = 4.5 kWh x $0.40 = $1.80 a day x 30 = $54 a month; 300 W: $36, $18 less
    calls, text = _run(
        "RTX 4090 at 450 W for 10 h a day, power $0.40/kWh; and if I cap it at 300 W? Monthly cost?",
        "en",
    )
    assert [a["power_w"] for a in calls["power_cost"]] == [450.0, 300.0]
    assert text.startswith(
        "**GeForce RTX 4090 at 450 W for 10 h a day, at $0.40/kWh: $54 a month**"
    )
    assert "**At 300 W: $36 a month**, $18 less." in text


def test_several_cards_at_two_power_draws_fr() -> None:
    # 2 x 400 W x 24 h = 19.2 kWh x 0,20 € = 3,84 € par jour x 365 = 1 401,60 € par an;
    # 2 x 250 W : 12 kWh x 0,20 € = 2,40 € x 365 = 876 €, soit 525,60 € de moins
    calls, text = _run(
        "Deux L40S à 400 W allumées en continu, 0,20 €/kWh : combien par an ? Et bridées à 250 W ?",
        "fr",
    )
    assert [a["power_w"] for a in calls["power_cost"]] == [400.0, 250.0]
    assert "1\u202f402\u00a0€ par an" in text.split("\n")[0]
    assert "**À 250 W chacune (500 W) : 876\u00a0€ par an**, soit 526\u00a0€ de moins." in text


def test_an_hourly_electricity_cost_is_not_a_rental_rate() -> None:
    calls, text = _run(
        "My 3090 at 350 W costs me about $0.12/h in electricity at $0.35/kWh. Per month at 5 h a day?",
        "en",
    )
    assert "rent_rate" not in calls["power_cost"][0]
    calls, _ = _run(
        "Ma 3090 à 350 W me coûte 0,09 €/h d'électricité, 0,26 €/kWh. Et si je la loue à 0,30 €/h ?",
        "fr",
    )
    assert calls["power_cost"][0]["rent_rate"] == 0.3


def test_one_rate_with_a_speed_up_is_priced_not_judged_fr() -> None:
    # 12 h / 3 = 4 h x 2,50 € = 10 €
    calls, text = _run(
        "Mon entraînement prend 12 heures ; sur une H100 à 2,50 €/h il irait 3 fois plus vite. "
        "Combien ça coûterait ?",
        "fr",
    )
    assert calls["rent_cost"][0]["rate_per_hour"] == 2.5
    assert text.startswith(
        "**H100 SXM5 80GB pendant 12 h ÷ 3 pour l'accélération = 4 h à 2,50\u00a0€/h par GPU : 10\u00a0€**"
    )
