"""NVIDIA GPUs: NVML through nvidia-ml-py first, then the nvidia-smi command."""

from __future__ import annotations

import importlib
import re
from typing import Any

from assistant.tools.probe.models import ProbedGpu, mib_to_gb
from assistant.tools.probe.runner import StepFailed, run_tool, short

MIB = 1024 * 1024

# Set when an NVML call never returned: calling into the library again would only block again.
_nvml_wedged = False


def nvml_wedged() -> bool:
    """Whether an NVML call hung earlier in this process (NVML is not asked again)."""
    return _nvml_wedged


def mark_nvml_wedged() -> None:
    """Remember that NVML hung, so later probes skip it."""
    global _nvml_wedged
    _nvml_wedged = True


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _cuda_version_from_int(value: int) -> str:
    """NVML reports the driver's CUDA version as 1000 * major + 10 * minor (12040 → 12.4)."""
    return f"{value // 1000}.{(value % 1000) // 10}"


def probe_nvml(include_utilization: bool = True) -> tuple[list[ProbedGpu], list[str]]:
    """Read every GPU through NVML. Raises StepFailed when NVML itself is unusable."""
    try:
        nvml = importlib.import_module("pynvml")
    except ImportError as exc:
        raise StepFailed(f"nvidia-ml-py is not installed ({exc})") from None
    try:
        nvml.nvmlInit()
    except Exception as exc:
        raise StepFailed(
            f"NVML could not start: {_text(exc)} (is an NVIDIA driver installed?)"
        ) from None
    warnings: list[str] = []
    try:
        driver = _optional(lambda: _text(nvml.nvmlSystemGetDriverVersion()))
        cuda_int = _optional(nvml.nvmlSystemGetCudaDriverVersion)
        cuda = _cuda_version_from_int(int(cuda_int)) if cuda_int else None
        try:
            count = int(nvml.nvmlDeviceGetCount())
        except Exception as exc:
            raise StepFailed(f"NVML could not count GPUs: {_text(exc)}") from None
        gpus = []
        for index in range(count):
            gpu = _read_nvml_gpu(nvml, index, driver, cuda, include_utilization)
            if gpu.error:
                warnings.append(f"GPU {index}: {gpu.error}")
            gpus.append(gpu)
        return gpus, warnings
    finally:
        _optional(nvml.nvmlShutdown)


def _optional(fn: Any) -> Any:
    """A value NVML may not support on this card or driver: None instead of an error."""
    try:
        return fn()
    except Exception:
        return None


def _read_nvml_gpu(
    nvml: Any, index: int, driver: str | None, cuda: str | None, include_utilization: bool
) -> ProbedGpu:
    gpu = ProbedGpu(index=index, vendor="nvidia", driver_version=driver, cuda_version=cuda)
    try:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
        gpu.name = _text(nvml.nvmlDeviceGetName(handle))
        memory = nvml.nvmlDeviceGetMemoryInfo(handle)
        gpu.memory_total_mib = int(memory.total) // MIB
        gpu.memory_free_mib = int(memory.free) // MIB
        gpu.memory_total_gb = mib_to_gb(gpu.memory_total_mib)
        gpu.memory_free_gb = mib_to_gb(gpu.memory_free_mib)
    except Exception as exc:
        gpu.error = f"NVML query failed: {_text(exc) or type(exc).__name__}"
        return gpu
    gpu.uuid = _optional(lambda: _text(nvml.nvmlDeviceGetUUID(handle)))
    capability = _optional(lambda: nvml.nvmlDeviceGetCudaComputeCapability(handle))
    if capability:
        gpu.compute_capability = f"{int(capability[0])}.{int(capability[1])}"
    mig = _optional(lambda: nvml.nvmlDeviceGetMigMode(handle))
    if mig:
        enabled = int(mig[0]) == int(getattr(nvml, "NVML_DEVICE_MIG_ENABLE", 1))
        gpu.mig_mode = "enabled" if enabled else "disabled"
        if enabled:
            gpu.mig_devices = _count_mig_devices(nvml, handle)
    if include_utilization:
        rates = _optional(lambda: nvml.nvmlDeviceGetUtilizationRates(handle))
        if rates is not None:
            gpu.utilization_percent = int(rates.gpu)
    return gpu


def _count_mig_devices(nvml: Any, handle: Any) -> int | None:
    most = _optional(lambda: nvml.nvmlDeviceGetMaxMigDeviceCount(handle))
    if most is None:
        return None
    found = 0
    for slot in range(int(most)):
        if (
            _optional(lambda s=slot: nvml.nvmlDeviceGetMigDeviceHandleByIndex(handle, s))
            is not None
        ):
            found += 1
    return found


# --- nvidia-smi ---------------------------------------------------------------------------------

SMI_FIELDS: tuple[str, ...] = (
    "index",
    "name",
    "uuid",
    "driver_version",
    "memory.total",
    "memory.free",
    "compute_cap",
    "mig.mode.current",
    "utilization.gpu",
)
# Drivers older than about 510 do not know compute_cap; they get asked without it.
SMI_FIELDS_OLD = tuple(f for f in SMI_FIELDS if f != "compute_cap")
_MISSING = {"", "n/a", "[n/a]", "[not supported]", "not supported", "[unknown error]"}
_CUDA_RE = re.compile(r"CUDA Version:\s*([0-9]+\.[0-9]+)")


def probe_nvidia_smi(timeout_s: float) -> tuple[list[ProbedGpu], list[str]]:
    """Ask nvidia-smi for a CSV table of the GPUs. Raises FileNotFoundError, StepTimeout, StepFailed."""
    fields = SMI_FIELDS
    result = run_tool(_smi_query(fields), timeout_s)
    if result.returncode != 0 and "not a valid field" in (result.stdout + result.stderr):
        fields = SMI_FIELDS_OLD
        result = run_tool(_smi_query(fields), timeout_s)
    if result.returncode != 0:
        message = short(result.stderr or result.stdout) or "no output"
        raise StepFailed(f"nvidia-smi exited with status {result.returncode}: {message}")
    gpus = parse_smi_csv(result.stdout, fields)
    warnings: list[str] = []
    if gpus:
        cuda, warning = _smi_cuda_version(timeout_s)
        if warning:
            warnings.append(warning)
        for gpu in gpus:
            gpu.cuda_version = cuda
    return gpus, warnings


def _smi_query(fields: tuple[str, ...]) -> list[str]:
    return ["nvidia-smi", f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"]


def parse_smi_csv(text: str, fields: tuple[str, ...] = SMI_FIELDS) -> list[ProbedGpu]:
    """Parse `nvidia-smi --query-gpu=... --format=csv,noheader,nounits` output.

    Raises StepFailed, quoting the offending line, when the text is not that table.
    """
    gpus = []
    for line in text.splitlines():
        if not line.strip():
            continue
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != len(fields):
            raise StepFailed(
                f"unexpected nvidia-smi output ({len(cells)} columns, expected {len(fields)}): "
                f"{short(line, 120)!r}"
            )
        row = dict(zip(fields, cells, strict=True))
        try:
            gpus.append(_smi_row_to_gpu(row))
        except ValueError as exc:
            raise StepFailed(f"unexpected nvidia-smi output: {exc}: {short(line, 120)!r}") from None
    return gpus


def _cell(row: dict[str, str], field: str) -> str | None:
    value = row.get(field)
    return None if value is None or value.lower() in _MISSING else value


def _int_cell(row: dict[str, str], field: str) -> int | None:
    value = _cell(row, field)
    if value is None:
        return None
    try:
        return int(float(value))
    except ValueError:
        raise ValueError(f"{field} is not a number ({value!r})") from None


def _smi_row_to_gpu(row: dict[str, str]) -> ProbedGpu:
    index = _int_cell(row, "index")
    if index is None:
        raise ValueError("missing GPU index")
    capability = _cell(row, "compute_cap")
    if capability is not None and not re.fullmatch(r"\d+\.\d+", capability):
        raise ValueError(f"compute_cap is not a version ({capability!r})")
    mig = (_cell(row, "mig.mode.current") or "").lower()
    total = _int_cell(row, "memory.total")
    free = _int_cell(row, "memory.free")
    return ProbedGpu(
        index=index,
        vendor="nvidia",
        name=_cell(row, "name"),
        uuid=_cell(row, "uuid"),
        driver_version=_cell(row, "driver_version"),
        compute_capability=capability,
        memory_total_mib=total,
        memory_free_mib=free,
        memory_total_gb=mib_to_gb(total),
        memory_free_gb=mib_to_gb(free),
        mig_mode="enabled" if mig == "enabled" else "disabled" if mig == "disabled" else None,
        utilization_percent=_int_cell(row, "utilization.gpu"),
    )


def _smi_cuda_version(timeout_s: float) -> tuple[str | None, str | None]:
    """The driver's CUDA version is only printed in nvidia-smi's banner."""
    try:
        result = run_tool(["nvidia-smi"], timeout_s)
    except Exception as exc:
        return None, f"could not read the CUDA version from nvidia-smi: {exc}"
    match = _CUDA_RE.search(result.stdout)
    if not match:
        return None, "nvidia-smi's banner did not show a CUDA version"
    return match.group(1), None
