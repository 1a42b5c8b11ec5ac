"""Which CUDA toolkits, drivers and PyTorch wheels support which compute capability.

Data lives in ``data/cuda_support.toml``. Versions compare as (major, minor) tuples.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from assistant.knowledge.features import keyed_sources, rows_with_sources
from assistant.knowledge.loader import DataFileError, read_toml_table
from assistant.knowledge.sources import Source

CUDA_SUPPORT_FILE = "cuda_support.toml"

_CC = r"^\d{1,2}\.\d$"
_VERSION = r"^\d{1,2}\.\d{1,2}$"

Runs = Literal["sass", "ptx"]


def version_key(version: str) -> tuple[int, ...]:
    """A version's numbers, in order, for comparing: '12.9' → (12, 9); '13' → (13, 0); a driver's
    '525.60.13' → (525, 60, 13)."""
    parts = tuple(int(p) for p in re.findall(r"\d+", version))
    return parts + (0,) * (2 - len(parts))


class ArchSupport(BaseModel):
    """One compute capability: the toolkits that build for it and the cards that have it."""

    cc: str = Field(pattern=_CC)
    architecture: str
    examples: list[str] = Field(default_factory=list)
    first_toolkit: str = Field(pattern=_VERSION)
    last_toolkit: str | None = Field(default=None, pattern=_VERSION)
    last_driver_branch: str | None = None
    note: str | None = None
    jetpack: str | None = Field(
        default=None, description="The last JetPack release for the Jetson modules of this CC"
    )
    jetpack_cuda: str | None = Field(
        default=None,
        pattern=_VERSION,
        description="The CUDA that JetPack release ships: the newest these modules can run",
    )
    sources: list[Source] = Field(min_length=1)

    @property
    def sm(self) -> str:
        """The nvcc target name of this CC: '8.6' gives 'sm_86'."""
        return "sm_" + self.cc.replace(".", "")

    def builds_with(self, toolkit: str) -> bool:
        """True when nvcc of this toolkit version compiles for this CC."""
        key = version_key(toolkit)
        if key < version_key(self.first_toolkit):
            return False
        return self.last_toolkit is None or key <= version_key(self.last_toolkit)


class ArchTarget(BaseModel):
    """An arch-specific ('a') or family ('f') compiler target."""

    name: str = Field(pattern=r"^sm_\d{2,3}[af]$")
    cc: str = Field(pattern=_CC)
    first_toolkit: str = Field(pattern=_VERSION)
    runs_on: list[str] = Field(default_factory=list, description="CCs beyond its own ('f')")
    sources: list[Source] = Field(min_length=1)


class ToolkitDrivers(BaseModel):
    """A CUDA toolkit release and the driver it needs."""

    version: str = Field(pattern=_VERSION)
    driver_linux: str
    driver_windows: str
    minor_compat_linux: str | None = Field(
        default=None, description="Oldest driver running any program of this major (CUDA 11 on)"
    )
    minor_compat_windows: str | None = None
    sources: list[Source] = Field(min_length=1)


class TorchWheel(BaseModel):
    """PyTorch wheels of one CUDA variant over some releases, with the architectures they ship."""

    variant: str = Field(pattern=r"^cu\d{3}$")
    cuda: str = Field(pattern=_VERSION)
    torch: list[str] = Field(min_length=1)
    sm: list[str] = Field(min_length=1, description="SASS targets, as CCs")
    ptx: list[str] = Field(default_factory=list, description="PTX targets, as CCs")
    sources: list[Source] = Field(min_length=1)

    def runs(self, cc: str) -> Runs | None:
        """'sass' when it holds machine code the card runs, 'ptx' when only PTX the driver can
        compile for it, None when neither."""
        major, minor = version_key(cc)
        if any(version_key(s)[0] == major and version_key(s)[1] <= minor for s in self.sm):
            return "sass"
        if any(version_key(p) <= (major, minor) for p in self.ptx):
            return "ptx"
        return None

    def sm_names(self) -> list[str]:
        """The wheel's targets as nvcc names: 'sm_XY' for machine code, 'compute_XY' for PTX."""
        return ["sm_" + s.replace(".", "") for s in self.sm] + [
            "compute_" + p.replace(".", "") for p in self.ptx
        ]


class FrameworkBuild(BaseModel):
    """Releases of a framework whose official GPU builds use one CUDA release (the newest offered)."""

    framework: Literal["TensorFlow", "PyTorch"]
    first: str = Field(pattern=_VERSION)
    last: str = Field(pattern=_VERSION)
    cuda: str = Field(pattern=_VERSION)
    note: str = ""
    note_fr: str = ""
    sources: list[Source] = Field(min_length=1)

    def covers(self, version: str) -> bool:
        """Whether a release ('1.8', '2.4.1') is in this row."""
        key = version_key(".".join(version.split(".")[:2]))
        return version_key(self.first) <= key <= version_key(self.last)


class CudaSupport(BaseModel):
    """Everything in cuda_support.toml, sources resolved."""

    newest_toolkit: str
    arches: list[ArchSupport]
    targets: list[ArchTarget]
    toolkits: list[ToolkitDrivers]
    wheels: list[TorchWheel]
    framework_builds: list[FrameworkBuild]
    sources: dict[str, Source]


@lru_cache(maxsize=1)
def load_cuda_support() -> CudaSupport:
    """The table, validated: unique CCs, toolkits and (variant, torch) pairs."""
    raw = read_toml_table(CUDA_SUPPORT_FILE)
    sources = keyed_sources(raw.get("source", []), CUDA_SUPPORT_FILE)
    data = CudaSupport(
        newest_toolkit=str(raw.get("newest_toolkit", "")),
        arches=rows_with_sources(raw, "arch", ArchSupport, sources, CUDA_SUPPORT_FILE),
        targets=rows_with_sources(raw, "target", ArchTarget, sources, CUDA_SUPPORT_FILE),
        toolkits=rows_with_sources(raw, "toolkit", ToolkitDrivers, sources, CUDA_SUPPORT_FILE),
        wheels=rows_with_sources(raw, "wheel", TorchWheel, sources, CUDA_SUPPORT_FILE),
        framework_builds=rows_with_sources(
            raw, "framework_build", FrameworkBuild, sources, CUDA_SUPPORT_FILE
        ),
        sources=sources,
    )
    _check(data)
    return data


def _check(data: CudaSupport) -> None:
    ccs = [a.cc for a in data.arches]
    if len(set(ccs)) != len(ccs):
        raise DataFileError(f"{CUDA_SUPPORT_FILE}: a compute capability is listed twice")
    versions = [t.version for t in data.toolkits]
    if len(set(versions)) != len(versions):
        raise DataFileError(f"{CUDA_SUPPORT_FILE}: a toolkit is listed twice")
    pairs = [(w.variant, v) for w in data.wheels for v in w.torch]
    if len(set(pairs)) != len(pairs):
        raise DataFileError(f"{CUDA_SUPPORT_FILE}: a (variant, torch) wheel is listed twice")
    if data.newest_toolkit not in versions:
        raise DataFileError(f"{CUDA_SUPPORT_FILE}: newest_toolkit is not a listed toolkit")
    for arch in data.arches:
        if arch.last_toolkit and version_key(arch.last_toolkit) < version_key(arch.first_toolkit):
            raise DataFileError(f"{CUDA_SUPPORT_FILE}: CC {arch.cc} ends before it starts")
    for target in data.targets:
        if target.cc not in ccs:
            raise DataFileError(f"{CUDA_SUPPORT_FILE}: {target.name} names an unlisted CC")


def get_arch(cc: str) -> ArchSupport | None:
    """The row of a compute capability ('8.9'), if listed."""
    return next((a for a in load_cuda_support().arches if a.cc == cc), None)


def get_toolkit(version: str) -> ToolkitDrivers | None:
    """The driver row of a toolkit ('12.8'); a bare major ('13') gives its first listed minor."""
    rows = load_cuda_support().toolkits
    exact = next((t for t in rows if t.version == version), None)
    if exact or "." in version:
        return exact
    same_major = [t for t in rows if version_key(t.version)[0] == int(version)]
    return min(same_major, key=lambda t: version_key(t.version), default=None)


def wheels_for(
    variant: str | None = None, torch: str | None = None
) -> list[tuple[TorchWheel, str]]:
    """(wheel row, torch version) pairs matching a variant and/or a torch version, oldest first."""
    out = [
        (wheel, version)
        for wheel in load_cuda_support().wheels
        for version in wheel.torch
        if (variant is None or wheel.variant == variant) and (torch is None or version == torch)
    ]
    return sorted(out, key=lambda p: (version_key(p[1]), version_key(p[0].cuda)))


_CC_TEXT = re.compile(
    r"^\s*(?:(?:cc|compute\s*capability|capacit[ée]\s*de\s*calcul)\s*)?"
    r"(?:(?P<sm>(?:sm|compute)_?(?P<digits>\d{2,3})[af]?)|(?P<dotted>\d{1,2}\.\d))\s*$",
    re.IGNORECASE,
)


def parse_cc(text: str) -> str | None:
    """'sm_61', 'compute_120', '8.9', 'CC 12.0' → '6.1', '12.0', '8.9', '12.0'; else None."""
    m = _CC_TEXT.match(text)
    if not m:
        return None
    if m.group("digits"):
        digits = m.group("digits")
        return f"{int(digits[:-1])}.{digits[-1]}"
    return m.group("dotted")
