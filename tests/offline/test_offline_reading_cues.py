"""Words that name a thing only in some phrasings: a Mac Pro is no Colab Pro, "installed Windows"
does not ask to probe this machine, a thanks followed by a question is the question."""

from __future__ import annotations

from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation, _read


def _tools(question: str) -> list[str]:
    return [c.name for c in plan_tool_calls(Conversation(question), set())]


def test_a_mac_pro_is_no_notebook_tier() -> None:
    question = "Easy Diffusion does not recognise the AMD D700 cards in my Mac Pro 2013, it falls back to CPU"
    assert "notebook_tiers" not in _tools(question)
    assert "notebook_tiers" in _tools("Is Colab Pro worth it over the free tier?")


def test_installing_windows_on_macs_does_not_probe_this_machine() -> None:
    question = (
        "We have a bunch of Macs with different AMD GPUs; would this run on them if we installed "
        "Windows on our Macs?"
    )
    assert "probe_gpus" not in _tools(question)
    assert "probe_gpus" in _tools("What GPU is in this machine?")


def test_thanks_with_a_question_is_the_question() -> None:
    reading = _read(
        "thanks for your work! (how much memory needed? oom error on 32G memory card)", []
    )
    assert reading.intents != ["greeting"]
    assert _read("Merci beaucoup !", []).intents == ["greeting"]


def test_statements_around_one_question_set_no_order() -> None:
    # the electricity price stated after the question is an input of the weighing it asks
    tools = _tools(
        "I fine-tune 2 LoRAs a week, each about 2 h on a rented 4090. Thinking of buying a 5090 "
        "for $2,000. Is that worth it vs renting? Power is 0.30/kWh."
    )
    assert tools[0] == "rent_vs_buy"


def test_two_questions_are_answered_in_the_order_asked() -> None:
    reading = _read("What VRAM does a 4090 have? And how much to rent an H100 for 10 hours?", [])
    assert reading.tool_intents[:2] == ["gpu_lookup", "rent_cost"]
