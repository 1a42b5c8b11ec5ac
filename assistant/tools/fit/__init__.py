"""Workload fit: will a model run, or train, in a card's memory (or several cards)?

The query and result models live in `models`, the arithmetic in `estimate`, name and default
resolution in `resolve`, the tool functions in `api`; this module re-exports the public names."""

from assistant.knowledge.models import ModelSpec
from assistant.tools.fit.api import estimate_fit, fits_in, minimum_vram_gb
from assistant.tools.fit.models import (
    FitOption,
    FitQuery,
    FitResult,
    LoraTargets,
    MemoryLine,
    Offload,
    Task,
    Verdict,
)

__all__ = [
    "FitOption",
    "FitQuery",
    "FitResult",
    "LoraTargets",
    "MemoryLine",
    "ModelSpec",
    "Offload",
    "Task",
    "Verdict",
    "estimate_fit",
    "fits_in",
    "minimum_vram_gb",
]
