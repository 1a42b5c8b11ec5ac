"""Quantities read per card and currencies read by their own name: a span of hours for each card
compared, a rate with spaced thousands, francs that are not Swiss, 'Q4' as llama.cpp's format,
three models weighed on one card, and a follow-up that names its own cards and model."""

from __future__ import annotations

from assistant import ask
from assistant.money import asked_currency, parse_money, parse_pair_rates


def test_each_card_gets_its_own_span_of_hours() -> None:
    answer = ask(
        "Roughly 25 h on an H100 at $2.10/h, or roughly 60 h on an RTX 3090 at $0.22/h: "
        "which total is lower?"
    )
    hours = {
        c.arguments["gpu"]: c.arguments["hours"] for c in answer.tool_calls if c.name == "rent_cost"
    }
    assert sorted(hours.values()) == [25.0, 60.0]
    assert "60 h × $0.22/h" in answer.text


def test_a_rate_with_spaced_thousands_is_read() -> None:
    (pair,) = parse_pair_rates("1 $ ≈ 2 530 GNF, combien ça fait ?")
    assert (pair.base, pair.quote, pair.rate) == ("USD", "GNF", 2530.0)


def test_francs_are_swiss_only_when_nothing_else_names_them() -> None:
    assert asked_currency("Ça fait combien en francs rwandais ?") == "RWF"
    assert asked_currency("How much is that in Swiss francs?") == "CHF"
    assert parse_money("The job costs 300 francs")[0].currency == "CHF"
    assert parse_money("le travail coûte 30 000 francs burundais")[0].currency == "BIF"


def test_a_total_is_given_in_the_currency_asked_at_the_rate_given() -> None:
    answer = ask(
        "Environ 40 h sur une A100 à 1,20 $/h. 1 $ ≈ 1 450 RWF. Ça fait combien en francs rwandais ?"
    )
    assert "RWF" in answer.text.split("\n")[0] and "CHF" not in answer.text


def test_q4_is_llama_cpps_q4_k_m() -> None:
    answer = ask("Does Mistral 7B fit in 6GB at Q4?")
    fit = next(c for c in answer.tool_calls if c.name == "workload_fit")
    assert fit.arguments["precision"] == "q4_k_m"


def test_three_models_on_one_card_are_each_checked() -> None:
    answer = ask("On 12GB, which of these fits at Q4: Llama 3.1 8B, Gemma 2 9B or Qwen2.5 32B?")
    models = [c.arguments["model"] for c in answer.tool_calls if c.name == "workload_fit"]
    assert models == ["Llama 3.1 8B", "Gemma 2 9B", "Qwen2.5 32B"]
    head = answer.text.split("\n")[0]
    assert "Qwen2.5 32B: does not fit" in head and "Llama 3.1 8B: fits" in head


def test_a_follow_up_naming_its_cards_and_model_is_sized() -> None:
    history = [{"role": "user", "content": "A100 80 GB at $1.19/h for about 30 h: how much?"}]
    answer = ask(
        "And if I rent 2x RTX 3090 instead, does full fine-tuning of a 3B model fit?",
        history=history,
    )
    names = [c.name for c in answer.tool_calls]
    assert names[0] == "workload_fit", names
    fit = answer.tool_calls[0].arguments
    assert fit["task"] == "full_finetune" and fit.get("num_gpus") == 2


def test_another_method_is_not_a_cards_best_fit_for_full_fine_tuning() -> None:
    """LoRA fits where full fine-tuning does not: the card that only takes LoRA does not 'hold'
    the full fine-tuning asked."""
    answer = ask("Full fine-tuning of a 3B model: RTX 4090 24GB or A100 80GB?")
    head = answer.text.split("\n")[0]
    assert "also" not in head.split("A100")[-1] or "does not" in head, head
    assert "RTX 4090" in head
    table = answer.text
    row = next(line for line in table.splitlines() if line.startswith("| GeForce RTX 4090"))
    assert "does not fit" in row, row


def test_a_box_on_all_day_works_the_hours_named_and_idles_the_rest() -> None:
    answer = ask(
        "My NAS box runs 24/7: the meter shows 35W idle and 180W while transcoding, about "
        "2 hrs transcoding per day. Power is 0.30 EUR/kWh. Cost per month?"
    )
    call = next(c for c in answer.tool_calls if c.name == "power_cost")
    assert call.arguments["hours_per_day"] == 2.0
    assert call.arguments["idle_hours_per_day"] == 22.0


def test_a_hosts_draw_is_counted_once_per_machine() -> None:
    answer = ask("At EUR 0.25/kWh, 24/7: a 2x A100 box at 300W per GPU + ~500W host. Monthly cost?")
    call = next(c for c in answer.tool_calls if c.name == "power_cost")
    assert call.arguments["system_w"] == 500.0


def test_monthly_costs_of_owning_are_added_up() -> None:
    answer = ask(
        "Buy a 4x L40S server at ~EUR 40,000, colo rack fee EUR 300/month + about EUR 150/month "
        "power, or rent 4x L40S at EUR 1.10 per GPU-hour 24/7: break-even?"
    )
    call = next(c for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert call.arguments["running_per_month"] == 450.0
    assert call.arguments["running_includes_power"] is True


def test_a_turing_laptop_chip_without_tensor_cores_says_so() -> None:
    """The MX450 is CC 7.5 like the RTX 20 series, but its TU117 die (the GTX 1650's) has no
    tensor cores: the die decides, not the name."""
    answer = ask("Does the GeForce MX450 have tensor cores?")
    assert answer.text.startswith("**No**"), answer.text[:200]


def test_a_laptop_cards_memory_claimed_too_high_is_corrected_first() -> None:
    """'a gaming laptop with an RTX 4090 … I have 24 GB': the laptop chip has 16 GB; the claim
    is corrected before anything else, and the fit uses the laptop card."""
    answer = ask(
        "My gaming laptop has an RTX 4090. Since it's a 4090 I have 24GB of VRAM, so can I "
        "run SDXL with the refiner loaded at the same time?"
    )
    assert answer.text.startswith("**Note: the GeForce RTX 4090 Laptop GPU has 16 GB"), answer.text[
        :200
    ]
    fits = [c for c in answer.tool_calls if c.name == "workload_fit"]
    assert fits and all(c.arguments.get("gpu") == "GeForce RTX 4090 Laptop GPU" for c in fits)


def test_a_bare_model_number_before_a_question_mark_is_a_card() -> None:
    from assistant.agent.offline.entities import extract_entities

    assert extract_entities("how fast on the 7600? tokens per sec").gpus == ["Radeon RX 7600"]
    assert extract_entities("we ran 3000 hours on it").gpus == []


def test_a_price_set_aside_is_not_asked_and_two_cards_are_compared() -> None:
    answer = ask(
        "Jetson Orin NX 16GB or Jetson AGX Orin 32GB: what's the real difference, apart from the price?"
    )
    assert [c.name for c in answer.tool_calls][0] == "gpu_compare"


def test_shark_detection_is_no_probe_of_this_machine() -> None:
    answer = ask(
        "On fait de la détection de requins avec une caméra : une Jetson Orin NX suffit-elle ?"
    )
    assert "probe_gpus" not in [c.name for c in answer.tool_calls]


def test_no_rental_price_is_offered_when_no_rental_was_asked() -> None:
    answer = ask(
        "I use an RTX 3070 Ti Laptop GPU and each epoch costs me about 18 hours. Is that normal?"
    )
    assert "rental price" not in answer.text


def test_two_named_cards_without_a_budget_are_compared_not_priced() -> None:
    answer = ask(
        "Which of these two laptop GPUs would you recommend for RL training in Isaac Lab: "
        "the RTX 5000 Ada or the RTX 5090?"
    )
    assert answer.tool_calls[0].name == "gpu_compare"
    assert "Nothing fits" not in answer.text


def test_a_model_that_fits_none_of_the_options_leads_with_the_fits() -> None:
    answer = ask("A DGX Spark or a PC with 2x RTX 5090, which is faster for DeepSeek-R1 671B?")
    assert "DeepSeek-R1" in answer.text.split("\n")[0]
    assert "fastest" not in answer.text.split("\n")[0]


def test_a_model_on_a_cloud_instance_is_sized_on_its_card() -> None:
    answer = ask(
        "Hi, we want Mistral 7B summaries on vLLM on GCP. Thinking g2-standard-8 (1x L4 24GB) "
        "in BF16. enough? how many documents at once?"
    )
    fit = next(c for c in answer.tool_calls if c.name == "workload_fit")
    assert fit.arguments["gpu"] == "L4"


def test_the_memory_of_several_cards_together_is_no_claim() -> None:
    from assistant.agent.offline.entities import extract_entities

    ent = extract_entities("Et si je loue 2× RTX 4090, ça fait 48 Go, donc ça passe ?")
    assert ent.memory_claims == {}
    ent = extract_entities("I have two RTX 3090s, so I have 48GB of VRAM")
    assert ent.memory_claims == {}


def test_a_models_size_is_no_claim_about_the_card() -> None:
    from assistant.agent.offline.entities import extract_entities

    assert (
        extract_entities("On my RTX 3060, the model has 24GB of weights: too big?").memory_claims
        == {}
    )
    claimed = extract_entities("My laptop has an RTX 4090, and I have 24GB of VRAM")
    assert claimed.memory_claims == {"GeForce RTX 4090 Laptop GPU": 24.0}
