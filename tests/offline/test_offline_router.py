"""The fitted intent router: fresh weights, each skill reached by new wording, a safe fallback."""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path

import pytest

from assistant.agent.offline.intents import IntentClassifier, classify, load_examples
from assistant.agent.offline.router import WEIGHTS_FILE, concept_hits, examples_hash, load_router
from assistant.agent.offline.skills import all_skills

REPO = Path(__file__).resolve().parents[2]


def _fit_router_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fit_router", REPO / "tools" / "fit_router.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_frozen_weights_are_fresh_for_the_current_examples() -> None:
    from assistant.retrieval.embeddings import model_key

    weights = REPO / "assistant" / "agent" / "offline" / WEIGHTS_FILE
    data = json.loads(weights.read_text("utf-8")) if weights.exists() else {}
    reason = _fit_router_module().stale_reason(data, examples_hash(load_examples()), model_key())
    assert reason is None, reason


def test_the_weights_cover_every_skill_and_tool_less_intent() -> None:
    data = json.loads((REPO / "assistant" / "agent" / "offline" / WEIGHTS_FILE).read_text("utf-8"))
    assert set(data["labels"]) == set(all_skills()) | {"corpus_only", "off_topic", "greeting"}
    assert len(data["weights"]) == len(data["labels"])
    assert all(len(row) == len(data["features"]) for row in data["weights"])


# Written for this test, not taken from any skill's examples or a golden question.
NEW_WORDING = [
    ("Quick one: how much VRAM and what memory bus does the L40S have?", "gpu_lookup"),
    ("Quelle est la bande passante mémoire d'une RTX A4000 ?", "gpu_lookup"),
    ("RTX 3080 Ti or RX 6900 XT, which one wins for compute?", "gpu_compare"),
    ("Entre une A6000 et une L40S, laquelle a le plus de mémoire ?", "gpu_compare"),
    ("Is FP8 available on the L4 at all?", "gpu_capability"),
    ("Mon A100 sait-elle faire du wgmma ?", "gpu_capability"),
    ("Renting an A100 80GB for three days straight, what's the total?", "rent_cost"),
    ("Louer une L40S pendant 30 heures, ça fait combien ?", "rent_cost"),
    (
        "Are preemptible H100s worth it for a 20-hour job that checkpoints often?",
        "spot_vs_dedicated",
    ),
    ("Buy a 4090 or keep renting one at 4 hours a day, when does buying win?", "rent_vs_buy"),
    ("Acheter une 3090 ou louer, au bout de combien de mois c'est rentable ?", "rent_vs_buy"),
    (
        "I left an A100 instance running idle for four days, how bad is the bill?",
        "forgotten_instance",
    ),
    ("How much am I charged monthly for a 1 TB persistent volume on a GPU cloud?", "storage_cost"),
    ("J'ai 300 euros pour m'initier au CUDA, comment les répartir ?", "budget_plan"),
    ("Can Llama 3 70B in 8-bit squeeze into two 48 GB cards?", "workload_fit"),
    ("What's the largest Mistral-family model my 16 GB 4060 Ti handles?", "models_for"),
    ("Which chapters of the guide can I complete on an RX 7900 XTX?", "guide_coverage"),
    ("Roughly what decode speed would Qwen 14B at q4 reach on a 4070?", "llm_speed"),
    (
        "Une 4090 qui tourne 5 heures par jour, ça ajoute combien à ma facture d'électricité ?",
        "power_cost",
    ),
    ("What do second-hand A5000s sell for nowadays?", "purchase_price"),
    ("Budget to fine-tune a 3B model with LoRA on 400M tokens using rented A100s?", "job_cost"),
    ("Which GCP VM type comes with L4 GPUs?", "cloud_instances"),
    ("Does Colab Pro give longer sessions than the free plan?", "notebook_tiers"),
    ("Would this program work at all on my Quadro M4000?", "card_readiness"),
    ("Recommend me a graphics card under 600 euros for Stable Diffusion", "recommend_gpus"),
    ("Can you tell which NVIDIA GPU this laptop of mine has?", "probe_gpus"),
    ("Is my Titan X Pascal still covered by the CUDA 13.0 toolkit?", "software_support"),
    ("Why is shared memory faster than global memory?", "corpus_only"),
    ("Who painted the Mona Lisa?", "off_topic"),
    ("Hey there, what are you able to help with?", "greeting"),
]


@pytest.mark.parametrize(("question", "intent"), NEW_WORDING)
def test_the_router_picks_each_skill_for_new_wording(question: str, intent: str) -> None:
    examples = {e.lower() for items in load_examples().values() for e in items}
    assert question.lower() not in examples
    assert classify(question).best == intent


def test_every_skill_has_a_new_wording_question() -> None:
    assert {intent for _, intent in NEW_WORDING} >= set(all_skills())


def test_concepts_are_presence_not_weights() -> None:
    assert {"electricity", "speed"} <= concept_hits("how fast and how much electricity?")
    assert "rent" in concept_hits("Louer une H100 à l'heure")
    assert not concept_hits("la la la")


def test_missing_or_stale_weights_fall_back_to_knn(caplog: pytest.LogCaptureFixture) -> None:
    from assistant.retrieval.embeddings import model_key

    examples = load_examples()
    with caplog.at_level(logging.WARNING):
        assert load_router(examples, model_key(), text="not json") is None
        stale = json.dumps({"examples_hash": "0" * 16, "model_key": model_key(), "labels": [],
                            "features": [], "mean": [], "scale": [], "weights": [], "bias": []})  # fmt: skip
        assert load_router(examples, model_key(), text=stale) is None
    assert "unavailable" in caplog.text
    assert "tools/fit_router.py" in caplog.text
    classifier = IntentClassifier()
    classifier._router_loaded = True  # as if the file were missing: k-NN alone decides
    result = classifier.classify("Does the T4 have tensor cores?")
    assert result.best in set(examples)
    assert all(s.cue == 0.0 for s in result.scores)


def test_knowledge_entries_questions_are_examples_of_their_route() -> None:
    from assistant.agent.offline.intents import entry_examples, entry_routes
    from assistant.knowledge.entries import load_entries

    by_topic, by_entry = entry_routes()
    entries = load_entries()
    assert set(by_entry) <= {e.id for e in entries}
    assert set(by_topic) <= {e.topic for e in entries}
    routed = entry_examples()
    examples = load_examples()
    for entry in entries:
        route = by_entry.get(entry.id, by_topic.get(entry.topic))
        if route and route != "none":
            assert entry.title in routed[route]
            assert entry.title in examples[route]
        else:
            assert all(entry.title not in texts for texts in routed.values())


def test_a_long_example_list_is_not_a_prior() -> None:
    import numpy as np

    y = np.array([[1, 0], [1, 0], [1, 0], [0, 1]])
    weights = _fit_router_module().balanced_weights(y)
    per_label = (y * weights[:, None]).sum(axis=0)
    assert per_label[0] == pytest.approx(per_label[1])
    assert weights[3] > weights[0]
