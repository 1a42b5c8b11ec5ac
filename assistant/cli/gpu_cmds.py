"""`gpu-advisor gpu NAME...`: one name shows a card, several compare them side by side."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assistant.cli._common import EXIT_BAD_INPUT, add_json_flag, emit

_SEPARATORS = {"vs", "vs.", "versus", "and", "et", ",", "/"}


def register(sub: Any) -> None:
    """Add the `gpu` command."""
    p = sub.add_parser(
        "gpu",
        help="show a GPU's sourced figures, or compare several",
        description=(
            "Look up a GPU in the catalog (compute capability, VRAM, bandwidth, SMs, shared memory, "
            "tensor TFLOPS, power, CUDA features, sources). Give several names to compare them. "
            "Names are matched loosely: 4090, 'RTX 4090', rtx4090, 'H100 SXM5', 'A100 80GB'."
        ),
        epilog="examples: gpu-advisor gpu 5090 --json | gpu-advisor gpu 3090 4090 | gpu-advisor gpu 'H100 SXM' B200",
    )
    p.add_argument("names", nargs="+", metavar="NAME", help="GPU name(s); quote names with spaces")
    add_json_flag(p)
    p.set_defaults(func=run)


def resolve_names(words: list[str]) -> list[str]:
    """Split the command line into GPU names: 'gpu RTX 4090' is one card, 'gpu 3090 4090' two."""
    from assistant.knowledge.matching import find_gpu_mentions, match_gpu

    words = [w for w in words if w.strip().lower() not in _SEPARATORS]
    if not words:
        return []
    if len(words) == 1 or match_gpu(" ".join(words)).gpu is not None:
        return [" ".join(words)]
    known = [match_gpu(w).gpu is not None for w in words]
    if all(known):
        return words
    mentioned = find_gpu_mentions(" ".join(words))
    if len(mentioned) >= 2:
        return [c.name for c in mentioned]
    # "RTX 9090" unquoted is one unknown name; "4090 9090" is a comparison with one unknown.
    return words if any(known) else [" ".join(words)]


def run(args: argparse.Namespace) -> int:
    """Print one card's figures, or a comparison table when several cards are named."""
    from assistant.tools.lookup import GpuComparisonQuery, GpuQuery, compare_gpus, lookup_gpu

    names = resolve_names(args.names)
    if len(names) == 1:
        result = lookup_gpu(GpuQuery(gpu=names[0]))
        if not result.found:
            if args.json:
                emit(result, True)
            print(f"gpu-advisor: {result.message}", file=sys.stderr)
            return EXIT_BAD_INPUT
        emit(result, args.json, human=render_card(result))
        return 0
    comparison = compare_gpus(GpuComparisonQuery(gpus=names))
    if len(comparison.cards) < 2:
        if args.json:
            emit(comparison, True)
        print(f"gpu-advisor: {comparison.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    emit(comparison, args.json, human=render_comparison(comparison))
    if comparison.unknown:
        print(f"gpu-advisor: {' '.join(_unknown_lines(comparison))}", file=sys.stderr)
    return 0


def _fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        value = f"{value:g}"
    return f"{value} {unit}".strip()


_CARD_ROWS = (
    ("Vendor", "vendor", ""),
    ("Architecture", "architecture", ""),
    ("Chip", "chip", ""),
    ("Compute capability", "compute_capability", ""),
    ("Arch target", "arch_target", ""),
    ("VRAM", "vram_gb", "GB"),
    ("Memory", "memory_type", ""),
    ("Bandwidth", "bandwidth_gbs", "GB/s"),
    ("Shared mem / SM", "shared_memory_per_sm_kb", "KB"),
    ("Shared mem / block", "shared_memory_per_block_kb", "KB"),
    ("FP16 tensor (dense)", "fp16_tensor_tflops", "TFLOPS"),
    ("FP64 : FP32", "fp64_ratio", ""),
    ("Power", "tdp_w", "W"),
    ("NVLink", "nvlink", ""),
    ("Tensor cores", "tensor_cores", ""),
    ("Bus", "bus_interface", ""),
    ("Segment", "segment", ""),
    ("Year", "year", ""),
)


def render_card(result: Any) -> str:
    """One card's sourced figures as an aligned table, then its features and sources, for people."""
    card = result.gpu
    units_label = {"SM": "SMs", "CU": "Compute units", "GPU core": "GPU cores"}[
        card.compute_units_kind
    ]
    limits = result.sm_limits or {}
    rows = [
        (label, _fmt(getattr(card, field) or limits.get(field), unit))
        for label, field, unit in _CARD_ROWS
    ]
    rows.insert(8, (units_label, _fmt(card.sm_count)))
    width = max(len(label) for label, _ in rows)
    title = f"{result.count} × {card.name}" if result.count > 1 else card.name
    lines = [title, "=" * len(title)]
    if not card.curated:
        lines.append(f"Not curated: figures from {card.provenance}, not checked here.")
    lines += [
        f"{label:<{width}}  {value}"
        for label, value in rows
        if value != "—" or label not in ("Tensor cores", "Bus")
    ]
    if result.features:
        have = [f["key"] for f in result.features if f.get("supported")]
        lack = [f["key"] for f in result.features if f.get("status") == "no"]
        lines.append("")
        if have:
            lines.append(f"{'CUDA features':<{width}}  {', '.join(have)}")
        if lack:
            lines.append(f"{'Not available':<{width}}  {', '.join(lack)}")
    if result.alternatives:
        lines.append(f"\nOther variants: {', '.join(result.alternatives)}")
    if card.notes:
        lines.append(f"\nNote: {card.notes}")
    if card.corpus_note:
        lines.append(f"Corpus: {card.corpus_note}")
    lines.append("\nSources:")
    for s in card.sources:
        lines.append(f"  - {s.title}" + (f" <{s.url}>" if s.url else ""))
    for field, s in card.figure_sources.items():
        lines.append(f"  - [{field}] {s.title}" + (f" <{s.url}>" if s.url else ""))
    return "\n".join(lines)


def render_comparison(comparison: Any) -> str:
    """The cards side by side, one row per figure, then the comparison's notes, for people."""
    header = ["", *[c.name for c in comparison.cards]]
    table = [header]
    for row in comparison.rows:
        table.append([row.label, *[_fmt(v, row.unit) for v in row.values]])
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in table
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if comparison.notes:
        lines.append("")
        lines += [f"- {n}" for n in comparison.notes]
    uncurated = [c for c in comparison.cards if not c.curated]
    if uncurated:
        lines.append("")
        lines += [f"Not curated: {c.name} (figures from {c.provenance})." for c in uncurated]
    return "\n".join(lines)


def _unknown_lines(comparison: Any) -> list[str]:
    out = []
    for u in comparison.unknown:
        hint = f" (did you mean {', '.join(u.suggestions[:3])}?)" if u.suggestions else ""
        out.append(f"unknown GPU '{u.name}'{hint}.")
    return out
