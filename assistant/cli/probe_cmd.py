"""`gpu-advisor probe`: which GPUs this machine has, read live from the driver."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from assistant.cli._common import CommandError, add_json_flag, emit

if TYPE_CHECKING:
    from assistant.tools.probe import ProbedGpu, ProbeReport


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `probe` command."""
    parser = sub.add_parser(
        "probe",
        help="detect this machine's GPUs (NVML, nvidia-smi, torch, ROCm, Apple)",
        description=(
            "Detect the GPUs of this machine: name, driver, CUDA version, compute capability, "
            "memory, MIG mode and the matching catalog card. No GPU is a normal answer (exit 0) "
            "with a hint on how to get one."
        ),
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        default=None,
        help="seconds each detection step may take (default: GPU_ADVISOR_PROBE_TIMEOUT_S, 5)",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Probe this machine's GPUs and print the report."""
    from assistant.tools.probe import ProbeOptions, probe_local_gpus

    if args.timeout is not None and (
        not math.isfinite(args.timeout) or not 0 < args.timeout <= 120
    ):
        raise CommandError("--timeout must be a number of seconds above 0 and at most 120")
    report = probe_local_gpus(ProbeOptions(timeout_s=args.timeout))
    emit(report, args.json, render(report))
    return 0


def render(report: ProbeReport) -> str:
    """The report as a few lines for people."""
    lines: list[str] = []
    if not report.available:
        lines.append("no GPU found")
        if report.hint:
            lines.append(f"hint: {report.hint}")
    for gpu in report.gpus:
        lines.append(f"GPU {gpu.index}: {gpu.name or 'unreadable'}  (via {report.method})")
        facts = [
            ("driver", gpu.driver_version),
            ("CUDA (driver)", gpu.cuda_version),
            ("compute capability", gpu.compute_capability),
            ("memory", _memory(gpu)),
            (
                "MIG",
                gpu.mig_mode
                if gpu.mig_devices is None
                else f"{gpu.mig_mode}, {gpu.mig_devices} instance(s)",
            ),
            (
                "utilisation",
                None if gpu.utilization_percent is None else f"{gpu.utilization_percent} %",
            ),
            ("catalog", _catalog(gpu)),
            ("error", gpu.error),
        ]
        lines.extend(f"  {label}: {value}" for label, value in facts if value is not None)
    for warning in report.warnings:
        lines.append(f"warning: {warning}")
    tried = ", ".join(
        f"{a.method} ({'skipped' if a.skipped else 'ok' if a.ok else 'failed'}: {a.detail})"
        for a in report.attempts
    )
    lines.append(f"tried: {tried}")
    return "\n".join(lines)


def _memory(gpu: ProbedGpu) -> str | None:
    if gpu.memory_total_mib is None:
        return None
    text = f"{gpu.memory_total_gb:g} GB ({gpu.memory_total_mib} MiB)"
    if gpu.memory_free_mib is not None:
        text += f", {gpu.memory_free_gb:g} GB free"
    return text


def _catalog(gpu: ProbedGpu) -> str | None:
    match = gpu.catalog_match
    if match is None:
        return None
    target = f", {match.arch_target}" if match.arch_target else ""
    return f"{match.name}{target}"
