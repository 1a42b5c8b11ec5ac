"""`gpu-advisor mcp`: the tools as an MCP server (stdio, or streamable HTTP with --http)."""

from __future__ import annotations

import argparse

from assistant.cli._common import CommandError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `mcp` command."""
    server = sub.add_parser(
        "mcp",
        help="serve the tools and the corpus search to MCP clients (stdio, or --http)",
        description=(
            "Serve every deterministic tool, the corpus search, the knowledge entries and the "
            "catalog to an MCP client (Claude Desktop, Cursor, VS Code…). Speaks stdio by "
            "default (the client starts the command); --http serves streamable HTTP at "
            "http://HOST:PORT/mcp. Tool schemas and descriptions are the agent's own."
        ),
        epilog=(
            "examples:\n"
            "  gpu-advisor mcp                               # stdio\n"
            "  gpu-advisor mcp --http --port 8765            # http://127.0.0.1:8765/mcp\n\n"
            "settings: GPU_ADVISOR_MCP_RATE_PER_MINUTE, GPU_ADVISOR_MAX_MESSAGE_CHARS"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    server.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    server.add_argument("--host", default="127.0.0.1", help="with --http (default 127.0.0.1)")
    server.add_argument("--port", type=int, default=8765, help="with --http (default 8765)")
    server.set_defaults(func=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    """Serve until the client closes stdio (or Ctrl+C with --http)."""
    if not 0 < args.port < 65536:
        raise CommandError(f"--port must be between 1 and 65535, not {args.port}")
    try:
        from assistant.mcp import server
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        raise CommandError(
            f"the MCP server needs the mcp extra: pip install 'gpu-advisor[mcp]' ({exc})"
        ) from None
    try:
        if args.http:
            server.serve_http(args.host, args.port)
        else:
            server.serve_stdio()
    except ModuleNotFoundError as exc:
        raise CommandError(
            f"the MCP server needs the mcp extra: pip install 'gpu-advisor[mcp]' ({exc.name})"
        ) from None
    except OSError as exc:
        raise CommandError(f"could not start the MCP server: {exc}", exit_code=1) from None
    except KeyboardInterrupt:
        pass
    return 0
