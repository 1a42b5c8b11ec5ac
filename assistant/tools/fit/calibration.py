"""Calibration of the fit estimate against measured_vram.csv: each comparable row is re-estimated
with its own settings and compared, within the tolerance stated in memory_rules.toml."""

from __future__ import annotations

from pydantic import BaseModel, Field

from assistant.knowledge.models import MeasuredVram, load_measured_vram, load_memory_rules
from assistant.tools.fit.api import estimate_fit
from assistant.tools.fit.models import FitQuery

AT_MOST_FLOOR = 0.5  # an 'at_most' figure must not be more than twice the estimate


class CalibrationRow(BaseModel):
    """One measured figure against the estimate for the same setup."""

    id: str
    model: str
    workload: str
    method: str
    compare_to: str
    check: str
    measured_gb: float
    estimated_gb: float | None = None
    error_gb: float | None = None
    error_pct: float | None = None
    tolerance_gb: float | None = None
    within: bool | None = Field(default=None, description="None when the row is not comparable")
    comparable: bool
    reason: str | None = None


def query_for(row: MeasuredVram) -> dict[str, object]:
    """The FitQuery fields that reproduce a measured row's setup."""
    fields: dict[str, object] = {"model": row.model_ref or f"{row.params_b:g}B"}
    if row.model_ref is None and row.params_b:
        fields["params_b"] = row.params_b
    for name in (
        "task",
        "precision",
        "context_tokens",
        "batch_size",
        "offload",
        "text_encoders_on_gpu",
        "quantize_text_encoders",
        "optimizer",
        "lora_rank",
        "lora_targets",
        "num_gpus",
    ):
        value = getattr(row, name)
        if value is not None:
            fields[name] = value
    if row.resolution:
        width, _, height = row.resolution.partition("x")
        fields["width_px"], fields["height_px"] = int(width), int(height or width)
    return fields


def tolerance_gb(measured_gb: float) -> float:
    """How far an estimate may miss a measured peak: a fraction of it or a floor, the larger."""
    rules = load_memory_rules()
    return max(rules.calibration_tolerance_fraction * measured_gb, rules.calibration_tolerance_gb)


def calibrate_row(row: MeasuredVram) -> CalibrationRow:
    """A measured row beside the estimate for its setup: the error, and whether it is tolerated."""
    base = CalibrationRow(
        id=row.id,
        model=row.model,
        workload=row.workload,
        method=row.precision_or_method,
        compare_to=row.compare_to,
        check=row.check,
        measured_gb=row.value_gb,
        comparable=row.comparable,
        reason=row.not_comparable_reason,
    )
    if not row.comparable:
        return base
    rules = load_memory_rules()
    if row.compare_to == "overhead":
        estimated = rules.cuda_context_gb
    else:
        result = estimate_fit(FitQuery.model_validate(query_for(row)))
        if result.total_gb is None:
            return base.model_copy(
                update={"reason": f"estimate failed: {result.message}", "within": False}
            )
        parts = {line.item: 0.0 for line in result.breakdown}
        for line in result.breakdown:
            parts[line.item] += line.gb
        estimated = {
            "total": result.total_gb,
            "total_without_context": result.total_gb - parts.get("overhead", 0.0),
            "weights": parts.get("weights", 0.0),
            "kv_cache": parts.get("kv_cache", 0.0),
        }[row.compare_to]
    measured = row.value_gb
    tol = tolerance_gb(measured)
    error = estimated - measured
    if row.check == "at_most":
        ok = estimated <= measured + tol and estimated >= AT_MOST_FLOOR * measured
    else:
        ok = abs(error) <= tol
    return base.model_copy(
        update={
            "estimated_gb": round(estimated, 2),
            "error_gb": round(error, 2),
            "error_pct": round(100 * error / measured, 1),
            "tolerance_gb": round(tol, 2),
            "within": ok,
        }
    )


def calibrate() -> list[CalibrationRow]:
    """Every row of measured_vram.csv, comparable or not (with the reason)."""
    return [calibrate_row(row) for row in load_measured_vram()]
