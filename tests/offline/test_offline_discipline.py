"""Answer discipline: only passages that bear on the question are quoted; a knowledge entry
answers with its direct answer when no tool fits."""

from __future__ import annotations

from assistant.agent.offline.entities import Entities
from assistant.agent.offline.reading import Reading
from assistant.agent.offline.writer import _knowledge_answer, _quoted, direct_answer

ENTRY = {
    "chunk_id": "notebooks-en:1",
    "title": "Knowledge · Free and cheap GPU notebooks",
    "section": "How long can a free Colab session run?",
    "language": "en",
    "score": 0.9,
    "text": "## How long can a free Colab session run?\n<!-- id: nb-colab · date: 2026-12-01 -->\n\n"
    "At most 12 hours, and often less.\n\n- Save your work.\n\n**Sources:** [Colab FAQ](https://x)",
}
UNRELATED = {
    "chunk_id": "doc:2",
    "title": "Choisir un GPU",
    "section": "VRAM",
    "language": "fr",
    "score": 0.95,
    "text": "La VRAM de 24 Go reste un seuil pratique pour la génération d'images.",
}


def _reading(text: str, **entities: object) -> Reading:
    return Reading(text, "en", False, text, Entities(**entities), intents=["corpus_only"])  # type: ignore[arg-type]


def test_direct_answer_is_the_first_paragraph_without_heading_or_comment() -> None:
    assert direct_answer(ENTRY) == "At most 12 hours, and often less."


def test_a_passage_sharing_no_salient_term_is_not_quoted() -> None:
    reading = _reading("How long can a free Colab session run?")
    assert _quoted([UNRELATED], reading, limit=2) == []


def test_no_tool_answer_quotes_the_knowledge_entry_with_its_number() -> None:
    reading = _reading("How long can a free Colab session run?")
    text, used = _knowledge_answer([UNRELATED, ENTRY], reading)
    assert text.startswith("At most 12 hours, and often less. [2]")
    assert used == [ENTRY]


def _ask(question: str) -> str:
    from assistant import ask

    return ask(question, backend="offline").text


def test_an_option_that_cannot_meet_the_goal_is_ruled_out_first() -> None:
    text = _ask("Should I buy a 4090 or rent a B200 to learn tcgen05?")
    first = text.split("\n")[0]
    assert "B200" in first and "only" in first
    assert "pays off after" not in text  # no break-even for a card that can't do it


def test_a_false_premise_is_corrected_first() -> None:
    assert _ask("The L4 has NVLink, right?").startswith("**No: L4 has no NVLink**")
    assert _ask("the T4 supports BF16, so I can train in bf16?").startswith("**No** — T4")


def test_a_price_the_user_saw_is_judged_against_the_data_not_echoed() -> None:
    text = _ask("I saw an H100 at $2.10/h on Lambda, is that a good price?")
    assert text.startswith("**Yes, $2.10/h for H100")
    assert "Renting H100" not in text


def test_the_probe_runs_only_where_the_asker_sits_at_the_machine() -> None:
    from assistant import ask

    here = ask("What GPU do I have?", backend="offline")
    assert "probe_gpus" in [c.name for c in here.tool_calls]
    remote = ask("What GPU do I have?", backend="offline", at_machine=False)
    assert "probe_gpus" not in [c.name for c in remote.tool_calls]
    assert "nvidia-smi" in remote.text and "get_device_name" in remote.text
    stated = ask("My laptop has a GTX 1650, can it do tensor cores?", backend="offline")
    assert "probe_gpus" not in [c.name for c in stated.tool_calls]


def test_several_questions_are_answered_in_the_order_asked() -> None:
    from assistant import ask

    answer = ask(
        "What's the VRAM of the RTX 4090? And how much does renting an H100 for 10 hours cost?",
        backend="offline",
    )
    assert [c.name for c in answer.tool_calls][:2] == ["gpu_lookup", "rent_cost"]
    assert answer.text.index("GeForce RTX 4090") < answer.text.index("Renting H100")


def test_tools_called_on_a_guess_are_weak_and_asked_ones_are_not() -> None:
    from assistant.agent.offline.planner import ToolResult
    from assistant.agent.offline.writer import _weak_tools

    guess = _reading(
        "Why does PyTorch say my RTX 5090 is not compatible?", gpus=["GeForce RTX 5090"]
    )
    asked = _reading("How much VRAM does the RTX 5090 have?", gpus=["GeForce RTX 5090"])
    shopping = _reading("Which card should I buy for Stable Diffusion?")
    generic = [ToolResult("gpu_capability", {}, {"topic": "cuda_programming"})]
    assert {"gpu_lookup", "recommend_gpus", "gpu_capability"} <= _weak_tools(guess, generic)
    assert "gpu_lookup" not in _weak_tools(asked, [])
    assert "recommend_gpus" not in _weak_tools(shopping, [])


def test_a_shopping_list_with_nothing_to_go_on_is_dropped_when_no_card_is_asked_for() -> None:
    """'Which card depends on what you run' answers nothing of a question that asks no card."""
    from assistant.agent.offline.planner import ToolResult
    from assistant.agent.offline.reading import Conversation, read_turn
    from assistant.agent.offline.writer import _without_unasked_picks
    from assistant.tools.recommend.api import recommend
    from assistant.tools.recommend.models import RecommendQuery

    nothing = recommend(RecommendQuery(goal="")).model_dump(mode="json")
    result = ToolResult(name="recommend_gpus", args={}, result=nothing)
    unasked = read_turn(Conversation("Do I have to calibrate TensorRT for INT8 on my Orin Nano?"))
    assert _without_unasked_picks(unasked, [result]) == []
    asked = read_turn(Conversation("Which GPU should I buy?"))
    assert _without_unasked_picks(asked, [result]) == [result]


def test_how_to_see_which_gpu_is_used_is_answered_with_the_steps() -> None:
    from assistant import ask

    text = ask(
        "My laptop has a GTX 1650 4GB and Intel graphics too, how i know which gpu is actually used?"
    ).text
    assert "nvidia-smi" in text and "Task Manager" in text, text
    assert "I can't see your machine from here" not in text  # the asker is at it
    fr = ask("J'ai un portable avec une RTX 4060. Comment je vois quel GPU est utilisé ?").text
    assert "Gestionnaire des tâches" in fr, fr
