"""`gpu-advisor cloud` and `gpu-advisor notebooks`: cloud GPU instances and hosted-notebook tiers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assistant.cli._common import EXIT_BAD_INPUT, add_json_flag, emit, finish

TASKS = ("inference", "lora", "qlora", "full_finetune", "image_generation")


def register(sub: Any) -> None:
    """Add the `cloud` and `notebooks` commands."""
    p = sub.add_parser(
        "cloud",
        help="cloud GPU instances: GPUs, memory, on-demand price; the cheapest one a model fits",
        description=(
            "Look up cloud GPU instances (AWS, GCP, Azure, Scaleway, Lambda, RunPod, Vast.ai): GPU model x count, "
            "memory per GPU, vCPU, RAM, on-demand price with its date, region and source, spot availability. "
            "With --model, every instance is checked with the fit tool (its GPUs share the model) and the "
            "cheapest priced instance the model fits is shown. Filters combine."
        ),
        epilog=(
            "examples: gpu-advisor cloud --instance p4d.24xlarge | gpu-advisor cloud --gpu H100 --provider aws | "
            "gpu-advisor cloud --model 'llama 3 70b' --precision int4 | gpu-advisor cloud --min-vram 48 --json"
        ),
    )
    p.add_argument(
        "--gpu", help="GPU name ('H100', 'A100 80GB', 'L4'); a family name keeps every variant"
    )
    p.add_argument(
        "--instance", help="instance type or offer ('p4d.24xlarge', 'g6e.xlarge', 'a3-highgpu-8g')"
    )
    p.add_argument("--min-vram", type=float, metavar="GB", help="minimum memory per GPU")
    p.add_argument(
        "--min-total-vram", type=float, metavar="GB", help="minimum GPU memory of the instance"
    )
    p.add_argument("--model", help="a model that must fit ('llama 3 70b', '70B', 'flux dev')")
    p.add_argument(
        "--precision", help="weight format for --model: bf16, fp8, int8, int4, q4_k_m, ..."
    )
    p.add_argument(
        "--task",
        choices=TASKS,
        default="inference",
        help="what the model must do (default inference)",
    )
    p.add_argument("--context", type=int, metavar="TOKENS", help="context length for --model")
    p.add_argument(
        "--provider", help="only this provider: AWS, GCP, Azure, Scaleway, Lambda, RunPod, Vast.ai"
    )
    p.add_argument("--limit", type=int, default=10, metavar="N", help="matches shown (default 10)")
    add_json_flag(p)
    p.set_defaults(func=run_cloud)

    n = sub.add_parser(
        "notebooks",
        help="hosted notebook tiers: Colab, Kaggle, Studio Lab: price, GPUs, units, session limits",
        description=(
            "Look up hosted notebook tiers with a GPU: price, GPUs offered, compute units, maximum session "
            "length, idle timeout, weekly GPU quota and what happens when units or quota run out, each with "
            "its source and the date it was seen."
        ),
        epilog="examples: gpu-advisor notebooks | gpu-advisor notebooks --provider colab --tier pro | gpu-advisor notebooks --gpu A100 --json",
    )
    n.add_argument("--provider", help="'colab', 'kaggle', 'studio lab'")
    n.add_argument("--tier", help="'free', 'pro', 'pro+', 'pay as you go'")
    n.add_argument("--gpu", help="only tiers offering this GPU")
    add_json_flag(n)
    n.set_defaults(func=run_notebooks)


def run_cloud(args: argparse.Namespace) -> int:
    """Print the cloud instances matching the filters."""
    from assistant.tools.cloud import CloudInstancesQuery, cloud_instances

    query = CloudInstancesQuery(
        gpu=args.gpu,
        instance=args.instance,
        min_vram_gb=args.min_vram,
        min_total_vram_gb=args.min_total_vram,
        model=args.model,
        precision=args.precision,
        task=args.task,
        context_tokens=args.context,
        provider=args.provider,
        max_results=args.limit,
    )
    result = cloud_instances(query)
    unknown = (
        not result.matches
        and result.suggestions is not None
        and result.message.startswith("Unknown")
    )
    return finish(
        result,
        args.json,
        lambda: render_cloud(result),
        found=not unknown,
        message=result.message,
        suggestions=result.suggestions,
    )


def render_cloud(result: Any) -> str:
    """The instances found, one line each, for people."""
    lines = [result.message]
    if result.matches:
        lines.append("")
        for m in result.matches:
            price = (
                f"${m.price_usd_per_hour:>8.3f}/h"
                if m.price_usd_per_hour is not None
                else "  no price  "
            )
            when = (
                f" ({m.price_as_of}{', ' + m.region if m.region else ''})" if m.price_as_of else ""
            )
            fit = (
                f"  [{m.fit_verdict.replace('_', ' ')}, {m.fit_gb_per_gpu:.1f} GB/GPU]"
                if m.fit_verdict
                else ""
            )
            lines.append(
                f"  {m.instance:<38} {m.provider:<8} {m.gpu_count} x {m.gpu:<18} {m.total_vram_gb:>6g} GB  {price}{when}{fit}"
            )
        if result.total_matches > len(result.matches):
            lines.append(f"  … {result.total_matches - len(result.matches)} more (--limit)")
    if len(result.cheapest_by_provider) > 1:
        lines.append("\nCheapest per provider:")
        lines += [
            f"  - {m.provider}: {m.instance}, ${m.price_usd_per_hour:g}/h"
            for m in result.cheapest_by_provider
        ]
    if result.sources:
        lines.append("\nSources:")
        lines += [f"  - {s.label()}" + (f" ({s.note})" if s.note else "") for s in result.sources]
    return "\n".join(lines)


def run_notebooks(args: argparse.Namespace) -> int:
    """Print the notebook tiers (Colab, Kaggle…)."""
    from assistant.tools.cloud import NotebookTiersQuery, notebook_tiers

    result = notebook_tiers(
        NotebookTiersQuery(provider=args.provider, tier=args.tier, gpu=args.gpu)
    )
    if not result.tiers:
        if args.json:
            emit(result, True)
        print(f"gpu-advisor: {result.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    emit(result, args.json, human=render_notebooks(result))
    return 0


def render_notebooks(result: Any) -> str:
    """The notebook tiers, one line each, for people."""
    lines = []
    for t in result.tiers:
        price = "free" if not t.price_usd else f"${t.price_usd:g} {t.billing}"
        lines.append(f"{t.provider} — {t.tier}: {price}")
        lines.append(f"  GPUs: {t.gpus}")
        for label, value in (
            ("compute units", t.compute_units),
            ("max session (h)", t.max_session_hours),
            ("idle timeout (min)", t.idle_timeout_minutes),
            ("GPU hours a week", t.weekly_gpu_hours),
            ("when it runs out", t.at_zero),
            ("notes", t.notes),
        ):
            if value:
                lines.append(
                    f"  {label}: {value:g}" if isinstance(value, float) else f"  {label}: {value}"
                )
        lines.append(f"  source: {t.source}, {t.url} (seen {t.as_of})")
    return "\n".join(lines)
