"""Run a probing step under a deadline: a thread for library calls, a process group for commands.

A driver call such as nvmlInit can block forever on a wedged GPU; neither a thread nor a C call can
be interrupted, so the caller stops waiting and the daemon thread is left behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


class StepTimeout(Exception):
    """The step did not finish within its deadline."""


class StepFailed(Exception):
    """The step ran and failed in a way worth reporting as-is."""


def call_with_timeout(fn: Callable[[], T], timeout_s: float) -> T:
    """Call fn in a daemon thread; raise StepTimeout if it has not returned in timeout_s."""
    box: dict[str, object] = {}

    def target() -> None:
        """Keep fn's value or exception in `box` for the waiting caller."""
        try:
            box["value"] = fn()
        except BaseException as exc:  # reported to the caller, never lost in the thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="gpu-probe", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise StepTimeout(f"no answer within {timeout_s:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


@dataclass
class CommandResult:
    stdout: str
    stderr: str
    returncode: int


def run_tool(argv: list[str], timeout_s: float) -> CommandResult:
    """Run a command-line tool found on PATH, killing its whole process group on timeout.

    Raises FileNotFoundError when the tool is not installed, StepTimeout when it hangs.
    """
    exe = shutil.which(argv[0])
    if exe is None:
        raise FileNotFoundError(f"{argv[0]} not found on PATH")
    env = dict(os.environ, LC_ALL="C")
    proc = subprocess.Popen(
        [exe, *argv[1:]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        env=env,
        start_new_session=True,  # so a timeout also ends the tool's children
    )
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=1)
        raise StepTimeout(f"{argv[0]} gave no answer within {timeout_s:g} s; stopped it") from None
    return CommandResult(stdout=out, stderr=err, returncode=proc.returncode)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (AttributeError, OSError):  # no process groups (Windows), or already gone
        proc.kill()


def short(text: str, limit: int = 200) -> str:
    """One line of at most limit characters, for attempt details."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
