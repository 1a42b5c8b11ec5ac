"""A card said to have more of a figure than another (or to be of its generation), checked
first; a fine-tuning method named in another sentence than the model; speech models sized by the
fit tool; a flat monthly price weighed against buying; one card in place of several as options;
each bare size asked gets its speed; a pasted error explained before a 'no' it already said."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.premises import spec_claim
from assistant.tools.fit import FitQuery, estimate_fit


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        ("le vendeur dit que la 7600 XT a plus de bande passante qu'une RTX 5060 Ti 16 Go", False),
        (
            "my friend says the RX 9060 XT has as much memory bandwidth as the RTX 4070 Ti Super",
            False,
        ),
        ("the 3090 has more VRAM than the 4080, right?", True),
        ("an RTX 4060 has less memory than an RTX 3060 12GB", True),
    ],
)
def test_a_claim_between_two_cards_is_checked_against_the_catalog(text: str, holds: bool) -> None:
    claim = spec_claim(text)
    assert claim is not None and claim.holds is holds


def test_two_cards_said_to_be_one_generation_are_checked() -> None:
    claim = spec_claim('seller says the Quadro RTX 8000 is "basically an A6000, same generation"')
    assert claim is not None and not claim.holds
    assert claim.subject.architecture == "Turing" and claim.other.architecture == "Ampere"
    same = spec_claim("la RTX 3090 et la RTX 3060, même génération ?")
    assert same is not None and same.holds
    assert spec_claim("same generation as my 4090?") is None  # one card: nothing to hold


def test_no_claim_without_a_figure_or_a_second_card() -> None:
    assert spec_claim("is a 4090 faster than a 3090?") is None  # speed is no catalog figure
    assert spec_claim("the 4090 has more bandwidth than I need") is None


def test_a_false_claim_is_answered_first_with_both_figures() -> None:
    text = ask(
        "Un vendeur me dit que la 7600 XT a plus de bande passante qu'une RTX 5060 Ti 16 Go. Vrai ?"
    ).text
    first = text.split("\n")[0]
    assert first.startswith("**Non : la GeForce RTX 5060 Ti 16GB a plus de bande passante")
    assert "448 Go/s contre 288 Go/s" in first


def test_a_method_named_in_another_sentence_is_the_fine_tuning_checked() -> None:
    answer = ask(
        "On veut affiner Qwen3-8B sur 40 000 paires. Un fine-tuning complet en BF16 avec AdamW, "
        "ça passe sur une seule H100 80 Go ?"
    )
    tasks = {c.arguments["task"] for c in answer.tool_calls if c.name == "workload_fit"}
    assert tasks == {"full_finetune"}
    assert answer.text.startswith("**Non, ça ne tient pas**")  # not 'Oui — … BF16'
    assert "calcul BF16" not in answer.text


def test_whisper_is_sized_as_a_speech_model() -> None:
    infer = estimate_fit(FitQuery(model="whisper large-v3", gpu="RTX 2060"))
    assert infer.model == "Whisper large-v3" and infer.verdict == "fits"
    assert 3.0 < (infer.total_gb or 0) < 6.0  # OpenAI: ~10 GB rated, faster-whisper ~4.5 GB fp16
    full = estimate_fit(FitQuery(model="whisper large-v3", task="full_finetune", gpu="L4"))
    assert full.verdict == "does_not_fit" and (full.total_gb or 0) > 24  # ~16 B/param x 1.55B
    assert estimate_fit(FitQuery(model="whisper turbo")).params_b == pytest.approx(0.809)


def test_a_subscription_instead_of_buying_is_weighed_as_a_monthly_rent() -> None:
    answer = ask(
        "thinking of buying a used RTX 3060 12GB for ~300 CAD instead of paying Colab Pro "
        "(~14 CAD/month). hydro is ~10 cents/kWh. worth it? i'd use it 10 h a week"
    )
    weighed = [c.arguments for c in answer.tool_calls if c.name == "rent_vs_buy"]
    assert weighed and weighed[0]["rent_per_month_flat"] == 14.0
    assert answer.text.startswith("**Against CA$14 a month, buying GeForce RTX 3060 12GB")


def test_one_card_instead_of_several_are_options() -> None:
    ent = extract_entities(
        "investor suggests selling the 4 4090s and buying one RTX PRO 6000 Blackwell 96GB "
        "instead. for our 70B 4-bit serving, better or worse?"
    )
    assert ent.options and ent.card_counts == {"GeForce RTX 4090": 4, "RTX PRO 6000 Blackwell": 1}


def test_each_bare_size_asked_gets_its_speed() -> None:
    answer = ask("How fast is an 8B model in Q4 on my RTX 4070? and a 14B?")
    models = [c.arguments["model"] for c in answer.tool_calls if c.name == "llm_speed"]
    assert models == ["8B", "14B"]
    head = answer.text.split("\n")[0]
    assert "tokens/s for 8B" in head and "tokens/s for 14B" in head


def test_a_no_the_pasted_error_already_said_does_not_lead() -> None:
    answer = ask(
        "On our V100 the model fails with 'FlashAttention only supports Ampere GPUs or newer.' "
        "Can it run without FlashAttention?"
    )
    assert not answer.text.startswith("**No**")  # the error said so: the way around it first
    assert "sdpa" in answer.text.split("\n\n")[0]


def test_a_pasted_peer_access_error_is_explained_first() -> None:
    answer = ask(
        "vLLM with TP=4 on 4x RTX 4090: Failed: Cuda error custom_all_reduce.cuh:307 'peer access "
        "is not supported between these two devices' what now?"
    )
    assert "--disable-custom-all-reduce" in answer.text.split("\n\n")[0]


def test_spot_for_a_live_service_running_a_month_is_a_service_not_a_job() -> None:
    text = ask(
        "they quoted us ~2.95 AED/h spot vs ~9.40 AED/h on-demand. running 24/7 for a month, how "
        "much do we save, and whats the catch for a live guest chat?"
    ).text
    assert text.startswith("**Running 24/7 for a month (730 h): AED 2,154 on spot")
    assert "checkpoints save a batch job, not a live service" in text


def test_one_machine_at_two_memory_sizes_is_weighed_at_each() -> None:
    ent = extract_entities("Mac mini M4: 16 Go à 699 € ou 24 Go pour ~230 € de plus ?")
    assert ent.memory_options == [16.0, 24.0]
    assert extract_entities("my 4070 has 12GB and my PC 32GB of RAM").memory_options == []
    answer = ask("MacBook Air M3 with 16GB or 24GB for local LLMs?")
    sizes = [c.arguments.get("vram_gb") for c in answer.tool_calls if c.name == "models_for"]
    assert sizes == [16.0, 24.0]
    assert answer.text.startswith("**Largest model each option holds on its own: Apple M3 24 GB:")


@pytest.mark.parametrize(
    "question",
    [
        "两张A100 40G的显卡能跑起来 Qwen2-72B-Instruct吗？ — 如题",
        "有限的显存怎么部署72B模型 — 求助 我只有一张48G的显卡，请问如何才能推理72B的模型",
    ],
)
def test_a_sized_model_and_the_memory_to_hold_it_get_the_fit(question: str) -> None:
    answer = ask(question)
    assert [c.name for c in answer.tool_calls][0] == "workload_fit"
    assert "72B (inference" in answer.text


def test_a_single_fine_tuning_method_on_options_is_named_not_its_precision() -> None:
    head = ask(
        "We want to fully fine-tune Whisper large-v3 (full fine-tune, AdamW). Is a 24GB L4 "
        "enough or do we need an A100?"
    ).text.split("\n")[0]
    assert "fits with full fine-tuning" in head and "at mixed" not in head


@pytest.mark.parametrize(
    ("question", "first"),
    [
        (
            "we want to FULL fine-tune Qwen2.5-Coder-32B (bf16 mixed precision, AdamW). how many "
            "H100 80GB do we need? and vs LoRA / QLoRA?",
            "full fine-tuning: at least {n} × H100",
        ),
        (
            "Combien de H100 80 Go pour un fine-tuning complet de Qwen2.5 32B, et en QLoRA ?",
            "fine-tuning complet : au moins {n} × H100",
        ),
    ],
)
def test_how_many_cards_each_method_needs_opens_the_answer(question: str, first: str) -> None:
    # the count asked, method by method in the question's order, not "yes, with LoRA"; the full
    # fine-tune's count is the fit tool's (what cannot be sharded stays on every card), not the
    # total divided by one card's memory
    answer = ask(question)
    full = next(
        c.result
        for c in answer.tool_calls
        if c.name == "workload_fit" and c.result and c.result.get("task") == "full_finetune"
    )
    ratio = full["total_gb"] / full["capacity_gb"]
    assert full["cards_needed"] > ratio  # more than the memory divided by one card's
    head = answer.text.split("\n")[0]
    assert head.startswith("**" + first.format(n=full["cards_needed"])), head
    assert "1 × H100" in head


def test_two_models_held_at_once_are_added_up() -> None:
    # the sentence that says "at the same time" pairs the 8B and Whisper; the 14B asked "instead"
    # in the next one is not added
    text = ask(
        "our office pc has an rtx 4060 ti (the 8gb one, not 16). i want llama 3.1 8b to draft "
        "notes AND whisper large-v3 to transcribe consults, both on the gpu at the same time. "
        "does that fit?? and could i step up to qwen2.5 14b instead"
    ).text
    head = text.split("\n")[0]
    assert head.startswith("**Together, no:"), head
    assert "Llama 3.1 8B" in head and "Whisper large-v3" in head and "Qwen" not in head


def test_two_models_asked_one_by_one_are_not_added_up() -> None:
    text = ask("On my RTX 3060 12GB, does Mistral 7B fit? And Whisper large-v3?").text
    assert "Together" not in text
