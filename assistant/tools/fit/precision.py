"""Does a weight format run on a card? Read from the format's requirements in memory_rules.toml
(the tensor-core feature it needs, the oldest compute capability its kernels support) and the
feature matrix of features.toml; nothing about hardware is written here."""

from __future__ import annotations

from assistant.knowledge.features import feature_support, normalize_cc
from assistant.knowledge.models import MemoryRules, PrecisionFormat
from assistant.tools.fit.cards import Slot
from assistant.tools.fit.models import PrecisionSupport, Runs


def _cc_at_least(cc: str | None, floor: str) -> bool | None:
    have, want = normalize_cc(cc), normalize_cc(floor)
    if have is None or want is None:
        return None
    return tuple(int(x) for x in have.split(".")) >= tuple(int(x) for x in want.split("."))


def _instead(fmt: PrecisionFormat, slot: Slot, rules: MemoryRules) -> list[str]:
    """The alternatives that do run on this card."""
    out = []
    for name in fmt.use_instead:
        alt = rules.format(name)
        if alt is not None and check_precision(alt, slot, rules, depth=1).runs in (
            "yes",
            "unknown",
        ):
            out.append(alt.name)
    return out


def check_precision(
    fmt: PrecisionFormat, slot: Slot, rules: MemoryRules, depth: int = 0
) -> PrecisionSupport:
    """Whether `fmt` runs on the card in `slot`."""
    base = {"precision": fmt.name, "gpu": slot.name, "compute_capability": slot.compute_capability}
    sources = list(fmt.support_sources)
    if not fmt.needs_feature and not fmt.kernel_min_cc:
        return PrecisionSupport(
            **base,
            runs="yes",
            reason=f"{fmt.name} has no hardware requirement beyond a supported GPU.",
            reason_fr=f"{fmt.name} n'exige rien de plus qu'un GPU pris en charge.",
        )
    if (slot.vendor or "nvidia") != "nvidia" or not slot.compute_capability:
        who = slot.vendor or "this card"
        return PrecisionSupport(
            **base,
            runs="unknown",
            reason=f"Not checked on {slot.name}: the format requirements are NVIDIA compute "
            f"capabilities ({who}); check the backend's documentation (GGUF runs on Metal, ROCm "
            "and Vulkan through llama.cpp).",
            reason_fr=f"Non vérifié sur {slot.name} : les exigences des formats sont des compute "
            "capabilities NVIDIA ; voir la documentation du moteur (GGUF tourne sur Metal, ROCm "
            "et Vulkan avec llama.cpp).",
            sources=sources,
        )
    cc = slot.compute_capability
    if fmt.needs_feature:
        support = feature_support(fmt.needs_feature, cc, slot.arch_target)
        sources = [*sources, *support.sources[:1]]
        if support.supported:
            return PrecisionSupport(
                **base,
                runs="yes",
                reason=f"{fmt.name} runs natively on {slot.name} (CC {cc}: {support.name}).",
                reason_fr=f"{fmt.name} tourne nativement sur {slot.name} (CC {cc} : {support.name}).",
                sources=sources,
            )
        if support.status == "unknown":
            return PrecisionSupport(
                **base,
                runs="unknown",
                reason=f"CC {cc} of {slot.name} is not in the feature data.",
                reason_fr=f"La CC {cc} de {slot.name} n'est pas dans les données.",
                sources=sources,
            )
        instead = [] if depth else _instead(fmt, slot, rules)
        alt = " or ".join(instead)
        alt_fr = " ou ".join(instead)
        if fmt.weight_only_min_cc and _cc_at_least(cc, fmt.weight_only_min_cc):
            return PrecisionSupport(
                **base,
                runs="weight_only",
                reason=f"{slot.name} (CC {cc}) has no {support.name}: {fmt.name} weights still "
                f"load (weight-only, unpacked to 16-bit), which saves memory but not compute"
                + (f"; for native speed use {alt}." if alt else "."),
                reason_fr=f"{slot.name} (CC {cc}) n'a pas {support.name} : les poids {fmt.name} se "
                "chargent quand même (poids seuls, décompressés en 16 bits), ce qui économise la "
                "mémoire mais pas le calcul"
                + (f" ; pour la vitesse, prendre {alt_fr}." if alt else "."),
                use_instead=instead,
                sources=sources,
            )
        return PrecisionSupport(
            **base,
            runs="no",
            reason=f"{fmt.name} does not run on {slot.name}: it needs {support.name} "
            f"({support.note or 'not on this CC'})" + (f"; use {alt}." if alt else "."),
            reason_fr=f"{fmt.name} ne tourne pas sur {slot.name} : il faut {support.name}"
            + (f" ; prendre {alt_fr}." if alt else "."),
            use_instead=instead,
            sources=sources,
        )
    assert fmt.kernel_min_cc is not None
    ok = _cc_at_least(cc, fmt.kernel_min_cc)
    if ok is None:
        return PrecisionSupport(
            **base,
            runs="unknown",
            reason=f"CC {cc} of {slot.name} could not be compared.",
            reason_fr=f"La CC {cc} de {slot.name} n'a pas pu être comparée.",
            sources=sources,
        )
    if ok:
        return PrecisionSupport(
            **base,
            runs="yes",
            reason=f"{fmt.name} kernels support CC {fmt.kernel_min_cc}+; {slot.name} is CC {cc}.",
            reason_fr=f"Les noyaux {fmt.name} demandent une CC {fmt.kernel_min_cc}+ ; {slot.name} est en CC {cc}.",
            sources=sources,
        )
    instead = [] if depth else _instead(fmt, slot, rules)
    alt, alt_fr = " or ".join(instead), " ou ".join(instead)
    return PrecisionSupport(
        **base,
        runs="no",
        reason=f"{fmt.name} kernels need CC {fmt.kernel_min_cc}+; {slot.name} is CC {cc}"
        + (f": use {alt}." if alt else "."),
        reason_fr=f"Les noyaux {fmt.name} demandent une CC {fmt.kernel_min_cc}+ ; {slot.name} est en CC {cc}"
        + (f" : prendre {alt_fr}." if alt else "."),
        use_instead=instead,
        sources=sources,
    )


def check_on_cards(
    fmt: PrecisionFormat | None, slots: list[Slot], rules: MemoryRules
) -> list[PrecisionSupport]:
    """One check per distinct card (by name)."""
    if fmt is None:
        return []
    seen: dict[str, PrecisionSupport] = {}
    for slot in slots:
        if slot.origin == "size" or slot.name in seen:
            continue
        seen[slot.name] = check_precision(fmt, slot, rules)
    return list(seen.values())


def worst(checks: list[PrecisionSupport]) -> Runs:
    """The least favourable status over the cards ('yes' when there is nothing to check)."""
    order: list[Runs] = ["no", "weight_only", "unknown", "yes"]
    for status in order:
        if any(c.runs == status for c in checks):
            return status
    return "yes"
