"""Fallback steps: torch.cuda (only when torch is already loaded), AMD's tools, Apple silicon."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from assistant.tools.probe.models import ProbedGpu, mib_to_gb
from assistant.tools.probe.runner import StepFailed, run_tool, short

MIB = 1024 * 1024


def probe_torch() -> tuple[list[ProbedGpu], list[str]]:
    """GPUs torch can see. The caller decides whether importing torch is acceptable."""
    import torch  # the caller has checked that it is loaded or allowed

    version = getattr(torch, "version", None)
    hip = getattr(version, "hip", None)
    built_for = getattr(version, "cuda", None)
    if not built_for and not hip:
        raise StepFailed(f"torch {getattr(torch, '__version__', '?')} is a CPU-only build")
    if not torch.cuda.is_available():
        raise StepFailed("torch.cuda.is_available() is False")
    gpus = []
    for index in range(int(torch.cuda.device_count())):
        props = torch.cuda.get_device_properties(index)
        total = int(props.total_memory) // MIB
        gpus.append(
            ProbedGpu(
                index=index,
                vendor="amd" if hip else "nvidia",
                name=str(props.name),
                compute_capability=None if hip else f"{props.major}.{props.minor}",
                memory_total_mib=total,
                memory_total_gb=mib_to_gb(total),
            )
        )
    runtime = f"HIP {hip}" if hip else f"CUDA {built_for}"
    return gpus, [f"read through torch (built for {runtime}); free memory and driver not read"]


def _json_in(text: str) -> Any:
    """The JSON document in a tool's output, which may be preceded by warning lines."""
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise StepFailed(f"no JSON in the output: {short(text, 120)!r}")
    try:
        return json.loads(text[min(starts) :])
    except json.JSONDecodeError as exc:
        raise StepFailed(f"output is not valid JSON ({exc.msg}): {short(text, 120)!r}") from None


def probe_rocm_smi(timeout_s: float) -> tuple[list[ProbedGpu], list[str]]:
    """AMD GPUs from `rocm-smi` (name and VRAM). Raises StepFailed."""
    result = run_tool(
        ["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--json"], timeout_s
    )
    if result.returncode != 0:
        raise StepFailed(f"rocm-smi exited with status {result.returncode}: {short(result.stderr)}")
    data = _json_in(result.stdout)
    if not isinstance(data, dict):
        raise StepFailed("rocm-smi JSON is not an object keyed by card")
    gpus = []
    for key, card in data.items():
        match = re.fullmatch(r"card(\d+)", key)
        if not match or not isinstance(card, dict):
            continue
        fields = {k.lower(): v for k, v in card.items()}
        name = fields.get("card series") or fields.get("card model") or fields.get("card sku")
        total = _bytes_to_mib(fields.get("vram total memory (b)"))
        used = _bytes_to_mib(fields.get("vram total used memory (b)"))
        free = total - used if total is not None and used is not None else None
        gpus.append(
            ProbedGpu(
                index=int(match.group(1)),
                vendor="amd",
                name=str(name) if name else None,
                memory_total_mib=total,
                memory_free_mib=free,
                memory_total_gb=mib_to_gb(total),
                memory_free_gb=mib_to_gb(free),
            )
        )
    return gpus, []


def _bytes_to_mib(value: Any) -> int | None:
    try:
        return int(value) // MIB
    except (TypeError, ValueError):
        return None


def probe_amd_smi(timeout_s: float) -> tuple[list[ProbedGpu], list[str]]:
    """AMD GPUs from `amd-smi` (the newer tool). Raises StepFailed."""
    result = run_tool(["amd-smi", "static", "--asic", "--vram", "--json"], timeout_s)
    if result.returncode != 0:
        raise StepFailed(f"amd-smi exited with status {result.returncode}: {short(result.stderr)}")
    data = _json_in(result.stdout)
    entries = (
        data
        if isinstance(data, list)
        else data.get("gpu_data", [])
        if isinstance(data, dict)
        else []
    )
    gpus = []
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        asic: dict[str, Any] = entry["asic"] if isinstance(entry.get("asic"), dict) else {}
        vram: dict[str, Any] = entry["vram"] if isinstance(entry.get("vram"), dict) else {}
        total = _amd_size_mib(vram.get("size"))
        gpus.append(
            ProbedGpu(
                index=int(entry.get("gpu", position)),
                vendor="amd",
                name=asic.get("market_name"),
                memory_total_mib=total,
                memory_total_gb=mib_to_gb(total),
            )
        )
    return gpus, []


def _amd_size_mib(size: Any) -> int | None:
    """amd-smi writes sizes as {"value": 196592, "unit": "MB"} or as "196592 MB"."""
    value: Any
    if isinstance(size, dict):
        value, unit = size.get("value"), str(size.get("unit", "MB"))
    elif isinstance(size, str) and size.split():
        value, unit = size.split()[0], (size.split() + ["MB"])[1]
    else:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number * 1024) if unit.upper().startswith("G") else int(number)


def probe_apple(timeout_s: float) -> tuple[list[ProbedGpu], list[str]]:
    """The GPU of a Mac: Apple silicon with its unified memory, or an Intel Mac's NVIDIA or AMD
    card. Raises StepFailed elsewhere."""
    if sys.platform != "darwin":
        raise StepFailed("not macOS")
    brand = run_tool(["sysctl", "-n", "machdep.cpu.brand_string"], timeout_s).stdout.strip()
    if brand.startswith("Apple"):
        memsize = run_tool(["sysctl", "-n", "hw.memsize"], timeout_s).stdout.strip()
        total = _bytes_to_mib(memsize)
        gpu = ProbedGpu(
            index=0,
            vendor="apple",
            name=brand,
            memory_total_mib=total,
            memory_total_gb=mib_to_gb(total),
        )
        return [gpu], ["Apple silicon: memory is unified, shared by the CPU and the GPU"]
    # An Intel Mac: its discrete or integrated GPU is listed by system_profiler.
    result = run_tool(["system_profiler", "SPDisplaysDataType", "-json"], timeout_s)
    data = _json_in(result.stdout)
    displays = data.get("SPDisplaysDataType", []) if isinstance(data, dict) else []
    gpus = []
    for index, entry in enumerate(displays):
        if isinstance(entry, dict) and entry.get("sppci_model"):
            model = str(entry["sppci_model"])
            if "NVIDIA" in model or "GeForce" in model:
                gpus.append(ProbedGpu(index=index, vendor="nvidia", name=model))
            elif "AMD" in model or "Radeon" in model:
                gpus.append(ProbedGpu(index=index, vendor="amd", name=model))
            # Intel integrated graphics are not a compute GPU worth reporting.
    return gpus, []
