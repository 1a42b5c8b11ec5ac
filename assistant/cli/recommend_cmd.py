"""`gpu-advisor recommend [--budget N] [--mode buy|rent|either] [--part N] [--feature F] ...`:
ranked GPUs to buy or rent for a budget, a goal and constraints."""

from __future__ import annotations

import argparse
from typing import Any

from assistant.cli._common import CommandError, add_json_flag, emit

WORKLOADS = ("lora", "qlora", "flux", "llm_inference")


def register(sub: Any) -> None:
    """Add the `recommend` command."""
    p = sub.add_parser(
        "recommend",
        help="which GPU to buy or rent for a budget and a goal",
        description=(
            "Ranked options to buy (with the price range) or to rent (with the hourly rate and the "
            "hours the budget buys), each with its reasons, what it cannot do and its sources. "
            "Options must get a yes/partial capability verdict for the goal, hold the workload in "
            "VRAM, meet the constraints and fit the budget. A feature goal also gets the cheapest "
            "hardware that exercises it; when nothing fits, the closest options and the free tiers. "
            "GOAL is optional free text ('learn CUDA up to part 4', 'LoRA on SDXL')."
        ),
        epilog=(
            "examples: gpu-advisor recommend --budget 2500 --mode buy | "
            "gpu-advisor recommend --budget 400 --mode buy --condition used | "
            "gpu-advisor recommend --budget 800 --mode buy --workload lora | "
            "gpu-advisor recommend --budget 200 --mode rent --part 8 | "
            "gpu-advisor recommend --feature tcgen05 --json | "
            "gpu-advisor recommend --budget 1000 --max-power 200 'learn GPU programming' | "
            "gpu-advisor recommend --among 'RTX 3090' --among 'RTX 4070 Ti Super' --workload lora"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("goal", nargs="*", metavar="GOAL", help="the goal in free text (optional)")
    p.add_argument("--budget", type=float, metavar="N", help="money to spend (default: no limit)")
    p.add_argument(
        "--currency",
        help="EUR, USD, GBP or another ISO code (CHF, CAD, SGD, INR, JPY...; default: the configured one)",
    )
    p.add_argument("--mode", choices=("buy", "rent", "either"), default="either")
    p.add_argument("--part", type=int, metavar="N", help="cover the guide up to part N (1–9)")
    p.add_argument(
        "--feature", metavar="F", help="feature or topic: wgmma, tcgen05, fp8, fp4, megakernels…"
    )
    p.add_argument("--workload", choices=WORKLOADS)
    p.add_argument(
        "--model", metavar="M", help="model for the workload: 'llama 3.1 8b', 'flux dev'"
    )
    p.add_argument("--params", type=float, metavar="B", help="model size in billions of parameters")
    p.add_argument("--condition", choices=("new", "used", "any"), default="any")
    p.add_argument(
        "--max-power", type=int, metavar="W", help="highest board power for a card you buy"
    )
    p.add_argument("--form", choices=("desktop", "cloud", "any"), default="any")
    p.add_argument("--limit", type=int, default=5, help="how many options (default 5)")
    p.add_argument(
        "--among",
        action="append",
        default=[],
        metavar="GPU",
        help="choose only among these cards (repeat the flag); each one left out says why",
    )
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the ranked cards for the budget and goal given."""
    from assistant.tools.recommend import RecommendQuery, recommend

    query = RecommendQuery.model_validate(
        {
            "budget": args.budget,
            "currency": args.currency,
            "mode": args.mode,
            "goal": " ".join(args.goal) or None,
            "guide_part": args.part,
            "feature": args.feature,
            "workload": args.workload,
            "model": args.model,
            "model_params_b": args.params,
            "condition": args.condition,
            "max_power_w": args.max_power,
            "form": args.form,
            "limit": args.limit,
            "candidates": args.among,
        }
    )
    result = recommend(query)
    if result.suggestions and not result.options:
        raise CommandError(f"{result.summary} Did you mean: {', '.join(result.suggestions[:5])}?")
    emit(result, args.json, _human(result))
    return 0


def _human(r: Any) -> str:
    lines = [r.summary, ""]
    from assistant.tools.recommend.build import option_price

    if not r.options and r.closest:
        lines.append("Closest, over the budget:")
    for o in r.options or r.closest:
        head = f"{o.rank}. {o.kind} {o.gpu} ({option_price(o, r.currency)})"
        lines.append(head + " — " + " ".join(o.reasons[:2]))
        for c in o.cannot[:2]:
            lines.append(f"   cannot: {c}")
    for c in r.cheapest_for_feature:
        buy = f"buy {c.buy.gpu} from {c.buy.low:.2f} {r.currency}" if c.buy else "nothing to buy"
        rent = (
            f"rent {c.rent.gpu} from {c.rent.low:.2f} {r.currency}/h"
            if c.rent
            else "nothing to rent"
        )
        lines.append(f"Cheapest for {c.topic_name}: {buy}; {rent}.")
    lines.extend(f"- {n}" for n in r.left_out)
    if r.notes:
        lines.append("")
        lines.extend(f"- {n}" for n in r.notes)
    if r.assumptions:
        lines.append("")
        lines.extend(f"assumes: {a}" for a in r.assumptions)
    return "\n".join(lines).strip()
