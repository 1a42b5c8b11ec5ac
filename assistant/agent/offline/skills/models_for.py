"""Which models fit: "which models can my 3060 with 32 GB of RAM run?", "quels modèles sur ma 4090 ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import num, pick
from assistant.language import Lang
from assistant.tools.models_for import ModelsForResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

_RAM = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(?:gb|go|gib|gio)\s*(?:of\s+|de\s+)?(?:system\s+|sys\.?\s+)?"
    r"(?:ram|ddr\d?|mémoire vive|memoire vive)\b",
    re.I,
)
_HERE = re.compile(
    r"\b(?:here|this (?:machine|computer|pc|box)|my (?:machine|computer|pc)|ici|"
    r"cette machine|cet ordinateur|ce pc|mon (?:pc|ordinateur))\b",
    re.I,
)
_IMAGES = re.compile(r"\b(?:image|images|diffusion|flux|sdxl|stable diffusion|vid[ée]o)\b", re.I)
_TASKS = {"lora": "lora", "qlora": "qlora", "full": "full_finetune"}


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """A card (or several, or this machine), the RAM for offload, the task and precision; none
    for a question about one model it does not name ("will this model run on a Nano 2GB?")."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.quantities import phrase_spans

    args: dict[str, Any] = {}
    text = reading.text
    if phrase_spans("unnamed_model", text) and "models_for" not in concepts_in(text):
        return []
    if ent.models:
        # 'which models fit in 16 GB? hoping for Mistral Small 24B, or Qwen2.5 14B?': the models
        # named are the candidates, each checked (the fallback, workload_fit), not a list of all.
        return []
    ram = _RAM.search(text)
    if ram:
        args["system_ram_gb"] = float(ram.group(1).replace(",", "."))
    options = ent.options and len(ent.gpus) > 1
    if options:
        pass  # one call per option below
    elif ent.gpus:
        if len(ent.gpus) > 1:
            args["gpus"] = list(ent.gpus)
        else:
            args["gpu"] = ent.gpus[0]
            if ent.gpu_count and ent.gpu_count > 1:
                args["num_gpus"] = ent.gpu_count
            if sold := ent.memory_of(ent.gpus[0]):
                args["vram_gb"] = sold  # 'M4 Max with 64GB': as sold
    elif ent.vram_gb and not (ram and float(ram.group(1).replace(",", ".")) == ent.vram_gb):
        args["vram_gb"] = ent.vram_gb
    elif _HERE.search(text):
        from assistant.tools.probe import probe_local_gpus

        args["machine"] = probe_local_gpus().model_dump(mode="json")
    else:
        return []
    if ent.method in _TASKS:
        args["task"] = _TASKS[ent.method]
    elif _IMAGES.search(text):
        args["task"] = "image_generation"
    if ent.precision:
        args["precisions"] = [ent.precision]
    if ent.context_tokens:
        args["context_tokens"] = ent.context_tokens
    if options:
        # 'M3 Ultra 256 GB or M4 Max 128 GB?': each option on its own, never pooled.
        return [_option(card, ent, args) for card in ent.gpus[:MAX_OPTIONS]]
    if len(ent.gpus) <= 1 and len(ent.memory_options) >= 2:
        # 'a Mac mini M4, 16 GB or 24 GB?': the machine with each memory size on offer
        return [{**args, "vram_gb": size} for size in ent.memory_options[:MAX_OPTIONS]]
    return [args]


MAX_OPTIONS = 4


def _option(card: str, ent: Entities, args: dict[str, Any]) -> dict[str, Any]:
    """One option's call: the card, as many as the question names, or the memory it is sold with."""
    call = {**args, "gpu": card, "num_gpus": ent.count_of(card) or 1}
    if card in ent.card_memory:
        call["vram_gb"] = ent.card_memory[card]
    return call


def combine(results: list[ModelsForResult], question: str, lang: Lang) -> str:
    """Options side by side: the largest model each holds first, then each option's list."""
    sized = [r for r in results if r.cards is not None]
    if len(sized) < 2:
        return ""
    gb = pick(lang, "GB", "Go")

    def largest(r: ModelsForResult) -> str:
        best = r.largest_that_fits
        if best is None or best.best is None:
            return pick(lang, "none of the models checked", "aucun des modèles testés")
        return f"{best.model} ({best.best.precision}, {num(best.best.total_gb, lang)} {gb})"

    def size(r: ModelsForResult) -> float:
        best = r.largest_that_fits
        return best.params_b if best is not None else 0.0

    ranked = sorted(sized, key=size, reverse=True)
    same = len({r.cards for r in ranked}) < len(ranked)  # one machine at several memory sizes

    def label(r: ModelsForResult) -> str:
        sold = r.query.vram_gb or r.vram_gb  # the size on offer, not the share the GPU may use
        return f"{r.cards} {num(sold, lang, 0)} {gb}" if same and sold else str(r.cards)

    sep = " : " if lang == "fr" else ": "
    head = (
        pick(
            lang,
            "**Largest model each option holds on its own: ",
            "**Plus gros modèle que chaque option fait tenir seule : ",
        )
        + pick(lang, "; ", " ; ").join(f"{label(r)}{sep}{largest(r)}" for r in ranked)
        + ".**"
    )
    if size(ranked[0]) > size(ranked[1]):
        head += pick(
            lang,
            f" {label(ranked[0])} holds larger models"
            + ("." if same else "; generation speed follows each option's memory bandwidth."),
            f" {label(ranked[0])} fait tenir de plus gros modèles"
            + (
                "."
                if same
                else " ; la vitesse de génération suit la bande passante mémoire de chaque option."
            ),
        )
    return "\n\n".join([head, *(render(r, question, lang) for r in ranked)])


def render(result: ModelsForResult, question: str, lang: Lang) -> str:
    """The largest model that fits first, then each family's largest, then offload."""
    if result.cards is None:
        return pick(lang, result.message, result.message_fr)
    gb = pick(lang, "GB", "Go")
    lines = [f"**{pick(lang, result.message, result.message_fr)}**", ""]
    for group in result.families:
        if not group.largest_that_fits:
            continue
        best = next(m for m in group.models if m.model == group.largest_that_fits)
        fits = [m.model for m in group.models if m.standing == "fits"]
        p = best.best
        figure = f" — {p.precision}, {num(p.total_gb, lang)} {gb}" if p else ""
        if best.decode_tokens_per_s:
            figure += pick(
                lang,
                f", about {num(best.decode_tokens_per_s, lang, 0)} tokens/s",
                f", environ {num(best.decode_tokens_per_s, lang, 0)} tokens/s",
            )
        more = f" ({', '.join(fits[:-1])})" if len(fits) > 1 else ""
        lines.append(f"- {group.family}: **{best.model}**{figure}{more}")
    if result.with_offload:
        lines.append(
            pick(
                lang,
                f"\nWith CPU offload (slow, layers in system RAM): {', '.join(result.with_offload[:6])}.",
                f"\nAvec déchargement sur le CPU (lent, couches en RAM) : {', '.join(result.with_offload[:6])}.",
            )
        )
    lines.append(
        pick(
            lang,
            f"\nSizes in binary GB (a {num(result.vram_gb, lang, 0)} GB card holds {num(result.vram_gb, lang, 0)} GB); 'fits' means under 90 % of the card.",
            f"\nTailles en Go binaires (une carte de {num(result.vram_gb, lang, 0)} Go en contient {num(result.vram_gb, lang, 0)}) ; « tient » veut dire sous 90 % de la carte.",
        )
    )
    return "\n".join(lines)


SKILL = Skill(
    tool="models_for",
    result=ModelsForResult,
    build=build,
    render=render,
    combine=combine,
    search_hint="VRAM modèle quantification 4 bits 8 bits taille",
    slots=("gpus", "vram_gb", "gpu_count", "method", "precision", "context_tokens"),
    fallback="workload_fit",
    concepts=("models_for",),
)
