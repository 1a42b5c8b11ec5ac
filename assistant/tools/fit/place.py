"""Placing a workload on several cards: sharded across them (each card holds its share of the
weights, KV cache and optimizer state, in proportion to its memory or in equal shares, plus its
own activations and CUDA context) or one copy per card; the load of each card, and what the
interconnect means. The smallest card is the fullest one relative to its size, so its figures are
the ones reported."""

from __future__ import annotations

from assistant.knowledge.models import MemoryRules
from assistant.tools.fit.cards import CardSet, Slot
from assistant.tools.fit.estimate import Setup, estimate, sharded_and_kept
from assistant.tools.fit.models import CardLoad, MultiGpu
from assistant.tools.fit.resolve import verdict_gb


def binding_slot(cards: CardSet) -> Slot | None:
    """The card whose figures decide the verdict: the smallest (the only one, if just one)."""
    return min(cards.slots, key=lambda s: s.vram_gb) if cards.slots else None


def placed(setup: Setup, cards: CardSet, mode: str) -> Setup:
    """The setup as the binding card sees it: its share of the sharded state, or the whole."""
    n = len(cards.slots)
    if n == 0:  # no card named: the query's own count (num_gpus) splits the model evenly
        return setup if mode != "replicate" else setup.with_(num_gpus=1, shard_fraction=None)
    if n == 1 or mode == "replicate":
        return setup.with_(num_gpus=1, shard_fraction=None)
    if not cards.mixed or mode == "equal":
        return setup.with_(num_gpus=n, shard_fraction=None)
    smallest = binding_slot(cards)
    assert smallest is not None
    return setup.with_(num_gpus=n, shard_fraction=smallest.vram_gb / cards.total_vram_gb)


def interconnect(cards: CardSet) -> str:
    """'nvlink' when all cards have NVLink, 'pcie' if one lacks it, 'unknown' if one is unknown."""
    flags = [s.nvlink for s in cards.slots]
    if any(f is None for f in flags):
        return "unknown"
    return "nvlink" if all(flags) else "pcie"


def spread(
    setup: Setup, cards: CardSet, mode: str, rules: MemoryRules
) -> tuple[list[CardLoad], MultiGpu | None]:
    """Each card's load and the summary, when there are several cards."""
    n = len(cards.slots)
    if n <= 1:
        return [], None
    whole = estimate(setup.with_(num_gpus=1, shard_fraction=None), rules)
    shared, kept = sharded_and_kept(whole)
    loads = []
    for slot in cards.slots:
        share = (
            shared
            if mode == "replicate"
            else shared / n
            if mode == "equal"
            else shared * slot.vram_gb / cards.total_vram_gb
        )
        load = round(share + kept, 2)
        loads.append(
            CardLoad(
                gpu=slot.name,
                vram_gb=slot.vram_gb,
                load_gb=load,
                verdict=verdict_gb(load, whole.complete, slot.vram_gb, rules),  # type: ignore[arg-type]
                note=slot.note,
            )
        )
    notes_map = rules.multi_gpu_notes
    sharded = mode != "replicate"
    keys = ["not_one_pool", "shard" if sharded else "replicate"]
    if mode == "equal" and cards.mixed:
        keys.remove("shard")  # each card's share does not follow its memory: said below
    link = interconnect(cards)
    if sharded and link in ("nvlink", "pcie"):
        keys.append(link)
    if sharded and cards.mixed:
        keys.append("mixed_equal" if mode == "equal" else "mixed")
    notes = [notes_map[k] for k in keys if k in notes_map]
    notes_fr = [notes_map[f"{k}_fr"] for k in keys if f"{k}_fr" in notes_map]
    if link == "unknown" and sharded:
        notes.append(
            "Whether the cards are linked by NVLink is not known: over PCIe alone, tensor parallelism is slower."
        )
        notes_fr.append(
            "On ne sait pas si les cartes sont reliées par NVLink : sur PCIe seul, le parallélisme de tenseurs est plus lent."
        )
    summary = MultiGpu(
        mode=mode,  # type: ignore[arg-type]
        cards=n,
        total_vram_gb=cards.total_vram_gb,
        sharded_gb=shared,
        per_card_gb=kept,
        whole_gb=round(shared * (n if mode == "replicate" else 1) + kept * n, 2),
        interconnect=link,  # type: ignore[arg-type]
        notes=notes,
        notes_fr=notes_fr,
        sources=list(rules.multi_gpu_sources),
    )
    return loads, summary
