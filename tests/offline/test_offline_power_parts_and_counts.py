"""Power bills read from all their parts (the rest of the machine named by a bare 'rest', idle
hours beside the idle word, a run of whole weeks), counts that are not counts ('the 64GB M4 Max',
'one word per three minutes') and one that is ('2x 6800' after the RX 6800), 16-bit full
fine-tuning as mixed precision, PyTorch's older out-of-memory message, Triton's BF16 assembler
error, and entries about one maker kept from questions about others."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.error_messages import pasted
from assistant.agent.offline.quantities import count_before


def _power_calls(question: str) -> list[dict[str, object]]:
    return [c.arguments for c in ask(question).tool_calls if c.name == "power_cost"]


def test_a_bare_rest_of_the_machine_is_counted_once() -> None:
    (call,) = _power_calls(
        "Box = 2x RTX 3090 (350 W each) + rest ~200W, 10 h a day at 0.30 EUR/kWh. Monthly bill?"
    )
    assert call["system_w"] == 200.0 and call["gpu_count"] == 2 and call["power_w"] == 350.0


def test_a_french_rest_after_a_slash_is_the_rest_of_the_server() -> None:
    (call,) = _power_calls(
        "Serveur 4x RTX 4000 Ada (130 W chacune) + CPU/reste ~300 W, 8 h par jour, 0,20 €/kWh ?"
    )
    assert call["system_w"] == 300.0 and call["gpu_count"] == 4


def test_idle_hours_beside_the_idle_word_are_idle_hours_a_day() -> None:
    (call,) = _power_calls(
        "The PC pulls 300 W when busy and 50 W idle; busy 4h a day and idling the other 6h. "
        "At 0.25 EUR/kWh what does a month cost?"
    )
    assert call["hours_per_day"] == 4.0 and call["idle_hours_per_day"] == 6.0
    french = _power_calls(
        "Mon PC tire 250 W en charge et 40 W au repos : 2 h/jour en charge et 6 h au repos, "
        "20 jours par mois, à 0,22 €/kWh. Combien par mois ?"
    )
    assert french[0]["idle_hours_per_day"] == 6.0 and french[0]["days_per_month"] == 20.0


def test_idle_hours_that_overflow_the_day_are_not_read_as_daily() -> None:
    (call,) = _power_calls(
        "My rig draws 400 W working 20 h a day and 60 W idle for the 10 h of a backup run. "
        "Bill at 0.20 EUR/kWh?"
    )
    assert call.get("idle_hours_per_day") in (None, 0)


def test_weeks_straight_run_all_day_and_are_totalled() -> None:
    answer = ask(
        "Our RTX 4090 will be pegged for 2 weeks straight, card 450W plus 150W for the rest of "
        "the workstation, at 0.10 EUR/kWh. What is the bill?"
    )
    (call,) = [c.arguments for c in answer.tool_calls if c.name == "power_cost"]
    assert call["hours_per_day"] == 24.0 and call["system_w"] == 150.0
    # 600 W x 24 h x 14 days = 201.6 kWh at €0.10
    assert "€20.16" in answer.text.split("\n")[0]


def test_a_count_before_a_bare_model_number_counts_the_named_card() -> None:
    ent = extract_entities(
        "If I buy a 2nd RX 6800, rig = 2x 6800 + rest 120W: power at 0.2 EUR/kWh?"
    )
    assert ent.gpus == ["Radeon RX 6800"] and ent.gpu_count == 2


def test_a_memory_size_glued_to_its_digits_is_no_count() -> None:
    text = "will it load on the 64GB M4 Max?"
    assert count_before(text, text.index("M4 Max")) is None
    text = "would 2x 24GB 3090 do?"
    assert count_before(text, text.index("3090")) == 2


def test_a_rate_in_time_is_no_count_of_machines() -> None:
    ent = extract_entities(
        "On my M2 Max the 13B model generates around one word per three minutes: is that normal?"
    )
    assert ent.gpu_count is None


def test_a_16_bit_full_fine_tune_is_mixed_precision_unless_pure() -> None:
    mixed = extract_entities("Full fine-tune of Llama 3.1 8B (bf16, AdamW) on one A100 80GB?")
    assert mixed.precision == "mixed"
    pure = extract_entities("Full fine-tune of Llama 3.1 8B in pure bf16 with AdamW on one A100?")
    assert pure.precision == "bf16"
    answer = ask(
        "Could we do a full fine-tune of Llama 3.1 8B (bf16, AdamW) on a single A100 80GB?"
    )
    assert "does not fit" in answer.text


def test_the_older_out_of_memory_message_gives_the_cards_total() -> None:
    ent = extract_entities(
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB (GPU 1; 14.75 GiB "
        "total capacity; 11.2 GiB already allocated) while fine-tuning"
    )
    assert ent.vram_gb == 14.75


def test_tritons_bf16_assembler_errors_are_the_bf16_entry() -> None:
    for error in (
        "ptxas error   : Feature '.bf16' requires .target sm_80 or higher",
        "error : Feature 'cvt with .f32.bf16' requires .target sm_80 or higher",
        "Feature 'cvt.bf16.f32' requires .target sm_80 or higher",
    ):
        found = pasted(f"I get this on my RTX 2070: {error}")
        assert found is not None and found.entries == ("bf16-error-use-float16",)


def test_an_nvidia_entry_does_not_answer_an_amd_egpu_on_an_intel_mac() -> None:
    answer = ask("Will an AMD eGPU on my Intel MacBook Pro be used by TensorFlow?")
    assert "NVIDIA" not in answer.text.split("\n")[0]


def test_mps_alone_is_not_a_metal_programming_question() -> None:
    answer = ask("Will Llama 3.1 8B in Q4 load on my 16GB M2 MacBook Air with MPS?")
    assert not any(
        c.name == "gpu_capability" and c.arguments.get("topic") == "metal_mojo"
        for c in answer.tool_calls
    )
    assert any(c.name == "workload_fit" for c in answer.tool_calls)


def test_a_card_inside_an_instance_name_is_that_instances_card() -> None:
    ent = extract_entities("Llama 3.3 70B en BF16 : une H100-2-80G ou la H100-SXM-2-80G ?")
    assert ent.gpus == ["H100 PCIe 80GB", "H100 SXM5 80GB"]
    assert ent.gpu_counts == {"H100 PCIe 80GB": 2, "H100 SXM5 80GB": 2}


def test_the_gpu_in_a_named_instance_is_looked_up_not_probed() -> None:
    answer = ask("Which GPU is in a Standard_NC40ads_H100_v5?")
    assert [c.name for c in answer.tool_calls if c.name != "search_corpus"] == ["cloud_instances"]
    assert answer.text.startswith("**Standard_NC40ads_H100_v5 (Azure) has 1 × H100 NVL 94GB")


def test_the_xavier_nx_is_a_curated_card_with_its_memory_speed() -> None:
    ent = extract_entities("Combien de tokens/s pour un 3B en Q4 sur la Xavier NX 8 Go ?")
    assert ent.gpus == ["Jetson Xavier NX 8GB"]
    answer = ask("Combien de tokens/s pour Llama 3.2 3B en Q4_K_M sur la Xavier NX 8 Go ?")
    speed = next(c for c in answer.tool_calls if c.name == "llm_speed")
    assert speed.arguments["gpu"] == "Jetson Xavier NX 8GB"


def test_a_card_named_to_replace_the_earlier_one_is_compared_with_it() -> None:
    history = [{"role": "user", "content": "We run three Jetson Xavier NX boards on buoys."}]
    answer = ask("Worth replacing them with Orin Nano Super? Compare the numbers.", history=history)
    compare = next(c for c in answer.tool_calls if c.name == "gpu_compare")
    assert compare.arguments["gpus"] == ["Jetson Xavier NX 8GB", "Jetson Orin Nano 8GB"]


def test_the_askers_share_of_work_redone_on_spot_is_priced_as_given() -> None:
    answer = ask(
        "Spot is about $1.00/h vs $3.00/h on demand; the job is ~50 GPU-hours. If interruptions "
        "make us redo ~30% of the work on spot, which is cheaper and by how much?"
    )
    (call,) = [c for c in answer.tool_calls if c.name == "spot_vs_dedicated"]
    assert call.arguments["rework_fraction"] == 0.3
    # spot: 65 h x $1 = $65; on demand: 50 h x $3 = $150
    assert "$85" in answer.text.split("\n")[0] and "$65" in answer.text


def test_a_second_card_bought_makes_two() -> None:
    ent = extract_entities("Thinking of adding a second used RX 6800: would that run a 32B at Q4?")
    assert ent.gpu_counts == {"Radeon RX 6800": 2}
    ent = extract_entities("J'achète une deuxième RTX 3090 d'occasion ?")
    assert ent.gpu_count == 2
    assert extract_entities("the second card is a 3060").gpu_count is None


def test_every_ptx_feature_listed_is_checked() -> None:
    answer = ask(
        "On my RTX 3070 Ti which can I use: cp.async, ldmatrix, mma.sync with bf16, mma with fp8, "
        "TMA, wgmma, tcgen05?"
    )
    topics = [c.arguments["topic"] for c in answer.tool_calls if c.name == "gpu_capability"]
    assert {"ldmatrix", "wgmma", "tcgen05", "cp_async", "tma"} <= set(topics)
    assert "ldmatrix" in answer.text.split("\n")[0]


def test_a_toolkit_and_a_wheel_in_a_statement_are_each_checked() -> None:
    answer = ask(
        "We are moving the image to CUDA 13 + the latest PyTorch cu130 wheels. Will the RTX A6000 "
        "still work? What driver do we need?"
    )
    checks = [c.arguments["software"] for c in answer.tool_calls if c.name == "software_support"]
    assert len(checks) == 2 and "Minimum driver: Linux 580.65.06" in answer.text


def test_a_rough_count_of_users_and_a_plural_context_are_read() -> None:
    ent = extract_entities(
        "Combien reste-t-il pour le KV cache avec des contextes de 16k et une dizaine "
        "d'utilisateurs en même temps ?"
    )
    assert (ent.batch_size, ent.context_tokens) == (10, 16384)
    assert extract_entities("a dozen users at once with 8k context").batch_size == 12
    assert extract_entities("a dozen eggs").batch_size is None


def test_options_named_around_a_clause_are_each_sized_for_the_users_together() -> None:
    answer = ask(
        "Llama 3.3 70B in BF16: is one H100-2-80G enough? How much is left for the KV cache with "
        "16k contexts and a dozen users at once? Or do we need the H100-SXM-2-80G?"
    )
    fits = [c.arguments for c in answer.tool_calls if c.name == "workload_fit"]
    assert [f.get("gpu") for f in fits] == ["H100 PCIe 80GB", "H100 SXM5 80GB"]
    assert "with 12 sequences of 16,384 tokens at once" in answer.text.split("\n")[0]


def test_a_whole_machine_compared_with_a_card_is_named_the_machine() -> None:
    answer = ask(
        "Jetson Xavier NX at 15 W, or the whole 100 W box, 24/7 at 0.25 EUR/kWh: monthly cost?"
    )
    assert "None" not in answer.text


def test_an_azure_size_without_its_prefix_is_the_instance() -> None:
    answer = ask("If we go NC96ads_A100_v4, is that NVLink or just PCIe?")
    assert answer.text.startswith("**Standard_NC96ads_A100_v4 (Azure) has 4 × A100 80GB PCIe")


def test_a_bare_name_after_an_instance_is_that_instances_card() -> None:
    ent = extract_entities(
        "I read 1513 TFLOPS for the H100-1-80G vs 362 for the L40S: the H100 is 4x?"
    )
    assert ent.gpus == ["H100 PCIe 80GB", "L40S"]


def test_pytorch_on_a_jetson_is_nvidias_build_for_its_jetpack_not_pip() -> None:
    answer = ask("Which PyTorch wheel do I pip install for my Jetson Xavier NX?")
    support = next(c for c in answer.tool_calls if c.name == "software_support")
    assert support.arguments["gpu"] == "Jetson Xavier NX 8GB"
    assert "JetPack 5.1" in answer.text and "--index-url" not in answer.text


def test_a_draw_at_the_plug_with_its_parts_in_words_is_the_whole_machine() -> None:
    """'450 W at the plug (4 cards at 140 W max + the rest)': 450 W is the total; the rest comes on
    top of the cards' figure, which is no figure of the rest's."""
    text = ask(
        "Le serveur tournerait 24h/24, 7j/7. On mesure en moyenne ~450 W à la prise (4 cartes "
        "à 140 W max + le reste). Tarif 0,18 €/kWh. Ça coûte combien par an ?"
    ).text
    assert text.startswith("**La machine à 450 W pendant 24 h par jour"), text[:200]
    assert "710\u00a0€ par an" in text.split("\n")[0]


def test_the_bill_and_the_battery_are_answered_in_the_order_asked() -> None:
    bill_first = ask(
        "electricity q: the pc pulls about 180 W at the wall, 6 h a day, 0.15 USD per kWh. whats "
        "that per month? also how long would it last on a 2 kWh power station during outages?"
    ).text
    battery_first = ask(
        "how long does a 1 kWh power station run my 300 W pc? and at 0.25 €/kWh what does the "
        "electricity cost per month at 4 h a day?"
    ).text
    assert bill_first.startswith("**The machine at 180 W"), bill_first[:200]
    assert battery_first.startswith("**A 1,000 Wh battery"), battery_first[:200]


def test_a_figure_added_on_top_of_the_cards_is_each_machines_rest() -> None:
    # 'plus say 10W each for camera + carrier board': 40 boxes at 25 W + 10 W each = 1.4 kW
    (call,) = _power_calls(
        "40 Orin NX boxes running 24x7 in the 25W mode, plus say 10W each for camera + carrier "
        "board. tariff is around ₹8.5/kWh. yearly cost?"
    )
    assert call["power_w"] == 25.0 and call["system_w"] == 10.0 and call["gpu_count"] == 40
    text = ask("my 4090 pulls 450 W plus maybe 120 W, 4 h a day at 0.30 €/kWh").text
    assert text.startswith("**GeForce RTX 4090 at 570 W (card 450 W + the rest of the machine"), (
        text
    )
