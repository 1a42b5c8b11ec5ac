"""The `gpu-advisor` command. Each command group lives in its own module and is imported lazily,
so `gpu-advisor gpu 4090` never loads torch or LangChain."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that each define `register(subparsers)`; the order is the order shown in --help.
COMMAND_MODULES = (
    "assistant.cli.gpu_cmds",  # gpu
    "assistant.cli.can_cmd",  # can
    "assistant.cli.cost_cmds",  # cost ...
    "assistant.cli.fit_cmd",  # fit
    "assistant.cli.models_for_cmd",  # models-for
    "assistant.cli.coverage_cmd",  # coverage
    "assistant.cli.speed_cmd",  # speed
    "assistant.cli.owning_cmds",  # power, price, job
    "assistant.cli.recommend_cmd",  # recommend
    "assistant.cli.cloud_cmd",  # cloud, notebooks
    "assistant.cli.knowledge_cmds",  # support, explain
    "assistant.cli.probe_cmd",  # probe
    "assistant.cli.search_cmds",  # search, index
    "assistant.cli.ask_cmd",  # ask
    "assistant.cli.interface_cmds",  # chat, discord
    "assistant.cli.mcp_cmd",  # mcp
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command group that is installed."""
    parser = argparse.ArgumentParser(
        prog="gpu-advisor",
        description=(
            "Which GPU? Answers with evidence: sourced GPU data, cost and memory calculators, "
            "a live GPU probe and cited passages from the guide. Every command takes --json."
        ),
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a command group not built yet
        module.register(sub)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"gpu-advisor {version('gpu-advisor')}"
    except PackageNotFoundError:
        return "gpu-advisor (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; returns the exit status (0, or 2 for bad input)."""
    from assistant.cli._common import run_command

    if argv is None:  # the real command line (tests call main([...]) and keep their log capture)
        from assistant.log import setup_logging

        setup_logging()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
