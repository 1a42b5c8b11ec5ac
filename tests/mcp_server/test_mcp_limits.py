"""The MCP server's edge, in process: the same caps, rate limit and secret scrubbing as the
other interfaces, and the registry as the only list of tools."""

from __future__ import annotations

import json

from assistant.mcp.server import Limits, ToolRunner, served_tools

KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789"


def test_calls_are_rate_limited_per_client():
    runner = ToolRunner(served_tools(remote=False), Limits(max_chars=4000, per_minute=2))
    arguments = {"gpu": "RTX 4090", "topic": "fp8"}
    assert [runner.call("gpu_capability", arguments, "a")[1] for _ in range(2)] == [False, False]
    text, failed = runner.call("gpu_capability", arguments, "a")
    assert failed and json.loads(text) == {"error": "too many calls; wait 30 s and try again"}
    assert runner.call("gpu_capability", arguments, "b")[1] is False  # another client is served


def test_a_key_in_the_arguments_never_comes_back():
    runner = ToolRunner(served_tools(remote=False), Limits(max_chars=4000, per_minute=60))
    text, failed = runner.call("gpu_capability", {"gpu": KEY, "topic": "fp8"}, "a")
    assert failed and json.loads(text)["error"].startswith("gpu_capability: '***' is not in")
    assert KEY not in text and KEY[8:20] not in text


def test_the_server_serves_exactly_the_registry():
    from assistant.agent.toolset import TOOL_SPECS, available_specs

    local = [tool.name for tool in served_tools(remote=False)]
    assert local == [spec.name for spec in available_specs()]
    assert set(local) == {spec.name for spec in TOOL_SPECS}
    assert [t.name for t in served_tools(remote=True)] == [n for n in local if n != "probe_gpus"]
