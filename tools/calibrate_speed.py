"""Print the speed estimate's calibration: every row of measured_speed.csv against the estimate for
the same setup (or the reason it is not comparable), then a held-out check by GPU.

    python tools/calibrate_speed.py [--json] [--fit]

--fit refits the per-backend efficiency and overhead on the comparable single-GPU rows and writes
them into assistant/knowledge/data/speed_rules.toml before printing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys


def write_fit() -> None:
    from assistant.knowledge.loader import data_path
    from assistant.knowledge.speed import load_measured_speed, load_speed_rules
    from assistant.tools.speed.calibration import fit_backends

    rules = load_speed_rules()
    fitted = fit_backends(list(load_measured_speed()), rules)
    path = data_path("speed_rules.toml")
    text = path.read_text(encoding="utf-8")
    for b in fitted:
        pattern = re.compile(
            rf'(backend = "{re.escape(b.backend)}"\nplatform = "{b.platform}"\n)'
            r"efficiency = [\d.]+\noverhead_ms_per_32_layers = [\d.]+\nfitted_rows = \d+\ngpus = \d+\n"
        )
        replacement = (
            rf"\g<1>efficiency = {b.efficiency}\noverhead_ms_per_32_layers = {b.overhead_ms_per_32_layers}\n"
            f"fitted_rows = {b.fitted_rows}\ngpus = {b.gpus}\n"
        )
        text, n = pattern.subn(replacement, text)
        if n != 1:
            raise SystemExit(f"could not find the [[backend]] block of {b.backend}/{b.platform}")
    path.write_text(text, encoding="utf-8")
    _clear()
    from assistant.tools.speed.calibration import fit_tensor_parallel

    rules = load_speed_rules()
    latency, vllm_eff, n, gpus = fit_tensor_parallel(list(load_measured_speed()), rules)
    text = re.sub(r"pcie = [\d.]+", f"pcie = {latency}", text, count=1)
    text, k = re.subn(
        r'(backend = "vllm"\nplatform = "cuda"\n)efficiency = [\d.]+\n(overhead_ms_per_32_layers = [\d.]+\n)fitted_rows = \d+\ngpus = \d+\n',
        rf"\g<1>efficiency = {vllm_eff}\n\g<2>fitted_rows = {n}\ngpus = 4\n",
        text,
    )
    if k != 1:
        raise SystemExit("could not find the vllm block")
    from statistics import median

    from assistant.tools.speed.calibration import prefill_utilisations

    util = [u for _, u in prefill_utilisations(load_measured_speed())]
    text = re.sub(
        r"prefill_utilisation = [\d.]+", f"prefill_utilisation = {median(util):.2f}", text, count=1
    )
    path.write_text(text, encoding="utf-8")
    _clear()


def _clear() -> None:
    from assistant.knowledge.speed import load_speed_rules

    load_speed_rules.cache_clear()
    from assistant.knowledge import loader

    loader._read_toml.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--fit", action="store_true", help="refit and write speed_rules.toml first")
    parser.add_argument("--markdown", action="store_true", help="print the docs page's tables")
    args = parser.parse_args(argv)
    if args.fit:
        write_fit()
    from assistant.knowledge.speed import load_speed_rules
    from assistant.tools.speed.calibration import calibrate, holdout, summary

    rules = load_speed_rules()
    rows = calibrate(rules)
    held = holdout(rules)
    tol = rules.tolerance_fraction
    result = {"summary": summary(rows, tol), "holdout_by_gpu": summary(held, tol)}
    if args.markdown:
        print(markdown(rules, rows, held, result))
        return 0
    if args.json:
        result["rows"] = [r.model_dump() for r in rows]
        result["holdout_rows"] = [r.model_dump() for r in held]
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(
            f"{'row':6} {'gpu':38} {'n':>2} {'model':28} {'quant':14} {'backend':30} {'measured':>9} {'estimate':>9} {'error':>7}"
        )
        for r in rows:
            head = f"{r.id:6} {r.gpu[:38]:38} {r.gpu_count:>2} {r.model[:28]:28} {r.quant[:14]:14} {r.backend[:30]:30}"
            meas = f"{r.measured_tps:9.2f}" if r.measured_tps else f"{'-':>9}"
            if r.within is None:
                print(f"{head} {meas} {'-':>9} {'-':>7}  not comparable: {r.reason}")
            else:
                print(
                    f"{head} {meas} {r.estimated_tps:9.2f} {r.error_pct:+6.1f}%  {'ok' if r.within else 'OUT'}"
                )
        for name, s in result.items():
            print(f"\n{name}: " + ", ".join(f"{k}={v}" for k, v in s.items()))
    return 0


def markdown(rules: object, rows: list, held: list, result: dict) -> str:  # type: ignore[type-arg]
    """The fitted figures, the summaries and the per-row table, as Markdown."""
    out = [
        "| backend | platform | efficiency | overhead (ms per 32 layers) | rows | GPUs |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for b in rules.backends:  # type: ignore[attr-defined]
        out.append(
            f"| {b.backend} | {b.platform} | {b.efficiency:.3f} | {b.overhead_ms_per_32_layers:.2f} | {b.fitted_rows} | {b.gpus} |"
        )
    out += [
        "",
        "| check | rows | comparable | within ±30 % | single-GPU within | GPUs (single, within) | Apple GPUs | median error | 90th percentile | max |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in result.items():
        out.append(
            f"| {name.replace('_', ' ')} | {s['rows']} | {s['comparable']} | {s['within']} | {s['within_single_gpu']} | "
            f"{s['gpus_within_single']} | {s['apple_gpus_within']} | {s['median_abs_error_pct']} % | {s['p90_abs_error_pct']} % | {s['max_abs_error_pct']} % |"
        )
    out += [
        "",
        "| row | GPU | cards | model | quant | backend | check | measured tok/s | estimate | error | result |",
        "|---|---|---:|---|---|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        meas = f"{r.measured_tps:g}" if r.measured_tps else "-"
        if r.within is None:
            out.append(
                f"| {r.id} | {r.gpu} | {r.gpu_count} | {r.model} | {r.quant} | {r.backend} | {r.check} | {meas} | - | - | not comparable: {r.reason} |"
            )
        else:
            out.append(
                f"| {r.id} | {r.gpu} | {r.gpu_count} | {r.model} | {r.quant} | {r.backend} | {r.check} | {meas} | {r.estimated_tps:.1f} | {r.error_pct:+.1f} % | {'ok' if r.within else 'OUT'} |"
            )
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
