"""Reading how much the asker uses what they price: working days, a share of the time in use, a
speed-up between options, a machine left on all day, and rates per GPU-hour."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.usage import continuous_job, speedups, utilisation, working_days
from assistant.money import parse_money


@pytest.mark.parametrize(
    ("text", "per_month"),
    [
        ("8 h a day, 21 working days a month", 21.0),
        ("office hours, 20 business days per month", 20.0),
        ("4 days a week", 4 * 52 / 12),
        ("18 jours ouvrés par mois", 18.0),
        ("5 jours par semaine", 5 * 52 / 12),
        ("environ 20 jours ouvrables", 20.0),
        ("I only use it on weekdays", 5 * 52 / 12),
        ("du lundi au vendredi, 6 h par jour", 5 * 52 / 12),
        # a year's days: more than a month holds, or said per year
        ("full load 8h/day, 220 working days, 0.35 EUR/kWh", 220 / 12),
        ("8 h a day, 230 days a year", 230 / 12),
        ("on tourne 200 jours par an", 200 / 12),
    ],
)
def test_working_days_a_month(text: str, per_month: float) -> None:
    found = working_days(text)
    assert found is not None
    assert found.per_month == pytest.approx(per_month)


@pytest.mark.parametrize("text", ["a run of 10 days", "pendant 12 jours", "9 days a week"])
def test_a_span_of_days_is_not_a_pattern_of_use(text: str) -> None:
    assert working_days(text) is None


def test_working_days_are_not_read_as_hours_a_day() -> None:
    ent = extract_entities("rent an L4 at $0.80/h, 6 h/day and 20 days/month")
    assert ent.hours_per_day == 6.0
    assert ent.days_per_month == 20.0
    assert [d.per_day for d in ent.durations] == [6.0]


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("busy 30 % of the time", 0.3),
        ("used about 55% of the day", 0.55),
        ("utilisée à 70 %", 0.7),
        ("environ 45 % du temps", 0.45),
        ("un taux d'utilisation de 35 %", 0.35),
    ],
)
def test_a_utilisation_share(text: str, share: float) -> None:
    assert utilisation(text) == pytest.approx(share)


@pytest.mark.parametrize(
    "text", ["a 60 % discount on spot", "70 % moins cher en spot", "the GPU at 90 % power limit"]
)
def test_a_percentage_that_is_not_time_in_use(text: str) -> None:
    assert utilisation(text) is None


@pytest.mark.parametrize(
    ("text", "factor"),
    [
        ("the B200 is 2.5x faster", 2.5),
        ("three times quicker", 3.0),
        ("twice as fast", 2.0),
        ("finishes in half the time", 2.0),
        ("deux fois plus rapide", 2.0),
        ("40 % plus rapide", 1.4),
        ("la moitié du temps", 2.0),
        ("we expect it to take about 2.5x longer", 0.4),
        ("deux fois plus lent", 0.5),
        ("4 times as long", 0.25),
    ],
)
def test_a_speed_up(text: str, factor: float) -> None:
    assert [s.factor for s in speedups(text)] == [pytest.approx(factor)]


@pytest.mark.parametrize(
    "text",
    [
        "or i rent an A100 at $1.19/h, assume its ~2x faster so ~100 h",
        "l'A100 est 2x plus rapide, donc environ 100 h",
        "an H100 is 3x faster = 70 hours",
    ],
)
def test_a_speed_up_the_asker_already_applied_is_not_applied_again(text: str) -> None:
    # the hours they give after it are the hours to price
    assert speedups(text) == []


def test_a_slow_down_goes_to_the_card_it_describes() -> None:
    ent = extract_entities(
        "Provider A: 8x H100 at $23.92/hr, 18 hours. Provider B: 8x A100 at $14.32/hr, 2.5x longer."
    )
    assert ent.speedups == {"A100 80GB SXM4": pytest.approx(0.4)}


def test_a_speed_up_goes_to_the_card_it_describes() -> None:
    ent = extract_entities("An L4 at $0.70/h, or an A100 at $1.80/h that runs 3x faster?")
    assert ent.speedups == {"A100 80GB SXM4": 3.0}
    ent = extract_entities("Une RTX 4090 à 0,40 €/h. Et une H100 à 2 €/h, deux fois plus rapide ?")
    assert ent.speedups == {"H100 SXM5 80GB": 2.0}


@pytest.mark.parametrize(
    "text", ["my server runs 24/7", "allumé jour et nuit", "non-stop", "around the clock"]
)
def test_always_on_means_24_hours_a_day(text: str) -> None:
    ent = extract_entities(f"RTX 4090 at 450 W, {text}, 0.30 €/kWh")
    assert ent.always_on and ent.hours_per_day == 24.0


def test_stated_hours_win_over_always_on() -> None:
    ent = extract_entities("on 24/7 but training 10 h a day")
    assert ent.hours_per_day == 10.0


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("8 H100 at $2.40/GPU/h", 2.4),
        ("0,65 € l'heure-GPU", 0.65),
        ("$1.10 per GPU per hour", 1.1),
        ("3 € par GPU et par heure", 3.0),
    ],
)
def test_rates_per_gpu_hour(text: str, amount: float) -> None:
    (found,) = parse_money(text)
    assert (found.amount, found.per) == (amount, "hour")


def test_a_count_of_gpus_without_a_card() -> None:
    assert extract_entities("16 GPUs for 3 days").gpu_count == 16
    assert extract_entities("$2.40/GPU-h for 3 days").gpu_count is None


@pytest.mark.parametrize(
    ("question", "method"),
    [
        ("I need to do a full fine-tune (not LoRA) of a 13B model", "full"),
        ("fine-tuning complet, pas en LoRA, d'un 7B sur 4 A100", "full"),
        ("QLoRA rather than LoRA on a 3090 for a 14B?", "qlora"),
        ("Can I LoRA a 7B on a 3060?", "lora"),
    ],
)
def test_a_method_set_aside_is_not_the_method(question: str, method: str) -> None:
    from assistant.agent.offline.entities import extract_entities

    assert extract_entities(question).method == method


def test_a_full_fine_tune_in_mixed_precision_keeps_fp32_master_weights() -> None:
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities("full fine-tuning of a 7B with AdamW in bf16 mixed precision")
    assert (ent.method, ent.precision) == ("full", "mixed")
    assert extract_entities("full fine-tuning of a 7B in pure bf16").precision == "bf16"


@pytest.mark.parametrize(
    "text",
    [
        "I'm training a model for 6 months on an H100",
        "a 6-month training run",
        "un entraînement de 6 mois",
        "entraîner un modèle pendant 3 mois",
    ],
)
def test_a_job_that_runs_for_months_runs_all_day(text: str) -> None:
    assert continuous_job(text)
    ent = extract_entities(text)
    assert ent.hours_per_day == 24.0
    assert [d.hours for d in ent.durations if d.per_day is None]  # the span itself is kept


@pytest.mark.parametrize(
    "text", ["I will use it for 6 months", "rent for 3 months to learn about training"]
)
def test_owning_or_learning_for_months_is_no_continuous_job(text: str) -> None:
    assert not continuous_job(text)
    assert extract_entities(text).hours_per_day is None


def test_a_daily_rate_wins_over_a_job_span() -> None:
    ent = extract_entities("I train for 2 hours a day over 6 months")
    assert ent.hours_per_day == 2.0


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("serve it to 50 concurrent users", 50),
        ("20 requêtes simultanées", 20),
        ("10 users at the same time", 10),
        ("a team of 50 users", None),
        ("KV cache for 20 users with 32k tokens of context each", 20),
        ("pour 20 utilisateurs, combien de mémoire pour le KV cache ?", 20),
        ("serve Llama 3.1 70B in fp8 for 64 users at 32k context", 64),
        ("64 utilisateurs avec un contexte de 8k", 64),
    ],
)
def test_requests_served_at_once(text: str, count: int | None) -> None:
    assert extract_entities(text).batch_size == count


@pytest.mark.parametrize(
    "text", ["32k tokens of context each", "32k tokens de contexte chacun", "a 32k context"]
)
def test_a_context_length_in_thousands(text: str) -> None:
    assert extract_entities(text).context_tokens == 32 * 1024


def test_training_some_days_a_week_is_no_continuous_job() -> None:
    assert not continuous_job("I train 3 days a week")
    assert continuous_job("entraîner 2 semaines sur une 4090")


@pytest.mark.parametrize(
    ("text", "share"),
    [("it sits idle about 80 % of the time", 0.2), ("inactif ~80% du temps", 0.2)],
)
def test_an_idle_share_leaves_the_rest_busy(text: str, share: float) -> None:
    assert utilisation(text) == pytest.approx(share)


def test_a_machine_on_all_day_but_mostly_idle_is_priced_busy_and_idle() -> None:
    from assistant.agent.offline.planner import plan_tool_calls
    from assistant.agent.offline.reading import Conversation

    question = (
        "2 RTX 3090 on 24/7 for a chatbot, idle about 80% of the time, 0.18 EUR/kWh: per year?"
    )
    call = next(c for c in plan_tool_calls(Conversation(question), set()) if c.name == "power_cost")
    assert call.args["hours_per_day"] == pytest.approx(4.8)
    assert call.args["idle_hours_per_day"] == pytest.approx(19.2)


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        # a yearly total of use, with what the hours are of between
        ("J'ai à peu près 200 h d'audio par an", 200 / 365),
        ("about 500 hours a year on the card", 500 / 365),
        # "nightly" before the length, in the same sentence
        ("Nightly risk batch takes ~2.5 h on a single GPU", 2.5),
        # runs a period times each run's length; the period's words are no span of time
        ("I train 3-4 LoRAs a week (each ~1.5h on a rented 4090)", 3.5 * 1.5 / 7),
        ("deux rendus par semaine, de 3 h chacun", 2 * 3 / 7),
    ],
)
def test_a_pattern_of_use_is_a_daily_rate(text: str, per_day: float) -> None:
    ent = extract_entities(text)
    assert ent.hours_per_day == pytest.approx(per_day)
    assert ent.total_hours is None


def test_nightly_in_another_sentence_is_no_daily_rate() -> None:
    assert (
        extract_entities("It runs nightly. Renting for 100 hours, what's the cost?").total_hours
        == 100
    )


def test_trading_days_a_month_and_stations_holding_the_cards() -> None:
    ent = extract_entities("4 stations avec RTX 4090, 10 h par nuit, 22 trading days/mo")
    assert ent.machines == 4 and ent.days_per_month == 22.0 and ent.hours_per_day == 10.0


@pytest.mark.parametrize(
    ("text", "users"),
    [
        ("Lequel pour servir 30 personnes ?", 30),
        ("a box to serve 12 people with Llama 3.3 70B", 12),
        ("we have 30 users in the company", None),
        ("Et si 10 géologues l'utilisent en même temps ?", 10),
        ("what if 8 analysts query it at once", 8),
        ("12 students chatting simultaneously", 12),
        ("I have 2 GPUs, can I use both at the same time?", None),
    ],
)
def test_users_a_server_serves_are_served_together(text: str, users: int | None) -> None:
    from assistant.agent.offline.usage import concurrent_requests

    assert concurrent_requests(text) == users


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("typical convo is ~1500 tokens of context", 1500),
        ("chaque conversation fait 1 500 tokens de contexte", 1500),
        ("about 3,000 tokens of context each", 3000),
    ],
)
def test_a_context_said_in_tokens(text: str, tokens: int) -> None:
    assert extract_entities(text).context_tokens == tokens


def test_a_model_fine_tuned_by_its_owner_is_served_not_trained() -> None:
    served = extract_entities("our model = Llama 3.1 8B fine-tuned on Turkish, served with vLLM")
    assert served.method is None
    assert extract_entities("I want to fine-tune Llama 3.1 8B on Turkish").method == "finetune"


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("on l'utiliserait 9h-19h en semaine", 10.0),
        ("from 9am to 5pm on weekdays", 8.0),
        ("de 22h à 6h, la nuit", 8.0),
        ("9:00-17:30", 8.5),
        ("between 9am and 6pm", 9.0),
        ("entre 9h et 18h", 9.0),
    ],
)
def test_a_window_of_the_day_is_its_hours_a_day(text: str, per_day: float) -> None:
    assert extract_entities(text).hours_per_day == pytest.approx(per_day)


@pytest.mark.parametrize("text", ["2h-3h of training", "1h30-2h per run", "2h and 3h"])
def test_two_short_lengths_are_no_window_of_the_day(text: str) -> None:
    ent = extract_entities(text)
    assert ent.hours_per_day is None and ent.total_hours is not None


def test_a_month_of_daily_use_says_how_it_adds_up() -> None:
    from assistant import ask

    head = ask("louer une L40S à ~1,40 €/h, on l'utiliserait 9h-19h en semaine").text
    assert head.startswith("**L40S pendant un mois (10 h par jour × 21,7 jours = 217 h)"), head
