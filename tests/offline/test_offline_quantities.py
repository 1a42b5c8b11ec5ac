"""The quantities of cost and power questions: counts per card, days and weeks as hours, the
asker's price per kWh in any form, idle and working phases, each card's own watts, a stated
exchange rate and a stated energy figure."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities


def test_count_days_and_rate_per_gpu_hour_en() -> None:
    ent = extract_entities("Renting 4x A100 80GB for two weeks at $1.60/GPU-h, what's the bill?")
    assert ent.gpu_counts == {"A100 80GB SXM4": 4}
    assert ent.total_hours == 336.0
    assert [(m.amount, m.currency) for m in ent.hourly_rates] == [(1.6, "USD")]


def test_count_glued_to_the_card_and_a_count_per_card() -> None:
    ent = extract_entities("2x4090 or 1x A6000 for a week?")
    assert ent.gpu_counts == {"GeForce RTX 4090": 2, "RTX A6000": 1}
    assert ent.count_of("GeForce RTX 4090") == 2
    assert ent.total_hours == 168.0


def test_count_and_days_fr() -> None:
    ent = extract_entities("Louer 12 RTX 4090 pendant 5 jours à 0,45 €/h par GPU")
    assert ent.gpu_counts == {"GeForce RTX 4090": 12}
    assert ent.total_hours == 120.0
    assert [(m.amount, m.currency) for m in ent.hourly_rates] == [(0.45, "EUR")]


def test_a_price_before_a_card_is_not_a_count() -> None:
    assert extract_entities("I saw it at $2.50 H100 price").gpu_counts == {}


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("my kWh costs 0,2276 € at home", 0.2276, "EUR"),
        ("we pay 18 cents/kWh", 0.18, "USD"),
        ("le kWh est à 0,1952 €", 0.1952, "EUR"),
        ("électricité 21 centimes le kWh", 0.21, "EUR"),
        ("power at $0.41 per kWh", 0.41, "USD"),
    ],
)
def test_electricity_price_in_any_form(text: str, amount: float, currency: str) -> None:
    ent = extract_entities(text)
    assert ent.electricity_price is not None
    assert ent.electricity_price.amount == pytest.approx(amount)
    assert ent.electricity_price.currency == currency
    assert ent.budgets == []  # a price per kWh is not a budget


def test_idle_and_working_phases_en() -> None:
    ent = extract_entities(
        "my 4090 idles at 25 W for 20 h a day and draws 400 W for 4 h a day, cost per year?"
    )
    assert (ent.power_w, ent.idle_w) == (400.0, 25.0)
    assert (ent.hours_per_day, ent.idle_hours_per_day) == (4.0, 20.0)


def test_always_on_machine_idles_the_rest_of_the_day_fr() -> None:
    ent = extract_entities(
        "Ma 4070 tourne jour et nuit : 15 W au repos, 200 W pendant 3 h par jour quand je joue"
    )
    assert (ent.power_w, ent.idle_w) == (200.0, 15.0)
    assert (ent.hours_per_day, ent.idle_hours_per_day) == (3.0, 21.0)


def test_each_card_its_own_watts() -> None:
    ent = extract_entities("Is a 3080 (320 W) or a 4070 (200 W) cheaper to run?")
    assert ent.card_power_w == {"GeForce RTX 3080": 320.0, "GeForce RTX 4070": 200.0}
    assert ent.idle_w is None


def test_stated_exchange_rate_is_not_two_amounts() -> None:
    ent = extract_entities("Combien en euros avec 1 € = 1,10 $ pour 300 h à 2 $/h ?")
    assert ent.usd_per_eur == pytest.approx(1.1)
    # "combien en euros": the rate is converted to the currency asked for, at the stated rate
    assert [(m.amount, m.currency, m.per) for m in ent.money] == [
        (pytest.approx(2.0 / 1.1), "EUR", "hour")
    ]


def test_stated_energy_figure() -> None:
    ent = extract_entities("our rack uses about 3,200 kWh a month at $0.20/kWh")
    assert ent.energy_kwh == 3200.0
    assert ent.electricity_price is not None and ent.electricity_price.amount == 0.2


@pytest.mark.parametrize(
    ("text", "per_year"),
    [
        ("we plan three such runs a year", 3.0),
        ("deux entraînements par mois", 24.0),
        ("I redo it 2 times a week", 104.0),
        ("one run", None),
        # the job named earlier in the sentence: a small bare count per period
        ("des LoRA pour mes clients (~4 par mois)", 48.0),
        ("4 LoRAs a month", 48.0),
        # an amount, not a count of jobs
        ("I pay 20 a month for storage", None),
        ("$4 a month", None),
        ("2 500 € par mois", None),
        ("10 h par mois", None),
        ("about 50 a month", None),
    ],
)
def test_a_job_repeated(text: str, per_year: float | None) -> None:
    assert extract_entities(text).repeats_per_year == per_year


def test_machines_each_with_one_card_count_every_card() -> None:
    from assistant.agent.offline.planner import tool_calls_for
    from assistant.agent.offline.reading import Conversation, read_turn

    def power_args(text: str) -> dict[str, object]:
        calls = tool_calls_for(read_turn(Conversation(text)))
        return next(c.args for c in calls if c.name == "power_cost")

    lab = power_args(
        "If all 20 lab PCs had an RTX 4060 running 6 hours a day, what's the electricity bill?"
    )
    assert (lab["gpu_count"], lab["machines"]) == (20, 20)
    racks = power_args("4 servers of 8x H100, electricity per month at 0.12 $/kWh?")
    assert (racks["gpu_count"], racks["machines"]) == (32, 4)
    nodes = power_args("2 nœuds avec 8 A100 chacun, combien d'électricité par mois ?")
    assert nodes["gpu_count"] == 16


@pytest.mark.parametrize(
    ("text", "watts"),
    [("the rig pulls ~1.9kW at the wall fully loaded", 1900.0), ("a 2 kW server", 2000.0)],
)
def test_kilowatts_are_a_power_figure(text: str, watts: float) -> None:
    assert extract_entities(text).power_w == watts


def test_kilowatt_hours_are_no_power_figure() -> None:
    ent = extract_entities("it uses 5,600 kWh a month")
    assert ent.power_w is None and ent.energy_kwh == 5600


@pytest.mark.parametrize(
    "text", ["Mon alim c'est une 500 W (bronze, 6 ans)", "mon PC de 6 ans", "a PSU aged 6 years"]
)
def test_a_things_age_is_no_span_of_use(text: str) -> None:
    from assistant.agent.offline.numbers import parse_durations

    assert [d for d in parse_durations(text) if d.unit == "year"] == []


@pytest.mark.parametrize("text", ["comparez sur 3 ans", "une location de 3 ans", "over 3 years"])
def test_a_span_in_years_is_still_read(text: str) -> None:
    from assistant.agent.offline.numbers import parse_durations

    assert [d.hours for d in parse_durations(text)] == [3 * 8760.0]


def test_a_meter_at_the_plug_reads_the_whole_machine() -> None:
    text = (
        "Homelab: Epyc 7302 + 3x P40. Kill-A-Watt says ~310 W at idle (model loaded), ~900 W "
        "while generating. I generate maybe 2 hours/day total, box is on 24/7. $0.16/kWh, per month?"
    )
    ent = extract_entities(text)
    assert ent.wall_w == 900 and ent.idle_w == 310
    # the bill follows the meter, once, not per card: 0.9 kW x 2 h + 0.31 kW x 22 h = 8.62 kWh
    from assistant import ask

    head = ask(text).text.split("\n\n")[0]
    assert "8.62 kWh a day" in head and "3 ×" not in head
    assert extract_entities("my 3090 pulls 350 W in games").wall_w is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Une LoRA c'est ~1h30 sur une 4090", 1.5),
        ("each run takes 2 h 45 min", 2.75),
        ("1h05", 1 + 5 / 60),
        ("a 12 h job", 12.0),
    ],
)
def test_hours_and_minutes_are_one_length(text: str, hours: float) -> None:
    (duration,) = extract_entities(text).durations
    assert duration.hours == pytest.approx(hours)


def test_rent_vs_buy_weighs_a_repeated_job() -> None:
    """'~4 LoRA a month', one takes '~1h30': 4 days of 1.5 h a month, not 8 h every day."""
    from assistant.agent.offline.planner import tool_calls_for
    from assistant.agent.offline.reading import Conversation, read_turn

    question = (
        "Je voudrais entraîner des LoRA pour mes clients (~4 par mois). Louer une 4090 à "
        "0,60 €/h ou acheter un PC RTX 5080 à 2 400 €, c'est quoi le plus logique ? Une LoRA "
        "c'est ~1h30."
    )
    calls = tool_calls_for(read_turn(Conversation(question=question)))
    (args,) = [c.args for c in calls if c.name == "rent_vs_buy"]
    assert args["gpu"] == "GeForce RTX 5080"
    assert (args["hours_per_day"], args["days_per_month"]) == (1.5, 4.0)


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("i pay about 70 Ft/kWh", 70.0, "HUF"),
        ("the kWh costs me 70 Ft", 70.0, "HUF"),
        ("Le kWh me revient à environ 90 FCFA chez CIE.", 90.0, "XOF"),
        ("le kWh est à 0,2516 €", 0.2516, "EUR"),
    ],
)
def test_a_price_per_kwh_written_after_the_unit(text: str, amount: float, currency: str) -> None:
    price = extract_entities(text).electricity_price
    assert price is not None and (price.amount, price.currency) == (amount, currency)


def test_a_model_name_suffix_is_no_card() -> None:
    """'Qwen3-235B-A22B': A22B is the model's active parameters, not an unknown card."""
    ent = extract_entities("with 4x MI50 can I run Qwen3-235B-A22B at Q4_K_M? and a RTX 9999?")
    assert ent.unknown_gpus == ["RTX 9999"]
    assert ent.gpus == ["Radeon Instinct MI50"]


def _calls(question: str) -> list:
    from assistant.agent.offline.planner import tool_calls_for
    from assistant.agent.offline.reading import Conversation, read_turn

    return tool_calls_for(read_turn(Conversation(question=question)))


def test_a_count_written_with_a_star() -> None:
    assert extract_entities("a machine with 8*A100 80G").gpu_count == 8
    assert extract_entities("8 * A100").gpu_count == 8


def test_models_asked_of_each_card_are_not_pooled() -> None:
    """'Mac mini M4 16GB … M4 Pro with 48GB … which models fit on each?': one list per option."""
    calls = _calls(
        "Mac mini M4 16GB is $599, M4 Pro with 48GB is $1,799. Which models actually fit on each?"
    )
    per_card = [c.args for c in calls if c.name == "models_for"]
    assert [(a["gpu"], a.get("vram_gb")) for a in per_card] == [
        ("Apple M4", 16.0),
        ("Apple M4 Pro", 48.0),
    ]


def test_power_compared_on_the_askers_measured_draw_and_speedup() -> None:
    """The wall reading is the asker's machine (the first card named); a card that does the same
    job 25 times faster is busy 1/25 of the hours."""
    calls = _calls(
        "Ma station (4090 + Threadripper) tourne 24 h/24, le wattmètre indique 620 W. Je paie "
        "0,20 €/kWh. Ça fait combien par an ? Et si le même job va 25 fois plus vite sur une H100 ?"
    )
    power = [c.args for c in calls if c.name == "power_cost"]
    assert [(a["gpu"], a.get("power_w"), a["hours_per_day"]) for a in power] == [
        ("GeForce RTX 4090", 620.0, 24.0),
        ("H100 SXM5 80GB", None, pytest.approx(24 / 25)),
    ]


def test_the_card_priced_to_buy_and_the_one_priced_by_the_hour() -> None:
    """No 'buy' said: each price follows its card ('des L40S à 1,40 €/h … la 5090 (disons
    2 500 €)'), so the 5090 is bought and the L40S rented."""
    calls = _calls(
        "Un hébergeur propose des L40S à 1,40 €/h HT. À partir de combien d'heures la 5090 "
        "(disons 2 500 € HT) devient plus rentable ?"
    )
    (args,) = [c.args for c in calls if c.name == "rent_vs_buy"]
    assert (args["gpu"], args["rent_rate"], args["purchase_price"]) == (
        "GeForce RTX 5090",
        1.4,
        2500.0,
    )


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("~4 LoRAs a month, one takes 1h30", (1.5, 4.0)),
        # more jobs than days: spread over the month
        ("I train about 40 LoRAs a month. Training takes 2 h.", (80 / 30, 30.0)),
        # jobs longer than a day
        ("2 trainings a month of 45 h", (3.0, 30.0)),
    ],
)
def test_a_repeated_job_as_hours_a_day_and_days_a_month(
    text: str, use: tuple[float, float]
) -> None:
    from assistant.agent.offline.skills.rent_vs_buy import _repeated_use

    assert _repeated_use(extract_entities(text)) == pytest.approx(use)


def test_a_length_of_recorded_media_is_no_time_of_use() -> None:
    from assistant.agent.offline.entities import extract_entities

    fr = extract_entities(
        "J'ai 20 min d'acapella propres. Des 4090 à 0,35 $/h : pour 12 h ça fait combien ?"
    )
    assert [d.hours for d in fr.durations] == [12.0]
    assert extract_entities("3 hours of audio to transcribe on a T4").durations == []
    assert [d.hours for d in extract_entities("train for 20 min on an A100").durations] == [
        pytest.approx(1 / 3)
    ]


def test_a_total_over_several_cards_gives_each_cards_memory() -> None:
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities("with 4x MI50 = 128GB can I run Llama 3.3 70B at Q8_0?")
    assert ent.gpu_count == 4 and ent.memory_of("Radeon Instinct MI50") == 32.0
    # the listed size times the count says nothing new
    same = extract_entities("2x RTX 3090 = 48GB, can I run a 70B at q4?")
    assert same.memory_of("GeForce RTX 3090") is None
    # more than a curated card has is a false premise: the catalog's size stands
    assert extract_entities("2x RTX 4090 = 96GB").memory_of("GeForce RTX 4090") is None


def test_hours_per_working_day_are_a_daily_rate() -> None:
    from assistant.agent.offline.numbers import parse_durations

    found = parse_durations("runs simulations ~14 h per working day, 21 working days a month")
    assert found[0].per_day == 14.0 and found[0].hours is None
    assert parse_durations("14 h per business day")[0].per_day == 14.0


@pytest.mark.parametrize(
    ("text", "card", "rest"),
    [
        # the figure after 'the rest of the PC' is the rest's, the one before it the card's
        ("GTX 1070 is 150W and the rest of PC maybe 100W. 6 hours a day", 150, 100),
        ("GPU 295W under load + ~150W rest of system, 8h/day", 295, 150),
        ("4090 at 450 W plus 150 W for the rest of the PC", 450, 150),
    ],
)
def test_the_rest_of_the_machine_keeps_its_own_watts(text: str, card: float, rest: float) -> None:
    ent = extract_entities(text)
    assert (ent.power_w, ent.rest_w) == (card, rest)


def test_the_rest_of_the_pc_is_counted_for_every_card_compared() -> None:
    from assistant import ask

    answer = ask(
        "My 3090 draws 350 W and the rest of the PC 120 W; 8 h a day at 0.3 €/kWh. "
        "And with a 4090 at 450 W?"
    ).text
    assert "470 W (card 350 W + the rest of the machine 120 W)" in answer
    assert "570 W (card 450 W + the rest of the machine 120 W)" in answer


@pytest.mark.parametrize(
    ("text", "vram"),
    [
        # a model file's size is not the card's memory
        ("Le fichier Q4_K_M fait 19,9 Go. Ça rentre dans les 24 Go avec un contexte de 8k?", 24),
        ("Llama 3.3 70B Q4_K_M gguf is 42.5 GB. Does that fit the 48GB card?", 48),
        ("my card has 8 GB and the file is 4 GB", 8),
    ],
)
def test_a_files_size_is_not_the_cards_memory(text: str, vram: float) -> None:
    assert extract_entities(text).vram_gb == vram


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("we have 3 machines with a 3090 each, 8 h a day", 3),
        ("one RTX 4090 per machine, 5 machines in the lab", 5),
        ("quatre magasins, une Jetson Orin Nano chacun", 4),
        ("a 3090 in each of the 3 servers", 3),
        ("say 4 stores, one jetson each running 24/7 at max 25W", 4),
        # 'each' that is no place count
        ("each 4090 draws 450 W", None),
        ("I have a 3090 and a 4090; each draws 350 W", None),
    ],
)
def test_one_card_in_each_of_several_places(text: str, count: int | None) -> None:
    assert extract_entities(text).gpu_count == count


def test_several_unnamed_machines_are_billed_each_and_in_all() -> None:
    from assistant import ask

    text = ask(
        "4 stores, one jetson each running 24/7 at 25W. the tariff is 4.2 pesos per kWh. how "
        "much per month?"
    ).text
    assert "4 machines at 25 W each (100 W in all)" in text, text
    assert "MX$302" in text, text  # 0.1 kW x 24 h x 30 days x 4.2


@pytest.mark.parametrize(
    ("text", "watts"),
    [
        ("2x 3090 a ~700 W en charge, 6 h/jour", 350.0),  # N × the board power: all the cards'
        ("2x 3090 at 350 W each, 6 h a day", 350.0),
        ("4x 4090 at 1800 W total", 450.0),
        ("4x 4090 at 450 W", 450.0),
        ("8x H100 at 700 W", 700.0),
    ],
)
def test_the_figure_after_several_cards_is_each_cards_or_all_of_theirs(
    text: str, watts: float
) -> None:
    (own,) = extract_entities(text).card_power_w.values()
    assert own == watts


@pytest.mark.parametrize(
    ("text", "days"),
    [("runs 10 h a day, 6 days out of 7", 26.0), ("10 h/jour, 6 jours sur 7", 26.0),
     ("5 jours/7", 21.67), ("7 jours sur 7", 30.0)],
)  # fmt: skip
def test_days_out_of_seven_are_a_week_pattern(text: str, days: float | None) -> None:
    from assistant.agent.offline.skills.common import period_span

    found = extract_entities(text).days_per_month
    assert (round(found, 2) if found else None) == days
    assert period_span(text) == (None, None)  # a pattern of use, not a span to total over


@pytest.mark.parametrize(
    "text",
    ["I train 8 hours with a 3090 each day", "2 jobs a week on a 4090 each time, 5 hours long"],
)
def test_each_of_a_span_of_time_is_no_place_count(text: str) -> None:
    assert extract_entities(text).gpu_count in (None, 1)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("is FP8 a thing on Max 1550?", "Data Center GPU Max 1550"),
        ("the Flex 170 for transcoding", "Data Center GPU Flex 170"),
        ("power limit at max 1000 W", None),  # a series word and a number no card ends with
        ("my RTX 3060 max 170 W", "GeForce RTX 3060 12GB"),  # a card's power limit, no suffix
    ],
)
def test_intel_data_centre_gpus_by_series_and_number(text: str, card: str | None) -> None:
    ent = extract_entities(text)
    assert ent.gpus == ([card] if card else []) and not ent.unknown_gpus


def test_one_of_the_things_counted_and_its_length_is_a_daily_use() -> None:
    """'40 LoRAs a month. One LoRA takes 2 h.': 80 h a month, spread over its days."""
    ent = extract_entities("I train about 40 LoRAs a month. One LoRA takes 2 h.")
    assert ent.hours_per_day == pytest.approx(80 / (365 / 12), rel=0.01)
