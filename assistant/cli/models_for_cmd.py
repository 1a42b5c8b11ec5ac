"""`gpu-advisor models-for GPU [--ram GB] [--task T]`: which models fit a card, at which precision."""

from __future__ import annotations

import argparse
from typing import Any

from assistant.cli._common import add_json_flag, finish, given_flags

TASKS = ("inference", "image_generation", "lora", "qlora", "full_finetune")


def register(sub: Any) -> None:
    """Add the `models-for` command."""
    p = sub.add_parser(
        "models-for",
        help="which models fit a GPU (or several, or this machine), at which precision",
        description=(
            "The inverse of `fit`: every model of the model table that fits the card(s) for a task, "
            "with the precisions it fits at (bf16, fp8, 8-bit, 4-bit by default), grouped by family "
            "and ordered by size, the largest that fits called out. With --ram, models that fit the "
            "card plus system RAM are listed as CPU offload (slow: offloaded layers run at RAM "
            "bandwidth). With --here, this machine is probed and its free memory used. Memory is in "
            "binary GB, the unit cards are sold in."
        ),
        epilog=(
            "examples: gpu-advisor models-for 'RTX 3060' --ram 32 | "
            "gpu-advisor models-for '2x RTX 3090' --task qlora | "
            "gpu-advisor models-for 'RTX 3090 + RTX 4090' --family Qwen3 | "
            "gpu-advisor models-for --vram 24 --task image_generation --json | "
            "gpu-advisor models-for --here"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "gpu",
        nargs="*",
        metavar="GPU",
        help="card name, or several: '4x A10G', 'RTX 3090 + RTX 4090'",
    )
    p.add_argument("--vram", type=float, metavar="GB", help="card memory in GB, instead of a name")
    p.add_argument("--gpus", type=int, metavar="N", help="how many of the card (default 1)")
    p.add_argument("--here", action="store_true", help="probe this machine and use its free memory")
    p.add_argument(
        "--ram", type=float, metavar="GB", help="system RAM for CPU offload (llama.cpp, Ollama)"
    )
    p.add_argument("--task", choices=TASKS, default="inference")
    p.add_argument(
        "--precision", nargs="+", metavar="P", help="precisions to try (default: common ones)"
    )
    p.add_argument(
        "--context", type=int, metavar="TOKENS", help="context for inference (default 4096)"
    )
    p.add_argument("--family", metavar="F", help="only this family: 'Qwen3', 'Llama 3', 'Gemma'")
    p.add_argument("--all", action="store_true", help="also list the models that do not fit")
    add_json_flag(p)
    p.set_defaults(func=run)


def build_query(args: argparse.Namespace) -> Any:
    """The models-for query from the command line: card names, a memory size or this machine."""
    from assistant.tools.models_for import ModelsForQuery

    fields: dict[str, Any] = {"task": args.task}
    text = " ".join(args.gpu).strip()
    if args.here:
        from assistant.tools.probe import probe_local_gpus

        fields["machine"] = probe_local_gpus()
    elif text:
        fields["gpus"] = [text]
    given_flags(
        args,
        (
            ("vram", "vram_gb"),
            ("gpus", "num_gpus"),
            ("ram", "system_ram_gb"),
            ("precision", "precisions"),
            ("context", "context_tokens"),
            ("family", "family"),
        ),
        fields,
    )
    if "num_gpus" in fields and "gpus" in fields:
        fields["gpu"] = fields.pop("gpus")[0]
    return ModelsForQuery.model_validate(fields)


def run(args: argparse.Namespace) -> int:
    """Print which models fit the card(s), by family."""
    from assistant.tools.models_for import models_for

    result = models_for(build_query(args))
    return finish(
        result,
        args.json,
        lambda: render(result, show_all=args.all),
        found=result.cards is not None,
        message=result.message,
        suggestions=result.suggestions,
    )


def render(result: Any, show_all: bool = False) -> str:
    """The models by family, best precision and size; those that do not fit only with `show_all`."""
    lines = [result.message, ""]
    for group in result.families:
        shown = [m for m in group.models if show_all or m.standing != "does_not_fit"]
        if not shown:
            continue
        star = (
            f"  (largest that fits: {group.largest_that_fits})" if group.largest_that_fits else ""
        )
        lines.append(f"{group.family}{star}")
        for m in shown:
            best = m.best
            fig = (
                f"{best.precision:<7} {best.total_gb:6.1f} GB" if best else f"{'-':<7} {'-':>6}   "
            )
            others = ", ".join(
                f"{p.precision} {p.total_gb:.1f}" for p in m.precisions if p is not best
            )
            lines.append(f"  {m.model:<32} {m.params_b:>7g}B  {fig}  {m.standing:<12} [{others}]")
    lines.append("\nFormula: " + result.formula)
    lines.append("\nAssumptions:")
    lines += [f"  - {a}" for a in result.assumptions]
    lines.append(f"\nUnit: {result.unit}")
    return "\n".join(lines)
