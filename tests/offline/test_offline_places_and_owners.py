"""Whose card a relative's is, where a shared currency word is spent, what 'per unit' prices, which
entry a slow run leads with, and where the askers of graded questions sit: a cousin's 3060 is
not the asker's card, 'Rs' in Colombo is the Sri Lankan rupee, 'Rs 52 per unit' on an
electricity bill is a price per kWh, a TensorFlow install that leaves the GPU unused is that
install's question before it is a slow run, a card the asker says they lack is not theirs, 'an
hour' of computing is no rental, 'is my GPU good enough for Stable Diffusion?' gets the model's
needs, and a graded set is asked from elsewhere."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.money import parse_money

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "own", "other"),
    [
        (
            "how many tokens per sec will i get? my cousin has a 3060 12GB and says his card is "
            "faster than my 4060 Ti",
            "GeForce RTX 4060 Ti 16GB",
            "GeForce RTX 3060 12GB",
        ),
        (
            "ma cousine a une RTX 4070 et dit qu'elle est plus rapide que ma RTX 3080, c'est vrai ?",
            "GeForce RTX 3080",
            "GeForce RTX 4070",
        ),
    ],
)
def test_a_relative_s_card_is_not_the_asker_s(text: str, own: str, other: str) -> None:
    ent = extract_entities(text)
    assert own in ent.owned_gpus
    assert other not in ent.owned_gpus


def test_the_speed_asked_of_my_card_is_my_card_s_not_my_cousin_s() -> None:
    answer = ask(
        "Qwen 14B in Q4: how many tokens per sec will i get? my cousin has a 3060 12GB and "
        "says his card is faster than my 4060 Ti",
        backend="offline",
    )
    speed = [c.arguments for c in answer.tool_calls if c.name == "llm_speed"]
    assert speed and speed[0]["gpu"] == "GeForce RTX 4060 Ti 16GB"


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("a used 3090 in Colombo costs about Rs 210,000", "LKR"),
        ("in Lahore a used 3090 is Rs 210,000", "PKR"),
        ("à Kathmandu une 3060 coûte 60 000 roupies", "NPR"),
        ("in Bogotá a 4060 is about 1.400.000 pesos", "COP"),
        ("a used 3090 costs about Rs 210,000", "INR"),  # no place: the family's first
        ("une 4060 à 250 000 francs en Guinée-Bissau", "XOF"),  # not the Guinean franc
    ],
)
def test_a_shared_currency_word_is_the_currency_of_the_place_named(
    text: str, currency: str
) -> None:
    assert [m.currency for m in parse_money(text)] == [currency]


@pytest.mark.parametrize(
    "text",
    [
        "electricity question: my CEB bill works out around Rs 52 per unit. if the PC runs 10 "
        "hours a day what does it cost?",
        "ma facture d'électricité revient à 52 roupies par unité, combien pour 10 h par jour ?",
    ],
)
def test_an_amount_per_unit_of_an_electricity_bill_is_a_price_per_kwh(text: str) -> None:
    price = extract_entities(text).electricity_price
    assert price is not None and price.amount == 52.0


def test_an_amount_per_unit_without_electricity_is_no_kwh_price() -> None:
    assert extract_entities("the shop sells them at Rs 52 per unit").electricity_price is None


def test_a_tensorflow_install_that_leaves_the_gpu_unused_leads_with_that_install() -> None:
    answer = ask(
        "TensorFlow 2.11 on Windows 10 — I installed tensorflow 2.11 with python 3.10 and while "
        "training the model the gpu is not being used, training is very slow. what can I do?",
        backend="offline",
    )
    first = answer.text.split("\n", 1)[0]
    assert "2.10" in first, first


def test_a_graded_set_is_asked_from_elsewhere_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "answer_batch", REPO / "tools" / "answer_batch.py"
    )
    assert spec and spec.loader
    tool = importlib.util.module_from_spec(spec)
    sys.modules["answer_batch"] = tool
    spec.loader.exec_module(tool)
    seen: list[bool] = []

    def fake_ask(question: str, **kwargs: Any) -> Any:
        seen.append(kwargs["at_machine"])
        return SimpleNamespace(text="x", tool_calls=[], citations=[], elapsed_ms=1.0)

    import assistant

    monkeypatch.setattr(assistant, "ask", fake_ask)
    questions = tmp_path / "set.yaml"
    questions.write_text("- id: q1\n  question: what GPU is in my machine?\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert tool.main([str(questions), "--out", str(out)]) == 0
    assert tool.main([str(questions), "--out", str(out), "--at-machine"]) == 0
    assert seen == [False, True]
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["id"] == "q1"


@pytest.mark.parametrize(
    ("text", "owned"),
    [
        (
            "due to my limited computing resources, I do not have the 8 RTX4090 GPUs mentioned "
            "in your article. I would like to know if I currently have a 3090 graphics card, "
            "can I run your program?",
            ["GeForce RTX 3090"],
        ),
        ("I don't have an H100, only my RTX 3060", ["GeForce RTX 3060 12GB"]),
        ("je n'ai pas de 4090, j'ai une 3060", ["GeForce RTX 3060 12GB"]),
    ],
)
def test_a_card_the_asker_says_they_lack_is_not_theirs(text: str, owned: list[str]) -> None:
    assert extract_entities(text).owned_gpus == owned


@pytest.mark.parametrize(
    ("text", "renting"),
    [
        ("it takes more than an hour to compute 1000 steps of the first epoch", False),
        ("an H100 at $2 an hour, is that a good price?", True),
        ("about 0.40 € an hour for a 4090", True),
    ],
)
def test_an_hour_is_a_rental_only_after_an_amount(text: str, renting: bool) -> None:
    from assistant.agent.offline.concepts import concept_starts

    assert bool(concept_starts("rent", text)) is renting


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Is my GPU good enough for Stable Diffusion?", "Stable Diffusion 1.5"),
        ("mon GPU suffit-il pour SDXL ?", "SDXL"),
    ],
)
def test_my_unnamed_card_and_a_named_model_get_the_model_s_needs(question: str, model: str) -> None:
    answer = ask(question, backend="offline", at_machine=False)
    assert any(c.name == "workload_fit" for c in answer.tool_calls)
    assert answer.text.startswith(f"**{model}"), answer.text[:200]
