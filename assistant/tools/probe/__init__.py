"""Live GPU probe: what GPUs this machine has, read from the driver, never raising."""

from assistant.tools.probe.core import no_gpu_hint, probe_local_gpus
from assistant.tools.probe.models import (
    ALL_METHODS,
    CatalogMatch,
    ProbeAttempt,
    ProbedGpu,
    ProbeMethod,
    ProbeOptions,
    ProbeReport,
)

__all__ = [
    "ALL_METHODS",
    "CatalogMatch",
    "ProbeAttempt",
    "ProbeMethod",
    "ProbeOptions",
    "ProbeReport",
    "ProbedGpu",
    "no_gpu_hint",
    "probe_local_gpus",
]
