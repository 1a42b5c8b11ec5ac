"""Each part a message asks is answered: the models it names rather than a list of all models,
the fit and the speed, each fine-tuning method named, a bill on all day and on a schedule; a
claim the data checks answers on its own; an identifier's underscore does not hide a feature;
a span of time is no count of machines."""

from __future__ import annotations

import re

from assistant import ask
from assistant.agent.offline.planner import tool_calls_for
from assistant.agent.offline.quantities import count_each
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.agent.offline.skills.common import period_span
from assistant.knowledge.topics import find_topic_mentions


def _calls(question: str) -> list[tuple[str, dict]]:
    return [(c.name, c.args) for c in tool_calls_for(read_turn(Conversation(question)))]


def test_the_models_a_question_names_are_each_checked_not_listed() -> None:
    question = (
        "which models actually fit in the 16GB? was hoping for Mistral Small 24B, or is Qwen2.5 "
        "14B the sensible pick? what about Qwen2.5 32B"
    )
    calls = _calls(question)
    assert [name for name, _ in calls] == ["workload_fit"] * 3
    first = ask(question).text.split("\n")[0]
    assert "Qwen2.5 14B: fits" in first
    # a model that does not fit is sized at its lightest precision, not at BF16
    assert "Qwen2.5 32B: does not fit" in first and "even at q4_k_m" in first
    assert "bf16" not in first


def test_which_models_fit_without_a_model_named_still_lists_them() -> None:
    calls = _calls("Which models can my RTX 3060 with 32 GB of RAM run?")
    assert [name for name, _ in calls] == ["models_for"]


def test_a_fit_and_a_speed_asked_together_are_both_answered_in_order() -> None:
    calls = _calls(
        "Je vise Mistral Small 24B en Q4_K_M. Ça tient dans 16 Go avec un contexte correct ? et "
        "quelle vitesse ?"
    )
    assert [name for name, _ in calls] == ["workload_fit", "llm_speed"]
    text = ask(
        "Je vise Mistral Small 24B en Q4_K_M. Ça tient dans 16 Go avec un contexte correct ? et "
        "quelle vitesse ?"
    ).text
    assert "bandwidth_gbs" not in text  # an argument's name is no words for a reader


def test_each_fine_tuning_method_named_is_checked() -> None:
    question = (
        "Avec 12 Go je peux faire un QLoRA de Llama 3.1 8B ? et un LoRA normal en 16 bits ? et "
        "un full fine-tune ?"
    )
    calls = _calls(question)
    assert [args["task"] for _, args in calls] == ["qlora", "lora", "full_finetune"]
    assert all("precision" not in args or args["precision"] is None for _, args in calls)
    text = ask(question).text
    assert text.startswith("**Oui, en fine-tuning QLoRA")
    assert "Estimation impossible" not in text
    assert "Chaque méthode citée" in text and "ne précise pas la méthode" not in text


def test_a_machine_on_all_day_is_priced_both_ways_when_switching_it_off_is_asked() -> None:
    question = (
        "Question budget élec : le serveur tire environ 450 W à la prise en moyenne, 24h/24, et "
        "on paie 0,2016 €/kWh. Ça fait combien par an ? Et si on l'éteint la nuit et le "
        "week-end (allumé 10 h/jour, 5 jours/semaine) ?"
    )
    calls = _calls(question)
    assert [args["hours_per_day"] for _, args in calls] == [24.0, 10.0]
    first = ask(question).text.split("\n")[0]
    assert "795\u00a0€ par an" in first and "236\u00a0€ par an" in first
    assert "week end" not in first  # the weekend is time off, not a span to total over
    assert period_span(question) == (None, None)


def test_a_weekend_of_use_is_still_a_span() -> None:
    assert period_span("my 4090 at 450 W runs all weekend: what does that cost?")[1] == 48.0


def test_meetings_a_week_are_no_count_of_machines() -> None:
    text = "we have about 3 meetings a week and each takes ~1.5 h to process"
    assert count_each(text, text.index("a week") + len("a week")) is None
    calls = _calls(
        "box runs 24/7. it idles ~60 W at the wall, and when transcribing it pulls ~330 W. we "
        "have about 3 meetings a week and each takes ~1.5 h to process. rate is 19.6 cents/kWh. "
        "what does that cost per year?"
    )
    assert calls[0][0] == "power_cost" and calls[0][1]["gpu_count"] == 1
    places = "4 stores, one Jetson each"
    assert count_each(places, places.index("Jetson") + len("Jetson")) == 4


def test_a_claim_the_data_checks_is_not_followed_by_another_question() -> None:
    text = ask(
        "Autre argument que j'utilise : la 4060 Ti 16 Go est plus rapide qu'une 3060 12 Go pour "
        "les LLM parce que sa bande passante est plus élevée. vrai ?"
    ).text
    assert text.startswith("**Non")
    assert "question la plus proche" not in text
    assert "ne couvrent pas cette question" not in text


def test_an_identifier_with_an_underscore_names_its_feature() -> None:
    assert [m.key for m in find_topic_mentions("should I set allow_tf32 on my A100?")] == ["tf32"]
    assert find_topic_mentions("x.tf32 and mytf32") == []


def test_spot_against_on_demand_is_priced_for_the_month_of_runs_asked() -> None:
    text = ask(
        "For LoRA training runs at night (~6 h each, about 22 nights a month) the console shows "
        "us g6e.12xlarge spot around $3.10/h vs $10.49/h on-demand. Whats the monthly difference?"
    ).text
    first = text.split("\n")[0]
    assert "A month of 22 runs: $409 on spot against $1,385 on demand, $975 apart" in first


def test_an_instance_family_named_with_its_card_limits_the_instances_to_that_card() -> None:
    calls = _calls(
        "Want to self-host Llama 3.3 70B in FP8 on AWS. Looking at g6e (L40S). Which is the "
        "smallest g6e size that can actually hold it?"
    )
    cloud = [args for name, args in calls if name == "cloud_instances"]
    assert cloud and cloud[0]["gpu"] == "L40S"


def test_no_nvidia_driver_on_an_amd_machine_is_the_cuda_build_of_pytorch() -> None:
    text = ask(
        "tried comfyui today and got: RuntimeError: Found no NVIDIA driver on your system. Please "
        "check that you have an NVIDIA GPU and installed a driver. I did `pip install torch "
        "torchvision`. rocminfo shows gfx1100 fine. wtf"
    ).text
    assert text.startswith("Because a plain `pip install torch` on Linux installs the CUDA build")
    assert "found version 12020" not in text


def test_a_card_modded_with_more_memory_keeps_the_size_stated() -> None:
    reading = read_turn(Conversation("I have a 2080 Ti 22GB (modded), will Qwen2.5 32B Q4 fit?"))
    assert reading.entities.gpus == ["GeForce RTX 2080 Ti"]
    assert reading.entities.memory_of("GeForce RTX 2080 Ti") == 22.0
    assert not reading.entities.memory_claims
    chinese = read_turn(Conversation("2080ti魔改22G，报错，求解"))
    assert "GeForce RTX 2080 Ti" in chinese.entities.gpus
    # without a mod said, more memory than the card has is still a premise to correct
    told = ask("my 4090 has 48 GB, will llama 70B q4 fit?").text
    assert "has 24 GB, less than the message says" in told


def test_a_size_in_a_later_sentence_is_not_the_cards_memory() -> None:
    reading = read_turn(
        Conversation(
            "2张显卡，一张a4000，一张2080ti，那个跑起来更快？ — 一个显存16g，一个11g，可是11g那个显卡的性能更强"
        )
    )
    assert reading.entities.gpus == ["RTX A4000", "GeForce RTX 2080 Ti"]
    assert not reading.entities.memory_claims


def test_which_of_two_cards_is_faster_asked_in_chinese_is_a_comparison() -> None:
    question = "2张显卡，一张a4000，一张2080ti，哪个跑起来更快？"
    assert [name for name, _ in _calls(question)] == ["gpu_compare"]
    assert "616 vs 448 GB/s" in ask(question).text


def test_a_feature_asked_beside_an_instance_search_is_answered_too() -> None:
    question = (
        "Want to self-host Llama 3.3 70B in FP8 on AWS. Looking at g6e (L40S). Which is the "
        "smallest g6e size that can actually hold it? and do L40S even do fp8 properly"
    )
    names = [name for name, _ in _calls(question)]
    assert names == ["cloud_instances", "gpu_capability"]  # no one-card fit beside the search
    text = ask(question).text
    assert "g6e.12xlarge" in text.split("\n")[0]
    assert "**Yes** — L40S" in text and "does not fit" not in text


def test_a_card_a_pasted_error_names_is_not_the_askers() -> None:
    question = (
        "2080ti魔改22G，报错，求解 — Error occurred when executing KSamplerTheMisto: bf16 is only "
        "supported on A100+ GPUs"
    )
    assert read_turn(Conversation(question)).entities.gpus == ["GeForce RTX 2080 Ti"]
    # an error that names the asker's only card still names it
    alone = "RuntimeError: CUDA error: no kernel image is available on GeForce RTX 5090"
    assert read_turn(Conversation(alone)).entities.gpus == ["GeForce RTX 5090"]


def test_methods_named_are_read_once_in_order_without_an_owned_fine_tune() -> None:
    from assistant.agent.offline.entities import extract_entities, named_methods

    asked = "A full fine-tune of Llama 3.1 8B? or a Q-LoRA? and a 16-bit LoRA?"
    assert extract_entities(asked).methods == ["full", "qlora", "lora"] == named_methods(asked)
    owned = "Our fine-tune of Mistral runs on a 3090. Could a LoRA of Qwen 7B fit too?"
    assert extract_entities(owned).methods == ["lora"]
    assert extract_entities("a LoRA, not a full fine-tune").methods == ["lora"]


def test_a_pasted_error_is_explained_before_the_words_that_introduce_it() -> None:
    """'… while ollama is loaded:' introduces the traceback; it is no question of its own, so no
    entry about Ollama opens the answer before the out-of-memory one."""
    text = ask(
        "now getting this when i run whisper in python while ollama has llama3.1 loaded:\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a "
        "total capacity of 11.76 GiB of which 9.44 MiB is free.\n"
        "on its own it works. why??"
    ).text
    first = text.split("\n\n")[0]
    assert "Ollama" not in first and "OLLAMA" not in first, first
    assert re.search(r"out of memory|GPU", text.split("<sub>")[1], re.I), text[:600]
