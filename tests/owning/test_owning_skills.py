"""The offline skills of llm_speed, power_cost, purchase_price and job_cost: the builder reads the
question, the tool runs, the renderer answers first, in English and French."""

from __future__ import annotations

import pytest

from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.reading import Reading
from assistant.agent.offline.skills import get_skill
from assistant.agent.toolset import TOOL_SPECS, call_tool, resolve


def _answer(tool: str, question: str, lang: str) -> str:
    import json

    skill = get_skill(tool)
    assert skill is not None
    ent = extract_entities(question)
    reading = Reading(question=question, language=lang, injection=False, text=question,  # type: ignore[arg-type]
                      entities=ent, intents=[tool])  # fmt: skip
    calls = skill.build(ent, reading)
    assert calls, f"{tool}: the builder found nothing in {question!r}"
    spec = next(s for s in TOOL_SPECS if s.name == tool)
    func, model = resolve(spec)
    args = {k: v for k, v in calls[0].items() if k in model.model_fields}
    payload = json.loads(call_tool(tool, func, model, args))
    text = skill.answer(payload, question, lang)  # type: ignore[arg-type]
    assert text
    return text


@pytest.mark.parametrize(
    ("tool", "question", "lang", "words"),
    [
        (
            "llm_speed",
            "How many tokens per second for Llama 3.1 8B on an RTX 4090?",
            "en",
            "tokens/s",
        ),
        ("llm_speed", "Combien de tokens/s pour un modèle 70B sur deux 3090 ?", "fr", "Environ"),
        ("power_cost", "How much electricity does a 3090 use per month?", "en", "a month"),
        ("power_cost", "Combien consomme une 4090 en électricité ?", "fr", "par mois"),
        ("purchase_price", "What does a used 3090 cost?", "en", "used"),
        ("purchase_price", "Combien coûte une RX 7900 XTX ?", "fr", "neuve"),
        ("job_cost", "How much to fine-tune an 8B model on 1B tokens on H100s?", "en", "GPU-hours"),
        (
            "job_cost",
            "Combien coûte un LoRA d'un modèle 8B sur 200M tokens sur une 4090 ?",
            "fr",
            "heures-GPU",
        ),
    ],
)
def test_skill_answers_first(tool: str, question: str, lang: str, words: str) -> None:
    text = _answer(tool, question, lang)
    assert words in text.split("\n")[0]


def test_a_card_without_a_purchase_price_says_so() -> None:
    text = _answer("purchase_price", "How much does an A100 cost to buy?", "en")
    assert "No purchase price" in text and "never make a price up" in text
