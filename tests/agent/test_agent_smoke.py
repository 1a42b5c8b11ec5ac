from __future__ import annotations

from assistant.agent.api import ask
from tests.agent.scripted import scripted, tool_call


def test_probe_tool_call_then_answer() -> None:
    model = scripted(tool_call("probe_gpus", {}), "No GPU here.")
    answer = ask("What GPU do I have?", backend=model)
    assert answer.text == "No GPU here."
    assert [c.name for c in answer.tool_calls] == ["probe_gpus"]
    assert answer.tool_calls[0].error is None
    assert answer.tool_calls[0].result["available"] is False
