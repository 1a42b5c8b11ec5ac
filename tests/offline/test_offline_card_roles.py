"""How a question relates its cards: the asker's own variant and memory, cards as options to weigh
against a goal, and speed questions about image models."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation
from assistant.tools.fit.cards import split_cards


def _calls(question: str, history: list[tuple[str, str]] | None = None) -> list[tuple[str, dict]]:
    calls = plan_tool_calls(Conversation(question, history or []), set())
    return [(c.name, c.args) for c in calls if c.name != "search_corpus"]


# ---------------------------------------------------------------- one card, the asker's own


@pytest.mark.parametrize(
    ("question", "card"),
    [
        ("My notebook has a GTX 1650 and 16 GB of RAM, can it train a small CNN?", "GeForce GTX 1650 Mobile"),
        ("Mon PC portable a une RTX 3070, est-ce assez pour du LoRA ?", "GeForce RTX 3070 Mobile"),
    ],
)  # fmt: skip
def test_a_laptop_and_one_card_name_is_one_laptop_card(question: str, card: str) -> None:
    ent = extract_entities(question)
    assert ent.gpus == [card]
    assert ent.options is False


@pytest.mark.parametrize(
    ("question", "card"),
    [
        ("I only have an RTX 3060 with 6 GB of VRAM, what can I run?", "GeForce RTX 3060 Mobile"),
        ("Ma RTX 3060 de 8 Go suffit-elle pour Mistral 7B ?", "GeForce RTX 3060 8 GB"),
        ("Is an 8GB RTX 4060 Ti enough for SDXL?", "GeForce RTX 4060 Ti 8 GB"),
    ],
)
def test_the_memory_the_asker_gives_picks_the_variant(question: str, card: str) -> None:
    ent = extract_entities(question)
    assert ent.gpus == [card]
    assert ent.card_memory == {}


def test_a_card_only_made_for_laptops_is_that_chip() -> None:
    assert extract_entities("Is the RTX 4050 any good for PyTorch?").gpus == [
        "GeForce RTX 4050 Mobile"
    ]


def test_a_memory_size_no_variant_has_is_the_askers_and_is_checked_against() -> None:
    ent = extract_entities("Can my MacBook Air M3 with 16 GB run Qwen3 14B?")
    assert ent.gpus == ["Apple M3"]
    assert ent.card_memory == {"Apple M3": 16.0}
    fits = [args for name, args in _calls("Can my MacBook Air M3 with 16 GB run Qwen3 14B?")]
    assert fits[0]["gpu"] == "Apple M3" and fits[0]["vram_gb"] == 16.0


def test_system_ram_is_not_the_cards_memory() -> None:
    ent = extract_entities("I have a 4090 and 64 GB RAM")
    assert ent.gpus == ["GeForce RTX 4090"]
    assert ent.card_memory == {}


def test_a_follow_up_keeps_the_askers_memory() -> None:
    history = [
        ("user", "My Mac mini M4 has 16 GB, can it run Llama 3.1 8B?"),
        ("assistant", "Yes, at 4 bits it needs about 5 GB."),
    ]
    calls = _calls("and Qwen2.5 14B?", history)
    assert calls[0][0] == "workload_fit"
    assert calls[0][1]["gpu"] == "Apple M4" and calls[0][1]["vram_gb"] == 16.0


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("GeForce GTX 970", [(1, "GeForce GTX 970")]),
        ("GTX 980", [(1, "GTX 980")]),
        ("A100 x8", [(8, "A100")]),
        ("3090x2", [(2, "3090")]),
    ],
)
def test_a_name_ending_in_x_is_not_a_count(text: str, cards: list[tuple[int, str]]) -> None:
    assert split_cards(text) == cards


def test_a_maxwell_card_with_a_remark_is_read_and_answered_for_llama_cpp() -> None:
    question = "got a GTX 980 (4gb, sadly). can llama.cpp do anything with it?"
    assert "GeForce GTX 980" in extract_entities(question).gpus
    answer = ask(question)
    assert "Unknown GPU" not in answer.text
    # what llama.cpp can do on a small card: offload part of the layers (-ngl), or its models
    assert "-ngl" in answer.text or "GeForce GTX 980" in answer.text


# ---------------------------------------------------------------- options against a goal


@pytest.mark.parametrize(
    "question",
    [
        "For Qwen2.5 32B at 4-bit, should I get an RTX 4080 or an RTX 3090?",
        "Pour Qwen2.5 32B en 4 bits, une RTX 4080 ou une RTX 3090 ?",
        "RTX 4080 vs RTX 3090 for Qwen2.5 32B?",
    ],
)
def test_cards_named_as_options_are_checked_one_by_one(question: str) -> None:
    ent = extract_entities(question)
    assert ent.options is True
    fits = [args for name, args in _calls(question) if name == "workload_fit"]
    assert [f["gpu"] for f in fits] == ["GeForce RTX 4080", "GeForce RTX 3090"]
    assert all("gpus" not in f for f in fits)


def test_cards_of_one_machine_are_not_options() -> None:
    ent = extract_entities("Will Qwen2.5 32B fit on my RTX 4080 and RTX 3090 together?")
    assert ent.options is False
    fits = [
        args for name, args in _calls("Will Qwen2.5 32B fit on my RTX 4080 and RTX 3090 together?")
    ]
    assert fits[0]["gpus"] == ["GeForce RTX 4080", "GeForce RTX 3090"]


def test_each_option_keeps_its_own_count() -> None:
    ent = extract_entities("one RTX 5090 or 3x RTX 3060 12GB for a 32B model?")
    assert ent.options is True
    assert ent.card_counts == {"GeForce RTX 5090": 1, "GeForce RTX 3060 12GB": 3}


def test_the_answer_starts_with_the_option_that_holds_the_model() -> None:
    answer = ask("For Qwen2.5 32B at 4-bit, should I get an RTX 4080 or an RTX 3090?")
    first = answer.text.split("\n")[0]
    assert first.startswith("**GeForce RTX 3090** is the pick for Qwen2.5 32B")
    assert "| GeForce RTX 4080 | 16 GB |" in answer.text
    assert "does not fit" in answer.text.split("| GeForce RTX 4080 |")[1].split("\n")[0]


def test_the_french_answer_starts_with_the_pick() -> None:
    answer = ask("Pour Qwen2.5 32B en 4 bits, une RTX 4080 ou une RTX 3090 ?")
    assert answer.text.startswith("**GeForce RTX 3090** est le meilleur choix pour Qwen2.5 32B")


def test_options_of_another_shape_without_a_model_get_the_trade_off() -> None:
    answer = ask("Two RTX 3060 12GB versus one RTX 4080, which one for local AI?")
    assert answer.text.startswith("**It depends on the model size.**")
    assert "2 × GeForce RTX 3060 12GB" in answer.text.split("\n")[0]


# ---------------------------------------------------------------- speed of image models


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        ("How fast will SD 1.5 generate a 512x512 image on my RTX 3060 12GB?", "**No speed estimate for Stable Diffusion 1.5**"),
        ("Quelle vitesse pour FLUX.1 schnell sur une RTX 4070 ?", "**Pas d'estimation de vitesse pour FLUX.1-schnell**"),
    ],
)  # fmt: skip
def test_no_tokens_per_second_for_an_image_model(question: str, plain: str) -> None:
    answer = ask(question)
    assert "tokens/s" not in answer.text.split("\n")[0]
    assert plain in answer.text
    names = [c.name for c in answer.tool_calls]
    assert "workload_fit" in names
    assert names.index("workload_fit") < names.index("llm_speed")


def test_more_memory_than_the_card_has_is_a_false_premise_not_a_size() -> None:
    ent = extract_entities("My RTX 4090 has 48 GB, so Llama 3.1 70B at 8-bit fits, right?")
    assert ent.gpus == ["GeForce RTX 4090"]
    assert ent.card_memory == {}
    fits = [
        a
        for n, a in _calls("My RTX 4090 has 48 GB, so Llama 3.1 70B at 8-bit fits, right?")
        if n == "workload_fit"
    ]
    assert fits and fits[0].get("vram_gb") is None


def test_options_asked_which_is_faster_get_each_options_speed() -> None:
    question = "Mac Studio M2 Max 96GB vs 2x RTX 4090 for Llama 3.1 70B, which is faster for generating tokens?"
    speeds = [a for n, a in _calls(question) if n == "llm_speed"]
    assert [(s["gpu"], s.get("gpu_count")) for s in speeds] == [
        ("Apple M2 Max", 1),
        ("GeForce RTX 4090", 2),
    ]


def test_options_of_two_makers_say_which_runs_cuda() -> None:
    answer = ask(
        "Un portable avec une RTX 4060 ou un MacBook Air M2 pour apprendre le deep learning ?"
    )
    first = answer.text.split("\n\n")[:2]
    assert first[1].startswith("Seule GeForce RTX 4060 Laptop GPU fait tourner CUDA")
    assert "Apple M2 passe par Metal, MPS, MLX" in first[1]


def test_when_no_option_holds_the_model_the_answer_counts_cards_by_memory() -> None:
    answer = ask("H100 or H200 to serve Llama 3.1 405B in FP8?")
    assert answer.text.startswith("**No single card of these holds Llama 3.1 405B**")
    # the fit tool's counts, which keep each card's activations and CUDA context on it: more
    # than the memory divided by one card's (385.9 GB / 80 GB → 5, / 141 GB → 3)
    counts = {
        c.result["gpu"]: c.result["cards_needed"]
        for c in answer.tool_calls
        if c.name == "workload_fit" and c.result and c.result.get("cards_needed")
    }
    assert counts["H100 SXM5 80GB"] >= 5 and counts["H200 SXM 141GB"] >= 3
    assert (
        f"at least {counts['H100 SXM5 80GB']} × H100 SXM5 80GB or {counts['H200 SXM 141GB']} × "
        "H200 SXM 141GB by memory, each card keeping its own activations and CUDA context"
    ) in answer.text
    # tensor parallelism takes a power of two of cards
    assert "so 8 × H100 SXM5 80GB or 4 × H200 SXM 141GB in practice" in answer.text


def test_options_speeds_are_one_table_before_the_pick_when_speed_is_asked() -> None:
    answer = ask(
        "Mac Studio M2 Max 96GB vs 2x RTX 4090 for Llama 3.1 70B, which is faster for generating tokens?"
    )
    sections = answer.text.split("\n\n")
    # 'which is faster?' is answered first; the memory pick (the Mac holds it with room) follows
    assert sections[0].startswith("**Generation: 2 × GeForce RTX 4090 is faster**")
    assert any(s.startswith("**Apple M2 Max** is the pick for Llama 3.1 70B") for s in sections)
    assert answer.text.count("<sub>Formula:") == 1
    fit_first = ask("Mac Studio M2 Max 96GB vs 2x RTX 4090: which one runs Llama 3.1 70B?").text
    assert fit_first.startswith("**Apple M2 Max** is the pick for Llama 3.1 70B")


def test_two_sizes_of_one_name_are_two_cards() -> None:
    ent = extract_entities("I own a 4060ti 8g and might move to a 4060ti 16g, worth it?")
    assert ent.gpus == ["GeForce RTX 4060 Ti 8 GB", "GeForce RTX 4060 Ti 16GB"]
    assert ent.card_memory == {}
    ent = extract_entities("RTX 4060 Ti 8GB ou RTX 4060 Ti 16GB pour SDXL ?")
    assert ent.options is True
    assert ent.gpus == ["GeForce RTX 4060 Ti 8 GB", "GeForce RTX 4060 Ti 16GB"]


def test_the_matcher_says_where_each_card_is_named() -> None:
    from assistant.knowledge.matching import find_gpu_spans, match_gpu, memory_variant

    text = "a 3090 or an RTX 4090"
    assert [(c.name, text[s:e]) for c, s, e in find_gpu_spans(text)] == [
        ("GeForce RTX 3090", "3090"),
        ("GeForce RTX 4090", "RTX 4090"),
    ]
    card = match_gpu("RTX 3060").gpu
    assert card is not None
    variant = memory_variant(card, 6.0)
    assert variant is not None and variant.name == "GeForce RTX 3060 Mobile"
    assert memory_variant(card, 12.0) is None
    assert memory_variant(card, 48.0) is None


def test_an_option_that_holds_the_model_only_at_the_limit_is_not_called_a_tie() -> None:
    answer = ask("DeepSeek V3 671B in FP8: is one node of 8x H100 80GB enough, or 8x H200?")
    first = answer.text.split("\n")[0]
    assert first.startswith("**8 × H200 SXM 141GB** is the pick for DeepSeek-V3")
    assert "per card" in first
    assert "8 × H100 SXM5 80GB holds it only at the limit" in first
    assert "also holds it" not in first


@pytest.mark.parametrize(
    ("question", "counts"),
    [
        # the count follows the card the asker has, after its memory picks the variant
        ("two RTX 3060 with 6GB, what does running them cost?", {"GeForce RTX 3060 Mobile": 2}),
        # a card missing from the catalog is counted under the name written
        ("8x H900 at $3/h for a week", {"H900": 8}),
        # the count of a later mention when the first has none
        ("I have an RTX 3090 and will add 2 RTX 3090 more", {"GeForce RTX 3090": 2}),
    ],
)
def test_counts_are_read_once_for_the_cards_as_named(question: str, counts: dict) -> None:
    ent = extract_entities(question)
    assert ent.gpu_counts == counts
    assert ent.gpu_count == next(iter(counts.values()))
    assert all(name in ent.gpus + ent.unknown_gpus for name in counts)


@pytest.mark.parametrize(
    ("question", "card", "size"),
    [
        ("Can my M2 MacBook Air 16GB run Mistral 7B?", "Apple M2", 16.0),
        ("M4 Mac mini 24 Go pour Qwen 14B ?", "Apple M4", 24.0),
    ],
)
def test_the_mac_around_an_apple_chip_carries_its_memory(
    question: str, card: str, size: float
) -> None:
    assert extract_entities(question).card_memory == {card: size}


def test_on_a_mac_the_fit_leads_with_a_format_known_to_run_there() -> None:
    first = ask("Can my M2 MacBook Air 16GB run Mistral 7B?").text.split("\n")[0]
    # the asker's 16 GB, of which macOS lets the GPU use about two-thirds
    assert "needed for 10.7 GB (of the 16 GB of unified memory" in first
    assert "fp8" not in first


@pytest.mark.parametrize(
    "question",
    ["MacBook Pro 16 M4 Max w/ 128GB, can it run a 70B model?", "iMac 24 M3: Llama 8B ?"],
)
def test_a_mac_models_screen_size_is_not_a_count_of_chips(question: str) -> None:
    ent = extract_entities(question)
    assert ent.gpus and ent.gpu_count is None


def test_methods_compared_over_two_cards_say_the_figures_are_per_card() -> None:
    first = ask("Can I fine-tune Llama 65B on two RTX 3090s?").text.split("\n")[0]
    assert "2 × GeForce RTX 3090" in first
    assert "per card" in first


def test_more_memory_than_the_card_has_is_corrected_first() -> None:
    from assistant import ask

    answer = ask("My RTX 4090 has 48 GB, can I run Llama 70B at q4?")
    assert answer.text.startswith(
        "**Note: the GeForce RTX 4090 has 24 GB, less than the message says**"
    )
    assert "48 GB" not in answer.text  # a claimed figure is never echoed
    fr = ask("Ma RTX 3060 a 24 Go, je peux faire tourner un 13B en q4 ?")
    assert fr.text.startswith("**À noter : la GeForce RTX 3060")
    # less than listed is the asker's own variant, not a premise to correct
    assert not ask("RTX 3060 with 6GB, can I run SDXL?").text.startswith("**Note")


def test_a_clause_s_card_takes_its_own_count_and_the_options_their_speeds() -> None:
    """'4x L4 with tensor-parallel-size 4 … how fast vs the single A100?': four L4s split by
    tensors against one A100, never four A100s."""
    calls = [
        c.arguments
        for c in ask(
            "if we go 4x L4 with tensor-parallel-size 4, will Qwen2.5-32B even split evenly, and "
            "how fast per request roughly vs the single A100?"
        ).tool_calls
        if c.name == "llm_speed"
    ]
    counts = {c["gpu"]: c.get("gpu_count", 1) for c in calls}
    assert counts == {"L4": 4, "A100 80GB SXM4": 1}, calls
    assert all(c.get("split") == "tensor" for c in calls)


def test_the_program_named_sets_how_cards_share_a_model() -> None:
    calls = [
        c.arguments
        for c in ask("2x 3090 with vLLM, how fast is Llama 3.1 70B at 4-bit?").tool_calls
        if c.name == "llm_speed"
    ]
    assert calls and calls[0].get("split") == "tensor" and "backend" not in calls[0]
    calls = [
        c.arguments
        for c in ask("2x 3090 in Ollama, how fast is Llama 3.1 70B at 4-bit?").tool_calls
        if c.name == "llm_speed"
    ]
    assert calls and calls[0].get("split") == "layer"


def test_four_cards_named_are_four_columns() -> None:
    calls = [
        c.arguments
        for c in ask(
            "RTX 3090 vs RTX 4090 vs RTX 5090 vs RTX A6000: compare their specs"
        ).tool_calls
        if c.name == "gpu_compare"
    ]
    assert calls and len(calls[0]["gpus"]) == 4, calls


def test_a_card_quoted_in_a_claim_does_not_replace_the_askers_and_does_not_win_unfit() -> None:
    question = (
        "Got a Jetson AGX Orin 64GB devkit. The seller said 275 TOPS so it's 'faster than a 4090 "
        "for AI', is that true?? Can it run Llama 3.3 70B Q4_K_M and roughly how many tokens/s"
    )
    speeds = [a["gpu"] for n, a in _calls(question) if n == "llm_speed"]
    assert speeds == ["Jetson AGX Orin 64GB", "GeForce RTX 4090"]
    text = ask(question).text
    # the 4090 is faster on paper, but 43 GB of weights do not fit in its 24 GB
    assert text.startswith("**Generation: Jetson AGX Orin 64GB, about 4 tokens/s**"), text
    assert "the weights do not fit in GeForce RTX 4090" in text.split("\n\n")[0]


def test_the_askers_own_card_is_not_the_card_to_rent() -> None:
    question = (
        "I only have a GeForce GTX 1660 Ti and training never progresses. What server (AWS, "
        "Azure, etc) option do you recommend, and at what price?"
    )
    assert extract_entities(question).owned_gpus == ["GeForce GTX 1660 Ti"]
    clouds = [a for n, a in _calls(question) if n == "cloud_instances"]
    assert clouds and all("gpu" not in a for a in clouds)
    # a card asked for is still the one to rent
    rented = [a for n, a in _calls("Which AWS instance has an L4?") if n == "cloud_instances"]
    assert rented and rented[0]["gpu"] == "L4"


def test_how_much_context_fits_is_answered_and_a_speed_without_card_gives_its_bound() -> None:
    text = ask(
        "Qwen2.5-32B in Q4_K_M with llama.cpp: how many tok/s and how much context fits in the 24GB?"
    ).text
    assert "tokens of context fit** — Qwen2.5 32B" in text
    assert "Say which card" in text and "at 1,000 GB/s: about" in text


def test_two_cards_to_buy_with_no_rental_are_compared_beside_an_entry() -> None:
    question = (
        "Je peux acheter soit une RTX 3060 12 Go d'occasion soit une RTX 5060 Ti 16 Go neuve. "
        "Laquelle prendre, et est-ce que je peux garder la 1080 Ti à côté dans le même "
        "environnement Python ?"
    )
    names = [n for n, _ in _calls(question)]
    assert "gpu_compare" in names and "rent_vs_buy" not in names
    text = ask(question).text
    assert "| GeForce RTX 3060 12GB | GeForce RTX 5060 Ti 16GB |" in text
