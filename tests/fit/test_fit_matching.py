"""Model names as people write them, in English and French, and generic sizes in free text."""

from __future__ import annotations

import pytest

from assistant.knowledge.model_matching import find_model_mentions, match_model


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("llama 3 70b", "Llama 3.1 70B"),
        ("Llama-3.1-70B-Instruct", "Llama 3.1 70B"),
        ("meta-llama/Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
        ("llama3.1:8b", "Llama 3.1 8B"),
        ("Llama 3.3 70B", "Llama 3.1 70B"),
        ("flux dev", "FLUX.1-dev"),
        ("flux.1", "FLUX.1-dev"),
        ("FLUX.1-dev", "FLUX.1-dev"),
        ("flux schnell", "FLUX.1-schnell"),
        ("sdxl", "SDXL base 1.0"),
        ("Stable Diffusion XL", "SDXL base 1.0"),
        ("SD 1.5", "Stable Diffusion 1.5"),
        ("mixtral 8x7b instruct", "Mixtral 8x7B"),
        ("Qwen3-30B-A3B", "Qwen3 30B-A3B"),
        ("qwen2.5-72b-instruct", "Qwen2.5 72B"),
        ("gemma-2-9b-it", "Gemma 2 9B"),
        ("DeepSeek-R1", "DeepSeek-R1"),
        ("gpt-oss-20b", "gpt-oss-20b"),
        ("mon modèle llama 3 8b", "Llama 3.1 8B"),
        ("le modèle FLUX dev", "FLUX.1-dev"),
    ],
)
def test_match_model_aliases(text: str, name: str) -> None:
    match = match_model(text)
    assert match.model is not None, text
    assert match.model.name == name
    assert match.score >= 0.9


def test_exact_match_scores_one_and_embedded_name_scores_less() -> None:
    assert match_model("llama 3 70b").score == 1.0
    assert match_model("can I run llama 3 70b on two 3090s").score == 0.9


@pytest.mark.parametrize(
    ("text", "params_b"),
    [
        ("a 70B model", 70.0),
        ("7b", 7.0),
        ("un modèle de 13 milliards de paramètres", 13.0),
        ("un modèle de 1,5 milliard de paramètres", 1.5),
        ("a 7 billion parameter model", 7.0),
        ("a 350M parameters model", 0.35),
    ],
)
def test_generic_sizes(text: str, params_b: float) -> None:
    match = match_model(text)
    assert match.model is None
    assert match.params_b == pytest.approx(params_b)


def test_unknown_model_gives_near_names_and_no_size() -> None:
    match = match_model("llama 9 colossus")
    assert match.model is None and match.params_b is None and match.score == 0.0
    assert any(name.startswith("Llama") for name in match.suggestions)


def test_find_mentions_in_order_without_false_sizes() -> None:
    mentions = find_model_mentions(
        "compare llama 3 8b and Qwen3-30B-A3B with a 70B model on my 4090 24GB"
    )
    assert [(m.model.name if m.model else None, m.params_b) for m in mentions] == [
        ("Llama 3.1 8B", 8.03),
        ("Qwen3 30B-A3B", 30.5),
        (None, 70.0),
    ]
    assert mentions[0].text == "llama 3 8b"


def test_find_mentions_french_and_moe_shapes() -> None:
    mentions = find_model_mentions(
        "Est-ce que Mixtral 8x7B tient sur 24 Go ? Et un modèle de 13 milliards ?"
    )
    assert [m.model.name if m.model else m.params_b for m in mentions] == ["Mixtral 8x7B", 13.0]


def test_find_mentions_drops_repeats() -> None:
    mentions = find_model_mentions("flux dev vs FLUX.1-dev vs sdxl")
    assert [m.model.name for m in mentions if m.model] == ["FLUX.1-dev", "SDXL base 1.0"]
