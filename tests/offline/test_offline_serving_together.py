"""Requests served at once: how many fit beside the weights (the fit), and how fast each goes
when several share the card (the speed), answered in the order the message asks them."""

from __future__ import annotations

from assistant import ask


def _bold_heads(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("**")]


def test_how_many_users_at_once_then_one_users_speed() -> None:
    answer = ask(
        "We serve Llama 3.1 8B in BF16 with vLLM on one RTX 4090 24GB. How many students can "
        "chat at the same time, about 1500 tokens of context each? And what's the speed for one user?"
    )
    names = [c.name for c in answer.tool_calls]
    assert names.index("workload_fit") < names.index("llm_speed")
    heads = _bold_heads(answer.text)
    assert heads[0].startswith("**About ") and "sequences of 1,500 tokens at once" in heads[0]
    assert "tokens/s" in heads[1]


def test_one_users_speed_then_ten_at_once_in_french() -> None:
    answer = ask(
        "Llama 3.3 70B en 4 bits sur 2 MI210 : combien de tokens/s pour un utilisateur ? "
        "Et si 10 géologues l'utilisent en même temps ?"
    )
    speed = next(c for c in answer.tool_calls if c.name == "llm_speed")
    assert speed.arguments["concurrent_requests"] == 10
    heads = _bold_heads(answer.text)
    assert heads[0].startswith("**Environ") and "une requête à la fois" in heads[0]
    assert heads[1].startswith("**Avec 10 requêtes à la fois")


def test_a_total_for_users_at_once_leads_when_asked_first() -> None:
    answer = ask(
        "What total throughput do I get serving 20 users at once with Qwen 14B on an L40S?"
    )
    assert _bold_heads(answer.text)[0].startswith("**With 20 requests at once")
