"""A probe report as Markdown, for people: the chat's "Probe this machine" button, the CLI and
the notebook display of a `ProbeReport`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.tools.probe.models import ProbeReport


def probe_markdown(report: ProbeReport) -> str:
    """A probe report for people: one line per GPU, or why none was found and what to do."""
    lines = [f"**GPU probe** — {report.summary}", ""]
    if report.gpus:
        lines += ["| # | GPU | memory | CC | driver | catalog |", "|---|---|---|---|---|---|"]
        for gpu in report.gpus:
            memory = f"{gpu.memory_total_gb:.1f} GB" if gpu.memory_total_gb is not None else "?"
            catalog = gpu.catalog_match.name if gpu.catalog_match else "—"
            lines.append(
                f"| {gpu.index} | {gpu.name or '?'} | {memory} | {gpu.compute_capability or '?'} "
                f"| {gpu.driver_version or '?'} | {catalog} |"
            )
            if gpu.error:
                lines.append(f"|   | ⚠️ {gpu.error} | | | | |")
    else:
        tried = ", ".join(f"{a.method} ({a.detail})" for a in report.attempts if a.detail)
        if tried:
            lines.append(f"Tried: {tried}.")
        if report.hint:
            lines += ["", report.hint]
    for warning in report.warnings:
        lines += ["", f"> ⚠️ {warning}"]
    lines += [
        "",
        f"<sub>{report.platform}" + (f" · via {report.method}" if report.method else "") + "</sub>",
    ]
    return "\n".join(lines)
