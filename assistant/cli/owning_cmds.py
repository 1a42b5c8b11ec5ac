"""`gpu-advisor power GPU`, `gpu-advisor price GPU`, `gpu-advisor job MODEL --tokens N`: the cost of
running a card you own, what a card costs to buy, and what a whole training or inference run costs."""

from __future__ import annotations

import argparse
import re
from typing import Any

from assistant.cli._common import CommandError, add_json_flag, finish

_TOKENS_RE = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*([kmbt]?)\s*$", re.I)
_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


def _money_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--currency",
        help="EUR, USD, GBP or another ISO code (CHF, CAD, SGD, INR, JPY...; default: the configured one)",
    )
    p.add_argument(
        "--usd-per-eur",
        type=float,
        metavar="RATE",
        help="exchange rate (default: the configured one)",
    )


def register(sub: Any) -> None:
    """Add the `power`, `price` and `job` commands."""
    p = sub.add_parser(
        "power",
        help="electricity cost of running a card you own, per day, month and year, against idle and renting",
        description=(
            "Power (a sourced typical draw, else the TDP, or --watts) x hours x the electricity price "
            "(--kwh-price, default GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH), plus the idle draw over "
            "--idle-hours, per hour, day, month and year; the extra cost over leaving the card idle; and "
            "the electricity per hour next to renting the same card (--rent-rate, default the price data's)."
        ),
        epilog="examples: gpu-advisor power 3090 | gpu-advisor power 4090 --hours 24 --kwh-price 0.30 --json"
        " | gpu-advisor power 3090 --watts 350 --idle-watts 30 --hours 2 --idle-hours 22"
        " | gpu-advisor power 'RX 6600 XT' --psu 250",
    )
    p.add_argument("gpu", nargs="+", metavar="GPU")
    p.add_argument("--gpus", type=int, default=1, metavar="N", help="number of such cards")
    p.add_argument("--watts", type=float, help="draw per card while working")
    p.add_argument("--idle-watts", type=float, help="draw per card while idle")
    p.add_argument("--hours", type=float, metavar="H", help="hours of work per day (default 8)")
    p.add_argument(
        "--idle-hours", type=float, metavar="H", help="hours per day on but idle (default 0: off)"
    )
    p.add_argument(
        "--rent-rate", type=float, metavar="PRICE", help="price per hour of renting one such card"
    )
    p.add_argument("--kwh-price", type=float, metavar="PRICE", help="electricity price per kWh")
    p.add_argument(
        "--psu",
        type=float,
        metavar="W",
        help="the machine's power-supply rating: checked against the cards (vendor figure, else TDP + a typical desktop)",
    )
    _money_flags(p)
    add_json_flag(p)
    p.set_defaults(func=_power)

    p = sub.add_parser(
        "price",
        help="what a card costs to buy, new and used, with the date each price was seen",
        description=(
            "New and used purchase prices from the dated price data, converted to your currency, each "
            "with its date and source. A card without a price says so: no price is invented."
        ),
        epilog="examples: gpu-advisor price used 3090 | gpu-advisor price 'Mac Studio' --currency USD --json",
    )
    p.add_argument("gpu", nargs="+", metavar="GPU")
    p.add_argument("--condition", choices=("new", "used"))
    _money_flags(p)
    add_json_flag(p)
    p.set_defaults(func=_price)

    p = sub.add_parser(
        "job",
        help="cost of a whole training, fine-tuning or inference run on a card or an instance",
        description=(
            "FLOPs = k x parameters x tokens (k = 6 to train or fully fine-tune, 4 for LoRA, 2 for inference); "
            "GPU-hours = FLOPs / (dense tensor TFLOPS x utilisation); cost = GPU-hours x price per GPU-hour. "
            "Shows the formula and every input."
        ),
        epilog=(
            "examples: gpu-advisor job 8B --tokens 1B --gpu H100 --gpus 8 | "
            "gpu-advisor job 'Llama 3.1 8B' --task lora --tokens 200M --gpu 4090 --json"
        ),
    )
    p.add_argument("model", nargs="+", metavar="MODEL", help="model name or size ('8B')")
    p.add_argument("--tokens", required=True, help="tokens processed: 1B, 500M, 2e9")
    p.add_argument(
        "--task", choices=("train", "full_finetune", "lora", "inference"), default="full_finetune"
    )
    p.add_argument("--gpu", help="card from the catalog")
    p.add_argument("--gpus", type=int, default=1, metavar="N", help="cards working together")
    p.add_argument("--tflops", type=float, help="dense FP16/BF16 tensor TFLOPS per card")
    p.add_argument(
        "--utilisation", type=float, metavar="FRACTION", help="share of peak reached (default 0.4)"
    )
    p.add_argument("--rate", type=float, metavar="PRICE", help="price per GPU-hour")
    p.add_argument("--params", type=float, metavar="B", help="parameters, billions")
    _money_flags(p)
    add_json_flag(p)
    p.set_defaults(func=_job)


def parse_tokens(text: str) -> float:
    """'1B' → 1e9, '500M' → 5e8, '2e9' → 2e9."""
    try:
        return float(text)
    except ValueError:
        pass
    m = _TOKENS_RE.match(text)
    if not m:
        raise CommandError(f"--tokens: cannot read {text!r} (try 1B, 500M or 2e9)")
    return float(m.group(1).replace(",", ".")) * _SCALE[m.group(2).lower()]


def _money(args: argparse.Namespace) -> dict[str, Any]:
    return {"currency": args.currency, "usd_per_eur": args.usd_per_eur}


def _render(result: Any) -> str:
    lines = [result.summary]
    if getattr(result, "formula", None):
        lines.append(f"\nFormula: {result.formula}")
    if getattr(result, "inputs", None):
        lines.append(
            "Inputs: "
            + ", ".join(
                f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                for k, v in result.inputs.items()
            )
        )
    for item in getattr(result, "prices", []):
        lines.append(f"  {item.condition:4} {item.original:>14}  seen {item.as_of}  {item.source}")
    lines.append("\nAssumptions:")
    lines += [f"  - {a}" for a in result.assumptions]
    lines.append("\nSources:")
    lines += [f"  - {s.label()}" + (f" ({s.note})" if s.note else "") for s in result.sources]
    return "\n".join(lines)


def _finish(args: argparse.Namespace, result: Any) -> int:
    return finish(
        result,
        args.json,
        lambda: _render(result),
        found=result.found,
        message=result.summary,
        suggestions=getattr(result, "suggestions", None),
    )


def _power(args: argparse.Namespace) -> int:
    from assistant.money import tool_defaults
    from assistant.tools.power import PowerQuery, power_cost

    fields = {"gpu": " ".join(args.gpu), "gpu_count": args.gpus, "power_w": args.watts, "idle_w": args.idle_watts,
              "hours_per_day": args.hours, "idle_hours_per_day": args.idle_hours, "rent_rate": args.rent_rate,
              "electricity_price_per_kwh": args.kwh_price, "psu_w": args.psu, **_money(args)}  # fmt: skip
    query = PowerQuery.model_validate(tool_defaults(PowerQuery, fields))
    return _finish(args, power_cost(query))


def _price(args: argparse.Namespace) -> int:
    from assistant.money import tool_defaults
    from assistant.tools.price import PriceQuery, purchase_price_lookup

    fields = {"gpu": " ".join(args.gpu), "condition": args.condition, **_money(args)}
    return _finish(
        args, purchase_price_lookup(PriceQuery.model_validate(tool_defaults(PriceQuery, fields)))
    )


def _job(args: argparse.Namespace) -> int:
    from assistant.money import tool_defaults
    from assistant.tools.job_cost import JobCostQuery, job_cost

    fields = {"model": " ".join(args.model), "tokens": parse_tokens(args.tokens), "task": args.task, "gpu": args.gpu,
              "gpu_count": args.gpus, "tflops": args.tflops, "utilisation": args.utilisation,
              "rate_per_hour": args.rate, "params_b": args.params, **_money(args)}  # fmt: skip
    return _finish(args, job_cost(JobCostQuery.model_validate(tool_defaults(JobCostQuery, fields))))
