"""Calibration of the speed estimate against measured_speed.csv: fit the per-backend figures, compare
every comparable row with its estimate, and check that the fit generalises to GPUs it has not seen
(a held-out split by GPU)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from pydantic import BaseModel, Field

from assistant.knowledge.speed import (
    BackendEfficiency,
    MeasuredSpeed,
    SpeedRules,
    load_measured_speed,
    load_speed_rules,
)
from assistant.tools.speed.core import decode_time
from assistant.tools.speed.estimate import Plan, Unresolved, plan
from assistant.tools.speed.models import SpeedQuery

HOLDOUT_FOLDS = 5


class SpeedRow(BaseModel):
    """One measured decode speed against the estimate for the same setup."""

    id: str
    gpu: str
    gpu_count: int
    model: str
    quant: str
    backend: str
    check: str
    measured_tps: float | None
    estimated_tps: float | None = None
    error_pct: float | None = None
    within: bool | None = Field(default=None, description="None when the row is not comparable")
    comparable: bool
    reason: str | None = None


def query_for(row: MeasuredSpeed) -> SpeedQuery:
    """The SpeedQuery that reproduces a measured row's setup."""
    return SpeedQuery(
        model=row.model_ref or f"{row.params_b:g}B",
        params_b=row.params_b if row.model_ref is None else None,
        bits_per_param=row.bits_per_param,
        precision=row.format_ref,
        gpu=row.gpu_ref or row.gpu,
        bandwidth_gbs=row.bandwidth_gbs,
        gpu_count=row.gpu_count,
        split=row.split,
        interconnect="pcie" if row.gpu_count > 1 else None,
        backend=row.backend if row.backend != "other" else None,
        context_tokens=row.context_tokens,
    )


def _plan(row: MeasuredSpeed, rules: SpeedRules) -> Plan:
    q = query_for(row)
    if row.gpu_ref is None:  # a card outside the catalog: the row's own bandwidth, no name lookup
        q = q.model_copy(update={"gpu": None})
    p = plan(q, rules)
    p.platform = row.platform  # type: ignore[assignment]
    return p


def rows_for_fit(rows: Iterable[MeasuredSpeed]) -> list[MeasuredSpeed]:
    """The rows the efficiencies are fitted on: comparable, one GPU, decode speed, named backend."""
    return [
        r
        for r in rows
        if r.comparable and r.gpu_count == 1 and r.decode_tps and r.backend != "other"
    ]


def fit_backends(rows: list[MeasuredSpeed], rules: SpeedRules) -> list[BackendEfficiency]:
    """Least squares on the relative error, per backend and platform, of
    1/tps = (bytes / bandwidth) / efficiency + overhead × layers / 32 (overhead ≥ 0)."""
    groups: dict[tuple[str, str], list[tuple[float, float, float, str]]] = {}
    for r in rows_for_fit(rows):
        p = _plan(r, rules)
        x1 = p.read_gb / p.bandwidth_gbs
        x2 = p.layers / 32 / 1000
        groups.setdefault((r.backend, r.platform), []).append(
            (x1, x2, 1 / (r.decode_tps or 1), r.gpu)
        )
    out = []
    for old in rules.backends:
        pts = groups.get((old.backend, old.platform))
        if not pts:
            out.append(old)
            continue
        a, c = _least_squares(pts)
        out.append(
            old.model_copy(
                update={
                    "efficiency": round(1 / a, 3),
                    "overhead_ms_per_32_layers": round(c, 3),
                    "fitted_rows": len(pts),
                    "gpus": len({p[3] for p in pts}),
                }
            )
        )
    return out


def _least_squares(pts: list[tuple[float, float, float, str]]) -> tuple[float, float]:
    """Minimise Σ((a·x1 + c·x2)/t − 1)² with c ≥ 0 (normal equations of two unknowns)."""
    u = [(x1 / t, x2 / t) for x1, x2, t, _ in pts]
    s11 = sum(a * a for a, _ in u)
    s12 = sum(a * b for a, b in u)
    s22 = sum(b * b for _, b in u)
    b1 = sum(a for a, _ in u)
    b2 = sum(b for _, b in u)
    det = s11 * s22 - s12 * s12
    if len(pts) >= 3 and det > 1e-18 * s11 * s22:
        a = (b1 * s22 - b2 * s12) / det
        c = (s11 * b2 - s12 * b1) / det
        if c >= 0 and a > 0:
            return a, c
    return b1 / s11, 0.0  # efficiency only


def estimate_row(row: MeasuredSpeed, rules: SpeedRules) -> float:
    """Decode tokens/s the estimator gives for a row's setup under `rules`."""
    p = _plan(row, rules)
    f = rules.backend(p.backend, p.platform)
    assert f is not None
    t = decode_time(
        p.read_gb, p.bandwidth_gbs, f.efficiency, f.overhead_ms_per_32_layers, p.layers,
        gpu_count=row.gpu_count, split=p.split,
        allreduce_latency_us=rules.allreduce_latency_us[p.interconnect],
        layer_split_hop_ms=rules.layer_split_hop_ms,
    )  # fmt: skip
    return t.tokens_per_s


def calibrate(rules: SpeedRules | None = None) -> list[SpeedRow]:
    """Every row of measured_speed.csv against the estimate, with the tolerance of speed_rules."""
    rules = rules or load_speed_rules()
    out = []
    for r in load_measured_speed():
        base = dict(
            id=r.id, gpu=r.gpu, gpu_count=r.gpu_count, model=r.model, quant=r.quant,
            backend=r.backend_detail, check=r.check, measured_tps=r.decode_tps,
        )  # fmt: skip
        if not r.comparable or r.decode_tps is None:
            reason = r.not_comparable_reason or "no decode figure in the source"
            out.append(SpeedRow(comparable=False, reason=reason, **base))  # type: ignore[arg-type]
            continue
        try:
            est = estimate_row(r, rules)
        except Unresolved as exc:
            out.append(SpeedRow(comparable=False, reason=str(exc), **base))  # type: ignore[arg-type]
            continue
        err = est / r.decode_tps - 1
        out.append(
            SpeedRow(
                comparable=True, estimated_tps=round(est, 2), error_pct=round(100 * err, 1),
                within=abs(err) <= rules.tolerance_fraction, **base,  # type: ignore[arg-type]
            )
        )  # fmt: skip
    return out


def holdout(rules: SpeedRules | None = None, folds: int = HOLDOUT_FOLDS) -> list[SpeedRow]:
    """Held-out check by GPU: the GPUs are dealt into `folds` groups (sorted by name, every
    `folds`-th); each group's single-GPU rows are estimated with figures fitted without them."""
    rules = rules or load_speed_rules()
    rows = rows_for_fit(load_measured_speed())
    gpus = sorted({r.gpu for r in rows})
    out = []
    for k in range(folds):
        held = set(gpus[k::folds])
        train = [r for r in rows if r.gpu not in held]
        fitted = rules.model_copy(update={"backends": fit_backends(train, rules)})
        for r in rows:
            if r.gpu not in held:
                continue
            est = estimate_row(r, fitted)
            err = est / (r.decode_tps or 1) - 1
            out.append(
                SpeedRow(
                    id=r.id, gpu=r.gpu, gpu_count=1, model=r.model, quant=r.quant,
                    backend=r.backend_detail, check=r.check, measured_tps=r.decode_tps,
                    estimated_tps=round(est, 2), error_pct=round(100 * err, 1),
                    within=abs(err) <= rules.tolerance_fraction, comparable=True,
                )
            )  # fmt: skip
    return out


def summary(rows: list[SpeedRow], tolerance: float) -> dict[str, object]:
    """Counts and error percentiles over the comparable rows."""
    checked = [r for r in rows if r.within is not None]
    errors = sorted(abs(r.error_pct or 0.0) for r in checked)
    within = [r for r in checked if r.within]
    single = [r for r in within if r.gpu_count == 1]
    return {
        "tolerance": f"±{tolerance:.0%}",
        "rows": len(rows),
        "comparable": len(checked),
        "within": len(within),
        "within_single_gpu": len(single),
        "gpus_within_single": len({r.gpu for r in single}),
        "apple_gpus_within": len(
            {r.gpu for r in single if r.gpu.startswith(("M1", "M2", "M3", "M4"))}
        ),
        "median_abs_error_pct": round(statistics.median(errors), 1) if errors else None,
        "p90_abs_error_pct": round(errors[int(0.9 * (len(errors) - 1))], 1) if errors else None,
        "max_abs_error_pct": errors[-1] if errors else None,
    }


def fit_tensor_parallel(
    rows: list[MeasuredSpeed], rules: SpeedRules
) -> tuple[float, float, int, int]:
    """(PCIe all-reduce latency µs, vLLM efficiency, rows used, GPUs among them): a grid search
    minimising the squared log error on the tensor-parallel rows, the other backends held fixed."""
    import math

    tp = [
        r for r in rows if r.comparable and r.gpu_count > 1 and r.split == "tensor" and r.decode_tps
    ]
    plans = [(r, _plan(r, rules)) for r in tp]
    best = (math.inf, rules.allreduce_latency_us["pcie"], 0.5)
    for lat in range(0, 201, 2):
        for eff100 in range(20, 101, 2):
            loss = 0.0
            for r, p in plans:
                f = rules.backend(p.backend, p.platform)
                assert f is not None
                eff = eff100 / 100 if p.backend == "vllm" else f.efficiency
                t = decode_time(
                    p.read_gb, p.bandwidth_gbs, eff, f.overhead_ms_per_32_layers, p.layers,
                    gpu_count=r.gpu_count, split="tensor", allreduce_latency_us=float(lat),
                )  # fmt: skip
                loss += math.log(t.tokens_per_s / (r.decode_tps or 1)) ** 2
            if loss < best[0]:
                best = (loss, float(lat), eff100 / 100)
    return best[1], best[2], len(tp), len({r.gpu for r in tp})


def prefill_utilisations(rows: Iterable[MeasuredSpeed]) -> list[tuple[str, float]]:
    """(row id, measured prompt rate ÷ (dense FP16 tensor FLOPS ÷ (2 × params))) for every
    single-GPU row with a prompt rate on a catalog card that has a tensor-throughput figure."""
    from assistant.knowledge.gpus import load_catalog

    catalog = load_catalog()
    out = []
    for r in rows:
        if not (r.comparable and r.gpu_count == 1 and r.prefill_tps and r.gpu_ref):
            continue
        card = catalog.by_name(r.gpu_ref)
        if card is None or not card.fp16_tensor_tflops:
            continue
        out.append((r.id, r.prefill_tps * 2 * r.params_b * 1e9 / (card.fp16_tensor_tflops * 1e12)))
    return out
