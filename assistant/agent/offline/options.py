"""Cards named as options ("a 5080 or a 4090?", "3090 vs 4070 Ti Super vs 5090") weighed against
the question's goal: the pick and why first, then one short table.

With a model to run, the option that holds it at the highest precision wins (ties: the most memory
left over); without one, the trade-off between the most memory in all and the fastest card."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import names_concept
from assistant.agent.offline.skills.workload_fit import (
    FINETUNE_TASKS,
    FITTING,
    SHORT_VERDICTS,
    gb,
    precision_bits,
    task_name,
)
from assistant.agent.offline.texts import num, pick
from assistant.knowledge.topics import generic_topic_keys
from assistant.language import Lang
from assistant.tools.fit import FitResult
from assistant.tools.lookup import GpuComparison

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.planner import ToolResult
    from assistant.agent.offline.reading import Reading


@dataclass(frozen=True)
class Held:
    """How one option holds one model: the best precision that fits and what it needs."""

    model: str
    precision: str | None
    total_gb: float | None
    capacity_gb: float | None
    verdict: str
    method_rank: int = 0  # fine-tuning weighed by method: 1 QLoRA, 2 LoRA, 3 full; 0 otherwise

    @property
    def bits(self) -> int:
        """Bits per weight of the precision that fits (16 when unstated), or the rank of the
        fine-tuning method that fits; 0 when it doesn't fit."""
        if self.verdict not in FITTING:
            return 0
        return self.method_rank or precision_bits(self.precision)

    @property
    def how(self) -> str:
        """'with' before a fine-tuning method, 'at' before a precision (English)."""
        return "with" if self.method_rank else "at"

    @property
    def spare_gb(self) -> float:
        """The memory left once the model fits, or -1 when it doesn't fit or a size is unknown."""
        if self.verdict not in FITTING or self.total_gb is None or self.capacity_gb is None:
            return -1.0
        return self.capacity_gb - self.total_gb


def _held(result: FitResult) -> Held:
    """The highest precision at which the model fits this option with room to spare, else at the
    limit (or the tool's own verdict)."""
    fitting = [
        o
        for o in result.by_precision
        if o.verdict in FITTING and o.runs != "no" and o.total_gb is not None
    ]
    # The highest precision with room to spare; only at the limit when nothing fits with room.
    # A format the card only unpacks (FP8 weights on a T4) comes after those it runs natively.
    roomy = [o for o in fitting if o.verdict != "tight"] or fitting
    best = max(
        roomy,
        key=lambda o: (o.runs != "weight_only", precision_bits(o.precision), -(o.total_gb or 0)),
        default=None,
    )
    model = result.model or (f"{result.params_b:g}B" if result.params_b else "?")
    capacity = result.capacity_gb or result.vram_gb
    if best is not None:
        return Held(model, best.precision, best.total_gb, capacity, best.verdict)
    if result.verdict not in FITTING:
        # One precision checked (a LoRA): a lighter base the tool found it fits with ('LoRA on an
        # fp8 base') is how this card holds the model; another method (LoRA for a full
        # fine-tuning) is not.
        lighter = [
            o for o in result.fits_with if o.precision and o.task is None and o.verdict in FITTING
        ]
        roomy_with = [o for o in lighter if o.verdict != "tight"] or lighter
        base = max(roomy_with, key=lambda o: precision_bits(o.precision), default=None)
        if base is not None:
            return Held(model, base.precision, base.total_gb, capacity, base.verdict)
    return Held(model, result.precision, result.total_gb, capacity, result.verdict)


def _by_method(rows: list[tuple[FitResult, Held]], lang: Lang) -> list[tuple[FitResult, Held]]:
    """One row per model: when a model was checked for fine-tuning (each method when none was
    named), the method that trains the most weights and still fits (else the lightest), named as
    the way it holds ('full fine-tuning', not its 'mixed' precision)."""
    out: list[tuple[FitResult, Held]] = []
    for model in dict.fromkeys(h.model for _, h in rows):
        mine = [(f, h) for f, h in rows if h.model == model]
        if any(f.task not in FINETUNE_TASKS for f, _ in mine):
            out.extend(mine)
            continue
        fitting = [(f, h) for f, h in mine if f.verdict in FITTING]
        if not fitting and any(h.verdict in FITTING for _, h in mine):
            # 'LoRA on an fp8 base': a lighter base the tool found is how this card holds it
            out.extend((f, h) for f, h in mine if h.verdict in FITTING)
            continue
        f, h = (
            max(fitting, key=lambda r: FINETUNE_TASKS.index(r[0].task))
            if fitting
            else min(mine, key=lambda r: r[0].total_gb or 0.0)
        )
        rank = FINETUNE_TASKS.index(f.task) + 1
        out.append((f, Held(model, task_name(f, lang), f.total_gb, h.capacity_gb, f.verdict, rank)))
    return out


def _label(result: FitResult) -> str:
    count = result.multi_gpu.cards if result.multi_gpu else 1
    name = result.gpu or "?"
    return f"{count} × {name}" if count > 1 else name


def _parse(model: Any, payload: Any) -> Any:
    from pydantic import ValidationError

    try:
        return model.model_validate(payload)
    except ValidationError:
        return None


def _bandwidths(results: list[ToolResult], names: list[str]) -> dict[str, float]:
    """Each card's memory bandwidth, from the comparison the turn made, else from the catalog
    (a comparison asked in another sentence may hold other cards)."""
    from assistant.knowledge.matching import match_gpu

    out: dict[str, float] = {}
    for r in results:
        found = _parse(GpuComparison, r.result) if r.name == "gpu_compare" else None
        if found is not None:
            out.update({c.name: c.bandwidth_gbs for c in found.cards if c.bandwidth_gbs})
    for name in names:
        card = match_gpu(name).gpu if name not in out else None
        if card is not None and card.bandwidth_gbs:
            out[name] = card.bandwidth_gbs
    return out


def _how_many(by_option: dict[str, list[tuple[FitResult, Held]]], lang: Lang) -> str:
    """How many of each option's card the memory calls for: the fit tool's count, which keeps
    what cannot be sharded (each card's activations and CUDA context) on every card; without
    it, the memory divided by one card's, a floor below that."""
    counts, practical, tool_counts = [], [], True
    for option, rows in by_option.items():
        first = rows[0][0]
        capacity = first.capacity_gb or first.vram_gb
        whole = first.multi_gpu.whole_gb if first.multi_gpu else first.total_gb
        if not capacity or not whole or first.multi_gpu:
            continue
        n = first.cards_needed or math.ceil(whole / capacity)
        tool_counts = tool_counts and first.cards_needed is not None
        counts.append(f"{n} × {option}")
        practical.append(f"{2 ** math.ceil(math.log2(n)) if n > 1 else 1} × {option}")
    if not counts:
        return ""
    first = next(iter(by_option.values()))[0][0]
    needed = f"{gb(first.total_gb, lang)} ({first.precision})"
    joined = pick(lang, " or ", " ou ").join(counts)
    served = pick(lang, " or ", " ou ").join(practical)
    each = (
        pick(
            lang,
            "by memory, each card keeping its own activations and CUDA context",
            "pour la mémoire, chaque carte gardant ses propres activations et son contexte CUDA",
        )
        if tool_counts
        else pick(
            lang,
            "by memory alone, more once each card's own activations and CUDA context are counted",
            "pour la mémoire seule, davantage en comptant les activations et le contexte CUDA de "
            "chaque carte",
        )
    )
    return pick(
        lang,
        f" It needs about {needed}: at least {joined} {each}; tensor parallelism splits the "
        f"attention heads evenly, so {served} in practice.",
        f" Il faut environ {needed} : au moins {joined} {each} ; le parallélisme de tenseurs "
        f"répartit les têtes d'attention à parts égales, d'où {served} en pratique.",
    )


def _cell(held: Held, lang: Lang) -> str:
    if held.verdict not in FITTING:
        return pick(lang, *SHORT_VERDICTS["does_not_fit"])
    return f"{held.precision} ({gb(held.total_gb, lang)})"


def _option_fits(results: list[ToolResult]) -> list[FitResult]:
    """The model's fit on each card checked."""
    return [
        f
        for r in results
        if r.name == "workload_fit" and not r.error
        for f in [_parse(FitResult, r.result)]
        if f is not None and f.gpu and f.total_gb
    ]


def holds_none(results: list[ToolResult]) -> bool:
    """The model was checked on cards and none holds it at any precision checked: 'the fastest'
    is then no answer."""
    fits = _option_fits(results)
    return bool(fits) and not any(_held(f).bits for f in fits)


def weigh_with_goal(reading: Reading, results: list[ToolResult], lang: Lang) -> str | None:
    """The pick among the options for the model(s) the question wants to run."""
    fits = _option_fits(results)
    by_option: dict[str, list[tuple[FitResult, Held]]] = {}
    for f in fits:
        by_option.setdefault(_label(f), []).append((f, _held(f)))
    by_option = {option: _by_method(rows, lang) for option, rows in by_option.items()}
    if len(by_option) < 2:
        return None
    models = list(dict.fromkeys(h.model for rows in by_option.values() for _, h in rows))

    def score(rows: list[tuple[FitResult, Held]]) -> tuple[int, int, int, float]:
        """An option's rank: models held, their total bits, how many with room to spare (not
        tight), then its smallest spare memory."""
        helds = [h for _, h in rows]
        return (
            sum(1 for h in helds if h.bits),
            sum(h.bits for h in helds),
            sum(1 for h in helds if h.bits and h.verdict != "tight"),
            min(h.spare_gb for h in helds),
        )

    speeds = _bandwidths(results, [f.gpu for f in fits if f.gpu])
    fastest = names_concept("speed", reading.text)

    def rank(option: str) -> tuple[int, int, int, float, float]:
        """The score, then the memory bandwidth: between equal fits the faster card leads; when
        speed is asked, the faster card leads among those that hold the same with room."""
        spare = score(by_option[option])
        first = by_option[option][0][0]
        bandwidth = speeds.get(first.gpu or "", 0.0)
        if fastest:
            return (*spare[:3], bandwidth, round(spare[3]))
        return (*spare[:3], round(spare[3]), bandwidth)

    ranked = sorted(by_option, key=rank, reverse=True)
    best = ranked[0]
    best_rows = by_option[best]
    goal = pick(lang, " and ", " et ").join(models) + _served_together(fits, lang)
    if not any(h.bits for _, h in best_rows):
        head = pick(
            lang,
            f"**No single card of these holds {goal}** at any precision checked.",
            f"**Aucune de ces cartes seule ne fait tenir {goal}**, quelle que soit la précision "
            "testée.",
        ) + _how_many(by_option, lang)
    else:
        each = (" per card", " par carte") if " × " in best else ("", "")
        why = pick(lang, "; ", " ; ").join(
            pick(
                lang,
                f"{h.model} fits {h.how} {h.precision} (about {gb(h.total_gb, lang)} of {gb(h.capacity_gb, lang)}{each[0]})",
                f"{h.model} tient en {h.precision} (environ {gb(h.total_gb, lang)} sur {gb(h.capacity_gb, lang)}{each[1]})",
            )
            if h.verdict != "tight"
            else pick(
                lang,
                f"{h.model} fits {h.how} {h.precision} only at the limit ({gb(h.total_gb, lang)} of "
                f"{gb(h.capacity_gb, lang)}{each[0]}: no room left for a long context or batches, "
                "too tight to serve in practice)",
                f"{h.model} ne tient en {h.precision} qu'à la limite ({gb(h.total_gb, lang)} sur "
                f"{gb(h.capacity_gb, lang)}{each[1]} : plus de place pour un long contexte ou des "
                "lots, trop juste pour servir en pratique)",
            )
            for _, h in best_rows
        )
        tied = [o for o in ranked[1:] if score(by_option[o])[:3] == score(best_rows)[:3]]
        limit = [
            o
            for o in ranked[1:]
            if o not in tied and score(by_option[o])[:2] == score(best_rows)[:2]
        ]
        many = len(models) > 1
        lighter = (
            ("with a lighter method", "qu'avec une méthode plus légère")
            if any(h.method_rank for _, h in best_rows)
            else ("at a lower precision", "qu'en précision plus basse")
        )
        it, le = ("them", "les") if many else ("it", "le")
        room = round(score(best_rows)[3])
        same = [o for o in tied if round(score(by_option[o])[3]) == room]
        roomier = [o for o in tied if round(score(by_option[o])[3]) > room]  # the pick is faster
        serving = all(f.task == "inference" for f, _ in best_rows)
        rest = (
            pick(
                lang,
                f" {', '.join(tied)} {'also hold' if len(tied) > 1 else 'also holds'} {it}"
                + (
                    " with as much memory to spare; the pick has the faster memory"
                    + (", which sets the generation speed." if serving else ".")
                    if same
                    else ", with more memory to spare but slower memory"
                    + (", which sets the generation speed." if serving else ".")
                    if roomier
                    else ", with less memory to spare."
                ),
                f" {', '.join(tied)} {le} {'font' if len(tied) > 1 else 'fait'} tenir aussi"
                + (
                    " avec autant de marge ; le choix a la mémoire la plus rapide"
                    + (", qui fixe la vitesse de génération." if serving else ".")
                    if same
                    else ", avec plus de marge mais une mémoire plus lente"
                    + (", qui fixe la vitesse de génération." if serving else ".")
                    if roomier
                    else ", avec moins de marge."
                ),
            )
            if tied
            else ""
            if limit
            else pick(
                lang,
                f" {', '.join(ranked[1:])} {'holds' if len(ranked) == 2 else 'hold'} {it} only "
                f"{lighter[0]} or not at all.",
                f" {', '.join(ranked[1:])} ne {le} {'fait' if len(ranked) == 2 else 'font'} tenir "
                f"{lighter[1]}, ou pas du tout.",
            )
        )
        for option in limit:
            h = next(h for _, h in by_option[option] if h.verdict == "tight")
            used = f"{gb(h.total_gb, lang)} / {gb(h.capacity_gb, lang)}"
            rest += pick(
                lang,
                f" {option} holds {it} only at the limit ({used} per card): no room left for "
                "longer contexts or batches, too tight to serve in practice.",
                f" {option} ne {le} fait tenir qu'à la limite ({used} par carte) : plus de place "
                "pour un contexte ou des lots plus grands, trop juste pour servir en pratique.",
            )
        head = (
            pick(
                lang,
                f"**{best}** is the pick for {goal}: {why}.",
                f"**{best}** est le meilleur choix pour {goal} : {why}.",
            )
            + rest
        )
    header = (
        f"| {pick(lang, 'Option', 'Option')} | {pick(lang, 'Memory', 'Mémoire')} | "
        + pick(lang, "Bandwidth", "Bande passante")
        + " | "
        + " | ".join(pick(lang, f"{m}: best fit", f"{m} : meilleure tenue") for m in models)
        + " |"
    )
    rows = []
    for option in ranked:
        first = by_option[option][0][0]
        held = {h.model: h for _, h in by_option[option]}
        bw = speeds.get(first.gpu or "")
        per_card = f"{num(bw, lang, 0)} {pick(lang, 'GB/s', 'Go/s')}" if bw else "—"
        cells = " | ".join(_cell(held[m], lang) if m in held else "—" for m in models)
        memory = first.multi_gpu.total_vram_gb if first.multi_gpu else first.capacity_gb
        rows.append(f"| {option} | {gb(memory, lang)} | {per_card} | {cells} |")
    table = header + "\n|---|---|---|" + "---|" * len(models) + "\n" + "\n".join(rows)
    return head + "\n\n" + table


def _served_together(fits: list[FitResult], lang: Lang) -> str:
    """' with 20 sequences of 8,192 tokens at once' when the fits were sized for several users
    together, so the pick says what it holds."""
    first = fits[0] if fits else None
    batch = first.query.batch_size if first is not None else None
    if first is None or not batch or batch < 2 or not first.context_tokens:
        return ""
    tokens = num(first.context_tokens, lang, 0)
    return pick(
        lang,
        f" with {batch} sequences of {tokens} tokens at once",
        f" avec {batch} séquences de {tokens} tokens à la fois",
    )


def weighed_without_goal(ent: Entities) -> bool:
    """Whether options with no model named get a trade-off of their own: options of another
    shape (several of one card against one of another) or of different makers (a Mac or a GPU
    laptop). Two single cards of one maker are a plain side-by-side comparison."""
    from assistant.agent.offline.card_roles import card_vendors

    if any(n > 1 for n in ent.card_counts.values()):
        return True
    return len(card_vendors(ent.gpus)) > 1


def weigh_without_goal(reading: Reading, results: list[ToolResult], lang: Lang) -> str | None:
    """Options with no model named: the most memory in all against the fastest card."""
    if not weighed_without_goal(reading.entities):
        return None
    comparison = next(
        (
            c
            for r in results
            if r.name == "gpu_compare"
            for c in [_parse(GpuComparison, r.result)]
            if c is not None and len(c.cards) >= 2
        ),
        None,
    )
    if comparison is None:
        return None
    ent = reading.entities
    counts = ent.card_counts
    cards = [
        c.model_copy(update={"vram_gb": ent.memory_of(c.name) or c.vram_gb})
        for c in comparison.cards
        if c.vram_gb and c.bandwidth_gbs
    ]
    if len(cards) < 2:
        return None

    def total(card: Any) -> float:
        """The option's total memory in GB: the card's VRAM times how many of it."""
        return float(card.vram_gb) * counts.get(card.name, 1)

    def label(card: Any) -> str:
        """The card's name, with its count when there are several ('2 × RTX 3090')."""
        n = counts.get(card.name, 1)
        return f"{n} × {card.name}" if n > 1 else card.name

    fastest = max(cards, key=lambda c: c.bandwidth_gbs)
    # On a tie in memory the fastest counts as the roomiest: 2 × 12 GB is not more than 24 GB.
    roomiest = max(cards, key=lambda c: (total(c), c.name == fastest.name))
    return _trade_off(cards, roomiest, fastest, total, label, counts, lang) + _cuda_line(
        cards, label, lang
    )


def _cuda_line(cards: list[Any], label: Any, lang: Lang) -> str:
    """Options of different makers: which one runs CUDA, and what the others use instead."""
    from assistant.knowledge.stacks import load_stacks

    nvidia = [label(c) for c in cards if c.vendor == "nvidia"]
    others = [c for c in cards if c.vendor != "nvidia"]
    if not nvidia or not others:
        return ""
    stacks = load_stacks()
    instead = "; ".join(
        pick(
            lang,
            f"{label(c)} uses {stacks[c.vendor].name}",
            f"{label(c)} passe par {stacks[c.vendor].name}",
        )
        for c in others
        if c.vendor in stacks
    )
    return pick(
        lang,
        f"\n\nOnly {' and '.join(nvidia)} {'run' if len(nvidia) > 1 else 'runs'} CUDA"
        + (f"; {instead} instead." if instead else "."),
        f"\n\n{'Seules' if len(nvidia) > 1 else 'Seule'} {' et '.join(nvidia)} "
        f"{'font' if len(nvidia) > 1 else 'fait'} tourner CUDA"
        + (f" ; {instead} à la place." if instead else "."),
    )


def _speed_error() -> float:
    """The decode estimate's typical error (a fraction): bandwidths closer than that generate at
    speeds the estimate cannot tell apart."""
    from assistant.knowledge.speed import load_speed_rules

    return load_speed_rules().typical_error_fraction


def _trade_off(
    cards: list[Any],
    roomiest: Any,
    fastest: Any,
    total: Any,
    label: Any,
    counts: dict[str, int],
    lang: Lang,
) -> str:
    """The fastest card for models it holds, against the option that holds the most."""
    tied = [c for c in cards if c.name != roomiest.name and total(c) == total(roomiest)]
    if roomiest.name == fastest.name and tied:
        # 'Both 24GB': the same memory, so the speed of that memory is what tells them apart.
        other = max(tied, key=lambda c: c.bandwidth_gbs)
        close = fastest.bandwidth_gbs <= other.bandwidth_gbs * (1 + _speed_error())
        several = [c for c in (fastest, other) if counts.get(c.name, 1) > 1]
        pool = (
            pick(
                lang,
                f" {label(several[0])} is not one {gb(total(several[0]), lang)} pool: a model must be "
                f"split between the cards, while {label(fastest if several[0] is other else other)} "
                "holds it on one.",
                f" {label(several[0])} ne forment pas un seul bloc de {gb(total(several[0]), lang)} : un "
                f"modèle doit être découpé entre les cartes, alors que "
                f"{label(fastest if several[0] is other else other)} le garde sur une seule.",
            )
            if len(several) == 1
            else ""
        )
        return pick(
            lang,
            f"**Same memory ({gb(total(fastest), lang)})**; "
            + (
                f"their memory speeds are close ({num(fastest.bandwidth_gbs, lang, 0)} against "
                f"{num(other.bandwidth_gbs, lang, 0)} GB/s), so they generate at about the same speed: "
                "software support decides."
                if close
                else f"**{label(fastest)}** generates faster ({num(fastest.bandwidth_gbs, lang, 0)} "
                f"against {num(other.bandwidth_gbs, lang, 0)} GB/s)."
            )
            + pool,
            f"**Même mémoire ({gb(total(fastest), lang)})** ; "
            + (
                f"leurs débits mémoire sont proches ({num(fastest.bandwidth_gbs, lang, 0)} contre "
                f"{num(other.bandwidth_gbs, lang, 0)} Go/s), donc elles génèrent à peu près aussi vite : "
                "c'est la prise en charge logicielle qui tranche."
                if close
                else f"**{label(fastest)}** génère plus vite ({num(fastest.bandwidth_gbs, lang, 0)} "
                f"contre {num(other.bandwidth_gbs, lang, 0)} Go/s)."
            )
            + pool,
        )
    if roomiest.name == fastest.name:
        return pick(
            lang,
            f"**{label(fastest)}**: it has both the most memory ({gb(total(fastest), lang)}) and the "
            f"fastest memory ({num(fastest.bandwidth_gbs, lang, 0)} GB/s).",
            f"**{label(fastest)}** : c'est l'option qui a à la fois le plus de mémoire "
            f"({gb(total(fastest), lang)}) et la mémoire la plus rapide ({num(fastest.bandwidth_gbs, lang, 0)} Go/s).",
        )
    split = counts.get(roomiest.name, 1) > 1
    link = (
        pick(
            lang,
            " spread over several cards that exchange data over "
            + ("NVLink" if roomiest.nvlink else "PCIe (no NVLink)"),
            " répartie sur plusieurs cartes qui échangent par "
            + ("NVLink" if roomiest.nvlink else "PCIe (pas de NVLink)"),
        )
        if split
        else ""
    )
    between = [c for c in cards if c.name not in (fastest.name, roomiest.name)]
    middle = (
        pick(lang, " In between: ", " Entre les deux : ")
        + pick(lang, "; ", " ; ").join(
            f"{label(c)} ({gb(total(c), lang)}, {num(c.bandwidth_gbs, lang, 0)} "
            + pick(lang, "GB/s)", "Go/s)")
            for c in between
        )
        + "."
        if between
        else ""
    )
    return pick(
        lang,
        f"**It depends on the model size.** For a model that fits in {gb(fastest.vram_gb, lang)}, "
        f"**{label(fastest)}** is faster: generation follows memory bandwidth, "
        f"{num(fastest.bandwidth_gbs, lang, 0)} GB/s against {num(roomiest.bandwidth_gbs, lang, 0)} GB/s "
        f"per card. **{label(roomiest)}** holds more ({gb(total(roomiest), lang)}{' in all' if split else ''}{link}), "
        "so it runs larger models, more slowly." + middle,
        f"**Ça dépend de la taille du modèle.** Pour un modèle qui tient dans {gb(fastest.vram_gb, lang)}, "
        f"**{label(fastest)}** est plus rapide : la génération suit la bande passante mémoire, "
        f"{num(fastest.bandwidth_gbs, lang, 0)} Go/s contre {num(roomiest.bandwidth_gbs, lang, 0)} Go/s "
        f"par carte. **{label(roomiest)}** a plus de mémoire ({gb(total(roomiest), lang)}{' en tout' if split else ''}{link}) : "
        "elle fait tourner de plus gros modèles, plus lentement." + middle,
    )


def weigh_options(reading: Reading, results: list[ToolResult]) -> tuple[str, set[str]] | None:
    """The pick among cards named as options, and the tools whose sections it replaces; None
    when the cards are not options."""
    if not reading.entities.options:
        return None
    lang = reading.language
    with_goal = weigh_with_goal(reading, results, lang)
    if with_goal:
        return with_goal, {"workload_fit", "gpu_compare", "recommend_gpus"}
    if results and results[0].name == "power_cost":
        return None  # the cards' draws were asked ('what does X draw vs Y'): they lead, not specs
    without = weigh_without_goal(reading, results, lang)
    if not without:
        return None
    generic = all(
        str(r.result.get("topic")) in generic_topic_keys()
        for r in results
        if r.name == "gpu_capability" and isinstance(r.result, dict)
    )
    return without, {"gpu_capability"} if generic else set()
