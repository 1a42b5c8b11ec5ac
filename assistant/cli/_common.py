"""What every command shares: JSON or human output, and bad input as a message with exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_FAILED = 1


class CommandError(Exception):
    """A clear message for the user; the command exits non-zero without a traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Give a command the `--json` flag."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def to_jsonable(value: Any) -> Any:
    """Pydantic models (also inside lists) as plain JSON values."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return value


def emit(value: Any, as_json: bool, human: str | None = None) -> None:
    """Print a result: its JSON with --json, else the human rendering given (or its JSON)."""
    if as_json or human is None:
        print(json.dumps(to_jsonable(value), ensure_ascii=False, indent=None if as_json else 2))
    else:
        print(human)


def given_flags(
    args: argparse.Namespace, pairs: Iterable[tuple[str, str]], fields: dict[str, Any]
) -> dict[str, Any]:
    """`fields` plus each (flag, field) pair whose flag was given on the command line."""
    for flag, field in pairs:
        value = getattr(args, flag)
        if value is not None:
            fields[field] = value
    return fields


def finish(
    result: Any,
    as_json: bool,
    render: Callable[[], str],
    *,
    found: bool,
    message: str | None,
    suggestions: Sequence[str] | None = None,
) -> int:
    """Print a tool's result and exit 0, or, when the tool found nothing to work on (an unknown
    card or model), say so with the near names and exit 2; `--json` still prints the result."""
    if not found:
        if as_json:
            emit(result, True)
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        print(f"gpu-advisor: {message}{hint}", file=sys.stderr)
        return EXIT_BAD_INPUT
    emit(result, as_json, human=render())
    return EXIT_OK


def validation_message(exc: ValidationError) -> str:
    """A pydantic validation error as one line: `field: problem; …`."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ())) or "input"
        parts.append(f"{where}: {err.get('msg')}")
    return "invalid input — " + "; ".join(parts)


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed command; turn bad input and known failures into messages, never tracebacks."""
    try:
        code = args.func(args)
        return EXIT_OK if code is None else int(code)
    except CommandError as exc:
        _fail(args, str(exc))
        return exc.exit_code
    except ValidationError as exc:
        _fail(args, validation_message(exc))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def _fail(args: argparse.Namespace, message: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps({"error": message}, ensure_ascii=False))
    print(f"gpu-advisor: {message}", file=sys.stderr)
