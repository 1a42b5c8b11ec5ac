"""Entity extraction: cards (known and unknown), money, durations, parts, condition and mode."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.numbers import parse_durations, parse_percentages


def test_cards_in_order_with_condition() -> None:
    ent = extract_entities("compare my 4090 and a used 3090")
    assert ent.gpus == ["GeForce RTX 4090", "GeForce RTX 3090"]
    assert ent.unknown_gpus == []
    assert ent.condition == "used"


def test_unknown_card_is_flagged_with_suggestions() -> None:
    ent = extract_entities("What are the specs of the RTX 9090?")
    assert ent.gpus == []
    assert ent.unknown_gpus == ["RTX 9090"]
    assert "GeForce RTX 3090" in ent.suggestions["RTX 9090"]


def test_unknown_variant_is_not_mistaken_for_its_base_card() -> None:
    ent = extract_entities("How much VRAM is on the RTX 9090 Ti?")
    assert ent.unknown_gpus == ["RTX 9090 Ti"]
    assert ent.gpus == []


def test_a_glued_d_is_the_d_card_but_3d_is_no_card() -> None:
    assert extract_entities("buy a 4090D for FP8").gpus == ["GeForce RTX 4090 D"]
    assert extract_entities("3D rendering on my 4090").gpus == ["GeForce RTX 4090"]
    assert extract_entities("a 2d kernel in CUDA").gpus == []


def test_a_version_number_is_no_card() -> None:
    ent = extract_entities("nvcc -V: Cuda compilation tools, release 10.2, V10.2.89")
    assert ent.gpus == [] and ent.unknown_gpus == []
    assert extract_entities("my V100 is slow").gpus == ["Tesla V100 SXM2 16GB"]


def test_datacenter_names_and_french_memory_sizes() -> None:
    gpus = extract_entities("H100 ou A100 : quelles différences ?").gpus
    assert len(gpus) == 2
    assert gpus[0].startswith("H100") and gpus[1].startswith("A100")
    ent = extract_entities("Une RTX 3060 12 Go d'occasion")
    assert ent.gpus == ["GeForce RTX 3060 12GB"]
    assert ent.condition == "used"


def test_money_rates_and_budgets() -> None:
    ent = extract_entities("Une instance spot à 0,80 $/h contre une instance dédiée à 2,50 $/h")
    assert [(m.amount, m.currency, m.per_hour) for m in ent.money] == [
        (0.8, "USD", True),
        (2.5, "USD", True),
    ]
    ent = extract_entities("I have 200 € to learn GPU programming")
    assert [(m.amount, m.currency, m.per_hour) for m in ent.budgets] == [(200.0, "EUR", False)]


def test_exponent_amounts_are_read_whole() -> None:
    assert extract_entities("a budget of 10^12 €").money[0].amount == 1e12
    assert extract_entities("a budget of 1e12 €").money[0].amount == 1e12


def test_durations_spans_and_rates() -> None:
    cases = {
        "100 hours": (100.0, None),
        "3 mois": (3 * 730.0, None),
        "a weekend": (48.0, None),
        "un week-end": (48.0, None),
        "8h/day": (None, 8.0),
        "2 h par jour": (None, 2.0),
        "three hours daily": (None, 3.0),
        "trois jours": (72.0, None),
        "a week": (168.0, None),
        "10 hours a week": (None, 10 / 7),
    }
    for text, (hours, per_day) in cases.items():
        (duration,) = parse_durations(text)
        assert (duration.hours, duration.per_day) == (hours, per_day), text


def test_prices_per_hour_are_not_durations() -> None:
    assert parse_durations("spot at 0.80 $ an hour") == []
    assert [d.hours for d in parse_durations("$0.80/h for 10 hours")] == [10.0]


def test_percentages() -> None:
    assert parse_percentages("20 % off, then 5.5 percent") == [20.0, 5.5]


def test_parts_topics_and_mode() -> None:
    ent = extract_entities("Puis-je suivre les parties 4 et 8 sur un T4 ?")
    assert ent.parts == [4, 8]
    assert ent.gpus == ["T4"]
    assert extract_entities("Can my RTX 4090 do megakernels?").topics == ["megakernels"]
    assert extract_entities("Should I buy a 4090?").mode == "buy"
    assert extract_entities("et en location ?").mode == "rent"
    assert extract_entities("buy or rent a 4090?").mode is None


def test_models_sizes_and_fit_settings() -> None:
    ent = extract_entities("Will Llama 3.1 8B fit on an RTX 4090 with 8k context?")
    assert ent.models == ["Llama 3.1 8B"]
    assert ent.context_tokens == 8192
    ent = extract_entities("Can I run a 70B model in 4-bit on a 24 GB card?")
    assert ent.models == [] and ent.model_size_b == 70.0
    assert ent.precision == "int4" and ent.vram_gb == 24.0
    assert extract_entities("QLoRA of Mistral 7B").method == "qlora"


def test_storage_size() -> None:
    assert extract_entities("500 GB of disk on a stopped machine").storage_gb == 500.0
    assert extract_entities("1 To de disque pendant 3 mois").storage_gb == 1000.0


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("I have 1,800 dollars to buy a GPU", 1800.0, "USD"),
        ("J'ai 2 500 € pour une carte", 2500.0, "EUR"),
        ("Budget : 2.500 € maximum", 2500.0, "EUR"),
        ("around $2k for a card", 2000.0, "USD"),
        ("avec 1,5 k€", 1500.0, "EUR"),
    ],
)
def test_budgets_in_any_format(text: str, amount: float, currency: str) -> None:
    budget = extract_entities(text).budgets[0]
    assert (budget.amount, budget.currency) == (amount, currency)


def test_a_rate_keeps_its_decimal_comma() -> None:
    assert extract_entities("spot à 1,500 $/h").hourly_rates[0].amount == 1.5


@pytest.mark.parametrize(
    ("text", "count"),
    [("I have 4x 24GB A10G", 4), ("2 × 4090 for a 70B", 2), ("deux 3090 pour Llama 70B", 2)],
)
def test_number_of_cards(text: str, count: int) -> None:
    assert extract_entities(text).gpu_count == count


@pytest.mark.parametrize(
    "text", ["Can I fine-tune Mistral 7B on my 3060?", "Puis-je affiner Llama 3 8B ?"]
)
def test_fine_tuning_without_a_method_is_never_inference(text: str) -> None:
    assert extract_entities(text).method == "finetune"


@pytest.mark.parametrize(
    ("typo", "fixed"),
    [
        ("megakernells", "megakernels"),
        ("wgma", "wgmma"),
        ("blackwel", "blackwell"),
        ("lama 3", "llama 3"),  # 'lama' alone is an English word; with a version it is Llama
    ],
)
def test_typos_in_domain_names_are_fixed(typo: str, fixed: str) -> None:
    from assistant.agent.offline.spelling import correct_typos

    assert correct_typos(f"what about {typo}?") == f"what about {fixed}?"


def test_ordinary_words_are_left_alone() -> None:
    from assistant.agent.offline.spelling import correct_typos

    text = "I am tuning a model overnight, how long until my system can print results?"
    assert correct_typos(text) == text


def test_a_model_family_with_its_version_is_no_typo() -> None:
    from assistant.agent.offline.spelling import correct_typos

    text = "How can I get 300 tokens per second with qwen3:30b local, or llama3 8b?"
    assert correct_typos(text) == text
    assert extract_entities(text).models[0] == "Qwen3 30B-A3B"


def test_a_mixture_of_experts_named_by_its_size_and_active_part_is_that_model() -> None:
    ent = extract_entities("ok et le 30B-A3B en Q4_K_M, ça tourne à combien de tokens/s ?")
    assert ent.models == ["Qwen3 30B-A3B"]  # 3.3B active per token, not a dense 30B


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Mistral Small 24B en Q4_K_M", "q4_k_m"),
        ("Llama 3 8B Q8_0 on a 3060", "q8_0"),
        ("qwen 32b q5_K_S", "q5_k_m"),
        ("Qwen 14B in Q6_K", "q6_k"),
        ("llama 70b at q4", "q4_k_m"),  # 'Q4' is llama.cpp's word for its usual 4-bit type
        ("Mistral 7B en Q8", "q8_0"),
        ("Llama 3 70B in 4-bit", "int4"),
    ],
)
def test_a_gguf_type_is_the_precision(text: str, precision: str) -> None:
    assert extract_entities(text).precision == precision


def test_a_desktop_card_next_to_a_laptop_keeps_its_memory() -> None:
    # no laptop RTX 3060 has 12 GB: the one in the eGPU is the desktop card
    ent = extract_entities("Mon portable a une RTX 3050 Ti 4 Go + une RTX 3060 12 Go en eGPU")
    assert ent.gpus == ["GeForce RTX 3050 Ti Mobile", "GeForce RTX 3060 12GB"]
    assert extract_entities("my laptop has an RTX 3060 6GB").gpus == ["GeForce RTX 3060 Mobile"]


def test_an_apple_chips_memory_is_the_macs_ram_said_later() -> None:
    ent = extract_entities(
        "I have an M3 Max 14-core CPU/30-core GPU, with 36GB of RAM (300GB/s memory bandwidth)"
    )
    assert ent.card_memory == {"Apple M3 Max": 36.0}
    # a discrete card's 'RAM' is the system's, and a bandwidth is no memory size
    assert extract_entities("RTX 3060 in a PC with 32GB of RAM").card_memory == {}
    assert extract_entities("M2 Pro at 200GB/s").card_memory == {}


def test_sdxl_written_with_its_version_is_sdxl() -> None:
    assert extract_entities("SDXL1 Lora training on my RTX 2060 Super").models == ["SDXL base 1.0"]


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("How much is renting a 4090 for 3 hours a day for a month?", 3 * 730 / 24),
        ("Louer une H100 4 h par jour pendant 2 semaines, ça coûte combien ?", 4 * 14),
        ("I left my A100 running for 3 days", 72),
        ("Renting an L4 for 100 hours, 5 hours a day", 100),
    ],
)
def test_a_calendar_span_at_a_daily_use_counts_the_hours_used(text: str, hours: float) -> None:
    assert extract_entities(text).total_hours == pytest.approx(hours)


def test_a_card_no_catalog_knows_named_twice_is_one_unknown_card() -> None:
    ent = extract_entities("support for the Radeon 610M? the Radeon 610M is in my laptop")
    assert ent.unknown_gpus == ["Radeon 610M"]


def test_a_line_anchor_in_a_link_names_no_card() -> None:
    """'…/OperationUtils.mm#L30-L44' is a link to lines of code: no L30, L44 or L40 card."""
    found = extract_entities(
        "The dtype check is here: https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/"
        "native/mps/OperationUtils.mm#L30-L44 and https://github.com/x/y/blob/main/a.cpp#L40 "
        "on my M2 MacBook"
    )
    assert found.gpus == ["Apple M2"], found.gpus
    assert found.unknown_gpus == []
    assert extract_entities("Is an L40 enough? See https://example.com/l40-specs").gpus == ["L40"]


def test_pytorchs_oom_message_gives_the_cards_total_not_the_failed_allocation() -> None:
    found = extract_entities(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total "
        "capacity of 12.00 GiB of which 312.00 MiB is free."
    )
    assert found.vram_gb == 12.0


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("8 runs de 10 h par semaine pendant 3 semaines, à 1,40 €/h", 240.0),
        ("5 training runs of 3 hours on an A100 at $1.20/h", 15.0),
        ("one run of 3 hours on an A100 at $1.20/h", 3.0),
    ],
)
def test_a_count_of_runs_multiplies_the_length_of_each(text: str, hours: float) -> None:
    assert extract_entities(text).total_hours == pytest.approx(hours)


def test_a_price_per_million_tokens_is_neither_a_budget_nor_an_hourly_rate() -> None:
    found = extract_entities(
        "Option A: an API at ~0,35 € le million de tokens. Option B: rent an H100 at 2,20 €/h."
    )
    assert [(m.amount, m.per) for m in found.money] == [(2.2, "hour")]
    assert [m.amount for m in extract_entities("$0.15 per 1M tokens, or a $1,600 4090?").money] == [
        1600.0
    ]


def test_a_fine_tune_someone_owns_is_a_model_to_serve() -> None:
    served = extract_entities(
        "We want to serve Llama 3.1 8B Instruct in FP16 (our Yoruba/Hausa fine-tune) with vLLM"
    )
    assert served.method == "inference"
    assert extract_entities("I want to fine-tune Llama 3 8B on my 4090").method == "finetune"
    assert extract_entities("Can I fine-tune my model on a T4?").method == "finetune"


def test_fine_tune_after_my_as_a_verb_is_still_the_job() -> None:
    assert extract_entities("my plan is to fine-tune Llama 3 8B on a 4090").method == "finetune"
    assert extract_entities("mon but est de fine-tune Mistral 7B").method == "finetune"


@pytest.mark.parametrize(
    ("text", "vram"),
    [
        # a size in brackets right after a model and its format is the model's
        ("Mac mini M4 Pro 64GB. want to run Llama 3.3 70B 4bit with MLX (~40GB)", 64.0),
        ("want to run Llama 3.3 70B 4bit with MLX (~40GB). Will it load?", None),
        # ...not after a card named since
        ("Llama 8B on my RTX 4060 (8GB)?", 8.0),
        ("My laptop (16GB) runs Llama 8B", 16.0),
    ],
)
def test_a_model_s_size_in_brackets_is_not_the_memory(text: str, vram: float | None) -> None:
    assert extract_entities(text).vram_gb == vram
