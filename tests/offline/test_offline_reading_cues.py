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
