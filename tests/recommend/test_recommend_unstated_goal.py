"""A recommendation asked with no goal says first that the goal is missing, before the picks for
learning with the guide; a stated goal or learning gets its picks without that caveat."""

from __future__ import annotations

from assistant import ask
from assistant.tools.recommend import RecommendQuery, recommend


def test_the_tool_says_when_it_assumed_the_goal() -> None:
    assert recommend(RecommendQuery(budget=600, currency="EUR")).goal_assumed
    learning = recommend(RecommendQuery(goal="learn CUDA", budget=600, currency="EUR"))
    assert not learning.goal_assumed
    llm = recommend(RecommendQuery(goal="run a 13B LLM", budget=600, currency="EUR"))
    assert not llm.goal_assumed


def test_an_answer_without_a_goal_says_so_first() -> None:
    first = ask("Which GPU card do you recommend? Does it need 32 GB or 11 GB only?").text
    assert first.startswith("**Which card depends on what you will run on it")
    french = ask("Quelle carte graphique me conseillez-vous ?").text
    assert french.startswith("**La carte dépend de ce que vous ferez tourner")
    learning = ask("Which GPU should I buy to learn CUDA with 600 euros?").text
    assert "question does not say" not in learning
