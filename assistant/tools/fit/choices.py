"""The common precisions side by side when a question names none: each one's total on the
card(s), its verdict, and whether it runs there; the best one that fits and runs leads."""

from __future__ import annotations

from assistant.knowledge.models import MemoryRules, ModelSpec
from assistant.tools.fit.cards import CardSet
from assistant.tools.fit.estimate import estimate
from assistant.tools.fit.models import FitQuery, PrecisionOption
from assistant.tools.fit.place import binding_slot, placed
from assistant.tools.fit.precision import check_on_cards, worst
from assistant.tools.fit.resolve import precision_in_name, resolve_setup, verdict_for


def candidates(task: str, spec: ModelSpec | None, rules: MemoryRules) -> list[str]:
    """The precisions compared for a task, the model's native format first."""
    names = list(rules.precision_choices.get(task, []))
    if spec is not None and spec.native_precision and task == "inference":
        names = [spec.native_precision, *[n for n in names if n != spec.native_precision]]
    return names


def compare(
    query: FitQuery, spec: ModelSpec | None, params_b: float, cards: CardSet, rules: MemoryRules
) -> tuple[list[PrecisionOption], str | None]:
    """(the rows, the precision to lead with or None to keep the default)."""
    if query.precision or precision_in_name(query.model, rules):
        return [], None
    probe, _ = resolve_setup(query, spec, params_b, rules)
    if probe is None or probe.task not in rules.precision_choices:
        return [], None
    slot = binding_slot(cards)
    capacity = slot.vram_gb if slot else None
    rows: list[PrecisionOption] = []
    for name in candidates(probe.task, spec, rules):
        fmt = rules.format(name)
        if fmt is None:
            continue
        checks = check_on_cards(fmt, cards.slots, rules)
        runs = worst(checks)
        if runs == "no":  # the same size in a format the card runs (bf16 -> fp16 on a T4)
            same = [
                alt
                for alt in (rules.format(n) for n in fmt.use_instead)
                if alt is not None and alt.bits_per_param == fmt.bits_per_param
            ]
            if same and worst(check_on_cards(same[0], cards.slots, rules)) != "no":
                fmt, checks = same[0], check_on_cards(same[0], cards.slots, rules)
                runs = worst(checks)
        setup, _ = resolve_setup(
            query.model_copy(update={"precision": fmt.name}), spec, params_b, rules
        )
        if setup is None or any(r.precision == fmt.name for r in rows):
            continue
        est = estimate(placed(setup, cards, query.multi_gpu), rules)
        note = next((c.reason for c in checks if c.runs != "yes"), None)
        rows.append(
            PrecisionOption(
                precision=fmt.name,
                total_gb=est.total_gb,
                verdict=verdict_for(est, capacity, rules),  # type: ignore[arg-type]
                runs=runs,
                note=note,
            )
        )
    lead = None
    for verdict in ("fits", "tight"):  # native formats first, then unchecked, then weight-only
        for ok in (("yes",), ("unknown",), ("weight_only",)):
            lead = lead or next(
                (r.precision for r in rows if r.verdict == verdict and r.runs in ok), None
            )
    return rows, lead
