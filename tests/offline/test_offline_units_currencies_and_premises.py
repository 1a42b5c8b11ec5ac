"""A figure with its unit that is no count of machines, currencies with no exchange rate kept as
written, the computer's own draw beside its card's, a CUDA build asked on another maker's card,
the low-memory LoRA of a language model, knowledge entries for errors and concepts people ask
about, and a card's "no" to what the asker already says it lacks."""

from __future__ import annotations

from assistant import ask


def _calls(question: str, tool: str) -> list[dict[str, object]]:
    return [c.arguments for c in ask(question).tool_calls if c.name == tool]


def test_watts_after_a_count_of_cards_are_no_count_of_servers() -> None:
    question = (
        "le service financier veut le coût électrique annuel. 4 L4 à 72 W + le reste du "
        "serveur ≈ 350 W, allumé 24h/24, tarif 0,19 €/kWh HT."
    )
    (call,) = _calls(question, "power_cost")
    assert call["gpu_count"] == 4 and call["power_w"] == 72.0 and call["system_w"] == 350.0
    assert call.get("machines") in (None, 1)
    assert "1\u202f062\u00a0€ par an" in ask(question).text


def test_a_currency_with_no_rate_on_record_stays_as_written() -> None:
    text = ask(
        "electricity here is roughly UYU 9 per kWh. my pc pulls 500 W for 5 h a day, "
        "22 days a month: what's that per month?"
    ).text
    first = text.split("\n")[0]
    assert "$U" in first and "€" not in first
    assert "kWh a month" in first


def test_the_computer_beside_its_card_is_the_whole_machine() -> None:
    (call,) = _calls(
        "ma carte tire environ 175 W en génération, le pc ~250 W au total. je génère 2 h par "
        "jour, 26 jours par mois. tarif 0,2516 €/kWh. combien par mois ?",
        "power_cost",
    )
    assert call["power_w"] == 250.0 and call["days_per_month"] == 26.0
    (rest,) = _calls(
        "my 3090 pulls 350 W, rest of the pc 100 W, 4 h a day at 0.30 €/kWh, monthly cost?",
        "power_cost",
    )
    assert rest["power_w"] == 350.0 and rest["system_w"] == 100.0


def test_a_cuda_build_on_a_radeon_is_a_no_first() -> None:
    text = ask(
        "salut, j'ai une radeon rx 7900 gre. un pote dit qu'elle a des cuda cores et que je "
        "peux installer pytorch cuda direct. c'est vrai ?"
    ).text
    assert text.startswith("**Non**") and "ROCm" in text.split("\n")[0]


def test_a_cuda_index_on_an_arc_card_gives_the_xpu_route() -> None:
    text = ask(
        "j'ai une intel arc a580. le tuto dit pip install torch --index-url "
        "https://download.pytorch.org/whl/cu121. ça marche avec ma carte ?"
    ).text
    first = text.split("\n")[0]
    assert first.startswith("**Non**") and "whl/xpu" in first


def test_a_language_model_lora_that_does_not_fit_takes_qlora_not_an_fp8_base() -> None:
    text = ask("can I LoRA fine-tune Mistral 7B on a T4?").text
    assert "QLoRA" in text.split("\n")[0] and "fp8 base" not in text
    image = ask("Flux.1-dev LoRA training on my 16 GB 4060 Ti, does it fit?").text
    assert "fp8 base" in image.split("\n")[0]


def test_ctranslate2_float16_error_gets_its_compute_types() -> None:
    text = ask(
        "WhisperX on a Quadro M1200: ValueError: Requested float16 compute type, but the "
        "target device or backend do not support efficient float16 computation."
    ).text
    first = text.split("\n")[0]
    assert "7.0" in first and "int8" in first and "float32" in first


def test_cuda_version_err_in_wsl_is_the_linux_driver_inside_wsl() -> None:
    text = ask("nvidia-smi shows CUDA Version: ERR! inside WSL2 Ubuntu, what is wrong?").text
    assert "WSL" in text.split("\n")[0] and "cuda-toolkit" in text


def test_xpu_unavailable_checks_the_build_and_the_driver() -> None:
    text = ask(
        "j'ai installé le torch xpu mais torch.xpu.is_available() renvoie False sous windows 11"
    ).text
    assert "+xpu" in text.split("\n")[0]


def test_memory_bound_versus_compute_bound_is_arithmetic_intensity() -> None:
    text = ask(
        "why do people say text generation is memory bound while training is compute bound?"
    ).text
    assert text.startswith("Because of arithmetic intensity")


def test_a_card_the_asker_says_lacks_nvlink_is_not_told_it_lacks_it() -> None:
    text = ask(
        "our 4 L4 are PCIe, without NVLink. tensor parallel or pipeline parallel, what's the "
        "difference and which one should we use?"
    ).text
    assert text.startswith("Tensor parallelism splits every layer")
    assert "has no NVLink**" not in text


def test_a_byte_count_in_an_allocation_message_is_no_model_size() -> None:
    calls = _calls(
        "Not enough GPU memory: RESOURCE_EXHAUSTED: Failed to allocate request for 5.66GiB "
        "(6075580416B) on device ordinal 0. GPU: RTX 4000 16GB. Is there a way to run it?",
        "workload_fit",
    )
    assert all(float(str(c.get("params_b") or 0)) <= 10_000 for c in calls)


def test_a_job_per_episode_a_week_is_priced_per_month_when_asked() -> None:
    text = ask(
        "rent an H100 80GB at USD 2.50/h, billed per minute. each summary job takes ~10 min, "
        "we do 6 episodes a week. what's that per month?"
    ).text
    assert "At 26 runs a month: $10.83 a month" in text.split("\n")[0]


def test_speeds_at_two_precisions_are_both_given_first() -> None:
    text = ask("rough tokens/s for llama 3.1 8b in q4 vs fp16 on a jetson agx xavier 32gb?").text
    first = text.split("\n")[0]
    assert "in q4_k_m" in first and "in fp16" in first


def test_a_bare_size_is_the_model_an_earlier_turn_named_at_its_precision() -> None:
    history = [
        {
            "role": "user",
            "content": "found 2 used rtx 3090. plan: llama 3.3 70b, q4_k_m split over both "
            "cards - does it fit in 2x24gb?",
        }
    ]
    answer = ask(
        "alternative: one used 4090 for ~USD 1 600 vs my 2x3090 for USD 1 300. for the 70b use "
        "case which wins? and for lora fine-tuning an 8b model?",
        history=history,
    )
    fits = [c.arguments for c in answer.tool_calls if c.name == "workload_fit"]
    assert fits and all(c.get("task") in (None, "inference") for c in fits)
    assert all(c.get("precision") == "q4_k_m" for c in fits)
    assert answer.text.startswith("**2 × GeForce RTX 3090** is the pick")


def test_a_card_recommendation_does_not_probe_this_machine() -> None:
    answer = ask(
        "Hi, do you have recommendations for graphics card? I plan to upgrade my computer to "
        "use kilosort for data analysis using Windows 10."
    )
    assert "probe_gpus" not in {c.name for c in answer.tool_calls}
    assert "see your machine" not in answer.text


def test_features_missing_on_every_card_each_get_their_own_card_to_rent() -> None:
    text = ask("does my 5060 ti have fp4, tma, wgmma, tcgen05?").text
    assert "For wgmma, none of these cards: Rent an H100" in text
    assert "For tcgen05, none of these cards: Rent a B200" in text


def test_the_wheel_to_take_is_the_newest_named_that_the_driver_runs() -> None:
    text = ask(
        "toolkit 12.1 installed, nvidia-smi shows CUDA Version: 12.6. which pytorch for my "
        "rtx 4050: cu121, cu124 or cu126? and would cu128 work?"
    ).text
    assert "**Take cu126**" in text


def test_a_subject_named_only_to_rule_it_out_does_not_lead() -> None:
    text = ask(
        "je reste sous windows (pas de wsl). nvidia-smi affiche « CUDA Version: 12.6 ». "
        "je prends quel pytorch ?"
    ).text
    assert "WSL 2" not in text.split("\n")[0]


def test_a_modded_card_entry_answers_only_a_question_about_a_modded_card() -> None:
    modded = ask("单卡2080ti 魔改22G的效果怎么样？").text
    assert "For memory, yes; for speed, no" in modded
    plain = ask("2080TI显卡能跑吗？看文档里写要Ampere或者Hopper架构的GPU").text
    assert "memory-modded" not in plain


def test_fp8_weights_on_several_cards_are_split_by_tensors() -> None:
    (call,) = _calls(
        "avec 4 L4 en fp8, combien de tokens/s pour une seule requête avec llama 3.3 70b ?",
        "llm_speed",
    )
    assert call["split"] == "tensor" and call["gpu_count"] == 4
