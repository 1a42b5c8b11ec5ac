"""Cost and power questions that give their own figures (counts, days, rates per GPU-hour, a
price per kWh in cents or with a decimal comma, idle phases, two cards, a budget, an exchange
rate): planned by the offline model, run through the tools, and answered with those figures in
the first sentence. Exact values, computed by hand in the comments."""

from __future__ import annotations

import json
from typing import Any

import pytest

from assistant.agent.offline.planner import tool_calls_for
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.agent.offline.skills import get_skill
from assistant.agent.toolset import TOOL_SPECS, call_tool, resolve


def _run(question: str, lang: str) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """The planned calls by tool, and the skills' answer sections joined."""
    calls = tool_calls_for(read_turn(Conversation(question)))
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for call in calls:
        by_tool.setdefault(call.name, []).append(call.args)
    sections = []
    for tool, args_list in by_tool.items():
        spec = next(s for s in TOOL_SPECS if s.name == tool)
        func, model = resolve(spec)
        payloads = [json.loads(call_tool(tool, func, model, args)) for args in args_list]
        skill = get_skill(tool)
        assert skill is not None
        sections += [s for s in skill.answer_many(payloads, question, lang) if s]  # type: ignore[arg-type]
    return by_tool, "\n\n".join(sections)


def test_several_gpus_for_days_at_a_rate_per_gpu_hour_en() -> None:
    # 4 x (14 x 24 = 336 h) x $1.60 = $2,150.40
    calls, text = _run("We'd rent 4x A100 80GB for two weeks at $1.60/GPU-h. Total cost?", "en")
    assert calls["rent_cost"] == [
        {"gpu": "A100 80GB SXM4", "hours": 336.0, "rate_per_hour": 1.6, "gpu_count": 4,
         "currency": "USD"}
    ]  # fmt: skip
    assert text.startswith("**4 × A100 80GB SXM4 for two weeks (336 h) at $1.60/GPU-h: $2,150**")


def test_several_gpus_converted_at_the_askers_rate_fr() -> None:
    # 12 x (5 x 24 = 120 h) x 0,45 $ = 648 $; 648 / 1,125 = 576 €
    calls, text = _run(
        "Louer 12 RTX 4090 pendant 5 jours à 0,45 $/h par GPU, ça fait combien en euros avec "
        "1 € = 1,125 $ ?",
        "fr",
    )
    assert "budget_plan" not in calls and "recommend_gpus" not in calls
    args = calls["rent_cost"][0]
    assert (args["gpu_count"], args["hours"], args["usd_per_eur"]) == (12, 120.0, 1.125)
    first = text.split("\n")[0]
    assert "648\u00a0$" in first and "576\u00a0€" in first


def test_a_budget_divided_by_each_rate_given_fr() -> None:
    # 900 € / 0,70 € = 1 285,7 h; 900 € / 1,50 € = 600 h
    calls, text = _run(
        "Avec 900 € de crédits, combien d'heures de L4 à 0,70 €/h, et combien d'heures de A100 "
        "80 Go à 1,50 €/h ?",
        "fr",
    )
    assert "budget_plan" not in calls
    assert [a["rate_per_hour"] for a in calls["rent_cost"]] == [0.7, 1.5]
    assert "**900\u00a0€ donnent 1\u202f286 h de L4**" in text
    assert "**900\u00a0€ donnent 600 h de A100 80GB SXM4**" in text


def test_two_cards_power_compared_at_the_askers_price_en() -> None:
    # 320 W x 5 h x 30 days x $0.30 = $14.40 a month; 200 W: $9.00; $5.40 less
    calls, text = _run(
        "At 30 cents/kWh, is a 3080 (320 W) or a 4070 (200 W) cheaper to run 5 h a day?", "en"
    )
    assert [(a["gpu"], a["power_w"], a["electricity_price_per_kwh"]) for a in calls["power_cost"]] == [
        ("GeForce RTX 3080", 320.0, 0.3),
        ("GeForce RTX 4070", 200.0, 0.3),
    ]  # fmt: skip
    assert text.startswith(
        "**At $0.30/kWh and 5 h a day, GeForce RTX 4070 (200 W) costs $9 a month in electricity "
        "against $14.40 for GeForce RTX 3080 (320 W): $5.40 a month less.**"
    )


def test_idle_phase_and_a_yearly_figure_fr() -> None:
    # (200 W x 3 h + 15 W x 21 h) = 0,915 kWh a day x 0,2276 € = 0,2083 €; x 365 = 76,01 €
    calls, text = _run(
        "Ma 4070 tourne jour et nuit : 15 W au repos, 200 W pendant 3 h par jour. Le kWh est à "
        "0,2276 €, combien par an ?",
        "fr",
    )
    args = calls["power_cost"][0]
    assert (args["power_w"], args["idle_w"], args["hours_per_day"]) == (200.0, 15.0, 3.0)
    assert (args["idle_hours_per_day"], args["electricity_price_per_kwh"]) == (21.0, 0.2276)
    assert text.startswith(
        "**GeForce RTX 4070 à 200 W pendant 3 h par jour + au repos à 15 W pendant 21 h, à "
        "0,2276\u00a0€ le kWh : 76,01\u00a0€ par an**"
    )


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("Buy a used 3090 for $600 or rent one at $0.25/h? 4 h a day, power is 20 cents/kWh.", 0.2),
        ("Buy a used 3090 for $600 or rent one at $0.25/h? 4 h a day, the kWh costs $0.20.", 0.2),
    ],
)
def test_rent_vs_buy_uses_the_askers_electricity(question: str, price: float) -> None:
    # electricity 350 W x $0.20 = $0.07/h; saving $0.25 - $0.07 = $0.18/h; $600 / 0.18 = 3,333 h
    calls, text = _run(question, "en")
    assert calls["rent_vs_buy"][0]["electricity_price_per_kwh"] == price
    assert text.startswith("**Buying GeForce RTX 3090 pays off after 3,333 hours of use**")


def test_a_stated_energy_figure_is_checked_against_the_cards_en() -> None:
    # 4 x 400 W x 24 h x 30 days = 1,152 kWh a month at most; 1,500 / 1,152 = 1.30;
    # 1,500 kWh / (30 x 24 h x 4) = 521 W per card
    calls, text = _run(
        "Our 4x A100 SXM box burns about 1,500 kWh a month according to the bill. Does that add up?",
        "en",
    )
    assert calls["power_cost"][0]["gpu_count"] == 4
    assert calls["power_cost"][0]["hours_per_day"] == 24.0
    assert text.startswith(
        "**4 × A100 80GB SXM4 at 400 W each, 24 h a day, draw at most 1,152 kWh a month; the "
        "1,500 kWh stated is 1.3× that**: about 521 W per card"
    )


def test_a_stated_energy_figure_within_the_cards_draw_fr() -> None:
    # 2 x 350 W x 24 h = 16.8 kWh a day at most; 12 kWh -> 12,000 / 24 / 2 = 250 W (71 %)
    _, text = _run("Mes deux 3090 consomment 12 kWh par jour d'après ma prise, normal ?", "fr")
    assert text.startswith(
        "**2 × GeForce RTX 3090 à 350 W chacune, 24 h par jour, consomment au plus 16,8 kWh par "
        "jour ; les 12 kWh annoncés restent en dessous** : les cartes tireraient en moyenne "
        "environ 250 W (71\u202f% de 350 W)."
    )


def test_home_electricity_against_the_askers_rental_rate_en() -> None:
    # 450 W x 4 h x 30 x $0.25 = $13.50 a month; $0.1125/h against $0.50/h; renting 4 h a day
    # for 30 days: $60
    _, text = _run(
        "My 3090 box draws 450 W, I use it 4 h a day and pay $0.25/kWh. Is a cloud 3090 at "
        "$0.50/h cheaper?",
        "en",
    )
    assert text.startswith(
        "**GeForce RTX 3090 at 450 W for 4 h a day, at $0.25/kWh: $13.50 a month**"
    )
    assert (
        "**Electricity is $0.11/h against $0.50/h to rent: running your own is cheaper per hour**: "
        "renting 4 h a day costs $60 a month"
    ) in text


def test_a_job_repeated_each_year_fr() -> None:
    # 2 x (3 x 24 = 72 h) x 3,00 € = 432 € a run; 6 runs a year -> 2 592 € a year
    _, text = _run(
        "On loue 2 H100 pendant 3 jours à 3 €/h par GPU pour chaque entraînement. On fait 6 "
        "entraînements par an : combien par an, et vaut-il mieux acheter ?",
        "fr",
    )
    first = text.split("\n")[0]
    assert first.startswith(
        "**2 × H100 SXM5 80GB pendant 3 jours (72 h) à 3\u00a0€/h par GPU : 432\u00a0€**"
    )
    assert "**À 6 exécutions par an : 2\u202f592\u00a0€ par an.**" in first
    assert "reste sous 2\u202f592\u00a0€ par année d'utilisation." in first
