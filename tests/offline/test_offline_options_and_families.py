"""Cards as people write them in lists of options: plurals, counts with filler words, a vendor
glued to a number, a 'series'; each option checked on its own; every card of a comparison
checked for the feature asked."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.planner import tool_calls_for
from assistant.agent.offline.reading import Conversation, read_turn


def _calls(question: str) -> list[tuple[str, dict]]:
    return [(c.name, c.args) for c in tool_calls_for(read_turn(Conversation(question)))]


def test_a_plural_option_takes_the_other_options_count() -> None:
    ent = extract_entities("Is one 8x H100 80GB node enough or do I need H200s?")
    assert ent.gpu_counts == {"H100 SXM5 80GB": 8, "H200 SXM 141GB": 8}
    assert extract_entities("I have two 3090s").gpu_counts == {"GeForce RTX 3090": 2}


def test_plurals_and_filler_words_keep_the_card_and_its_count() -> None:
    ent = extract_entities("or four of those cheap Tesla P40s I keep seeing?")
    assert ent.gpus == ["Tesla P40"] and ent.gpu_counts == {"Tesla P40": 4}
    assert extract_entities("deux de ces 3090").gpu_counts == {"GeForce RTX 3090": 2}
    assert extract_entities("I run k8s on my laptop").gpus == []


def test_a_vendor_glued_to_the_number_is_read() -> None:
    assert extract_entities("any plan to support AMD6500XT").gpus == ["Radeon RX 6500 XT"]


def test_a_series_names_the_family_cards() -> None:
    ent = extract_entities("Will the RX7900 series be supported?")
    assert ent.unknown_gpus == []
    assert {"Radeon RX 7900 XT", "Radeon RX 7900 XTX"} <= set(ent.gpus)
    assert extract_entities("my RX7900 is great").unknown_gpus == ["RX7900"]


def test_support_of_a_radeon_is_asked_of_rocm() -> None:
    assert extract_entities("Will the RX 7900 XTX be supported?").topics == ["rocm_hip"]
    assert extract_entities("Is the RX 7900 XTX fast?").topics == []
    # PyTorch on a Radeon: ROCm's own check, or the software check that reads AMD's ROCm list
    calls = _calls("does pytorch support my RX 6600?")
    assert ("gpu_capability", {"gpu": "Radeon RX 6600", "topic": "rocm_hip"}) in calls or any(
        name == "software_support" and args["gpu"] == "Radeon RX 6600" for name, args in calls
    )
    text = ask("does pytorch support my RX 6600?").text
    assert "ROCm" in text.split("\n\n")[0]


def test_options_are_sized_one_by_one_never_pooled() -> None:
    calls = [
        args
        for name, args in _calls(
            "Mac Studio M3 Ultra 256 Go ou M4 Max 128 Go pour faire tourner des gros modèles en local ?"
        )
        if name == "models_for"
    ]
    assert [c.get("gpu") for c in calls] == ["Apple M3 Ultra", "Apple M4 Max"]
    assert calls[0]["vram_gb"] == 256 and "gpus" not in calls[0]


def test_every_card_of_a_comparison_is_checked_for_the_feature() -> None:
    head = ask("H100 vs H200 vs B200 for inference: memory, bandwidth, FP4?").text.split("\n\n")[0]
    assert head.startswith("**B200 is the only one of these that can do FP4")


def test_an_option_at_the_limit_is_not_the_one_to_serve_with() -> None:
    head = ask(
        "I need to serve the full DeepSeek-R1 (671B). Is one 8x H100 80GB node enough or do I "
        "need H200s?"
    ).text.split("\n\n")[0]
    assert head.startswith("**8 × H200 SXM 141GB** is the pick for DeepSeek-R1")
    assert "8 × H100 SXM5 80GB holds it only at" in head


def test_a_monthly_bill_and_a_forgotten_month_are_both_priced() -> None:
    text = ask(
        "We rent 4x A100 80GB at $1.79 per GPU-hour, used 10 hours a day on 22 working days a "
        "month. What's the monthly bill, and what if someone leaves them running 24/7?"
    ).text
    assert "$1,575" in text  # 4 × 10 h × 22 d × $1.79
    assert "$5,227" in text  # 4 × 730 h × $1.79


def test_a_context_in_a_follow_up_is_checked_against_the_earlier_card_and_model() -> None:
    answer = ask(
        "ok et si je passe à un contexte de 32k tokens ça tient toujours dans la VRAM ?",
        history=[
            {
                "role": "user",
                "content": "J'ai une RTX 3060 12 Go et je fais tourner Mistral 7B en Q4 avec ollama.",
            }
        ],
    )
    fit = [c for c in answer.tool_calls if c.name == "workload_fit"]
    assert fit and fit[0].arguments["gpu"] == "GeForce RTX 3060 12GB"
    assert fit[0].arguments["context_tokens"] == 32768  # a context, not a dataset to train on
    assert answer.text.startswith("**Oui, ça tient**")


def test_cannot_fine_tune_still_asks_about_fine_tuning() -> None:
    ent = extract_entities("qwen2.5-32B can not fine tuning on 80GB A100 in max_seq_length=32768")
    assert ent.method == "finetune"
    assert ent.context_tokens == 32768
    assert extract_entities("a full fine-tune, not LoRA").method == "full"


def test_nodes_times_gpus_count_every_gpu() -> None:
    assert extract_entities("llama 3 70B using 2x8 80GB GPUs").gpu_count == 16
    assert extract_entities("I have 4 GPUs").gpu_count == 4


def test_cards_counted_without_a_name_are_named_by_count_and_size() -> None:
    text = ask("Can I fine-tune Llama 3 70B on 2x8 80GB GPUs?").text
    assert "on 16 cards of 80 GB" in text.split("\n\n")[0]


def test_a_comparison_that_asks_which_one_opens_with_the_pick() -> None:
    from assistant import ask

    answer = ask(
        "Used RTX 3060 12GB vs new RTX 5060 Ti 16GB vs used 2080 Ti for cuDF and a small local "
        "LLM? which one and why"
    )
    assert "gpu_compare" in [c.name for c in answer.tool_calls]
    first = answer.text.split("\n\n")[0]
    assert "RTX 5060 Ti 16GB" in first and "16 GB" in first, answer.text


def test_a_pick_word_before_the_cards_makes_them_options() -> None:
    from assistant.agent.offline.entities import extract_entities

    either = extract_entities(
        "Le labo peut m'acheter soit un Mac mini M4 24 Go, soit une tour avec RTX 4060 Ti 16 Go"
    )
    assert either.options and len(either.gpus) == 2
    assert extract_entities("J'hésite entre une 4090 et une 5090 pour SDXL").options
    assert extract_entities(
        "Cheapest of g4dn.xlarge (T4), g5.xlarge (A10G), g6.xlarge (L4)?"
    ).options
    # cards of one machine stay one machine
    assert not extract_entities("My rig: 2x 3090 and a 4090. Which models fit?").options
    assert not extract_entities("I have a 4090 and a 3090 in one box").options


def test_a_model_number_ending_in_g_is_no_memory_size() -> None:
    # 'A10G' is AWS's 24 GB A10 variant, not a card with 10 GB
    assert extract_entities("g5.xlarge (A10G) or g6.xlarge (L4)?").card_memory == {}
    assert extract_entities("my GTX 970 (3.5gb) card").card_memory == {"GeForce GTX 970": 3.5}


def test_options_weighed_across_sentences_keep_every_card() -> None:
    question = (
        "So, no chance to train a Lora with a 4070 TI Super of 16Gb? Maybe will be possible in "
        "the future or only ppl with 3090's & 4090's GPU's can train Loras for FLUX?"
    )
    calls = [args["gpu"] for name, args in _calls(question) if name == "workload_fit"]
    assert calls == ["GeForce RTX 4070 Ti Super", "GeForce RTX 3090", "GeForce RTX 4090"]


def test_cloud_instances_named_as_options_are_checked_against_the_model() -> None:
    question = (
        "We want to serve Llama 3.1 8B in FP16 with vLLM. Cheapest of g4dn.xlarge (T4), "
        "g5.xlarge (A10G), g6.xlarge (L4)? will FP16 fit on the T4?"
    )
    fits = [args["gpu"] for name, args in _calls(question) if name == "workload_fit"]
    assert fits == ["T4", "A10G", "L4"]


def test_two_models_asked_in_two_sentences_are_each_checked_at_their_precision() -> None:
    question = (
        "with 4x MI50 = 128GB can I run Llama 3.3 70B at Q8_0? and Qwen3-235B-A22B at Q4_K_M? "
        "roughly what tokens/s"
    )
    fits = [(a["model"], a["precision"]) for name, a in _calls(question) if name == "workload_fit"]
    assert fits == [("Llama 3.1 70B", "q8_0"), ("Qwen3 235B-A22B", "q4_k_m")]
