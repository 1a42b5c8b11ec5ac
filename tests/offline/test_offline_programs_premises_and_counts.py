"""An entry about another program does not answer for this one; a link the cards lack and CUDA
asked of a Mac are corrected first; amounts in millions, a peso asked beside its own sign, a data
set's size that is no context length, conversations of a stated length, serving asked after a
fine-tuning turn; hours a day from an earlier turn; requests served at once."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.lead_match import about_something_else
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.knowledge.programs import programs_named
from assistant.money import asked_currency, parse_money


def test_amounts_in_millions_with_thousands_commas_are_read_whole() -> None:
    found = parse_money("Budget about ₩9,000,000. The shop quoted ~₩6.5M")
    assert [(m.amount, m.currency) for m in found] == [(9_000_000, "KRW"), (6_500_000, "KRW")]
    assert [m.amount for m in parse_money("$12,000,000.50 and $1,800")] == [12_000_000.5, 1800]


def test_a_currency_family_asked_is_the_member_whose_sign_the_message_uses() -> None:
    text = "so how much is that in pesos per month? our bill says around ₱13.50/kWh"
    assert asked_currency(text) == "PHP"


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("je veux faire un fine-tuning complet d'ESM-2 sur ~200k séquences", None),
        ("we serve 4k prompts", 4096),
        ("nos conversations font ~3000 tokens en moyenne", 3000),
        ("how many concurrent conversations of 3000 tokens fit?", 3000),
    ],
)
def test_a_data_sets_count_is_no_context_length_and_a_stated_length_is(
    text: str, tokens: int | None
) -> None:
    assert extract_entities(text).context_tokens == tokens


def test_programs_named_include_what_they_are_built_on() -> None:
    assert programs_named("ComfyUI crashes on my 3060") >= {"comfyui", "pytorch"}
    assert "onnxruntime" in programs_named("onnxruntime-gpu 1.17.1 with cudnn9")
    assert programs_named("which GPU for 500 euros?") == frozenset()


def test_an_entry_about_another_program_is_about_something_else() -> None:
    reading = read_turn(
        Conversation(
            "Whether CUDA12.4 and cudnn9 matches onnxruntime-win-x64-cuda12-1.17.1? Loadlibrary "
            "failed with error 126"
        )
    )
    assert about_something_else(reading, "ctranslate2-cudnn9-missing", frozenset())
    assert not about_something_else(reading, "onnxruntime-cuda-cudnn-versions", frozenset())


def test_a_link_the_cards_lack_is_corrected_first_whatever_tool_answers() -> None:
    text = ask(
        "so best is one vllm with --tensor-parallel-size 4 and Qwen2.5-32B-Instruct-AWQ? or "
        "something else? the L4s are connected with nvlink right?"
    ).text
    assert text.startswith("**No: L4 has no NVLink**")
    assert text.count("has no NVLink") == 1


def test_a_link_the_asker_rules_out_is_not_corrected() -> None:
    text = ask("4x A100 PCIe, pas de NVLink d'après l'admin : DDP ou FSDP pour un modèle 3B ?").text
    assert "n'a pas de NVLink" not in text and "has no NVLink" not in text


def test_cuda_asked_of_a_mac_is_answered_first_even_beside_a_program() -> None:
    text = ask(
        'Our IT vendor says for vLLM I should "install CUDA 12.8 on the MacBook" and maybe '
        "connect an RTX 5090 in a Thunderbolt eGPU box for more speed. Is that the way?"
    ).text
    assert text.startswith("No: no current macOS has a driver for a recent NVIDIA card")


def test_a_mac_weighed_against_a_cuda_pc_is_not_that_premise() -> None:
    text = ask("Mac Studio M2 Ultra or a PC with an RTX 5090 for Llama 70B?").text
    assert "no current macOS" not in text.split("\n\n")[0]


def test_serving_asked_after_a_fine_tuning_turn_is_inference() -> None:
    history = [
        {
            "role": "user",
            "content": "on veut fine-tuner Llama 3.1 8B en LoRA, puis le servir sur une RTX 5090",
        },
        {"role": "assistant", "content": "Oui, en LoRA ça tient sur la 5090."},
    ]
    answer = ask(
        "combien de conversations simultanées on peut tenir ? nos conversations font ~3000 "
        "tokens en moyenne.",
        history,
    )
    fits = [c for c in answer.tool_calls if c.name == "workload_fit"]
    assert all(c.arguments.get("task") in (None, "inference") for c in fits)
    assert "LoRA" not in answer.text.split("\n")[0]


def test_the_amd_entry_on_torch_cuda_does_not_answer_for_a_jetson() -> None:
    text = ask(
        "on one orin nx (jetpack 6.2) i did pip3 install torch torchvision. import works but "
        "torch.cuda.is_available() is False and tegrastats shows GPU at 0% the whole time. is the "
        "gpu dead??"
    ).text
    assert "ROCm build deliberately reuses" not in text


def test_hours_a_day_from_an_earlier_turn_set_the_monthly_bill() -> None:
    history = [
        {"role": "user", "content": "i render at night mostly, like 6 hours a day"},
        {"role": "assistant", "content": "OK. The whole PC draws more than the card."},
    ]
    head = ask(
        "so how much is that in pesos per month? our bill says around ₱13.50/kWh. whole pc maybe "
        "350W when generating",
        history,
    ).text.split("\n")[0]
    assert "for 6 h a day, at ₱13.50/kWh: ₱850 a month" in head


def test_requests_served_at_once_are_weighed_in_the_cheapest_instance() -> None:
    question = (
        "GCP options for us: L4 (g2), A100 80GB (a2-ultragpu), H100 (a3). traffic: ~30 "
        "concurrent chats, Qwen2.5-14B-Instruct. which gpu class would you start with?"
    )
    answer = ask(question)
    call = next(c for c in answer.tool_calls if c.name == "cloud_instances")
    assert call.arguments.get("concurrent_requests") == 30
    assert "with 30 requests at once fits" in answer.text.split("\n")[0]
    alone = ask(question.replace("~30 concurrent chats, ", ""))
    assert "g2-standard-4 " in alone.text.split("\n")[0]  # one L4 holds it for one request
    assert "g2-standard-4 " not in answer.text.split("\n")[0]
