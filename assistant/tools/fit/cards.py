"""The cards a workload is sized against: one catalog card, N of them, several different ones
("3090 + 4090", "4x A10G"), a bare memory size, or the probed machine (its free memory, or its MIG
slice). Names go through the catalog's public lookup; nothing here matches names itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from assistant.tools.fit.models import FitQuery

if TYPE_CHECKING:
    from assistant.knowledge.gpus import GpuCard
    from assistant.tools.probe.models import ProbedGpu, ProbeReport

_COUNT = re.compile(r"^\s*(\d{1,3})\s*[x×*]\s*(.+?)\s*$", re.I)
# "A100 x8", "3090x2": an 'x' that ends a word ("GTX 970") is part of the name, not a count.
_COUNT_AFTER = re.compile(r"^\s*(.+?)(?:\s*[×*]|\s+x|(?<=\d)x)\s*(\d{1,3})\s*$", re.I)
_SPLIT = re.compile(r"\s*(?:\+|,|;|&|\band\b|\bet\b|\bplus\b)\s*", re.I)
_MIG_SLICE = re.compile(r"\bMIG\s+\d+g\.(\d+)gb\b", re.I)
MAX_CARDS = 1024


@dataclass(frozen=True)
class Slot:
    """One card the workload may use, and how much of its memory (binary GB)."""

    name: str
    vram_gb: float
    card: GpuCard | None = None
    compute_capability: str | None = None
    vendor: str | None = None
    arch_target: str | None = None
    nvlink: bool | None = None
    origin: Literal["catalog", "size", "probe"] = "catalog"
    note: str | None = None
    sold_gb: float | None = None  # a Mac's whole unified memory, of which vram_gb is the GPU's


@dataclass
class CardSet:
    """The resolved cards, or what went wrong with the names."""

    slots: list[Slot]
    problems: list[str]
    suggestions: list[str]
    notes: list[str]
    integrated: bool = False  # a card named is an integrated GPU (its "memory" is borrowed RAM)

    @property
    def total_vram_gb(self) -> float:
        """The memory of all the cards together, in GB."""
        return round(sum(s.vram_gb for s in self.slots), 2)

    @property
    def mixed(self) -> bool:
        """Whether the cards differ by name or memory."""
        return len({(s.name, s.vram_gb) for s in self.slots}) > 1

    def label(self) -> str:
        """'4 x A10G', 'GeForce RTX 3090 + GeForce RTX 4090', 'a 24 GB card'."""
        groups: dict[str, int] = {}
        for slot in self.slots:
            groups[slot.name] = groups.get(slot.name, 0) + 1
        return " + ".join(f"{n} x {name}" if n > 1 else name for name, n in groups.items())


def split_cards(text: str) -> list[tuple[int, str]]:
    """'4x A10G' -> [(4, 'A10G')]; 'RTX 3090 + RTX 4090' -> [(1, 'RTX 3090'), (1, 'RTX 4090')]."""
    out: list[tuple[int, str]] = []
    for part in _SPLIT.split(text):
        if not part.strip():
            continue
        m = _COUNT.match(part)
        if m and not re.match(r"^\d+(?:[.,]\d+)?\s*b\b", m.group(2), re.I):
            out.append((int(m.group(1)), m.group(2)))
            continue
        m = _COUNT_AFTER.match(part)
        if m:
            out.append((int(m.group(2)), m.group(1)))
            continue
        out.append((1, part.strip()))
    return out


def _catalog_slot(card: GpuCard, vram_gb: float | None = None) -> Slot:
    return Slot(
        name=card.name,
        vram_gb=float(vram_gb or card.vram_gb or 0.0),
        card=card,
        compute_capability=card.compute_capability,
        vendor=card.vendor,
        arch_target=card.arch_target,
        nvlink=card.nvlink,
    )


def _lookup(name: str) -> tuple[GpuCard | None, list[str]]:
    try:
        from assistant.knowledge.matching import match_gpu
    except ImportError:  # catalog not available
        return None, []
    match = match_gpu(name)
    return match.gpu, list(match.suggestions)


def integrated_note(card: GpuCard) -> str:
    """Why no model is sized on an integrated GPU."""
    cuda = (
        ""
        if card.vendor == "nvidia"
        else "; it is not an NVIDIA GPU, so CUDA programs do not run on it"
    )
    return (
        f"{card.name} is an integrated GPU: it has no memory of its own and borrows part of the "
        f"computer's RAM (what Windows shows as shared GPU memory){cuda}. Models run on it only "
        "through backends made for it (OpenVINO, DirectML, Vulkan builds of llama.cpp), and "
        "slowly; a dedicated GPU or a free notebook GPU (Colab, Kaggle) does far more."
    )


def _named(entries: list[str], default_count: int, vram_gb: float | None) -> CardSet:
    result = CardSet([], [], [], [])
    pairs = [pair for entry in entries for pair in split_cards(entry)]
    if len(pairs) == 1 and pairs[0][0] == 1:
        pairs = [(default_count, pairs[0][1])]
    for count, name in pairs:
        card, near = _lookup(name)
        if card is None:
            result.problems.append(f"Unknown GPU {name!r}: not in the catalog.")
            result.suggestions.extend(n for n in near if n not in result.suggestions)
            continue
        if card.integrated:  # "8 GB shared" is the computer's RAM, not memory to size against
            result.problems.append(integrated_note(card))
            result.integrated = True
            continue
        if not (vram_gb or card.vram_gb):
            result.problems.append(f"The catalog has no memory size for {card.name}.")
            continue
        slot = _catalog_slot(card, vram_gb)
        if card.vendor == "apple":  # the Mac's memory as sold, of which the GPU gets a share
            slot = _unified_share(slot, result.notes)
        result.slots.extend([slot] * count)
    return result


def _unified_share(slot: Slot, notes: list[str]) -> Slot:
    """A Mac's unified memory as its GPU may use it by default (macOS's wired-memory limit)."""
    from dataclasses import replace

    from assistant.knowledge.models import load_memory_rules

    share = load_memory_rules().unified_share(slot.vram_gb)
    usable = round(slot.vram_gb * share, 1)
    notes.append(
        f"{slot.name}: the GPU may use about {share:.0%} of the {slot.vram_gb:g} GB of unified "
        f"memory by default ({usable:g} GB, macOS's wired-memory limit); "
        "`sudo sysctl iogpu.wired_limit_mb=<MB>` raises it (macOS 14 and later)."
    )
    note = f"{usable:g} of {slot.vram_gb:g} GB usable by the GPU"
    return replace(slot, vram_gb=usable, note=note, sold_gb=slot.vram_gb)


def _probed_slot(gpu: ProbedGpu, notes: list[str]) -> Slot | None:
    match = gpu.catalog_match
    name = gpu.name or (match.name if match else f"GPU {gpu.index}")
    total = gpu.memory_total_gb or (match.vram_gb if match else None)
    free = gpu.memory_free_gb
    slice_gb = None
    m = _MIG_SLICE.search(gpu.name or "")
    if m:
        slice_gb = float(m.group(1))
    elif gpu.mig_mode == "enabled" and gpu.mig_devices and total:
        slice_gb = round(total / gpu.mig_devices, 1)
        notes.append(
            f"{name}: MIG is on with {gpu.mig_devices} instances; a process sees one of them, "
            f"assumed here to be an even share ({slice_gb:g} GB). Give the slice's size if it differs."
        )
    usable = free if free is not None else total
    if slice_gb is not None:
        usable = min(usable, slice_gb) if usable is not None else slice_gb
    if not usable:
        return None
    if free is not None and total and slice_gb is None:
        note = f"free memory {free:g} of {total:g} GB, as probed"
    elif slice_gb is not None:
        note = f"MIG slice of {slice_gb:g} GB"
    else:
        note = "total memory (free memory not reported)"
    card, _ = _lookup(match.name) if match else (None, [])
    return Slot(
        name=name,
        vram_gb=float(usable),
        card=card,
        compute_capability=gpu.compute_capability or (match.compute_capability if match else None),
        vendor=gpu.vendor,
        arch_target=match.arch_target if match else None,
        nvlink=card.nvlink if card else None,
        origin="probe",
        note=note,
    )


def _from_probe(report: ProbeReport) -> CardSet:
    result = CardSet([], [], [], [])
    for gpu in report.gpus:
        slot = _probed_slot(gpu, result.notes)
        if slot is not None:
            result.slots.append(slot)
    if not result.slots:
        result.problems.append(
            "The probed machine shows no GPU with a memory figure: "
            + (report.summary or "no GPU found")
        )
    else:
        result.notes.append(
            "This machine, as probed: the free memory of each GPU is used, not its total, since "
            "other processes hold the rest."
        )
    return result


def resolve_cards(query: FitQuery) -> CardSet:
    """Every card the query names, in order of precedence: the probed machine, `gpus`, `gpu`
    (times `num_gpus`), then a bare `vram_gb` (times `num_gpus`); less, on each, the memory
    other programs hold (`in_use_gb`)."""
    if query.machine is not None:
        return _from_probe(query.machine)  # a probe reads free memory: what is held is counted
    return _less_in_use(_named_or_sized(query), query.in_use_gb)


MIN_LEFT_GB = 0.1  # what a card full of other programs leaves: nothing a model can use


def _less_in_use(cards: CardSet, in_use_gb: float | None) -> CardSet:
    """The cards with the memory other programs hold taken off each ('the game uses 5.5 GB')."""
    from dataclasses import replace

    if not in_use_gb or not cards.slots:
        return cards
    slots = []
    for slot in cards.slots:
        left = round(max(MIN_LEFT_GB, slot.vram_gb - in_use_gb), 2)
        note = f"{left:g} of {slot.vram_gb:g} GB left by other programs"
        slots.append(replace(slot, vram_gb=left, note=note, sold_gb=slot.sold_gb or slot.vram_gb))
    held = (
        f"Other programs hold {in_use_gb:g} GB on each card, as stated: the workload is sized "
        f"against what is left ({slots[0].vram_gb:g} GB)."
    )
    return replace(cards, slots=slots, notes=[*cards.notes, held])


def _named_or_sized(query: FitQuery) -> CardSet:
    """The cards named (`gpus`, or `gpu` times `num_gpus`), else a bare memory size."""
    names = [*query.gpus] if query.gpus else ([query.gpu] if query.gpu else [])
    if names:
        found = _named(names, query.num_gpus, query.vram_gb)
        if found.problems and query.vram_gb is not None and not query.gpus and not found.integrated:
            # an unknown card with its memory given: sized on that memory (not an integrated
            # GPU's "8 GB shared", which is the computer's RAM)
            size = Slot(name=f"{query.vram_gb:g} GB card", vram_gb=query.vram_gb, origin="size")
            return CardSet([size] * query.num_gpus, [], found.suggestions, [])
        return found
    if query.vram_gb is not None:
        size = Slot(name=f"{query.vram_gb:g} GB card", vram_gb=query.vram_gb, origin="size")
        return CardSet([size] * query.num_gpus, [], [], [])
    return CardSet([], [], [], [])
