"""A card's figures: "how much VRAM does the 4090 have?", "specs of the H100"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards, render_unknown
from assistant.agent.offline.texts import bullet_list, label, num, pick, value_word
from assistant.knowledge.features import SmLimits
from assistant.knowledge.gpus import GpuCard
from assistant.language import Lang
from assistant.tools.lookup import GpuLookup

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

# Which card figure a question asks about, by the words it uses.
ASKED_FIELDS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"\bvram\b|\bmemory\b(?! bandwidth| type)|\bmémoire\b(?! partagée)|\bgo\b|\bgb\b", re.I
        ),
        "vram_gb",
    ),
    (re.compile(r"bandwidth|bande passante", re.I), "bandwidth_gbs"),
    (re.compile(r"shared memory|mémoire partagée|smem", re.I), "shared_memory_per_sm_kb"),
    (re.compile(r"compute capability|\bcc\b|sm_\d+|target|cible", re.I), "compute_capability"),
    (re.compile(r"\bsms?\b|multiprocessors?|compute units?", re.I), "sm_count"),
    (re.compile(r"tdp|power|watts?|consomm\w*|puissance", re.I), "tdp_w"),
    (re.compile(r"architecture|génération|generation|\barch\b", re.I), "architecture"),
    (re.compile(r"tflops|flops|fp16", re.I), "fp16_tensor_tflops"),
    (re.compile(r"fp64|double precision|double précision", re.I), "fp64_ratio"),
    (re.compile(r"nvlink", re.I), "nvlink"),
]
SPEC_ORDER = (
    "vram_gb", "bandwidth_gbs", "sm_count", "shared_memory_per_sm_kb", "shared_memory_per_block_kb",
    "fp16_tensor_tflops", "fp64_ratio", "tdp_w", "nvlink", "year",
)  # fmt: skip


def asked_fields(question: str) -> list[str]:
    """The card figures a question asks about, by the words it uses."""
    return [f for pattern, f in ASKED_FIELDS if pattern.search(question)]


def card_value(card: GpuCard, field: str, lang: Lang) -> str:
    """One figure of a card, with its unit, in the answer's language."""
    value = getattr(card, field, None)
    if value is None:
        return pick(lang, "not known", "inconnu")
    if field == "vram_gb":
        return f"{num(value, lang)} {pick(lang, 'GB', 'Go')}" + (
            f" {card.memory_type}" if card.memory_type else ""
        )
    if field == "bandwidth_gbs":
        return f"{num(value, lang)} {pick(lang, 'GB/s', 'Go/s')}"
    if field in ("shared_memory_per_sm_kb", "shared_memory_per_block_kb"):
        return f"{num(value, lang)} {pick(lang, 'KB', 'Ko')}"
    if field == "tdp_w":
        return f"{num(value, lang, 0)} W"
    if field == "fp16_tensor_tflops":
        return f"{num(value, lang)} TFLOPS"
    if field == "compute_capability":
        target = f" (`{card.arch_target}`)" if card.arch_target else ""
        return f"{value}{target}"
    if field == "sm_count":
        return f"{num(value, lang, 0)} {card.compute_units_kind}"
    if field == "year":
        return str(value)
    if field in ("segment", "vendor") and isinstance(value, str):
        return value_word(value, lang)
    return num(value, lang) if not isinstance(value, str) else value


def provenance_note(name: str, curated: bool | None, provenance: str | None, lang: Lang) -> str:
    """For a long-tail card, a note after the answer (never its first line): where its figures
    come from, unchecked; '' for a curated card."""
    if curated is not False:
        return ""
    origin = provenance or pick(lang, "an outside database", "une base de données externe")
    said = pick(
        lang,
        f"not in the curated catalog: figures from {origin}, "
        "not checked against the vendor's documents",
        f"absente du catalogue vérifié : chiffres tirés de {origin}, "
        "non vérifiés dans les documents du fabricant",
    )
    return f"<sub>{name} — {said}.</sub>"


def _headline(card: GpuCard, lang: Lang) -> str:
    bits = [card.architecture]
    if card.compute_capability:
        bits.append(f"compute capability {card.compute_capability}")
    if card.arch_target:
        bits.append(f"`{card.arch_target}`")
    return f"**{card.name}** — " + ", ".join(b for b in bits if b)


def hardware_line(card: GpuCard, lang: Lang) -> str:
    """Tensor cores and bus interface, where the card's data gives them."""
    sep = " : " if lang == "fr" else ": "
    bits = []
    if card.tensor_cores:
        bits.append(
            f"{pick(lang, 'Tensor cores', 'Tensor cores')}{sep}{num(card.tensor_cores, lang, 0)}"
        )
    if card.bus_interface:
        bits.append(f"{pick(lang, 'Bus interface', 'Interface de bus')}{sep}{card.bus_interface}")
    return " · ".join(bits)


def sm_limits_line(limits: dict[str, Any] | None, lang: Lang) -> str:
    """The per-SM limits of the card's compute capability, on one line."""
    if not limits:
        return ""
    try:
        lim = SmLimits.model_validate(limits)
    except ValidationError:
        return ""
    ko = pick(lang, "KB", "Ko")
    return pick(
        lang,
        f"Per-SM limits (compute capability {lim.cc}): {lim.shared_memory_per_sm_kb} {ko} shared "
        f"memory per SM ({lim.shared_memory_per_block_kb} {ko} per block), "
        f"{num(lim.threads_per_sm, lang, 0)} threads, {lim.warps_per_sm} warps, "
        f"{lim.blocks_per_sm} blocks, {num(lim.registers_per_sm, lang, 0)} registers; "
        f"FP32 : FP64 = {lim.fp32_to_fp64}.",
        f"Limites par SM (compute capability {lim.cc}) : {lim.shared_memory_per_sm_kb} {ko} de "
        f"mémoire partagée par SM ({lim.shared_memory_per_block_kb} {ko} par bloc), "
        f"{num(lim.threads_per_sm, lang, 0)} threads, {lim.warps_per_sm} warps, "
        f"{lim.blocks_per_sm} blocs, {num(lim.registers_per_sm, lang, 0)} registres ; "
        f"FP32 : FP64 = {lim.fp32_to_fp64}.",
    )


def _feature_line(features: list[dict[str, Any]], lang: Lang) -> str:
    yes = [str(f["key"]) for f in features if f.get("supported")]
    no = [str(f["key"]) for f in features if not f.get("supported")]
    if not yes and not no:
        return ""
    return (
        pick(lang, "CUDA features — yes: ", "Fonctionnalités CUDA — oui : ")
        + (", ".join(yes) or "—")
        + pick(lang, "; no: ", " ; non : ")
        + (", ".join(no) or "—")
    )


def link_answer(card: GpuCard, lang: Lang) -> str:
    """The yes/no on NVLink first: a question about it often assumes the answer."""
    if card.nvlink is None:
        return ""
    if card.nvlink:
        return pick(
            lang, f"**Yes: {card.name} has NVLink.**", f"**Oui : la {card.name} a le NVLink.**"
        )
    return pick(
        lang,
        f"**No: {card.name} has no NVLink** — cards can still share a model over PCIe (slower).",
        f"**Non : la {card.name} n'a pas de NVLink** — plusieurs cartes peuvent quand même se partager un modèle via PCIe (plus lent).",
    )


def _project_fit(card: GpuCard, question: str, lang: Lang) -> str:
    """'Is this project possible on my 4 GB GTX 1650 Ti?' with no model named: what the card's
    memory holds at each precision (the rule of bytes per parameter), since the project's model
    decides. Empty when the question names a model or asks for a figure."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.entities import extract_entities
    from assistant.knowledge.models import load_memory_rules

    named = concepts_in(question)
    if (
        not card.vram_gb
        or card.unified_memory  # a Mac chip's listed size is its largest, not the asker's
        or not named & {"fit", "capability"}
        or named & {"spec_quantity", "model_task"}
    ):
        # 'how much VRAM does it have?' asks for the figure, not a verdict; training needs
        # several times what these inference sizes say
        return ""
    if set(asked_fields(question)) - {"vram_gb"}:
        return ""  # 'does it have NVLink?', 'is it an Ampere card?': a figure or a feature
    ent = extract_entities(question)
    if ent.models or ent.model_size_b or ent.unsized_models:
        return ""
    rules = load_memory_rules()
    free = card.vram_gb - rules.cuda_context_gb
    sizes = []
    for name in rules.precision_choices.get("inference", []):
        fmt = rules.format(name)
        if fmt is not None and free > 0 and fmt.name != "fp8":
            sizes.append((fmt.name.upper(), free / fmt.bytes_per_param))
    if not sizes:
        return ""
    parts = [
        pick(
            lang,
            f"{num(b, lang, 1)}B{' parameters' if i == 0 else ''} in {fmt}",
            f"{num(b, lang, 1)} Md{' de paramètres' if i == 0 else ''} en {fmt}",
        )
        for i, (fmt, b) in enumerate(sizes)
    ]
    held = (
        ", ".join(parts[:-1]) + pick(lang, " or ", " ou ") + parts[-1]
        if len(parts) > 1
        else parts[0]
    )
    gb = num(card.vram_gb, lang, 0)
    return pick(
        lang,
        f"**It depends on the model the project loads, which the question does not name.** "
        f"{card.name} has {gb} GB: for running a model (inference), that holds one of about "
        f"{held}, once {rules.cuda_context_gb:g} GB of CUDA context is set aside (weights "
        "only; the context length and batch add to it, and training needs several times more). "
        "The project's README or model card gives the model and its size to check against.",
        f"**Cela dépend du modèle que charge le projet, et la question ne le dit pas.** "
        f"{card.name} a {gb} Go : pour faire tourner un modèle (inférence), cela tient un modèle "
        f"d'environ {held}, une fois {rules.cuda_context_gb:g} Go réservés au contexte CUDA (poids seuls ; "
        "la longueur de contexte et le batch s'y ajoutent, et l'entraînement demande plusieurs fois "
        "plus). Le README du projet ou la fiche du modèle donne le modèle et sa taille à comparer.",
    )


def render(result: GpuLookup, question: str, lang: Lang) -> str:
    """The card's headline, the figures asked first, then the rest and its CUDA features; a
    question whether a project runs on it, with no model named, first gets what its memory holds."""
    card = result.gpu
    if not result.found or card is None:
        return render_unknown(result.query, result.suggestions, lang)
    fit = _project_fit(card, question, lang)
    if fit:
        return fit + "\n\n" + _sheet(result, card, question, lang)
    return _sheet(result, card, question, lang)


def _sheet(result: GpuLookup, card: GpuCard, question: str, lang: Lang) -> str:
    sep = " : " if lang == "fr" else ": "
    caveat = provenance_note(card.name, result.curated, result.provenance, lang)
    headline = _headline(card, lang)
    link = link_answer(card, lang) if "nvlink" in asked_fields(question) else ""
    lines = [link, headline]
    notes = card.notes_fr if lang == "fr" else card.notes
    if notes or (caveat and card.notes):
        # another chip sold under the same name (a Fermi GT 730); an MI250X seen as two GPUs
        lines.append(notes or str(card.notes))
    asked = [f for f in asked_fields(question) if f != "architecture"]
    if asked:
        lines.append(" · ".join(f"{label(f, lang)}{sep}{card_value(card, f, lang)}" for f in asked))
    specs = [f for f in SPEC_ORDER if f not in asked and getattr(card, f, None) is not None]
    if specs:
        lines.append(
            bullet_list([f"{label(f, lang)}{sep}{card_value(card, f, lang)}" for f in specs])
        )
    lines.append(hardware_line(card, lang))
    lines.append(sm_limits_line(result.sm_limits, lang))
    if card.vendor == "nvidia":  # the CUDA feature list says nothing of an AMD or Apple chip
        lines.append(_feature_line(result.features, lang))
    if card.corpus_note:
        lines.append(
            pick(
                lang,
                f"Note: {card.corpus_note}",
                "Note : le guide diffère ici des documents de NVIDIA (voir les sources).",
            )
        )
    if result.alternatives:
        lines.append(
            pick(lang, "Other variants: ", "Autres variantes : ") + ", ".join(result.alternatives)
        )
    lines.append(caveat)  # a long-tail card: where its figures come from, after them
    return "\n\n".join(line for line in lines if line)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per card named."""
    return [{"gpu": card} for card in named_cards(ent)]


SKILL = Skill(
    tool="gpu_lookup",
    result=GpuLookup,
    build=build,
    render=render,
    search_hint="compute capability architecture",
    slots=("gpus", "unknown_gpus"),
    needs=("gpus", "unknown_gpus"),
    concepts=("specs",),
)
