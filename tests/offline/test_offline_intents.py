"""The intent classifier on paraphrases that are not among its examples, in both languages."""

from __future__ import annotations

import pytest

from assistant.agent.offline.intents import classify, load_examples, split_clauses

PARAPHRASES = [
    ("Is my 4090 able to handle megakernel work?", "gpu_capability"),
    ("Le T4 gère-t-il les copies asynchrones cp.async ?", "gpu_capability"),
    ("What would 40 hours of A100 set me back?", "rent_cost"),
    ("Pour 12 heures de H100, il faut compter combien ?", "rent_cost"),
    (
        "Interruptible instance at 0.5 $/h versus reserved at 2 $/h for my experiments?",
        "spot_vs_dedicated",
    ),
    ("Owning a 3090 versus paying by the hour, at 5 hours daily?", "rent_vs_buy"),
    ("My B200 stayed on the whole weekend by mistake, what's the damage?", "forgotten_instance"),
    ("Le disque de 300 Go reste-t-il facturé quand la VM est arrêtée ?", "storage_cost"),
    ("With 150 euros, how do I best learn CUDA programming?", "budget_plan"),
    ("Est-ce que Qwen2.5 32B passe sur une RTX 4090 ?", "workload_fit"),
    ("What's the best card to purchase for a beginner in GPU programming?", "recommend_gpus"),
    ("Which graphics card is installed in this computer?", "probe_gpus"),
    ("Give me the memory bandwidth of the H200", "gpu_lookup"),
    ("Différences entre la RTX 4080 et la RTX 4090 ?", "gpu_compare"),
    ("What is the best croissant in Paris?", "off_topic"),
    ("Salut, tu fais quoi ?", "greeting"),
]


def test_examples_cover_every_intent_in_both_languages() -> None:
    examples = load_examples()
    assert set(examples) >= {
        "gpu_lookup", "gpu_compare", "gpu_capability", "rent_cost", "spot_vs_dedicated", "rent_vs_buy",
        "forgotten_instance", "storage_cost", "budget_plan", "workload_fit", "recommend_gpus",
        "probe_gpus", "corpus_only", "off_topic", "greeting",
    }  # fmt: skip
    for intent, items in examples.items():
        assert len(items) >= 10, intent


@pytest.mark.parametrize(("question", "intent"), PARAPHRASES)
def test_paraphrase_lands_on_its_intent(question: str, intent: str) -> None:
    examples = {e.lower() for items in load_examples().values() for e in items}
    assert question.lower() not in examples  # a paraphrase, not an example
    assert classify(question).best == intent


def test_two_intents_in_one_question() -> None:
    result = classify(
        "Compare the H100 and the A100, and what does renting the H100 cost for 50 hours?"
    )
    assert set(result.intents) == {"gpu_compare", "rent_cost"}


def test_clauses() -> None:
    assert split_clauses("Compare X and Y, and what does renting Y cost?") == [
        "Compare X and Y",
        "what does renting Y cost",
    ]


def test_example_vectors_are_cached_on_disk(session_home, monkeypatch) -> None:
    from assistant.agent.offline.intents import IntentClassifier

    IntentClassifier()._ensure()  # builds the cache (or finds it)
    assert list((session_home / "cache").glob("intents-*.npy"))
    second = IntentClassifier()
    monkeypatch.setattr(
        second, "_encode", lambda texts: (_ for _ in ()).throw(AssertionError("re-embedded"))
    )
    assert second._ensure().shape[0] == sum(len(v) for v in load_examples().values())


def test_a_long_message_is_read_by_its_first_clauses() -> None:
    text = "Can my RTX 4090 do megakernels? " + "And what about the weather? " * 200
    assert len(split_clauses(text)) == 6
    assert classify(text).best == "gpu_capability"


@pytest.mark.parametrize(
    "question",
    [
        "Thanks for the great project! How hard is it to make it run on a Radeon RX 7600?",
        "Merci pour ce super outil ! Est-ce que ça tourne sur une Arc B580 ?",
        "Hi everyone, great repo. Any chance this works on a GTX 1070 with 8 GB?",
        "Bonjour à tous ! Quelqu'un a essayé une Tesla P40 pour des modèles 13B ?",
    ],
)
def test_a_greeting_that_opens_a_question_gives_way_to_it(question: str) -> None:
    # the question after the greeting decides; the self-introduction is never the answer
    assert "greeting" not in classify(question).intents


def test_a_bare_greeting_stays_a_greeting() -> None:
    assert classify("Hello, thanks a lot!").intents == ["greeting"]
