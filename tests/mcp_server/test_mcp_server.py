"""The MCP server in a real subprocess, driven by the official SDK's client: over stdio (as an
editor starts it) and over streamable HTTP on localhost. Tools are checked against the agent's
registry; results against the tools themselves."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError, StdioServerParameters

REPO_ROOT = Path(__file__).resolve().parents[2]
LAUNCH = "import sys; from assistant.cli import main; sys.exit(main(['mcp', *sys.argv[1:]]))"

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def server_env(session_home: Path) -> dict[str, str]:
    """The environment of the server process; the index is built once, here, beforehand."""
    from assistant.retrieval import search

    assert search("location GPU prix", k=1)  # builds the index in the session's home
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        GPU_ADVISOR_HOME=str(session_home),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        GPU_ADVISOR_LLM="offline",
    )
    return env


def _agent_registry() -> dict[str, tuple[str, dict[str, Any]]]:
    """The tools as the LangChain agent sees them: name → (description, input schema)."""
    from assistant.agent.toolset import build_tools

    return {
        tool.name: (tool.description, tool.args_schema.model_json_schema())  # type: ignore[union-attr]
        for tool in build_tools()
    }


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def _call(client: Client, name: str, arguments: dict[str, Any]) -> tuple[Any, bool]:
    result = await client.call_tool(name, arguments)
    text = _text(result)
    return json.loads(text), bool(result.is_error)


async def exercise(client: Client, remote: bool) -> dict[str, float]:
    """Everything a client does, with its assertions; returns timings."""
    started = time.perf_counter()
    listed = (await client.list_tools()).tools
    list_s = time.perf_counter() - started

    registry = _agent_registry()
    expected = {name for name in registry if not (remote and name == "probe_gpus")}
    assert {tool.name for tool in listed} == expected
    for tool in listed:
        description, schema = registry[tool.name]
        assert tool.description == description
        assert tool.input_schema == schema

    verdict, failed = await _call(
        client, "gpu_capability", {"gpu": "RTX 4090", "topic": "megakernels"}
    )
    assert not failed
    assert verdict["gpu"] == "GeForce RTX 4090" and verdict["verdict"] == "partial"
    assert verdict["sources"] and all(source["title"] for source in verdict["sources"])

    cost, failed = await _call(client, "rent_cost", {"gpu": "H100", "hours": 50})
    assert not failed and cost["found"] is True and cost["hours"] == 50.0
    assert cost["sources"]

    fit, failed = await _call(client, "workload_fit", {"model": "llama 3 70b", "gpu": "RTX 4090"})
    assert not failed and fit["model"] == "Llama 3.1 70B" and fit["verdict"] == "does_not_fit"

    search_started = time.perf_counter()
    english, failed = await _call(client, "search_corpus", {"query": "spot or dedicated instance"})
    search_s = time.perf_counter() - search_started
    assert not failed and english["passages"]
    for passage in english["passages"]:
        assert passage["document"] and passage["section"] and passage["snippet"]
    french, failed = await _call(
        client, "search_corpus", {"query": "combien coûte la location d'une RTX 4090 ?", "k": 3}
    )
    assert not failed and 1 <= len(french["passages"]) <= 3
    assert any("4090" in p["text"] for p in french["passages"])

    unknown, failed = await _call(client, "gpu_capability", {"gpu": "RTX 9999", "topic": "fp8"})
    assert failed
    assert unknown["error"].startswith("gpu_capability: 'RTX 9999' is not in the GPU catalog")
    assert "Did you mean: GeForce RTX" in unknown["error"]
    negative, failed = await _call(client, "rent_cost", {"gpu": "RTX 4090", "hours": -5})
    assert failed and negative == {
        "error": "invalid arguments — hours: Input should be greater than 0"
    }
    nowhere, failed = await _call(client, "no_such_tool", {})
    assert failed and nowhere["error"].startswith("unknown tool 'no_such_tool'; the tools are: ")
    huge, failed = await _call(client, "search_corpus", {"query": "x" * 10_000})
    assert failed and "the limit is 4,000" in huge["error"]

    resources = (await client.list_resources()).resources
    uris = {str(r.uri) for r in resources}
    assert "gpu-advisor://data/gpus.toml" in uris
    assert any(u.startswith("gpu-advisor://knowledge/en/") for u in uris)
    assert any(u.startswith("gpu-advisor://knowledge/fr/") for u in uris)
    catalog = (await client.read_resource("gpu-advisor://data/gpus.toml")).contents[0]
    assert 'name = "GeForce RTX 4090"' in catalog.text
    templates = (await client.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["gpu-advisor://entry/{language}/{id}"]
    from assistant.knowledge.entries import entries_for

    entry = entries_for("fr")[0]
    read = (await client.read_resource(f"gpu-advisor://entry/fr/{entry.id}")).contents[0]
    assert read.text.startswith(f"## {entry.title}\n<!-- id: {entry.id} · date: ")
    assert f"**Sources:** [{entry.sources[0].title}]({entry.sources[0].url})" in read.text
    with pytest.raises(MCPError, match="unknown resource 'gpu-advisor://entry/fr/no-such-id'"):
        await client.read_resource("gpu-advisor://entry/fr/no-such-id")

    prompts = {p.name for p in (await client.list_prompts()).prompts}
    assert prompts == {"check_card_feature", "plan_budget"}
    prompt = await client.get_prompt(
        "check_card_feature", {"gpu": "RTX 4090", "feature": "megakernels", "language": "fr"}
    )
    assert prompt.messages[0].content.text.startswith("Ma RTX 4090 peut-elle faire megakernels")
    return {"list_tools_s": list_s, "first_search_s": search_s}


def test_stdio_server_serves_the_registry(server_env: dict[str, str]):
    parameters = StdioServerParameters(
        command=sys.executable, args=["-c", LAUNCH], env=server_env, cwd=str(REPO_ROOT)
    )

    async def main() -> dict[str, float]:
        async with Client(parameters) as client:
            return await exercise(client, remote=False)

    timings = asyncio.run(main())
    assert timings["list_tools_s"] < 1.0, timings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_http_server_serves_the_same_without_the_local_probe(server_env: dict[str, str]):
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "--http", "--host", "127.0.0.1", "--port", str(port)],
        env=server_env,
        cwd=str(REPO_ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.communicate()[1]
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.2)

        async def main() -> dict[str, float]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await exercise(client, remote=True)

        timings = asyncio.run(main())
        assert timings["list_tools_s"] < 1.0, timings
    finally:
        process.terminate()
        process.communicate(timeout=20)  # also closes the pipe


def test_bad_port_is_a_clear_message(capsys):
    from assistant.cli import main

    assert main(["mcp", "--http", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535, not 70000" in capsys.readouterr().err
