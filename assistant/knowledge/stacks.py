"""What a non-NVIDIA card uses instead of CUDA (data/vendor_stacks.toml), and an AMD card's gfx
target and ROCm support (data/amd_targets.toml)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pydantic import BaseModel, Field

from assistant.knowledge.gpu_names import core_tokens, key
from assistant.knowledge.sources import Source

STACKS_FILE = "vendor_stacks.toml"
AMD_FILE = "amd_targets.toml"


class VendorStack(BaseModel):
    """A vendor's GPU programming stack, and what of the guide it can follow (EN and FR)."""

    vendor: str
    name: str
    instead_en: str
    instead_fr: str
    guide_en: str
    guide_fr: str
    unsupported_en: str | None = None
    unsupported_fr: str | None = None
    too_old_architectures: list[str] = Field(
        default_factory=list,
        description="Architectures no release of the stack ever targeted (TeraScale for ROCm)",
    )
    too_old_en: str | None = None
    too_old_fr: str | None = None
    on_macos_en: str | None = Field(
        default=None,
        description="What to use instead when the card sits in a Mac running macOS, where the "
        "vendor's own stack does not exist (no ROCm on macOS)",
    )
    on_macos_fr: str | None = None
    topic: str | None = Field(
        default=None,
        description="The capability topic a bare 'is my card supported?' asks about on this "
        "vendor's cards (ROCm on a Radeon)",
    )
    pytorch_as_cuda: bool = Field(
        default=False,
        description="The stack's PyTorch build answers to torch.cuda, so PyTorch code written for "
        "CUDA runs as is: a question on running such code there is checked against `topic`",
    )
    undetected_topic: str | None = Field(
        default=None,
        description="The topic a report that no GPU was found is checked against on this "
        "vendor's cards when `topic` is unset: what the program looked for (CUDA on an Intel UHD)",
    )
    asked_words: list[str] = Field(
        default_factory=list,
        description="Words of the stack a question uses without naming the maker or a card "
        "('rocminfo shows gfx1100', 'torch.xpu.is_available()'); regular expressions, matched "
        "on lowercased text at word boundaries",
    )
    sources: list[Source] = Field(min_length=1)


class AmdChip(BaseModel):
    """Chips (as the TechPowerUp database names them) and their LLVM gfx target."""

    chip: list[str] = Field(min_length=1)
    target: str = Field(pattern=r"^gfx[0-9a-f]{3,4}$")
    sources: list[Source] = Field(min_length=1)


class AmdCardSupport(BaseModel):
    """Cards in AMD's ROCm support tables."""

    names: list[str] = Field(min_length=1)
    target: str = Field(pattern=r"^gfx[0-9a-f]{3,4}$")
    rocm_linux: bool
    hip_sdk_windows: bool
    sources: list[Source] = Field(min_length=1)


class MatrixFormats(BaseModel):
    """The number formats some gfx targets' matrix instructions take (feature keys)."""

    targets: list[str] = Field(min_length=1)
    formats: list[str] = Field(min_length=1)
    note: str
    sources: list[Source] = Field(min_length=1)


class AmdTargets(BaseModel):
    chips: list[AmdChip]
    cards: list[AmdCardSupport]
    matrix: list[MatrixFormats] = Field(default_factory=list)


class RocmStatus(BaseModel):
    """One AMD card's gfx target and whether ROCm supports it officially."""

    target: str | None = None
    rocm_linux: bool = False
    hip_sdk_windows: bool = False
    listed: bool = Field(default=False, description="The card is in AMD's support tables")
    sources: list[Source] = Field(default_factory=list)


@cache
def load_stacks() -> dict[str, VendorStack]:
    """Vendor → stack (read once)."""
    from assistant.knowledge.loader import read_toml_rows

    return {s.vendor: s for s in read_toml_rows(STACKS_FILE, "stack", VendorStack)}


@cache
def _asked_patterns() -> dict[str, re.Pattern[str]]:
    return {
        vendor: re.compile("|".join(rf"(?<![\w.-])(?:{w})(?![\w-])" for w in stack.asked_words))
        for vendor, stack in load_stacks().items()
        if stack.asked_words
    }


def stack_vendor(text: str) -> str | None:
    """The one maker whose stack a text's words name ('rocminfo', 'torch.xpu'), else None."""
    lowered = text.lower()
    found = {v for v, pattern in _asked_patterns().items() if pattern.search(lowered)}
    return found.pop() if len(found) == 1 else None


@cache
def load_amd_targets() -> AmdTargets:
    """Chips and cards of amd_targets.toml, source keys resolved (read once)."""
    from assistant.knowledge.features import keyed_sources, rows_with_sources
    from assistant.knowledge.loader import read_toml_table

    raw = read_toml_table(AMD_FILE)
    sources = keyed_sources(raw.get("source", []), AMD_FILE)
    return AmdTargets(
        chips=rows_with_sources(raw, "chip", AmdChip, sources, AMD_FILE),
        cards=rows_with_sources(raw, "card", AmdCardSupport, sources, AMD_FILE),
        matrix=rows_with_sources(raw, "matrix_formats", MatrixFormats, sources, AMD_FILE),
    )


def matrix_formats(target: str | None) -> MatrixFormats | None:
    """The matrix number formats of an AMD gfx target; None when it has no matrix instructions
    (or no target is known)."""
    if not target:
        return None
    return next((m for m in load_amd_targets().matrix if target in m.targets), None)


@cache
def _card_keys() -> dict[tuple[str, ...], AmdCardSupport]:
    out: dict[tuple[str, ...], AmdCardSupport] = {}
    for row in load_amd_targets().cards:
        for name in row.names:
            out[key(core_tokens(name))] = row
    return out


def rocm_status(card: Any) -> RocmStatus:
    """An AMD card's gfx target (its own, its support-table row's, or its chip's) and ROCm
    support. A card in neither table nor with a known chip gets no target."""
    names = [str(getattr(card, "name", "")), *list(getattr(card, "aliases", []) or [])]
    row = next(
        (
            _card_keys().get(key(core_tokens(n)))
            for n in names
            if _card_keys().get(key(core_tokens(n)))
        ),
        None,
    )
    own = getattr(card, "arch_target", None)
    if row is not None:
        return RocmStatus(
            target=own or row.target,
            rocm_linux=row.rocm_linux,
            hip_sdk_windows=row.hip_sdk_windows,
            listed=True,
            sources=row.sources,
        )
    chip = str(getattr(card, "chip", "") or "")
    found = chip_target(chip)
    if own:
        return RocmStatus(target=own, sources=found.sources if found else [])
    if found is not None:
        return RocmStatus(target=found.target, sources=found.sources)
    return RocmStatus()


@cache
def _chips() -> dict[str, AmdChip]:
    return {n.lower(): c for c in load_amd_targets().chips for n in c.chip}


def chip_target(chip: str) -> AmdChip | None:
    """The row of an AMD chip name ('Navi 21'), None if not in the table."""
    return _chips().get(chip.strip().lower())
