"""A project's stated card against the asker's own: 'the requirements could use a 3070: will my
RTX 2070 Super (8 GB) work?'. Memory first (what fits on the card named fits on one with as
much), then the number formats the named card has and the asker's lacks, from the catalog."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.texts import gb, pick
from assistant.language import Lang

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities

# Formats a project written for a newer card may use, checked on the asker's card.
FORMATS = ("bf16", "fp8")
MAX_OWN = 3


def _formats(card: Any) -> set[str]:
    from assistant.knowledge.features import features_for_card

    return {s.key for s in features_for_card(card) if s.key in FORMATS and s.supported}


def requirement_check(ent: Entities, lang: Lang) -> str:
    """The verdict for each card the asker has against the one a project names, or against the
    memory it asks for; '' unless the message names one of these and a card (or memory) of its
    own."""
    from assistant.knowledge.matching import match_gpu

    required = ent.required_cards
    own = [n for n in ent.gpus if n not in required][:MAX_OWN]
    if ent.required_vram_gb and not required:
        return _memory_only(ent, own, ent.required_vram_gb, lang)
    if len(required) != 1 or not own:
        return ""
    req = match_gpu(required[0]).gpu
    if req is None or not req.vram_gb:
        return ""
    lines = []
    for name in own:
        card = match_gpu(name).gpu
        if card is None or not card.vram_gb:
            continue
        lines.append(_one(card, req, lang))
    return "\n\n".join(lines)


def _memory_only(ent: Entities, own: list[str], need: float, lang: Lang) -> str:
    """'requires at least 16GB of VRAM: will my 4060 8GB work?': the asker's memory against it."""
    from assistant.knowledge.matching import match_gpu

    have: list[tuple[str, float]] = []
    for name in own:
        card = match_gpu(name).gpu
        size = ent.card_memory.get(name) or (card.vram_gb if card else None)
        if size:
            have.append((name, size))
    if not have and ent.vram_gb:
        have.append((pick(lang, "card", "carte"), ent.vram_gb))
    lines = []
    for name, size in have:
        mine, theirs = gb(size, lang), gb(need, lang)
        lines.append(
            pick(
                lang,
                f"**Yes on memory: your {name} has {mine}, at least the {theirs} the project asks "
                "for.**",
                f"**Oui pour la mémoire : votre {name} a {mine}, au moins les {theirs} que demande "
                "le projet.**",
            )
            if size >= need
            else pick(
                lang,
                f"**Not as is: your {name} has {mine}, less than the {theirs} the project asks "
                "for**; ",
                f"**Pas tel quel : votre {name} a {mine}, moins que les {theirs} que demande le "
                "projet** ; ",
            )
            + _lower(lang)
        )
    return "\n\n".join(lines)


def _one(card: Any, req: Any, lang: Lang) -> str:
    mine, theirs = gb(card.vram_gb, lang), gb(req.vram_gb, lang)
    if card.vendor != req.vendor and req.vendor == "nvidia":
        return pick(
            lang,
            f"**Not directly: the {req.name} the project names is an NVIDIA card, and CUDA code "
            f"does not run on the {card.name}** ({mine}); only a ROCm, Metal or oneAPI port of "
            "the project would, if it has one.",
            f"**Pas directement : la {req.name} que cite le projet est une carte NVIDIA, et le "
            f"code CUDA ne tourne pas sur la {card.name}** ({mine}) ; seul un portage ROCm, Metal "
            "ou oneAPI du projet le permettrait, s'il existe.",
        )
    missing = sorted(_formats(req) - _formats(card))
    formats = ", ".join(f.upper() for f in missing)
    older = (
        pick(
            lang,
            f" It lacks {formats}, which the {req.name} has: if the project runs in {formats}, "
            "switch it to FP16 or FP32 (slower, more memory for FP32).",
            f" Elle n'a pas {formats}, que la {req.name} a : si le projet tourne en {formats}, "
            "passez-le en FP16 ou FP32 (plus lent, plus de mémoire en FP32).",
        )
        if missing
        else ""
    )
    if card.vram_gb >= req.vram_gb:
        return pick(
            lang,
            f"**Very likely yes on memory: your {card.name} has {mine}, as much as or more than "
            f"the {req.name} the project names ({theirs})**, so what fits there fits on it; "
            f"speed will differ with the card.{older}",
            f"**Très probablement oui pour la mémoire : votre {card.name} a {mine}, autant ou plus "
            f"que la {req.name} que cite le projet ({theirs})**, donc ce qui tient sur l'une tient "
            f"sur l'autre ; la vitesse diffère selon la carte.{older}",
        )
    return (
        pick(
            lang,
            f"**Not as is: your {card.name} has {mine}, less than the {req.name} the project "
            f"names ({theirs})**; what needs that memory may not fit: ",
            f"**Pas tel quel : votre {card.name} a {mine}, moins que la {req.name} que cite le "
            f"projet ({theirs})** ; ce qui demande cette mémoire risque de ne pas tenir : ",
        )
        + _lower(lang)
        + older
    )


def _lower(lang: Lang) -> str:
    """What to lower when the asker's card has less memory than the project asks for."""
    return pick(
        lang,
        "lower the precision (FP16, 8-bit or 4-bit), the batch size or the resolution, or "
        "offload part of the model to system RAM (slower).",
        "baissez la précision (FP16, 8 bits ou 4 bits), la taille de batch ou la résolution, ou "
        "déchargez une partie du modèle en RAM (plus lent).",
    )
