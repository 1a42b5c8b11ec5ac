"""`gpu-advisor cost …`: the cost calculators (rent, spot, buy, forgotten, storage, budget)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from assistant.cli._common import CommandError, add_json_flag, emit

Handler = Callable[[argparse.Namespace], int]

_EXAMPLES = {
    "rent": """examples:
  gpu-advisor cost rent H100 --hours 20
  gpu-advisor cost rent "RTX 4090" --hours 100 --currency USD --json
  gpu-advisor cost rent --rate "2,50 $/h" --hours 12 --currency EUR
  gpu-advisor cost rent H100 --hours 10 --kind spot
  gpu-advisor cost rent H100 --gpus 8 --hours 264 --rate 2.85 --currency USD""",
    "spot": """examples:
  gpu-advisor cost spot --hours 24 --spot 0.80 --dedicated 2.50 --currency USD
  gpu-advisor cost spot --hours 24 --spot 0.80 --dedicated 2.50 --checkpoint 0.5 --json
  gpu-advisor cost spot --hours 2 --spot 0.80 --dedicated 2.50 --interruptions 0.2 --restart 0.05""",
    "buy": """examples:
  gpu-advisor cost buy --price 2000 --rent 0.50 --power 450 --hours-per-day 8
  gpu-advisor cost buy "RTX 4090" --condition used --resale-fraction 0.5 --json
  gpu-advisor cost buy "RTX 5090" --rent 0.60 --kwh 0.20 --currency EUR""",
    "forgotten": """examples:
  gpu-advisor cost forgotten H100             # a 48-hour weekend
  gpu-advisor cost forgotten H100 --gpus 8 --hours 60 --currency USD
  gpu-advisor cost forgotten --rate 6.88 --hours 72 --json""",
    "storage": """examples:
  gpu-advisor cost storage --gb 500 --days 1
  gpu-advisor cost storage --gb 2000 --price 0.10 --days 30 --currency USD --json""",
    "budget": """examples:
  gpu-advisor cost budget 200
  gpu-advisor cost budget "200 €" --json
  gpu-advisor cost budget 500 --currency USD --parts 4 8""",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `cost` command and its sub-commands."""
    parser = sub.add_parser(
        "cost",
        help="what GPU time costs: rent, spot vs dedicated, rent vs buy, forgotten instance, storage, budget",
        description=(
            "Cost calculators. Amounts are in --currency (EUR, USD, GBP or another ISO code such as CHF, SGD, INR; default GPU_ADVISOR_CURRENCY); "
            "the exchange rate is an assumption (--usd-per-eur, default GPU_ADVISOR_USD_PER_EUR) "
            "and every result states it, with its other assumptions and sources."
        ),
    )
    parser.set_defaults(func=lambda args: _no_subcommand(parser))
    cost_sub = parser.add_subparsers(dest="cost_command", metavar="CALCULATOR")

    def add(name: str, help_: str, handler: Handler) -> argparse.ArgumentParser:
        """Add a calculator's subcommand, with the options every calculator shares."""
        p = cost_sub.add_parser(
            name,
            help=help_,
            description=help_[0].upper() + help_[1:] + ".",
            epilog=_EXAMPLES[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument(
            "--currency",
            help="EUR, USD, GBP or another ISO code (CHF, SGD, INR...): of the amounts you give and of the result",
        )
        p.add_argument(
            "--usd-per-eur", type=float, metavar="RATE", help="exchange rate assumed, USD per EUR"
        )
        add_json_flag(p)
        p.set_defaults(func=handler)
        return p

    p = add("rent", "cost of renting a GPU for N hours, from sourced prices or a given rate", _rent)
    p.add_argument("gpu", nargs="?", help="GPU name, e.g. H100 or 'RTX 4090'")
    p.add_argument("--hours", required=True, help="hours of rental")
    p.add_argument("--rate", help="price per hour, e.g. 2.5 or '2,50 $/h' (skips the price data)")
    p.add_argument(
        "--gpus", type=int, default=1, metavar="N", help="GPUs rented together (default 1)"
    )
    p.add_argument(
        "--kind",
        help="only this kind of price: on-demand, spot, community, marketplace, serverless",
    )
    p.add_argument(
        "--utilisation", type=float, default=1.0, metavar="F",
        help="share of the hours actually rented, e.g. 0.4 (default 1)",
    )  # fmt: skip
    p.add_argument(
        "--speedup", type=float, default=1.0, metavar="X",
        help="how many times faster this card does the work: the hours are divided by it",
    )  # fmt: skip

    p = add(
        "spot", "spot vs dedicated for a job of N hours: expected cost, time and lost work", _spot
    )
    p.add_argument("--hours", required=True, help="hours of work the job needs")
    p.add_argument("--spot", required=True, help="spot price per hour, e.g. 0.80")
    p.add_argument("--dedicated", required=True, help="dedicated price per hour, e.g. 2.50")
    p.add_argument("--interruptions", type=float, help="interruptions per hour (default 0.05)")
    p.add_argument(
        "--checkpoint", type=float, metavar="H", help="hours between checkpoints (default: none)"
    )
    p.add_argument(
        "--restart",
        type=float,
        metavar="H",
        help="hours lost restarting after an interruption (0.1)",
    )
    p.add_argument(
        "--gpus", type=int, default=1, metavar="N", help="GPUs rented; rates are per GPU (1)"
    )

    p = add(
        "buy", "rent vs buy: break-even in hours and months, electricity and resale included", _buy
    )
    p.add_argument("gpu", nargs="?", help="GPU name, to look up its prices and power")
    p.add_argument("--price", help="purchase price")
    p.add_argument(
        "--condition", choices=["new", "used"], help="new or used, for the looked-up price"
    )
    p.add_argument("--rent", help="rental price per card and hour")
    p.add_argument(
        "--hours-per-day", type=float, default=8.0, help="hours of use a day (default 8)"
    )
    p.add_argument("--power", type=float, metavar="W", help="watts drawn (default: the card's TDP)")
    p.add_argument("--kwh", type=float, metavar="PRICE", help="electricity price per kWh")
    p.add_argument("--resale", help="resale value at the end")
    p.add_argument(
        "--resale-fraction", type=float, metavar="F", help="resale value as a fraction, e.g. 0.5"
    )
    p.add_argument("--days-per-month", type=float, help="days of use a month, e.g. 22 (30)")
    p.add_argument(
        "--utilisation", type=float, metavar="F", help="share of those hours in use, e.g. 0.4"
    )
    p.add_argument(
        "--period-hours", type=float, metavar="H",
        help="calendar hours to total both options over, e.g. 26280 for 3 years",
    )  # fmt: skip
    p.add_argument(
        "--gpus", type=int, metavar="N", help="cards bought, or rented at --rent each (1)"
    )

    p = add(
        "forgotten", "what an instance left running costs (default: a 48-hour weekend)", _forgotten
    )
    p.add_argument("gpu", nargs="?", help="GPU of the instance, e.g. H100")
    p.add_argument("--rate", help="its price per hour")
    p.add_argument("--hours", type=float, default=48.0, help="hours left running (default 48)")
    p.add_argument("--gpus", type=int, default=1, help="GPUs in the instance (default 1)")

    p = add("storage", "persistent disk billed while the instance is stopped", _storage)
    p.add_argument("--gb", type=float, required=True, help="disk size in GB")
    p.add_argument("--price", help="price per GB-month (default 0.08 USD, EBS gp3)")
    p.add_argument("--days", type=float, default=30.0, help="days kept (default 30)")

    p = add(
        "budget",
        "spread a learning budget over the guide's parts, as the guide does for 200 €",
        _budget,
    )
    p.add_argument("budget", help="total budget, e.g. 200 or '200 €'")
    p.add_argument(
        "--parts", type=int, nargs="+", metavar="N", help="guide parts to cover (1-9, default all)"
    )


def _no_subcommand(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    raise CommandError("choose a calculator: rent, spot, buy, forgotten, storage or budget")


def _amount(text: str | None, args: argparse.Namespace, what: str) -> float | None:
    """A number, or an amount with its currency ('2,50 $/h'), in the command's currency."""
    if text is None:
        return None
    try:
        return (
            float(text.replace(",", "."))
            if text.count(",") <= 1 and "." not in text
            else float(text)
        )
    except ValueError:
        pass
    from assistant.money import convert, normalize_currency, parse_money

    found = parse_money(text)
    if not found:
        raise CommandError(f"{what}: cannot read an amount in {text!r} (try 2.5 or '2,50 €')")
    if not args.currency:
        args.currency = found[0].currency  # '200 €' sets the currency when --currency is not given
    target = normalize_currency(args.currency)
    return convert(found[0].amount, found[0].currency, target, args.usd_per_eur)


def _money(args: argparse.Namespace) -> dict[str, Any]:
    return {"currency": args.currency, "usd_per_eur": args.usd_per_eur}


def _render(result: Any, lines: list[str]) -> str:
    out = [result.summary, *lines]
    if getattr(result, "message", None):
        out.append(result.message)
    if getattr(result, "suggestions", None):
        out.append("did you mean: " + ", ".join(result.suggestions))
    out += [f"  assumption: {a}" for a in result.assumptions]
    seen: set[str] = set()
    for source in result.sources:
        label = source.label()
        when = re.search(r"as of (\d{4}(?:-\d{2})?)(?!-)", source.note or "")
        if source.date is None and when:
            label += f", {when.group(1)}"
        if label not in seen:
            seen.add(label)
            out.append(f"  source: {label}")
    return "\n".join(line for line in out if line)


def _show(
    args: argparse.Namespace, result: Any, lines: list[str] | None = None, ok: bool = True
) -> int:
    emit(result, args.json, _render(result, lines or []))
    return 0 if ok else 1


def _rent(args: argparse.Namespace) -> int:
    from assistant.tools.cost import RentQuery, rent_cost

    hours = _amount(args.hours, args, "--hours")
    q = RentQuery(
        gpu=args.gpu,
        hours=hours,
        rate_per_hour=_amount(args.rate, args, "--rate"),
        gpu_count=args.gpus,
        kind=args.kind,
        utilisation=args.utilisation,
        speedup=args.speedup,
        **_money(args),
    )
    result = rent_cost(q)
    return _show(args, result, ok=result.found)


def _spot(args: argparse.Namespace) -> int:
    from assistant.tools.spot import SpotQuery, spot_vs_dedicated

    extra = {
        k: v
        for k, v in {
            "interruptions_per_hour": args.interruptions,
            "checkpoint_interval_h": args.checkpoint,
            "restart_overhead_h": args.restart,
        }.items()
        if v is not None
    }
    q = SpotQuery(
        job_hours=_amount(args.hours, args, "--hours"),
        spot_rate=_amount(args.spot, args, "--spot"),
        dedicated_rate=_amount(args.dedicated, args, "--dedicated"),
        gpu_count=args.gpus,
        **extra,
        **_money(args),
    )
    r = spot_vs_dedicated(q)
    lines = [f"verdict: {r.verdict}", *(f"  - {reason}" for reason in r.reasons)]
    return _show(args, r, lines)


def _buy(args: argparse.Namespace) -> int:
    from assistant.money import tool_defaults
    from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy

    fields = {
        "gpu": args.gpu,
        "purchase_price": _amount(args.price, args, "--price"),
        "condition": args.condition,
        "rent_rate": _amount(args.rent, args, "--rent"),
        "hours_per_day": args.hours_per_day,
        "power_w": args.power,
        "electricity_price_per_kwh": args.kwh,
        "resale_value": _amount(args.resale, args, "--resale"),
        "resale_fraction": args.resale_fraction,
        "days_per_month": args.days_per_month,
        "utilisation": args.utilisation,
        "period_hours": args.period_hours,
        "gpu_count": args.gpus,
        **_money(args),
    }
    q = RentVsBuyQuery.model_validate(tool_defaults(RentVsBuyQuery, fields))
    result = rent_vs_buy(q)
    return _show(args, result, ok=result.found)


def _forgotten(args: argparse.Namespace) -> int:
    from assistant.tools.cost import ForgottenQuery, forgotten_instance

    q = ForgottenQuery(
        gpu=args.gpu,
        rate_per_hour=_amount(args.rate, args, "--rate"),
        hours=args.hours,
        gpu_count=args.gpus,
        **_money(args),
    )
    result = forgotten_instance(q)
    return _show(args, result, [result.corpus_note or ""], ok=result.found)


def _storage(args: argparse.Namespace) -> int:
    from assistant.tools.cost import StorageQuery, storage_cost

    q = StorageQuery(
        gb=args.gb,
        price_per_gb_month=_amount(args.price, args, "--price"),
        days=args.days,
        **_money(args),
    )
    return _show(args, storage_cost(q))


def _budget(args: argparse.Namespace) -> int:
    from assistant.money import format_money
    from assistant.tools.budget import BudgetQuery, plan_budget

    budget = _amount(args.budget, args, "budget")
    plan = plan_budget(BudgetQuery(budget=budget, parts=args.parts, **_money(args)))
    lines = []
    for line in plan.lines:
        hours = (
            f", {line.hours_low:.0f}–{line.hours_high:.0f} h of {line.gpu}"
            if line.hours_low
            else ""
        )
        parts = f" (parts {', '.join(map(str, line.parts))})" if line.parts else ""
        lines.append(
            f"  {format_money(line.amount, plan.currency)}  {line.item}{parts}: {line.where}{hours}"
        )
        if line.note:
            lines.append(f"      {line.note}")
    lines += plan.notes
    return _show(args, plan, lines)
