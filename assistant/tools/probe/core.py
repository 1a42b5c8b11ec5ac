"""The probe chain: try each way of seeing GPUs in turn, never raise, say what happened."""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable

from assistant.knowledge.sources import Source
from assistant.log import get_logger
from assistant.tools.probe import nvidia, others
from assistant.tools.probe.models import (
    CatalogMatch,
    ProbeAttempt,
    ProbedGpu,
    ProbeMethod,
    ProbeOptions,
    ProbeReport,
)
from assistant.tools.probe.runner import StepFailed, StepTimeout, call_with_timeout, short

log = get_logger(__name__)

Step = Callable[[float, ProbeOptions], tuple[list[ProbedGpu], list[str]]]


class _Skip(Exception):
    """The step does not apply here; not an error."""


def _nvml(timeout_s: float, options: ProbeOptions) -> tuple[list[ProbedGpu], list[str]]:
    if nvidia.nvml_wedged():
        raise _Skip("an earlier NVML call in this process never returned")
    try:
        return call_with_timeout(lambda: nvidia.probe_nvml(options.include_utilization), timeout_s)
    except StepTimeout:
        nvidia.mark_nvml_wedged()
        raise


def _torch(timeout_s: float, options: ProbeOptions) -> tuple[list[ProbedGpu], list[str]]:
    if "torch" not in sys.modules and not options.import_torch:
        raise _Skip("torch is not loaded in this process (not imported just to probe)")
    return call_with_timeout(others.probe_torch, timeout_s)


def _apple(timeout_s: float, options: ProbeOptions) -> tuple[list[ProbedGpu], list[str]]:
    if sys.platform != "darwin":
        raise _Skip("not macOS")
    return others.probe_apple(timeout_s)


STEPS: dict[ProbeMethod, Step] = {
    "nvml": _nvml,
    "nvidia-smi": lambda t, o: nvidia.probe_nvidia_smi(t),
    "torch": _torch,
    "rocm-smi": lambda t, o: others.probe_rocm_smi(t),
    "amd-smi": lambda t, o: others.probe_amd_smi(t),
    "apple": _apple,
}


def probe_local_gpus(options: ProbeOptions | None = None) -> ProbeReport:
    """Find the GPUs of the machine this runs on: name, driver, CUDA version, compute capability,
    memory, MIG mode and the matching catalog card. Tries NVML, nvidia-smi, torch.cuda (if already
    loaded), rocm-smi, amd-smi and Apple silicon in turn; each step is cut off after a timeout.
    Never raises: no GPU is a report with available=False and a hint."""
    options = options or ProbeOptions()
    timeout_s = options.timeout_s or _default_timeout()
    attempts: list[ProbeAttempt] = []
    warnings: list[str] = []
    found: list[ProbedGpu] = []
    method: ProbeMethod | None = None
    for name in options.methods:
        if found:
            break
        attempt, gpus, step_warnings = _run_step(name, timeout_s, options)
        attempts.append(attempt)
        if gpus:
            found, method = gpus, name
            warnings.extend(step_warnings)
    warnings.extend(_environment_warnings(found))
    for gpu in found:
        gpu.catalog_match = _catalog_match(gpu, warnings)
    readable = [g for g in found if g.error is None]
    return ProbeReport(
        available=bool(readable),
        method=method,
        gpus=found,
        attempts=attempts,
        hint=None if readable else no_gpu_hint(),
        warnings=warnings,
        platform=f"{sys.platform} {platform.machine()}".strip(),
        summary=_summary(found, method),
        sources=_sources(method),
    )


def _default_timeout() -> float:
    try:
        from assistant.settings import get_settings

        return get_settings().probe_timeout_s
    except Exception as exc:  # a bad environment variable must not break the probe
        log.warning("probe timeout setting unreadable, using 5 s: %s", exc)
        return 5.0


def _run_step(
    name: ProbeMethod, timeout_s: float, options: ProbeOptions
) -> tuple[ProbeAttempt, list[ProbedGpu], list[str]]:
    started = time.perf_counter()
    gpus: list[ProbedGpu] = []
    warnings: list[str] = []
    skipped = False
    try:
        gpus, warnings = STEPS[name](timeout_s, options)
        detail = f"found {len(gpus)} GPU(s)" if gpus else "ran, but found no GPU"
    except _Skip as exc:
        skipped, detail = True, str(exc)
    except FileNotFoundError as exc:
        detail = str(exc)
    except (StepFailed, StepTimeout) as exc:
        detail = str(exc)
    except Exception as exc:  # any other surprise is reported, never raised
        detail = f"{type(exc).__name__}: {short(str(exc))}"
    elapsed = round((time.perf_counter() - started) * 1000, 1)
    log.debug("probe step %s: %s (%.1f ms)", name, detail, elapsed)
    attempt = ProbeAttempt(
        method=name, ok=bool(gpus), skipped=skipped, detail=detail, elapsed_ms=elapsed
    )
    return attempt, gpus, warnings


def _catalog_match(gpu: ProbedGpu, warnings: list[str]) -> CatalogMatch | None:
    if not gpu.name:
        return None
    try:
        from assistant.knowledge.matching import match_gpu
    except ImportError:
        return None  # the catalog is optional for the probe
    try:
        match = match_gpu(gpu.name)
        card = getattr(match, "gpu", None)
        if card is None:
            warnings.append(f"{gpu.name!r} is not in the catalog")
            return None
        result = CatalogMatch(
            name=str(card.name),
            vendor=getattr(card, "vendor", None),
            architecture=getattr(card, "architecture", None),
            compute_capability=getattr(card, "compute_capability", None),
            arch_target=getattr(card, "arch_target", None),
            vram_gb=getattr(card, "vram_gb", None),
            score=getattr(match, "score", None),
        )
    except Exception as exc:
        warnings.append(f"catalog lookup failed for {gpu.name!r}: {short(str(exc))}")
        return None
    if (
        gpu.compute_capability
        and result.compute_capability
        and gpu.compute_capability != result.compute_capability
    ):
        warnings.append(
            f"GPU {gpu.index} reports compute capability {gpu.compute_capability}, "
            f"the catalog's {result.name} has {result.compute_capability}"
        )
    return result


def _environment_warnings(gpus: list[ProbedGpu]) -> list[str]:
    warnings = [
        f"GPU {g.index} ({g.name}) has MIG enabled: programs see a slice of it, not the whole card"
        for g in gpus
        if g.mig_mode == "enabled"
    ]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and gpus:
        warnings.append(f"CUDA_VISIBLE_DEVICES={visible!r}: CUDA programs may see fewer GPUs")
    return warnings


def no_gpu_hint() -> str:
    """What to do when no GPU is visible, for the environments people most often use."""
    if "google.colab" in sys.modules or "COLAB_RELEASE_TAG" in os.environ:
        return "On Colab: Runtime → Change runtime type → T4 GPU, then run the probe again."
    if "KAGGLE_KERNEL_RUN_TYPE" in os.environ or "KAGGLE_URL_BASE" in os.environ:
        return "On Kaggle: Settings → Accelerator → GPU T4 x2 (or P100), then run the probe again."
    return (
        "No GPU visible. With an NVIDIA card, install its driver (nvidia-smi should list it); in a "
        "container, start it with --gpus all. On Colab: Runtime → Change runtime type → T4 GPU. "
        "On Kaggle: Settings → Accelerator. Or rent one by the hour."
    )


def _summary(gpus: list[ProbedGpu], method: ProbeMethod | None) -> str:
    if not gpus:
        return "no GPU found"
    parts = []
    for g in gpus:
        memory = f", {g.memory_total_gb:g} GB" if g.memory_total_gb is not None else ""
        cc = f", compute capability {g.compute_capability}" if g.compute_capability else ""
        parts.append(f"GPU {g.index}: {g.name or 'unreadable'}{memory}{cc}")
    return f"{len(gpus)} GPU(s) via {method}: " + "; ".join(parts)


def _sources(method: ProbeMethod | None) -> list[Source]:
    if method is None:
        return []
    return [
        Source(
            title=f"Live probe of this machine ({method})",
            note="Read from the installed driver at the time of the call",
        )
    ]
