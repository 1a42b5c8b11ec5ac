"""Software support: does a CUDA toolkit or a PyTorch build run on this GPU, and if not, what does?

Reads the compute capability table (data/cuda_support.toml): the first and last toolkit per CC,
each toolkit's minimum driver, and the architectures each PyTorch wheel ships.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.cuda_support import (
    ArchSupport,
    FrameworkBuild,
    TorchWheel,
    get_arch,
    get_toolkit,
    load_cuda_support,
    parse_cc,
    version_key,
    wheels_for,
)
from assistant.knowledge.gpus import GpuCard
from assistant.knowledge.programs import Program, find_program
from assistant.knowledge.sources import Source, dedupe_sources

Supported = Literal["yes", "no", "partial", "not_applicable", "unknown"]
SoftwareKind = Literal["cuda_toolkit", "pytorch", "program", "unknown"]

_VARIANT = re.compile(r"\bcu(\d{3})\b", re.IGNORECASE)
_TORCH = re.compile(r"\b(?:py)?torch\s*(?:version\s*)?v?(\d\.\d{1,2})", re.IGNORECASE)
_TORCH_PLUS = re.compile(r"\b(\d\.\d{1,2})(?:\.\d+)?\+cu\d{3}\b", re.IGNORECASE)
# "CUDA 12.4", "CUDA toolkit 11.8", "nvcc 12.1", and nvidia-smi's "CUDA Version: 12.4"
_CUDA = re.compile(
    r"\b(?:cuda(?:\s*toolkit)?|nvcc|toolkit)(?:\s*version\s*:?)?\s*v?(\d{1,2})(?:\.(\d{1,2}))?",
    re.IGNORECASE,
)
_BARE = re.compile(r"^\s*v?(\d{1,2})\.(\d{1,2})\s*$")
# 'which CUDA version for my GT 650M?': the range asked, not whether today's release builds for it
_WHICH = re.compile(
    r"\b(?:which|what|quelle?s?|lequel|laquelle)\b(?:\W+\w+){0,3}?\W+(?:cuda|toolkit|versions?)\b",
    re.IGNORECASE,
)
_PYTORCH_WORD = re.compile(r"\b(?:py)?torch\b", re.IGNORECASE)
_CUDA_WORD = re.compile(r"\bcuda\b", re.IGNORECASE)


class SoftwareSupportQuery(BaseModel):
    """A GPU and a CUDA toolkit or PyTorch build to check against it."""

    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(
        min_length=1,
        max_length=200,
        description="GPU name ('GTX 1080', 'RTX 5090', 'V100') or a compute capability "
        "('6.1', 'sm_120')",
    )
    software: str = Field(
        min_length=1,
        max_length=200,
        description="A CUDA toolkit ('CUDA 13', 'CUDA 12.4', '12.8') or a PyTorch build "
        "('PyTorch 2.5', 'torch 2.7 cu128', 'cu124', '2.6.0+cu124')",
    )
    system: Literal["linux", "windows"] | None = Field(
        default=None,
        description="The asker's operating system when they name it: AMD's ROCm lists some "
        "Radeon cards for one system only",
    )


class WheelCheck(BaseModel):
    """One PyTorch wheel (CUDA variant and release) and whether it runs on the card."""

    variant: str = Field(description="CUDA variant of the wheel index, e.g. 'cu128'")
    torch: str = Field(description="PyTorch release, e.g. '2.7'")
    runs: bool
    how: Literal["sass", "ptx", "driver too old"] | None = Field(
        default=None,
        description="sass: machine code for the card; ptx: compiled by the driver; driver too "
        "old: the installed driver is older than the wheel's CUDA release needs",
    )
    architectures: list[str] = Field(description="What the wheel ships: sm_XX and compute_XX")


class ChipSupport(BaseModel):
    """The verdict for one other chip sold under the card's name."""

    chip: str
    architecture: str
    compute_capability: str
    supported: Supported
    reason: str
    reason_fr: str
    minimum: str | None = None
    last: str | None = None


class SoftwareSupportResult(BaseModel):
    """Whether the software runs on the card, the versions that do, and how to fix it."""

    gpu: str = Field(description="The catalog card's name, or 'compute capability X.Y'")
    compute_capability: str | None = None
    architecture: str | None = None
    software: str = Field(description="What was checked, normalised ('CUDA 12.4', 'PyTorch 2.5')")
    kind: SoftwareKind
    supported: Supported = Field(
        description="yes; no; partial (only some wheels of that PyTorch release); "
        "not_applicable (not an NVIDIA card); unknown"
    )
    reason: str
    reason_fr: str
    minimum: str | None = Field(default=None, description="First version that supports the card")
    last: str | None = Field(default=None, description="Last version that supports the card")
    fix: str | None = None
    fix_fr: str | None = None
    driver_linux: str | None = Field(
        default=None, description="Minimum Linux driver of the toolkit asked (or recommended)"
    )
    driver_windows: str | None = None
    wheels: list[WheelCheck] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list, description="Near card names if unknown")
    sources: list[Source] = Field(default_factory=list)
    platform_note: str | None = Field(
        default=None, description="What bounds the versions beyond the card (JetPack on a Jetson)"
    )
    platform_note_fr: str | None = None
    other_chips: list[ChipSupport] = Field(
        default_factory=list,
        description="The same check for each other chip sold under the card's name (another "
        "compute capability), where its verdict differs",
    )


class _Parsed(BaseModel):
    kind: SoftwareKind
    toolkit: str | None = None
    torch: str | None = None
    variant: str | None = None
    driver: str | None = None
    label: str
    bare: bool = False  # "CUDA" with no version


# The installed driver, as nvidia-smi prints it or as people write it ("driver 470", "pilote 535").
DRIVER = re.compile(r"\b(?:driver(?:\s+version)?|pilote)\s*:?\s*(\d{3}(?:\.\d{1,3}){0,2})\b", re.I)


def _parse_software(text: str) -> _Parsed:
    parsed = _parse_asked(text)
    driver_m = DRIVER.search(text)
    if driver_m:
        parsed.driver = driver_m.group(1)
    return parsed


def names_software(text: str) -> bool:
    """Whether the text names something this check reads: a CUDA toolkit (or CUDA itself), a
    PyTorch build, an installed driver, or a program from the programs' data."""
    return (
        _parse_asked(text).kind != "unknown"
        or DRIVER.search(text) is not None
        or find_program(text) is not None
        or _TF.search(text) is not None
    )


def _parse_asked(text: str) -> _Parsed:
    variant_m = _VARIANT.search(text)
    variant = f"cu{variant_m.group(1)}" if variant_m else None
    torch_m = _TORCH.search(text) or _TORCH_PLUS.search(text)
    torch = torch_m.group(1) if torch_m else None
    if torch or variant or _PYTORCH_WORD.search(text):
        label = "PyTorch" + (f" {torch}" if torch else "") + (f" ({variant})" if variant else "")
        return _Parsed(kind="pytorch", torch=torch, variant=variant, label=label)
    cuda_m = _CUDA.search(text) or _BARE.match(text)
    if cuda_m:
        major, minor = cuda_m.group(1), cuda_m.group(2)
        version = f"{int(major)}.{int(minor)}" if minor is not None else str(int(major))
        return _Parsed(kind="cuda_toolkit", toolkit=version, label=f"CUDA {version}")
    if _CUDA_WORD.search(text):
        # "CUDA" with no version: today's toolkits, the newest major release in the table.
        newest = load_cuda_support().newest_toolkit.split(".")[0]
        return _Parsed(kind="cuda_toolkit", toolkit=newest, label=f"CUDA {newest}", bare=True)
    return _Parsed(kind="unknown", label=text.strip())


def _resolve_gpu(text: str) -> tuple[str, str | None, str | None, list[str], GpuCard | None]:
    """(display name, CC or None, vendor or None, suggestions, the catalog card if one matched)."""
    cc = parse_cc(text)
    if cc:
        return f"compute capability {cc}", cc, "nvidia", [], None
    from assistant.knowledge.matching import match_gpu

    match = match_gpu(text)
    if match.gpu is None:
        suggestions = list(match.suggestions) or list(match.alternatives)
        return text.strip(), None, None, suggestions, None
    card = match.gpu
    return card.name, card.compute_capability, card.vendor, [], card


def _sources(arch: ArchSupport | None, *more: list[Source]) -> list[Source]:
    found = list(arch.sources) if arch else []
    for extra in more:
        found += extra
    return dedupe_sources(found)


def software_support(query: SoftwareSupportQuery) -> SoftwareSupportResult:
    """Check whether a CUDA toolkit version or a PyTorch build supports a GPU.

    Answers questions like 'does CUDA 13 support my GTX 1080?' or 'will PyTorch with cu124 run on
    an RTX 5090?': yes/no, the first and last versions that support the card's compute capability,
    the minimum driver, the PyTorch wheels that ship kernels for it, and the fix, with sources.
    A card sold with two chips (a GT 720M with a Kepler or a Fermi) gets the other chip's verdict
    too, where it differs.
    """
    resolved = _resolve_gpu(query.gpu)
    result = _support(query, resolved)
    card = resolved[4]
    if card is None or not card.other_chips or result.supported == "unknown":
        return result
    others = []
    for other in card.other_chips:
        if other.compute_capability is None:
            continue
        chip_query = SoftwareSupportQuery(
            gpu=f"compute capability {other.compute_capability}", software=query.software
        )
        checked = _support(chip_query, _resolve_gpu(chip_query.gpu))
        if checked.supported not in (result.supported, "unknown"):
            others.append(
                ChipSupport(
                    chip=other.chip,
                    architecture=other.architecture,
                    compute_capability=other.compute_capability,
                    supported=checked.supported,
                    reason=checked.reason,
                    reason_fr=checked.reason_fr,
                    minimum=checked.minimum,
                    last=checked.last,
                )
            )
    return result.model_copy(update={"other_chips": others}) if others else result


def _support(
    query: SoftwareSupportQuery,
    resolved: tuple[str, str | None, str | None, list[str], GpuCard | None],
) -> SoftwareSupportResult:
    """The check for the card `_resolve_gpu` found for the query (resolved once by the caller)."""
    name, cc, vendor, suggestions, card = resolved
    parsed = _parse_software(query.software)
    base: dict[str, Any] = {
        "gpu": name,
        "compute_capability": cc,
        "software": parsed.label,
        "kind": parsed.kind,
    }
    if vendor is None:
        return SoftwareSupportResult(
            **base,
            supported="unknown",
            reason=f"Unknown GPU {query.gpu!r}.",
            reason_fr=f"GPU inconnu : {query.gpu!r}.",
            suggestions=suggestions,
        )
    release = _framework_release(query.software)
    card_arch = get_arch(cc) if release is not None and vendor == "nvidia" and cc else None
    if release is not None and card_arch is not None:
        # "TensorFlow 1.8 on an RTX 3090": that release's CUDA decides, not today's releases
        checked = _check_framework(
            base,
            card_arch,
            *release,
            stated_cuda=_stated_toolkit(query.software, release[0].framework),
        )
        if checked is not None:
            return checked
    program = find_program(query.software)
    # "PyTorch CUDA on my Radeon?": the CUDA build is asked, not PyTorch
    cuda_build = bool(parsed.variant or _CUDA_WORD.search(query.software))
    if vendor != "nvidia" and cuda_build and program and _checked_by_wheels(program, parsed):
        program = None
    if program is not None and not (vendor == "nvidia" and _checked_by_wheels(program, parsed)):
        return _check_program(
            {**base, "software": program.name, "kind": "program"},
            program,
            vendor,
            card,
            query.system,
        )
    if vendor != "nvidia":
        from assistant.knowledge.stacks import load_stacks

        stack = load_stacks().get(vendor)
        return SoftwareSupportResult(
            **base,
            supported="not_applicable",
            reason=f"{name} is not an NVIDIA GPU: CUDA toolkits and CUDA builds of PyTorch do not "
            "run on it. " + (stack.instead_en if stack else "Use its maker's own stack instead."),
            reason_fr=f"{name} n'est pas un GPU NVIDIA : ni CUDA ni les versions CUDA de PyTorch "
            "ne tournent dessus. "
            + (stack.instead_fr if stack else "Passez par la pile logicielle de son fabricant."),
        )
    arch = get_arch(cc) if cc else None
    if arch is None:
        return SoftwareSupportResult(
            **base,
            supported="unknown",
            reason=f"No toolkit data for compute capability {cc or '?'} of {name}.",
            reason_fr=f"Pas de données de toolkit pour la compute capability {cc or '?'} de {name}.",
        )
    base["architecture"] = arch.architecture
    if arch.jetpack_cuda:
        # A Jetson module runs only the CUDA its JetPack ships, whatever nvcc still compiles for it
        arch = arch.model_copy(update={"last_toolkit": arch.jetpack_cuda})
        base["platform_note"] = (
            f"Jetson modules get CUDA only through JetPack: the last JetPack for this one, "
            f"{arch.jetpack}, ships CUDA {arch.jetpack_cuda}, the newest it can run."
        )
        base["platform_note_fr"] = (
            f"Les modules Jetson n'ont CUDA que par JetPack : le dernier JetPack pour celui-ci, "
            f"{arch.jetpack}, fournit CUDA {arch.jetpack_cuda}, le plus récent qu'il puisse faire tourner."
        )
    if parsed.bare and arch.last_toolkit and (not _retired(arch) or _WHICH.search(query.software)):
        # "CUDA" with no version on a card the newest release dropped (a Pascal), or "which CUDA
        # for my Kepler?": the range of toolkits answers, not a "no" from the newest release alone.
        parsed = _Parsed(kind="unknown", label="CUDA")
        base.update(software="CUDA", kind="unknown")
    if parsed.kind == "cuda_toolkit" and parsed.toolkit:
        return _with_driver(_check_toolkit(base, arch, parsed.toolkit), parsed)
    if parsed.kind == "pytorch" and arch.jetpack_cuda:
        return _jetson_pytorch(base, arch)
    if parsed.kind == "pytorch":
        return _check_pytorch(base, arch, parsed)
    return SoftwareSupportResult(
        **base,
        supported="unknown",
        reason=f"Cannot read {query.software!r} as a CUDA toolkit or a PyTorch build; write e.g. "
        "'CUDA 12.4', 'PyTorch 2.5' or 'cu128'.",
        reason_fr=f"Impossible de lire {query.software!r} comme un toolkit CUDA ou une version de "
        "PyTorch ; écrivez par exemple « CUDA 12.4 », « PyTorch 2.5 » ou « cu128 ».",
        minimum=f"CUDA {arch.first_toolkit}",
        last=f"CUDA {arch.last_toolkit}" if arch.last_toolkit else None,
        sources=_sources(arch),
    )


_VENDORS = {"amd": "AMD", "apple": "Apple", "intel": "Intel"}

# "tensorflow1.8", "tensorflow-gpu==1.15", "TensorFlow 2.3"
_TF = re.compile(
    r"\b(?:tensorflow|tf)(?:[-_]gpu)?\s*(?:==?|version\s*)?\s*v?(\d)\.(\d{1,2})", re.IGNORECASE
)


def _variant_toolkit(digits: str) -> str:
    """The CUDA release of a wheel variant's digits: '118' → '11.8', '102' → '10.2'."""
    return f"{int(digits[:-1])}.{digits[-1]}"


# nvidia-smi's header: the newest CUDA the driver runs, not what a framework was built with
_DRIVER_CUDA = re.compile(r"cuda\s*version\s*:", re.IGNORECASE)


def wheel_variants(text: str) -> list[str]:
    """The PyTorch wheel variants a text names ('cu121, cu124 or cu126'), once each, in order."""
    return list(dict.fromkeys(f"cu{m.group(1)}" for m in _VARIANT.finditer(text)))


def variant_cuda(variant: str) -> tuple[int, int]:
    """The CUDA release of a wheel variant as (major, minor): 'cu126' → (12, 6)."""
    major, minor = _variant_toolkit(variant[2:]).split(".")
    return int(major), int(minor)


def driver_cuda(text: str) -> tuple[int, int] | None:
    """nvidia-smi's 'CUDA Version: 12.6' in a text as (major, minor): the newest CUDA the driver
    runs; None when the text quotes none."""
    for m in _CUDA.finditer(text):
        if "version" in m.group(0).lower() and m.group(2) is not None:
            return int(m.group(1)), int(m.group(2))
    return None


def _stated_toolkit(text: str, framework: str | None = None) -> str | None:
    """The CUDA release a message names with its minor ('CUDA 10.2', 'CUDA Version: 12.4') or as
    a wheel variant ('cu111'), whichever comes first; None when it names none. For TensorFlow,
    whose official builds each use one CUDA release, nvidia-smi's 'CUDA Version: 12.1' is the
    driver's, not the build's: only a wheel variant or a toolkit named otherwise counts."""
    found = [m for m in (_CUDA.search(text), _VARIANT.search(text)) if m is not None]
    if framework == "TensorFlow":
        found = [m for m in found if not _DRIVER_CUDA.search(m.group(0))]
    stated = min(found, key=lambda m: m.start()) if found else None
    if stated is None:
        return None
    if stated.re is _VARIANT:
        return _variant_toolkit(stated.group(1))
    return f"{int(stated.group(1))}.{int(stated.group(2))}" if stated.group(2) is not None else None


def _framework_release(text: str) -> tuple[FrameworkBuild, str] | None:
    """An older TensorFlow or PyTorch release the text names ('tensorflow1.8', 'PyTorch 1.7')
    and its row of official builds; None for releases the wheel table covers or none named."""
    tf = _TF.search(text)
    if tf:
        framework, version = "TensorFlow", f"{tf.group(1)}.{tf.group(2)}"
    else:
        torch = _TORCH.search(text) or _TORCH_PLUS.search(text)
        if torch is None:
            return None
        framework, version = "PyTorch", torch.group(1)
    row = next(
        (
            b
            for b in load_cuda_support().framework_builds
            if b.framework == framework and b.covers(version)
        ),
        None,
    )
    return (row, version) if row is not None else None


def _family_toolkit(arch: ArchSupport) -> str:
    """The first toolkit that builds for the card's family (x.0): its machine code runs on every
    later minor version of that major ('sm_80' code runs on an 8.6 or 8.9 card)."""
    family = get_arch(f"{arch.cc.split('.')[0]}.0")
    return family.first_toolkit if family is not None else arch.first_toolkit


def _check_framework(
    base: dict[str, Any],
    arch: ArchSupport,
    row: FrameworkBuild,
    version: str,
    stated_cuda: str | None = None,
) -> SoftwareSupportResult | None:
    """Whether an older TensorFlow or PyTorch release runs on a newer card: the CUDA its official
    GPU builds use must build for the card's architecture. None for an older card (which
    architectures each release compiled in is not in the data: the program's row answers)."""
    first, last = _family_toolkit(arch), arch.last_toolkit
    cuda = stated_cuda or row.cuda
    too_old = version_key(cuda) < version_key(first)
    runs = not too_old and (last is None or version_key(cuda) <= version_key(last))
    if not too_old and not (runs and version_key(first) >= (11, 0)):
        return None
    label = f"{row.framework} {version}" + (f" (CUDA {cuda} build)" if stated_cuda else "")
    builds, builds_fr = (
        (f"{label} is built with CUDA {cuda}", f"{label} est compilé avec CUDA {cuda}")
        if stated_cuda
        else (
            f"{label}'s official GPU builds use CUDA {cuda}",
            f"les versions GPU officielles de {label} utilisent CUDA {cuda}",
        )
    )
    rows = [b for b in load_cuda_support().framework_builds if b.framework == row.framework]
    fits = [
        b
        for b in rows
        if version_key(b.cuda) >= version_key(first)
        and (last is None or version_key(b.cuda) <= version_key(last))
    ]
    name, cc = base["gpu"], base["compute_capability"]
    if runs:
        reason = (
            f"{builds[0].upper()}{builds[1:]}, which builds for {arch.architecture} "
            f"(compute capability {cc}) cards such as {name}."
        )
        reason_fr = (
            f"{builds_fr[0].upper()}{builds_fr[1:]}, qui compile pour "
            f"les cartes {arch.architecture} (compute capability {cc}) comme {name}."
        )
        fix = fix_fr = None
    else:
        why = f"{arch.architecture} (compute capability {cc}) needs CUDA {first} or newer"
        why_fr = (
            f"l'architecture {arch.architecture} (compute capability {cc}) demande CUDA {first} "
            "ou plus récent"
        )
        reason = (
            f"{builds[0].upper()}{builds[1:]}, and {why}: the program starts, "
            f"then hangs or fails with 'no kernel image is available' on {name}, or runs on the CPU."
        )
        reason_fr = (
            f"{builds_fr[0].upper()}{builds_fr[1:]}, et {why_fr} : le "
            f"programme démarre puis se bloque, échoue avec « no kernel image is available » sur "
            f"{name}, ou tourne sur le processeur."
        )
        if fits:
            lo, hi = fits[0], fits[-1]
            span = f"{lo.first}" + (f" to {hi.last}" if hi.last != lo.first else "")
            span_fr = f"{lo.first}" + (f" à {hi.last}" if hi.last != lo.first else "")
            fix = f"Use {row.framework} {lo.first} or newer (the official builds of {span} run on it), with its CUDA {lo.cuda} or later build."
            fix_fr = f"Passez à {row.framework} {lo.first} ou plus récent (les versions officielles {span_fr} tournent dessus), avec sa version CUDA {lo.cuda} ou plus récente."
        else:
            fix = f"Use a current {row.framework} release."
            fix_fr = f"Passez à une version actuelle de {row.framework}."
        if row.note:
            fix, fix_fr = f"{fix} {row.note}", f"{fix_fr} {row.note_fr}"
    return SoftwareSupportResult(
        **{**base, "software": label, "kind": "program"},
        supported="yes" if runs else "no",
        reason=reason,
        reason_fr=reason_fr,
        minimum=f"{row.framework} {fits[0].first}" if fits else None,
        last=None,
        fix=fix,
        fix_fr=fix_fr,
        sources=_sources(arch, list(row.sources)),
    )


def _rocm_card(card: GpuCard | None) -> tuple[bool, str, list[Source]] | None:
    """Whether AMD's ROCm tables list this AMD card, on which systems, and their sources; None
    when the card is not in the catalog."""
    from assistant.knowledge.stacks import rocm_status

    if card is None:
        return None
    status = rocm_status(card)
    systems = [
        s for s, ok in (("Linux", status.rocm_linux), ("Windows", status.hip_sdk_windows)) if ok
    ]
    return bool(systems), " and ".join(systems), list(status.sources)


def _other_system(system: str | None, listed_on: str) -> str | None:
    """The asker's system ('Linux'), when AMD's ROCm list has the card for other systems only."""
    if system is None:
        return None
    named = {"linux": "Linux", "windows": "Windows"}[system]
    return None if named in listed_on else named


def _checked_by_wheels(program: Program, parsed: _Parsed) -> bool:
    """A program with no NVIDIA figures of its own (PyTorch itself), asked with a PyTorch build or
    a CUDA toolkit: on an NVIDIA card the wheel and toolkit tables answer, finer than a row."""
    nvidia = program.nvidia
    return nvidia.min_cc is None and not nvidia.only_cc and parsed.kind != "unknown"


def _check_program(
    base: dict[str, Any],
    program: Program,
    vendor: str,
    card: GpuCard | None,
    system: str | None = None,
) -> SoftwareSupportResult:
    """Whether a program's current releases run on the card: its NVIDIA compute capability
    against the program's, or how the program runs on the card's vendor (ROCm, Metal...); for
    ROCm, on the asker's system when they name it."""
    name, cc = base["gpu"], base["compute_capability"]
    cpu = " It also runs on the CPU alone, much more slowly." if program.cpu else ""
    cpu_fr = " Il tourne aussi sur le seul processeur, bien plus lentement." if program.cpu else ""
    platform = program.platform(vendor)
    if platform is not None:
        maker = _VENDORS[vendor]
        how = f" through {platform.how}" if platform.how else ""
        how_fr = f" via {platform.how_fr or platform.how}" if platform.how else ""
        said = {
            "yes": (
                f"{program.name} runs on {maker} GPUs{how}",
                f"{program.name} tourne sur les GPU {maker}{how_fr}",
            ),
            "partial": (
                f"{program.name} runs on some {maker} GPUs{how}",
                f"{program.name} tourne sur certains GPU {maker}{how_fr}",
            ),
            "no": (
                f"{program.name} does not run on {maker} GPUs",
                f"{program.name} ne tourne pas sur les GPU {maker}",
            ),
            "unknown": (
                f"Whether {program.name} runs on {maker} GPUs is not documented",
                f"Le support des GPU {maker} par {program.name} n'est pas documenté",
            ),
        }[platform.supported]
        note = f": {platform.note}" if platform.note else "."
        note_fr = f" : {platform.note_fr or platform.note}" if platform.note else "."
        supported, sources = platform.supported, list(program.sources)
        rocm = _rocm_card(card) if vendor == "amd" and "rocm" in platform.how.lower() else None
        if rocm is not None and supported in ("yes", "partial"):
            # the program runs through ROCm: whether AMD lists this very card decides
            listed, os_names, rocm_sources = rocm
            other = _other_system(system, os_names) if listed else None
            if other is not None:
                said = (
                    f"Not officially on {other}: AMD's ROCm lists {name} for {os_names} only, so "
                    f"{program.name}{how} on {other} is unsupported (it may still run)",
                    f"Pas officiellement sous {other} : la liste ROCm d'AMD n'inclut {name} que "
                    f"sous {os_names}, donc {program.name}{how_fr} sous {other} n'est pas pris en "
                    "charge (il peut tout de même tourner)",
                )
                supported = "partial"
            elif listed:
                said = (
                    f"{program.name} runs on {name}{how}: AMD's ROCm lists it ({os_names})",
                    f"{program.name} tourne sur {name}{how_fr} : la liste ROCm d'AMD l'inclut "
                    f"({os_names.replace(' and ', ' et ')})",
                )
                supported = "yes"
            else:
                said = (
                    f"{name} is not on AMD's ROCm list, so {program.name} through ROCm is "
                    "unsupported on it",
                    f"{name} n'est pas sur la liste ROCm d'AMD : {program.name} via ROCm n'y "
                    "est pas pris en charge",
                )
                supported = "no"
            sources += rocm_sources
            note, note_fr = (
                (".", ".") if listed else (f"; {platform.note}", f" ; {platform.note_fr}")
            )
        slower = supported != "yes"
        if card is not None and card.integrated and supported in ("yes", "partial"):
            note += (
                f" But {name} is an integrated GPU: it borrows part of the computer's RAM, is far "
                f"slower than a dedicated card, and {program.name}'s {platform.how or 'GPU'} "
                "support may not cover integrated graphics."
            )
            note_fr += (
                f" Mais {name} est un GPU intégré : il emprunte une partie de la mémoire vive de "
                f"l'ordinateur, est bien plus lent qu'une carte dédiée, et le support "
                f"{platform.how_fr or platform.how or 'GPU'} de {program.name} peut ne pas couvrir les GPU intégrés."
            )
            supported = "partial"
        return SoftwareSupportResult(
            **base,
            supported=supported,
            reason=f"{said[0]}{note}{cpu if slower else ''}",
            reason_fr=f"{said[1]}{note_fr}{cpu_fr if slower else ''}",
            sources=dedupe_sources(sources),
        )
    runs = program.nvidia.runs_on(cc) if cc else None
    needs = f"compute capability {program.nvidia.floor()}"
    needs_fr = f"une compute capability {program.nvidia.floor().replace('only', 'uniquement')}"
    note = f" {program.nvidia.note}" if program.nvidia.note else ""
    note_fr = f" {program.nvidia.note_fr or program.nvidia.note}" if program.nvidia.note else ""
    if runs is None:
        return SoftwareSupportResult(
            **base,
            supported="unknown",
            reason=f"{program.name}'s documents give no compute capability to check {name} "
            f"against.{note}",
            reason_fr=f"La documentation de {program.name} ne donne pas de compute capability "
            f"à comparer avec {name}.{note_fr}",
            sources=program.sources,
        )
    where = f"{name} (CC {cc})"
    if runs:
        return SoftwareSupportResult(
            **base,
            supported="yes",
            reason=f"{program.name} runs on {where}: its current releases need {needs}.{note}",
            reason_fr=f"{program.name} tourne sur {where} : ses versions actuelles demandent "
            f"{needs_fr}.{note_fr}",
            sources=program.sources,
        )
    return SoftwareSupportResult(
        **base,
        supported="no",
        reason=f"{program.name}'s current releases do not run on {where}: they need {needs}."
        f"{note}{cpu}",
        reason_fr=f"Les versions actuelles de {program.name} ne tournent pas sur {where} : "
        f"elles demandent {needs_fr}.{note_fr}{cpu_fr}",
        fix=program.nvidia.older or None,
        fix_fr=program.nvidia.older_fr or program.nvidia.older or None,
        sources=program.sources,
    )


def _retired(arch: ArchSupport) -> bool:
    """No toolkit of the last two major releases builds for this architecture (Fermi, Kepler)."""
    if arch.last_toolkit is None:
        return False
    newest = version_key(load_cuda_support().newest_toolkit)[0]
    return version_key(arch.last_toolkit)[0] < newest - 1


def _driver_floor(toolkit: str) -> tuple[str, list[Source], bool] | None:
    """The oldest Linux driver that runs a toolkit's programs, its sources, and whether that is by
    CUDA's minor-version compatibility (any 11.x from 450.80.02, any 12.x from 525.60.13); before
    CUDA 11 each release needs its own minimum."""
    major = get_toolkit(toolkit.split(".")[0])
    if major is not None and major.minor_compat_linux:
        return major.minor_compat_linux, major.sources, True
    own = get_toolkit(toolkit)
    return (own.driver_linux, own.sources, False) if own is not None else None


def _with_driver(result: SoftwareSupportResult, parsed: _Parsed) -> SoftwareSupportResult:
    """A toolkit that builds for the card still needs a driver recent enough for it. An installed
    driver older than that turns the verdict into no, whatever the card."""
    if result.supported == "no" or not parsed.driver or not parsed.toolkit:
        return result
    floor = _driver_floor(parsed.toolkit)
    if floor is None or version_key(parsed.driver) >= version_key(floor[0]):
        return result
    needed, sources, compat = floor
    series = f"CUDA {parsed.toolkit.split('.')[0]}.x" if compat else f"CUDA {parsed.toolkit}"
    why = " (minor-version compatibility)" if compat else ""
    why_fr = " (compatibilité de version mineure)" if compat else ""
    return result.model_copy(
        update={
            "supported": "no",
            "reason": f"{result.reason} But the installed driver {parsed.driver} is older than "
            f"the {needed} that {series} needs on Linux{why}, so the runtime refuses to start: "
            "'CUDA driver version is insufficient'.",
            "reason_fr": f"{result.reason_fr} Mais le pilote installé {parsed.driver} est plus "
            f"ancien que le {needed} qu'exige {series} sous Linux{why_fr} : le runtime refuse "
            "de démarrer.",
            "fix": f"Update the driver to {needed} or newer (on a shared server, "
            "an administrator's job), or build with an older toolkit the installed driver "
            "runs: the 'CUDA Version' nvidia-smi prints is the newest it supports.",
            "fix_fr": f"Mettez le pilote à jour ({needed} ou plus récent ; sur un "
            "serveur partagé, c'est le rôle de l'administrateur) ou compilez avec un toolkit "
            "plus ancien : la « CUDA Version » affichée par nvidia-smi est la plus récente "
            "qu'il accepte.",
            "driver_linux": needed,
            "sources": dedupe_sources([*result.sources, *sources]),
        }
    )


def _split_variants(checks: list[Any], fr: bool = False) -> tuple[str, str]:
    """(the wheel variants that run, those that never do): a variant that runs in some PyTorch
    releases and not in later ones is said with the last release it runs in ('cu128 (to
    PyTorch 2.8)'), never listed as both."""
    ran = {c.variant for c in checks if c.runs}
    failed = {c.variant for c in checks if not c.runs}
    good = []
    for variant in sorted(ran):
        if variant in failed:
            last = [c.torch for c in checks if c.variant == variant and c.runs][-1]
            good.append(f"{variant} ({'jusqu’à' if fr else 'to'} PyTorch {last})")
        else:
            good.append(variant)
    return ", ".join(good), ", ".join(sorted(failed - ran)) or "—"


def _major_driver(variant: str) -> str | None:
    """The oldest Linux driver a wheel's CUDA release runs on ('cu128' → any 12.x driver from
    525.60.13, by CUDA's minor-version compatibility)."""
    digits = variant.removeprefix("cu")
    if len(digits) < 3:
        return None
    floor = _driver_floor(_variant_toolkit(digits))
    return floor[0] if floor is not None else None


def _with_installed_driver(check: WheelCheck, parsed: _Parsed) -> WheelCheck:
    """A wheel that runs on the card does not run on an installed driver older than its CUDA
    major release needs ('driver 535' runs cu12x wheels, not cu130)."""
    needed = _major_driver(check.variant)
    if not (check.runs and parsed.driver and needed):
        return check
    if version_key(parsed.driver) >= version_key(needed):
        return check
    return check.model_copy(update={"runs": False, "how": "driver too old"})


def _newest_wheel(arch: ArchSupport) -> WheelCheck | None:
    working = [c for c in (_check(w, v, arch.cc) for w, v in wheels_for()) if c.runs]
    return working[-1] if working else None


def _check_toolkit(base: dict[str, Any], arch: ArchSupport, version: str) -> SoftwareSupportResult:
    data = load_cuda_support()
    minimum = f"CUDA {arch.first_toolkit}"
    last = f"CUDA {arch.last_toolkit}" if arch.last_toolkit else None
    if "." in version:
        series = [version]
    else:  # 'CUDA 13' means the 13.x releases in the table
        series = [t.version for t in data.toolkits if version_key(t.version)[0] == int(version)]
        series = series or [f"{int(version)}.0"]
    oks = [arch.builds_with(v) for v in series]
    drivers = get_toolkit(version)
    extra: dict[str, Any] = {
        "minimum": minimum,
        "last": last,
        "driver_linux": drivers.driver_linux if drivers else None,
        "driver_windows": drivers.driver_windows if drivers else None,
        "sources": _sources(arch, drivers.sources if drivers else []),
    }
    label = f"CUDA {version}" + ("" if "." in version else ".x")
    where = f"{arch.sm} ({arch.architecture}, CC {arch.cc})"
    span = f"from {minimum}" + (f" to {last}" if last else " on")
    span_fr = f"depuis {minimum}" + (f" jusqu'à {last}" if last else "")
    if all(oks):
        past = "." in version and version_key(version) > version_key(data.newest_toolkit)
        note = f" (the table ends at CUDA {data.newest_toolkit})" if past else ""
        note_fr = f" (le tableau s'arrête à CUDA {data.newest_toolkit})" if past else ""
        return SoftwareSupportResult(
            **base,
            supported="yes",
            reason=f"{label} builds for {where}: supported {span}{note}.",
            reason_fr=f"{label} compile pour {where} : pris en charge {span_fr}{note_fr}.",
            **extra,
        )
    if any(oks):
        good = [v for v, ok in zip(series, oks, strict=True) if ok]
        return SoftwareSupportResult(
            **base,
            supported="partial",
            reason=f"Only some {label} releases build for {where}: {', '.join(good)}; "
            f"supported {span}.",
            reason_fr=f"Seules certaines versions {label} compilent pour {where} : "
            f"{', '.join(good)} ; prise en charge {span_fr}.",
            fix=f"Use CUDA {good[0]} or a later {label} release.",
            fix_fr=f"Utilisez CUDA {good[0]} ou une version {label} ultérieure.",
            **extra,
        )
    if version_key(series[0]) < version_key(arch.first_toolkit):
        target = get_toolkit(arch.first_toolkit)
        driver = driver_fr = ""
        if target:
            driver = (
                f" (driver ≥ {target.driver_linux} on Linux, ≥ {target.driver_windows} on Windows)"
            )
            driver_fr = f" (pilote ≥ {target.driver_linux} sous Linux, ≥ {target.driver_windows} sous Windows)"
        return SoftwareSupportResult(
            **base,
            supported="no",
            reason=f"{label} predates {where}: the first toolkit that builds for it is {minimum}.",
            reason_fr=f"{label} est antérieur à {where} : le premier toolkit qui compile pour "
            f"cette carte est {minimum}.",
            fix=f"Install {minimum} or newer{driver}.",
            fix_fr=f"Installez {minimum} ou plus récent{driver_fr}.",
            **extra,
        )
    branch = branch_fr = ""
    if arch.last_driver_branch:
        branch = f"; its last driver branch is {arch.last_driver_branch}"
        branch_fr = f" ; sa dernière branche de pilote est {arch.last_driver_branch}"
    wheel = _newest_wheel(arch)
    torch_note = torch_note_fr = ""
    if wheel:
        torch_note = f" The newest PyTorch build with its kernels is {_label(wheel)}."
        torch_note_fr = (
            f" La version de PyTorch la plus récente avec ses noyaux est {_label(wheel)}."
        )
    reason = f"{label} no longer builds for {where}: the last toolkit that does is {last}{branch}."
    reason_fr = (
        f"{label} ne compile plus pour {where} : le dernier toolkit qui le fait est "
        f"{last}{branch_fr}."
    )
    if arch.jetpack:  # nvcc still compiles for it; JetPack decides what the module runs
        reason = f"{label} does not run on {where}: the newest CUDA it gets is {last}."
        reason_fr = (
            f"{label} ne tourne pas sur {where} : le CUDA le plus récent qu'il reçoit est {last}."
        )
    return SoftwareSupportResult(
        **base,
        supported="no",
        reason=reason,
        reason_fr=reason_fr,
        fix=f"Stay on {last} (or older) for this card.{torch_note}",
        fix_fr=f"Restez sur {last} (ou antérieur) pour cette carte.{torch_note_fr}",
        **extra,
    )


def _check(wheel: TorchWheel, version: str, cc: str) -> WheelCheck:
    how = wheel.runs(cc)
    return WheelCheck(
        variant=wheel.variant,
        torch=version,
        runs=how is not None,
        how=how,
        architectures=wheel.sm_names(),
    )


def _label(check: WheelCheck) -> str:
    return f"PyTorch {check.torch} ({check.variant})"


def _earlier_pytorch(arch: ArchSupport) -> str | None:
    """The first PyTorch release before the wheel table whose official GPU build uses a CUDA that
    builds for the architecture ('PyTorch 1.8 (CUDA 11.1 build)' for Ampere's sm_86); None for
    an architecture older than CUDA 11, whose kernels those releases may have dropped."""
    first, last = _family_toolkit(arch), arch.last_toolkit
    if version_key(first) < (11, 0):
        return None
    fits = [
        b
        for b in load_cuda_support().framework_builds
        if b.framework == "PyTorch"
        and version_key(b.cuda) >= version_key(first)
        and (last is None or version_key(b.cuda) <= version_key(last))
    ]
    if not fits:
        return None
    lo = min(fits, key=lambda b: version_key(b.first))
    return f"PyTorch {lo.first} (CUDA {lo.cuda} build)"


def _jetson_pytorch(base: dict[str, Any], arch: ArchSupport) -> SoftwareSupportResult:
    """PyTorch on a Jetson: NVIDIA's builds for its JetPack, never the pip wheels made for
    desktop and server GPUs."""
    jetpack, cuda = arch.jetpack, arch.jetpack_cuda
    return SoftwareSupportResult(
        **base,
        supported="partial",
        reason=f"PyTorch runs on this Jetson only in the builds NVIDIA makes for its JetPack "
        f"(the last one for this module: JetPack {jetpack}, CUDA {cuda}); the wheels on PyPI and "
        "download.pytorch.org are built for desktop and server GPUs and give no GPU support here.",
        reason_fr=f"PyTorch ne tourne sur ce Jetson que dans les versions qu'NVIDIA construit pour "
        f"son JetPack (le dernier pour ce module : JetPack {jetpack}, CUDA {cuda}) ; les roues de "
        "PyPI et de download.pytorch.org visent les GPU de bureau et de serveur et n'y donnent "
        "pas de GPU.",
        fix=f"Install the PyTorch wheel NVIDIA publishes for JetPack {jetpack} (PyTorch for "
        "Jetson), or run the l4t-pytorch container of that JetPack.",
        fix_fr=f"Installez la roue PyTorch qu'NVIDIA publie pour JetPack {jetpack} (PyTorch for "
        "Jetson), ou lancez le conteneur l4t-pytorch de ce JetPack.",
    )


def _check_pytorch(
    base: dict[str, Any], arch: ArchSupport, parsed: _Parsed
) -> SoftwareSupportResult:
    every = [(w, v, _with_installed_driver(_check(w, v, arch.cc), parsed)) for w, v in wheels_for()]
    working = [c for _, _, c in every if c.runs]
    minimum = _label(working[0]) if working else None
    if working and working[0].torch == every[0][1]:
        minimum = _earlier_pytorch(arch) or minimum  # the table starts at its oldest release
    last = _label(working[-1]) if working else None
    asked = [
        (w, c)
        for w, v, c in every
        if (parsed.variant in (None, w.variant)) and (parsed.torch in (None, v))
    ]
    sources = _sources(arch, *[w.sources for w, _ in asked] or [[]])
    extra: dict[str, Any] = {"minimum": minimum, "last": last, "sources": sources}
    if not asked:
        known = sorted({v for w in load_cuda_support().wheels for v in w.torch}, key=version_key)
        return SoftwareSupportResult(
            **base,
            supported="unknown",
            reason=f"No wheel data for {parsed.label}; the table covers PyTorch "
            f"{known[0]}–{known[-1]} (cu118 … cu132).",
            reason_fr=f"Pas de données pour {parsed.label} ; le tableau couvre PyTorch "
            f"{known[0]}–{known[-1]} (cu118 … cu132).",
            **extra,
        )
    checks = [c for _, c in asked]
    runs = [c for c in checks if c.runs]
    sm = arch.sm
    if len(runs) == len(checks):
        via_ptx = [c for c in runs if c.how == "ptx"]
        ptx_note = (
            f" ({', '.join(_label(c) for c in via_ptx)} only through PTX compiled by the driver at first use)"
            if via_ptx
            else ""
        )
        ptx_note_fr = (
            f" ({', '.join(_label(c) for c in via_ptx)} seulement via le PTX compilé par le pilote au premier lancement)"
            if via_ptx
            else ""
        )
        return SoftwareSupportResult(
            **base,
            supported="yes",
            reason=f"{parsed.label} ships kernels that run on {sm} ({arch.architecture}){ptx_note}.",
            reason_fr=f"{parsed.label} contient des noyaux qui tournent sur {sm} ({arch.architecture}){ptx_note_fr}.",
            wheels=checks,
            **extra,
        )
    old_driver = [c for c in checks if c.how == "driver too old"]
    driver_note = driver_note_fr = ""
    if old_driver and parsed.driver:
        late = ", ".join(sorted({c.variant for c in old_driver}))
        needed = _major_driver(old_driver[0].variant)
        driver_note = (
            f" The installed driver {parsed.driver} is older than the {needed} that {late} "
            "needs (CUDA minor-version compatibility): those wheels fail with 'CUDA driver "
            "version is insufficient'."
        )
        driver_note_fr = (
            f" Le pilote installé {parsed.driver} est plus ancien que le {needed} qu'exige "
            f"{late} (compatibilité de version mineure de CUDA) : ces roues échouent avec "
            "« CUDA driver version is insufficient »."
        )
    if runs:
        good, bad = _split_variants(checks)
        good_fr, bad_fr = _split_variants(checks, fr=True)
        pin = f"=={parsed.torch}.*" if parsed.torch else ""
        driver = _card_driver(arch)
        # with the card's first driver stated, the wheel installed is the one that driver runs
        wheel = (runs[0] if driver else runs[-1]).variant
        return SoftwareSupportResult(
            **base,
            supported="partial",
            reason=f"Only some builds of {parsed.label} run on {sm}: {good} yes, {bad} no."
            + driver_note,
            reason_fr=f"Seules certaines versions de {parsed.label} tournent sur {sm} : {good_fr} oui, {bad_fr} non."
            + driver_note_fr,
            fix=f"Install the {good} build: pip install torch{pin} "
            f"--index-url https://download.pytorch.org/whl/{wheel}",
            fix_fr=f"Installez la version {good_fr} : pip install torch{pin} "
            f"--index-url https://download.pytorch.org/whl/{wheel}",
            wheels=checks,
            **{**extra, **driver},
        )
    fix, fix_fr = _pytorch_fix(parsed, working, arch)
    if len(old_driver) == len(checks) and driver_note:
        return SoftwareSupportResult(
            **base,
            supported="no",
            reason=f"{parsed.label} ships kernels for {sm}, but not for this driver." + driver_note,
            reason_fr=f"{parsed.label} contient des noyaux pour {sm}, mais pas pour ce pilote."
            + driver_note_fr,
            fix=fix,
            fix_fr=fix_fr,
            wheels=checks,
            **extra,
        )
    return SoftwareSupportResult(
        **base,
        supported="no",
        reason=f"{parsed.label} has no kernels for {sm} ({arch.architecture}, CC {arch.cc}): it ships "
        f"{', '.join(checks[0].architectures)}. Expect 'no kernel image is available for execution on the device'.",
        reason_fr=f"{parsed.label} n'a aucun noyau pour {sm} ({arch.architecture}, CC {arch.cc}) : il contient "
        f"{', '.join(checks[0].architectures)}. Attendez-vous à « no kernel image is available for execution on the device ».",
        fix=fix,
        fix_fr=fix_fr,
        wheels=checks,
        **extra,
    )


def _card_driver(arch: ArchSupport) -> dict[str, str]:
    """For a card newer than the oldest wheels (an RTX 50 on CUDA 12.8): the driver of the first
    toolkit that builds for it, the oldest that knows the card; nothing for older cards."""
    oldest = min((w.cuda for w in load_cuda_support().wheels), key=version_key, default=None)
    first = get_toolkit(arch.first_toolkit)
    if first is None or oldest is None or version_key(arch.first_toolkit) <= version_key(oldest):
        return {}
    return {"driver_linux": first.driver_linux, "driver_windows": first.driver_windows}


def _pytorch_fix(parsed: _Parsed, working: list[WheelCheck], arch: ArchSupport) -> tuple[str, str]:
    oldest = min((w.cuda for w in load_cuda_support().wheels), key=version_key, default=None)
    if (
        not working
        and arch.last_toolkit
        and oldest
        and version_key(arch.last_toolkit) < version_key(oldest)
    ):
        # No toolkit that builds PyTorch 2.x still compiles for the card (Fermi, early Kepler).
        return (
            f"No PyTorch 2.x build can run on it, from a wheel or from source: the last CUDA toolkit "
            f"for {arch.sm} is CUDA {arch.last_toolkit}, older than the CUDA {oldest} the oldest wheels "
            "are built with. Run on the CPU, or use a newer card.",
            f"Aucune version 2.x de PyTorch ne peut tourner dessus, ni en roue ni compilée : le dernier "
            f"toolkit CUDA pour {arch.sm} est CUDA {arch.last_toolkit}, plus ancien que le CUDA {oldest} "
            "des roues les plus anciennes. Utilisez le CPU ou une carte plus récente.",
        )
    if not working:
        return (
            f"No PyTorch wheel in the table ships kernels for {arch.sm}; build PyTorch from source "
            f"with TORCH_CUDA_ARCH_LIST={arch.cc} and a toolkit that supports it.",
            f"Aucune roue PyTorch du tableau n'a de noyaux pour {arch.sm} ; compilez PyTorch depuis les "
            f"sources avec TORCH_CUDA_ARCH_LIST={arch.cc} et un toolkit qui la prend en charge.",
        )
    same = [c for c in working if parsed.torch and c.torch == parsed.torch]
    if same:
        pick = same[0]
        return (
            f"Install the {pick.variant} build of PyTorch {pick.torch}: pip install torch=={pick.torch}.* "
            f"--index-url https://download.pytorch.org/whl/{pick.variant}",
            f"Installez la version {pick.variant} de PyTorch {pick.torch} : pip install torch=={pick.torch}.* "
            f"--index-url https://download.pytorch.org/whl/{pick.variant}",
        )
    asked = version_key(parsed.torch) if parsed.torch else None
    newer = [c for c in working if asked is None or version_key(c.torch) > asked]
    if newer:
        pick = newer[0]
        return (
            f"Use PyTorch {pick.torch} or newer with a wheel that ships {arch.sm} "
            f"(first: {pick.variant}): pip install torch --index-url https://download.pytorch.org/whl/{pick.variant}",
            f"Passez à PyTorch {pick.torch} ou plus récent avec une roue qui contient {arch.sm} "
            f"(la première : {pick.variant}) : pip install torch --index-url https://download.pytorch.org/whl/{pick.variant}",
        )
    pick = working[-1]
    return (
        f"The last release with kernels for {arch.sm} is PyTorch {pick.torch} ({pick.variant}): "
        f"pip install torch=={pick.torch}.* --index-url https://download.pytorch.org/whl/{pick.variant}",
        f"La dernière version avec des noyaux pour {arch.sm} est PyTorch {pick.torch} ({pick.variant}) : "
        f"pip install torch=={pick.torch}.* --index-url https://download.pytorch.org/whl/{pick.variant}",
    )
