"""A machine left on all week idles on its days off; idle hours 'on those days' are per day; a
monthly hosting bill is a cost of owning; an instance's price is not multiplied by its GPUs; a
budget plan over the guide is for learners; a board's chipset is no unknown card."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.money import parse_money
from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy
from assistant.tools.power import PowerQuery, power_cost


def test_a_machine_left_on_idles_through_its_days_off() -> None:
    base = {"power_w": 420, "idle_w": 90, "hours_per_day": 10, "idle_hours_per_day": 14,
            "days_per_month": 21.67, "electricity_price_per_kwh": 0.19, "currency": "EUR"}  # fmt: skip
    weekdays = power_cost(PowerQuery(**base))
    left_on = power_cost(PowerQuery(**base, always_on=True))
    # Working days: 4.2 + 1.26 kWh; the other 8.75 days of a month: 2.16 kWh each.
    assert left_on.kwh_per_month == pytest.approx(
        5.46 * 21.67 + 2.16 * (365 / 12 - 21.67), rel=0.01
    )
    assert left_on.cost_per_year == pytest.approx(313, abs=2)
    assert left_on.cost_per_year > weekdays.cost_per_year


def test_hours_before_a_weekly_schedule_are_hours_a_day() -> None:
    ent = extract_entities(
        "Le serveur tire 400 W pendant 9 h, 4 nuits par semaine, et 80 W au repos le reste du "
        "temps (allumé 24/7)."
    )
    assert ent.hours_per_day == 9 and ent.idle_hours_per_day == 15


def test_idle_hours_on_those_days_are_per_day() -> None:
    ent = extract_entities(
        "The rig pulls 450 W while rendering 3 h a day, 20 days a month, and idles at 60 W for "
        "about 6 h on those days."
    )
    assert ent.idle_w == 60 and ent.idle_hours_per_day == 6


def test_quebec_cents_per_kwh_are_read() -> None:
    (price,) = parse_money("je paie 6,8 cennes du kWh")
    assert price.amount == pytest.approx(0.068) and price.per == "kwh"


def test_a_power_bill_with_an_always_on_machine_is_no_forgotten_rental() -> None:
    answer = ask(
        "Ma station tire 300 W pendant 6 h par jour et 70 W au repos, elle reste allumée 24/7, "
        "à 0,21 €/kWh. Combien par an ?"
    )
    names = [c.name for c in answer.tool_calls]
    assert "power_cost" in names and "forgotten_instance" not in names


def test_a_motherboard_chipset_is_not_an_unknown_card() -> None:
    ent = extract_entities("Two RTX 3060s on an X570 board, or should I get a Z790 with a 4070?")
    assert ent.unknown_gpus == []
    assert "GeForce RTX 3060 12GB" in ent.gpus or "GeForce RTX 3060" in " ".join(ent.gpus)


def test_a_monthly_hosting_bill_is_a_cost_of_owning() -> None:
    base = {"gpu": "H100", "purchase_price": 200_000, "rent_rate": 2.5, "gpu_count": 8,
            "hours_per_day": 16, "days_per_month": 30, "power_w": 6000,
            "electricity_price_per_kwh": 0.2, "currency": "EUR"}  # fmt: skip
    plain = rent_vs_buy(RentVsBuyQuery(**base))
    hosted = rent_vs_buy(
        RentVsBuyQuery(**base, running_per_month=2000, running_includes_power=True)
    )
    # 2,000 € a month over 480 h of use is 4.17 €/h, in place of 6 kW × 0.2 € = 1.20 €/h.
    assert hosted.electricity_per_hour == pytest.approx(2000 / 480, abs=0.01)
    assert plain.electricity_per_hour == pytest.approx(1.2, abs=0.01)
    assert hosted.break_even_hours is not None and plain.break_even_hours is not None
    assert hosted.break_even_hours > plain.break_even_hours


def test_the_hosting_bill_of_the_question_reaches_the_tool() -> None:
    answer = ask(
        "Rent 8x H100 at 2.20 € per GPU-hour, or buy an 8x H100 server for 250 k€ plus about "
        "3 000 €/month for colocation (power included)? About 500 h a month of use."
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert args["running_per_month"] == 3000 and args["running_includes_power"] is True


def test_an_instance_s_hourly_price_is_not_multiplied_by_its_gpus() -> None:
    answer = ask(
        "p5.48xlarge (8x H100) is about $55/h on demand and $20/h as spot; a 40 h run, spot or not?"
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "spot_vs_dedicated")
    assert args["spot_rate"] == 20 and args["dedicated_rate"] == 55
    assert args.get("gpu_count") in (None, 1)


def test_a_budget_plan_over_the_guide_is_for_learners_only() -> None:
    grant = ask(
        "I have a $5,000 grant: buy a workstation with an RTX 5090 for about $3,900, or keep "
        "paying a notebook subscription at $50 a month for three years?"
    )
    assert "budget_plan" not in [c.name for c in grant.tool_calls]
    learner = ask("I have 300 € to learn CUDA programming, how should I spend it?")
    assert "budget_plan" in [c.name for c in learner.tool_calls]


def test_a_mac_s_memory_given_anywhere_in_the_message_is_its_own() -> None:
    answer = ask(
        "Apple M3 Max chip (16-core CPU, 40-core GPU), 64GB of unified memory: which models fit?"
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "models_for")
    assert args["vram_gb"] == 64


def test_a_typo_in_a_card_s_name_is_mended() -> None:
    from assistant.agent.offline.spelling import correct_typos

    text = correct_typos("Mac Studio M2 Ultral 192GB, can I train on it?")
    assert extract_entities(text).gpus == ["Apple M2 Ultra"]


@pytest.mark.parametrize(
    ("text", "cost"),
    [
        ("combien de qubits tiennent sur une H100 ?", False),
        ("combien de GPU faut-il pour ce modèle ?", False),
        ("combien d'argent faut-il prévoir ?", True),
        ("c'est combien par mois ?", True),
    ],
)
def test_combien_de_counts_things_not_money(text: str, cost: bool) -> None:
    from assistant.agent.offline.concepts import concepts_in

    assert ("cost" in concepts_in(text)) is cost


def test_the_idle_hours_cost_is_told_apart() -> None:
    base = {"power_w": 420, "idle_w": 90, "hours_per_day": 10, "idle_hours_per_day": 14,
            "days_per_month": 21.67, "electricity_price_per_kwh": 0.19, "currency": "EUR",
            "always_on": True}  # fmt: skip
    r = power_cost(PowerQuery(**base))
    # 90 W × 14 h on 21.67 days plus 90 W × 24 h on the other 8.75 days, at 0.19 €, for a year
    idle = (0.09 * 14 * 21.67 + 0.09 * 24 * (365 / 12 - 21.67)) * 0.19 * 12
    assert r.idle_cost_per_year == pytest.approx(idle, rel=0.01)
    answer = ask(
        "My PC draws 300 W for 5 h a day and idles at 60 W for 19 h a day, at $0.20/kWh. "
        "How much a year?"
    )
    assert "idle hours alone cost" in answer.text


def test_a_monthly_amount_the_asker_gives_is_set_beside_the_bill() -> None:
    answer = ask(
        "Le PC tire 300 W à la prise, 3 h par jour, à 0,10 $ le kWh : combien par mois, face à "
        "mon abonnement à 20 $ US par mois ?"
    )
    assert "Face aux 20" in answer.text and "par mois de la question" in answer.text


@pytest.mark.parametrize(
    ("text", "per", "amount"),
    [("22 $ US par mois", "month", 22.0), ("2 $ une heure", "hour", 2.0)],
)
def test_french_dollar_amounts_and_their_periods(text: str, per: str, amount: float) -> None:
    (m,) = parse_money(text)
    assert (m.per, m.amount, m.currency) == (per, amount, "USD")


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("about 300,000 pages a month; we measured 1.5 pages/s on one L4", 300_000 / 1.5 / 3600),
        ("3 millions de paragraphes, à 40 paragraphes par seconde", 3e6 / 40 / 3600),
        ("20k images at 4 images per minute", 20_000 / 4 / 60),
        ("I have 50 images and a 4090", None),
    ],
)
def test_a_count_and_a_rate_of_the_same_items_make_a_job_s_length(
    text: str, hours: float | None
) -> None:
    got = extract_entities(text).work_hours
    assert got == (pytest.approx(hours) if hours else None)


def test_the_job_length_from_a_rate_reaches_the_spot_comparison() -> None:
    answer = ask(
        "We process about 300,000 pages a month at 1.5 pages/s on one L4. On-demand is $0.80/h, "
        "spot about $0.35/h. Is spot worth it?"
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "spot_vs_dedicated")
    assert args["job_hours"] == pytest.approx(300_000 / 1.5 / 3600)


def test_spot_or_on_demand_for_a_machine_that_runs_all_the_time_is_a_month_of_each() -> None:
    from assistant import ask

    text = ask(
        "g6e.xlarge on-demand showed $1.861/h, spot was around $0.78/h. monthly cost 24/7 for "
        "both? and is spot ok for a tool the analysts use all day"
    ).text
    head = text.split("\n\n")[0]
    assert head.startswith("**Running 24/7 for a month (720 h): $562 on spot against $1,340"), head
    assert "not a live service" in text
