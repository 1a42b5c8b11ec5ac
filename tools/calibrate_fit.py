"""Print the fit estimate's calibration table: every row of measured_vram.csv against the estimate
for the same setup, with the tolerance, or the reason a row is not comparable.

    python tools/calibrate_fit.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    from assistant.knowledge.models import load_memory_rules
    from assistant.tools.fit.calibration import calibrate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--markdown", action="store_true", help="print the tables of docs/fit.md (Calibration)"
    )
    args = parser.parse_args(argv)
    rows = calibrate()
    rules = load_memory_rules()
    checked = [r for r in rows if r.within is not None]
    worst = max(checked, key=lambda r: abs(r.error_pct or 0.0), default=None)
    summary = {
        "tolerance": f"±{rules.calibration_tolerance_fraction:.0%} or ±{rules.calibration_tolerance_gb:g} GB, whichever is larger",
        "rows": len(rows),
        "comparable": len(checked),
        "within": sum(1 for r in checked if r.within),
        "max_abs_error_pct": abs(worst.error_pct or 0.0) if worst else None,
        "max_abs_error_row": worst.id if worst else None,
    }
    if args.markdown:
        print(markdown(rows))
    elif args.json:
        print(
            json.dumps(
                {"summary": summary, "rows": [r.model_dump() for r in rows]},
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print(
            f"{'row':40} {'check':8} {'compare_to':22} {'measured':>9} {'estimate':>9} {'error':>7}  result"
        )
        for r in rows:
            if r.within is None:
                print(
                    f"{r.id:40} {'-':8} {'-':22} {r.measured_gb:9.2f} {'-':>9} {'-':>7}  not comparable: {r.reason}"
                )
                continue
            est = f"{r.estimated_gb:9.2f}" if r.estimated_gb is not None else f"{'-':>9}"
            err = f"{r.error_pct:+6.1f}%" if r.error_pct is not None else f"{'-':>7}"
            print(
                f"{r.id:40} {r.check:8} {r.compare_to:22} {r.measured_gb:9.2f} {est} {err}  {'ok' if r.within else 'OUT'} (±{r.tolerance_gb:.2f} GB)"
            )
        print(
            f"\n{summary['within']}/{summary['comparable']} comparable rows within {summary['tolerance']}; "
            f"largest error {summary['max_abs_error_pct']}% ({summary['max_abs_error_row']}); "
            f"{len(rows) - len(checked)} rows not comparable."
        )
    return 0 if all(r.within for r in checked) else 1


def markdown(rows: list) -> str:  # type: ignore[type-arg]
    """The summary line and the two tables of docs/fit.md."""
    checked = [r for r in rows if r.within is not None]
    worst = max(abs(r.error_pct or 0.0) for r in checked)
    out = [
        f"{sum(1 for r in checked if r.within)}/{len(checked)} comparable rows within tolerance; "
        f"largest error {worst:.1f} %.",
        "",
        "| row | model | compared with | measured GB | estimate GB | error | result |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for r in checked:
        out.append(
            f"| {r.id} | {r.model} | {r.compare_to} ({r.check}) | {r.measured_gb:.2f} | "
            f"{r.estimated_gb:.2f} | {r.error_pct:+.1f} % | "
            f"{'within' if r.within else 'OUT'} ±{r.tolerance_gb:.2f} GB |"
        )
    out += [
        "",
        "Rows that are not compared, and why:",
        "",
        "| row | why it is not compared |",
        "|---|---|",
    ]
    out += [f"| {r.id} | {r.reason} |" for r in rows if r.within is None]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
