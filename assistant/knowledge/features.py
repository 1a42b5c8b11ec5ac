"""CUDA features by compute capability, per-SM limits, and the corpus's known mistakes about them.

Data lives in ``data/features.toml``; a feature is available on exactly the compute capabilities
listed for it. Cards from other vendors get "not applicable" answers, never CUDA features.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from assistant.knowledge.loader import DataFileError, read_toml_table
from assistant.knowledge.names import fold
from assistant.knowledge.sources import Source

FEATURES_FILE = "features.toml"

T = TypeVar("T", bound=BaseModel)

VENDOR_NAMES = {"nvidia": "NVIDIA", "amd": "AMD", "apple": "Apple", "intel": "Intel"}

SupportStatus = Literal["yes", "needs_target", "no", "not_applicable", "unknown"]


class Availability(BaseModel):
    """One compute capability that has a feature, and the compiler target it needs if any."""

    cc: str = Field(pattern=r"^\d+\.\d$")
    target: str | None = Field(default=None, pattern=r"^sm_\d+[af]?$")
    note: str | None = None


class Feature(BaseModel):
    """A CUDA hardware/ISA feature and the exact set of compute capabilities that have it."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    aliases: list[str] = Field(default_factory=list)
    description: str
    shapes: list[str] = Field(default_factory=list)
    availability: list[Availability]
    cheapest_alternative: str | None = None
    sources: list[Source] = Field(min_length=1)

    def entry(self, cc: str) -> Availability | None:
        """The feature's entry (and compiler target) for compute capability `cc`, or None."""
        return next((a for a in self.availability if a.cc == cc), None)

    @property
    def ccs(self) -> list[str]:
        """The compute capabilities that have the feature, in data order."""
        return [a.cc for a in self.availability]


class SmLimits(BaseModel):
    """Per-SM resource limits of one compute capability (shared memory in KB)."""

    cc: str = Field(pattern=r"^\d+\.\d$")
    architecture: str
    shared_memory_per_sm_kb: int = Field(gt=0)
    shared_memory_per_block_kb: int = Field(gt=0)
    threads_per_sm: int = Field(gt=0)
    warps_per_sm: int = Field(gt=0)
    blocks_per_sm: int = Field(gt=0)
    registers_per_sm: int = Field(gt=0)
    fp32_to_fp64: str
    note: str | None = None
    sources: list[Source] = Field(min_length=1)


class CorpusClaim(BaseModel):
    """A statement of the corpus that NVIDIA's documents contradict, with the correction."""

    key: str
    features: list[str] = Field(min_length=1)
    applies_to_ccs: list[str] = Field(min_length=1, description="CCs where the claim misleads")
    document: str
    section: str
    claim: str
    correction: str
    sources: list[Source] = Field(min_length=1)


class CardException(BaseModel):
    """Cards whose die lacks a feature their compute capability has (GTX 16: no tensor cores)."""

    key: str
    name_contains: str
    chips: list[str] = Field(
        default_factory=list, description="Dies it holds for, whatever the card's name (prefixes)"
    )
    absent: list[str] = Field(min_length=1)
    note: str
    sources: list[Source] = Field(min_length=1)


class FeatureSupport(BaseModel):
    """Whether one card or compute capability has one feature."""

    key: str = Field(description="Feature key, e.g. 'tcgen05'")
    name: str = Field(description="Readable feature name")
    status: SupportStatus = Field(
        description="yes; needs_target (hardware has it, compile for required_target); no; "
        "not_applicable (not an NVIDIA card); unknown (compute capability not in the data)"
    )
    supported: bool = Field(description="True when the hardware has the feature")
    required_target: str | None = Field(default=None, description="e.g. sm_90a for wgmma")
    note: str | None = None
    sources: list[Source] = Field(default_factory=list)


class FeatureMatrix(BaseModel):
    """Everything in features.toml, sources resolved."""

    features: list[Feature]
    limits: list[SmLimits]
    claims: list[CorpusClaim]
    exceptions: list[CardException]
    sources: dict[str, Source]


@lru_cache(maxsize=1)
def load_features() -> FeatureMatrix:
    """The feature matrix, per-SM limits and corpus corrections, validated and cached."""
    raw = read_toml_table(FEATURES_FILE)
    sources = keyed_sources(raw.get("source", []), FEATURES_FILE)
    return FeatureMatrix(
        features=rows_with_sources(raw, "feature", Feature, sources, FEATURES_FILE),
        limits=rows_with_sources(raw, "sm_limits", SmLimits, sources, FEATURES_FILE),
        claims=rows_with_sources(raw, "corpus_claim", CorpusClaim, sources, FEATURES_FILE),
        exceptions=rows_with_sources(raw, "card_exception", CardException, sources, FEATURES_FILE),
        sources=sources,
    )


def keyed_sources(rows: list[dict[str, Any]], filename: str) -> dict[str, Source]:
    """`[[source]]` rows (each with a `key`) as a key → Source map."""
    out: dict[str, Source] = {}
    for i, row in enumerate(rows, 1):
        fields = {k: v for k, v in row.items() if k != "key"}
        if "key" not in row or row["key"] in out:
            raise DataFileError(f"{filename} source {i}: missing or duplicate key")
        try:
            out[row["key"]] = Source.model_validate(fields)
        except ValidationError as exc:
            raise DataFileError(f"{filename} source {row['key']}: {exc}") from exc
    return out


def rows_with_sources(
    raw: dict[str, Any], table: str, model: type[T], sources: dict[str, Source], filename: str
) -> list[T]:
    """Rows of `[[table]]` whose `sources` list names keys of `sources`, validated as `model`."""
    rows = []
    for i, row in enumerate(raw.get(table, []), 1):
        try:
            resolved = {
                **row,
                "sources": [resolve_source(k, sources) for k in row.get("sources", [])],
            }
        except KeyError as exc:
            raise DataFileError(f"{filename} {table} row {i}: unknown source key {exc}") from exc
        try:
            rows.append(model.model_validate(resolved))
        except ValidationError as exc:
            raise DataFileError(f"{filename} {table} row {i}: {exc}") from exc
    return rows


def resolve_source(ref: str, sources: dict[str, Source]) -> dict[str, Any]:
    """'key' or 'key@section' → the Source's fields; a section replaces the note."""
    key, _, section = ref.partition("@")
    fields = sources[key].model_dump()
    if section:
        fields["note"] = f"{fields['note']}, § {section}" if fields.get("note") else section
    return fields


def normalize_cc(value: str | float | None) -> str | None:
    """'sm_89' / 'sm_120a' / '8.9' / 'cc 12.0' / 9 → '8.9', '12.0', '9.0'; None if unreadable."""
    if value is None:
        return None
    text = str(value).strip().lower()
    m = re.fullmatch(r"(?:compute_|sm_?)(\d{2,3})[af]?", text)
    if m:
        digits = m.group(1)
        return f"{int(digits[:-1])}.{digits[-1]}"
    m = re.search(r"(\d{1,2})(?:\.(\d))?", text)
    if not m:
        return None
    return f"{int(m.group(1))}.{m.group(2) or '0'}"


def known_ccs() -> list[str]:
    """Compute capabilities the data describes."""
    return [lim.cc for lim in load_features().limits]


_BY_NAME: dict[int, tuple[object, dict[str, Feature]]] = {}


def get_feature(name: str) -> Feature | None:
    """A feature by key, name or alias (case-insensitive, exact)."""
    data = load_features()
    cached = _BY_NAME.get(id(data))
    if cached is None or cached[0] is not data:  # built once per loaded data
        index: dict[str, Feature] = {}
        for feature in data.features:
            names = [feature.key, feature.key.replace("_", " "), feature.name, *feature.aliases]
            for n in names:
                index.setdefault(fold(n), feature)
        _BY_NAME.clear()
        cached = _BY_NAME[id(data)] = (data, index)
    return cached[1].get(fold(name))


def sm_limits(cc: str | float | None) -> SmLimits | None:
    """Per-SM limits of a compute capability ('8.9', 'sm_89', 9.0), None if not in the data."""
    wanted = normalize_cc(cc)
    return next((lim for lim in load_features().limits if lim.cc == wanted), None)


def feature_support(
    feature: Feature | str, cc: str | None, arch_target: str | None = None, vendor: str = "nvidia"
) -> FeatureSupport:
    """Whether compute capability `cc` (or, failing that, `arch_target`) has one feature."""
    feat = feature if isinstance(feature, Feature) else get_feature(feature)
    if feat is None:
        raise KeyError(f"unknown feature {feature!r}")
    sources = feat.sources
    base = {"key": feat.key, "name": feat.name, "sources": sources}
    if vendor.lower() != "nvidia":
        who = VENDOR_NAMES.get(vendor.lower(), vendor)
        note = f"{feat.name} is a CUDA (NVIDIA) feature; {who} GPUs do not run CUDA PTX."
        return FeatureSupport(**base, status="not_applicable", supported=False, note=note)
    wanted = normalize_cc(cc) or normalize_cc(arch_target)
    if wanted is None or wanted not in known_ccs():
        note = f"compute capability {wanted or '?'} is not in the feature data"
        return FeatureSupport(**base, status="unknown", supported=False, note=note)
    entry = feat.entry(wanted)
    if entry is None:
        have = ", ".join(feat.ccs) or "none"
        note = f"not on CC {wanted}; available on CC {have}"
        return FeatureSupport(**base, status="no", supported=False, note=note)
    target = entry.target
    # A card whose catalog target is the arch-specific one (H100 → sm_90a) has it outright.
    has_target = target is None or (arch_target or "").lower() == target
    status: SupportStatus = "yes" if has_target else "needs_target"
    detail: str | None = entry.note
    if target:
        detail = f"compile for {target}" + (f"; {entry.note}" if entry.note else "")
    return FeatureSupport(
        **base, status=status, supported=True, required_target=target, note=detail
    )


def features_for_cc(cc: str | None, arch_target: str | None = None) -> list[FeatureSupport]:
    """Every feature's support on one compute capability, in data-file order."""
    return [feature_support(f, cc, arch_target) for f in load_features().features]


def features_for_card(card: Any) -> list[FeatureSupport]:
    """Every feature's support on a catalog card (anything with vendor, compute_capability,
    arch_target). Non-NVIDIA cards get not_applicable for every CUDA feature."""
    vendor = str(getattr(card, "vendor", "nvidia") or "nvidia")
    cc = getattr(card, "compute_capability", None)
    target = getattr(card, "arch_target", None)
    if vendor.lower() == "nvidia" and target and not str(target).startswith("sm_"):
        target = None
    out = [feature_support(f, cc, target, vendor) for f in load_features().features]
    return [_apply_exceptions(card, s) for s in out]


def card_exceptions(card: Any) -> list[CardException]:
    """Exceptions whose name pattern appears in the card's name, or that name the card's die
    (an MX450 is a TU117, the GTX 1650's die)."""
    name = str(getattr(card, "name", "") or "").lower()
    chip = str(getattr(card, "chip", "") or "").upper()
    return [
        e
        for e in load_features().exceptions
        if e.name_contains.lower() in name or (chip and any(chip.startswith(c) for c in e.chips))
    ]


def _apply_exceptions(card: Any, support: FeatureSupport) -> FeatureSupport:
    for exc in card_exceptions(card):
        if support.key in exc.absent and support.supported:
            return support.model_copy(
                update={
                    "status": "no",
                    "supported": False,
                    "required_target": None,
                    "note": exc.note,
                    "sources": [*exc.sources, *support.sources],
                }
            )
    return support


def corpus_claims_for(feature_key: str, cc: str | None = None) -> list[CorpusClaim]:
    """The corpus statements that NVIDIA's documents contradict for one feature (and, when `cc`
    is given, only those that mislead about that compute capability)."""
    wanted = normalize_cc(cc) if cc else None
    return [
        c
        for c in load_features().claims
        if feature_key in c.features and (wanted is None or wanted in c.applies_to_ccs)
    ]
