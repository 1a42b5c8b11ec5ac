"""What the live probe takes and what it reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from assistant.knowledge.sources import Source

ProbeMethod = Literal["nvml", "nvidia-smi", "torch", "rocm-smi", "amd-smi", "apple"]
ALL_METHODS: tuple[ProbeMethod, ...] = (
    "nvml",
    "nvidia-smi",
    "torch",
    "rocm-smi",
    "amd-smi",
    "apple",
)


class ProbeOptions(BaseModel):
    """How to look for GPUs on the machine this code runs on."""

    timeout_s: float | None = Field(
        default=None,
        gt=0,
        le=120,
        description="Seconds each probing step may take before it is cut off; "
        "None uses the GPU_ADVISOR_PROBE_TIMEOUT_S setting.",
    )
    methods: list[ProbeMethod] = Field(
        default_factory=lambda: list(ALL_METHODS),
        description="Steps to try, in order of preference; the first that finds a GPU wins.",
    )
    import_torch: bool = Field(
        default=False,
        description="Import torch to ask torch.cuda when it is not loaded yet (slow); "
        "by default torch is only asked if the process already imported it.",
    )
    include_utilization: bool = Field(
        default=True, description="Also read the current GPU utilisation where it is cheap."
    )


class CatalogMatch(BaseModel):
    """The catalog card a probed GPU was matched to."""

    name: str = Field(description="Catalog name of the card")
    vendor: str | None = Field(default=None, description="nvidia, amd or apple")
    architecture: str | None = Field(default=None, description="GPU architecture")
    compute_capability: str | None = Field(default=None, description="From the catalog")
    arch_target: str | None = Field(default=None, description="Compiler target, e.g. sm_90a")
    vram_gb: float | None = Field(default=None, description="Catalog VRAM in GB")
    score: float | None = Field(default=None, description="Match confidence, 0 to 1")


class ProbedGpu(BaseModel):
    """One GPU as seen by the probe. Fields the step could not read are None."""

    index: int = Field(description="Device index as the driver numbers it")
    name: str | None = Field(default=None, description="Device name reported by the driver")
    vendor: Literal["nvidia", "amd", "apple"] = Field(description="GPU vendor")
    uuid: str | None = Field(default=None, description="Device UUID")
    driver_version: str | None = Field(default=None, description="Installed driver version")
    cuda_version: str | None = Field(
        default=None, description="Highest CUDA version the installed driver supports"
    )
    compute_capability: str | None = Field(default=None, description='e.g. "9.0"')
    memory_total_mib: int | None = Field(default=None, description="Total memory in MiB")
    memory_free_mib: int | None = Field(default=None, description="Free memory in MiB")
    memory_total_gb: float | None = Field(
        default=None, description="Total memory / 1024, in the GB cards are sold in"
    )
    memory_free_gb: float | None = Field(default=None, description="Free memory / 1024")
    mig_mode: Literal["enabled", "disabled"] | None = Field(
        default=None, description="Multi-Instance GPU mode; None where MIG is not supported"
    )
    mig_devices: int | None = Field(default=None, description="MIG instances, when enabled")
    utilization_percent: int | None = Field(default=None, description="Current GPU utilisation")
    catalog_match: CatalogMatch | None = Field(default=None, description="Matching catalog card")
    error: str | None = Field(default=None, description="Why this GPU could not be fully read")


class ProbeAttempt(BaseModel):
    """One step of the probe chain and how it went."""

    method: ProbeMethod
    ok: bool = Field(description="True when the step ran and found at least one GPU")
    skipped: bool = Field(default=False, description="True when the step was not run")
    detail: str | None = Field(default=None, description="Error, skip reason or what was found")
    elapsed_ms: float = Field(default=0.0, description="Time the step took")


class ProbeReport(BaseModel):
    """What GPUs this machine has, how that was found out, and what to do if there are none."""

    available: bool = Field(description="True when at least one GPU was found")
    method: ProbeMethod | None = Field(description="The step whose answer is reported")
    gpus: list[ProbedGpu] = Field(default_factory=list)
    attempts: list[ProbeAttempt] = Field(default_factory=list)
    hint: str | None = Field(default=None, description="What to do when no GPU was found")
    warnings: list[str] = Field(default_factory=list)
    platform: str = Field(description="Operating system and machine, e.g. linux x86_64")
    summary: str = Field(description="One line for people")
    sources: list[Source] = Field(default_factory=list)

    def _repr_markdown_(self) -> str:  # rich display in Jupyter / Colab
        from assistant.tools.probe.markdown import probe_markdown

        return probe_markdown(self)


def mib_to_gb(mib: int | None) -> float | None:
    """MiB as GB (GiB, rounded to 0.1), None stays None."""
    return None if mib is None else round(mib / 1024, 1)
