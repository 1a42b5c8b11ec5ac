"""The MCP server: every registered tool, read-only resources and two prompts.

    gpu-advisor mcp                                  # stdio, for a client that starts it
    gpu-advisor mcp --http --host 127.0.0.1 --port 8765   # streamable HTTP at /mcp

Tools, their descriptions and input schemas come from the agent's registry
(`assistant.agent.toolset.registered_tools`): the same pydantic models and docstrings the
LangChain agent sees. Results are the tools' JSON, with their sources; a search returns
passages with document, section and snippet. Bad input (arguments that fail validation, an
unknown card or model, a message over the length cap, too many calls a minute) is a tool error
with a clear message; the server keeps serving. Secrets are scrubbed from every result.

Nothing heavy happens at start-up: the tool modules are imported (well under a second), the
embedding model and the index open on the first search.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.log import get_logger, redact
from assistant.mcp.resources import (
    ENTRY_TEMPLATE,
    prompt_messages,
    prompts,
    read_resource,
    resources,
)

if TYPE_CHECKING:
    from mcp.server import Server

    from assistant.agent.toolset import RegisteredTool

log = get_logger(__name__)

SERVER_NAME = "gpu-advisor"
INSTRUCTIONS = (
    "Sourced answers about GPUs for learning GPU programming and running generative AI: card "
    "figures and CUDA features, compute-capability verdicts for a topic (gpu_capability), rental, "
    "spot and purchase costs, memory fit of a model (workload_fit), recommendations, and "
    "search_corpus for passages of the guide (French) to cite by document and section. Cite the "
    "`sources` each result carries."
)
# the machine's own GPUs mean nothing to a client on another machine
LOCAL_ONLY_TOOLS = frozenset({"probe_gpus"})


@dataclass(frozen=True)
class Limits:
    """The caps of the other interfaces: argument length and calls per minute per client."""

    max_chars: int
    per_minute: int


def _settings_limits() -> Limits:
    from assistant.settings import get_settings

    settings = get_settings()
    return Limits(settings.max_message_chars, settings.mcp_rate_per_minute)


def served_tools(remote: bool) -> list[RegisteredTool]:
    """The registry's tools, less the ones that only make sense on the caller's machine."""
    from assistant.agent.toolset import registered_tools

    return [t for t in registered_tools() if not (remote and t.name in LOCAL_ONLY_TOOLS)]


def problem_of(result: Any) -> str | None:
    """The message of a result that names no known card or model (the tools return that as a
    value with suggestions; over MCP it is a tool error the client's model can relay)."""
    data = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
    if not isinstance(data, dict):
        return None
    unknown = data.get("found") is False or data.get("verdict") == "unknown"
    if not unknown:
        return None
    reasons = data.get("reasons") if isinstance(data.get("reasons"), list) else []
    message = str(data.get("message") or (reasons[0] if reasons else "") or "unknown input")
    suggestions = [str(s) for s in data.get("suggestions") or []]
    if suggestions and "Did you mean" not in message:
        message += " Did you mean: " + ", ".join(suggestions) + "?"
    return message


def _too_long(arguments: dict[str, Any], limit: int) -> str | None:
    size = len(json.dumps(arguments, ensure_ascii=False, default=str))
    if size > limit:
        return f"the arguments are {size:,} characters long; the limit is {limit:,}"
    return None


class ToolRunner:
    """Runs one call the way every interface does: caps, rate limit, registry, scrubbed JSON."""

    def __init__(self, tools: Iterable[RegisteredTool], limits: Limits) -> None:
        from assistant.ui.limits import RateLimiter

        self.tools = {tool.name: tool for tool in tools}
        self.limits = limits
        self.limiter = RateLimiter(limits.per_minute)

    def call(self, name: str, arguments: dict[str, Any] | None, client: str) -> tuple[str, bool]:
        """The JSON text of the result, and whether it is an error."""
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(self.tools)
            return _error(f"unknown tool {name!r}; the tools are: {known}"), True
        arguments = dict(arguments or {})
        problem = _too_long(arguments, self.limits.max_chars)
        if problem is not None:
            return _error(f"{name}: {problem}"), True
        wait = self.limiter.acquire(client)
        if wait > 0:
            return _error(f"too many calls; wait {wait:.0f} s and try again"), True
        outcome = tool.run(arguments)
        if outcome.failed:
            return redact(outcome.text), True
        problem = problem_of(outcome.result)
        if problem is not None:
            return _error(f"{name}: {problem}", outcome.text), True
        return redact(outcome.text), False


def _error(message: str, result_json: str | None = None) -> str:
    from assistant.agent.toolset import error_text

    if result_json is None:
        return error_text(message)
    payload = {"error": json.loads(error_text(message))["error"], "result": json.loads(result_json)}
    return redact(json.dumps(payload, ensure_ascii=False))


def build_server(remote: bool = False, limits: Limits | None = None) -> Server[Any]:
    """The MCP server over the registry; `remote` leaves out the tools that describe this
    machine (for HTTP, where the client sits elsewhere)."""
    import anyio
    import mcp_types as types
    from mcp.server import Server

    runner = ToolRunner(served_tools(remote), limits or _settings_limits())
    tool_list = [
        types.Tool(name=t.name, description=t.description, input_schema=t.input_schema())
        for t in runner.tools.values()
    ]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        """Run a tool in a worker thread; a refusal comes back as an error result with its text."""
        client = f"mcp:{id(getattr(ctx, 'session', None))}"
        text, failed = await anyio.to_thread.run_sync(
            runner.call, params.name, params.arguments, client
        )
        if failed:
            log.info("mcp tool %s refused: %s", params.name, text[:200])
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=None if failed else json.loads(text),
            is_error=failed,
        )

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(**r) for r in resources()])

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[types.ResourceTemplate(**ENTRY_TEMPLATE)]
        )

    async def read(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        """The text of a resource; an MCP error for an unknown URI."""
        uri = str(params.uri)
        found = await anyio.to_thread.run_sync(read_resource, uri)
        if found is None:
            from mcp.shared.exceptions import MCPError

            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource {uri!r}")
        text, mime = found
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
        )

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        """The prompts, each with its arguments and an optional `language`."""
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    description=p.description,
                    arguments=[
                        *(
                            types.PromptArgument(name=a, description=d, required=True)
                            for a, d in p.arguments
                        ),
                        types.PromptArgument(name="language", description="en or fr"),
                    ],
                )
                for p in prompts()
            ]
        )

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        """The prompt filled in as one user message; an MCP error for an unknown name."""
        found = prompt_messages(params.name, dict(params.arguments or {}))
        if found is None:
            from mcp.shared.exceptions import MCPError

            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown prompt {params.name!r}")
        description, text = found
        return types.GetPromptResult(
            description=description,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
            ],
        )

    return Server(
        SERVER_NAME,
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gpu-advisor")
    except PackageNotFoundError:
        return "0"


def serve_stdio() -> None:
    """Serve one client over stdin/stdout until it closes them."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(remote=False)

    async def main() -> None:
        """Serve on stdin and stdout until the client closes them."""
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def serve_http(host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve streamable HTTP at http://host:port/mcp until stopped."""
    import uvicorn

    server = build_server(remote=True)
    app = server.streamable_http_app(host=host)
    print(f"gpu-advisor MCP server at http://{host}:{port}/mcp  (Ctrl+C to stop)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
