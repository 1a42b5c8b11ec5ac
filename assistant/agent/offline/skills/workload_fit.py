"""Will a model fit: "will Llama 3 70B fit in 24 GB?", "LoRA on SDXL with a 3060?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards
from assistant.agent.offline.texts import bullet_list, in_language, num, pick
from assistant.language import Lang
from assistant.tools.fit import FitResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

FIT_VERDICTS = {
    "fits": ("Yes, it fits", "Oui, ça tient"),
    "tight": ("Tight: it just fits, with little headroom", "Juste : ça tient, avec peu de marge"),
    "does_not_fit": ("No, it does not fit", "Non, ça ne tient pas"),
    "unknown": ("Can't tell", "Impossible à dire"),
}
TASKS = {
    "inference": ("inference", "inférence"),
    "lora": ("LoRA fine-tuning", "fine-tuning LoRA"),
    "qlora": ("QLoRA fine-tuning", "fine-tuning QLoRA"),
    "full_finetune": ("full fine-tuning", "fine-tuning complet"),
    "image_generation": ("image generation", "génération d'images"),
}
ITEMS = {
    "weights": ("weights", "poids"),
    "text_encoders": ("text encoders", "encodeurs de texte"),
    "vae": ("VAE", "VAE"),
    "kv_cache": ("KV cache", "cache KV"),
    "activations": ("activations", "activations"),
    "gradients": ("gradients", "gradients"),
    "optimizer_states": ("optimizer states", "états de l'optimiseur"),
    "adapters": ("adapters", "adaptateurs"),
    "overhead": ("CUDA context and overhead", "contexte CUDA et surcoût"),
}
DIFFUSION = ("flux", "sd", "stable diffusion", "sdxl", "wan", "hunyuan")
METHOD_TASKS = {"lora": "lora", "qlora": "qlora", "full": "full_finetune", "inference": "inference"}


def gb(value: float | None, lang: Lang) -> str:
    return f"{num(value, lang)} {pick(lang, 'GB', 'Go')}"


def _gpu_count(question: str) -> int | None:
    """How many cards share the model, when the question names more than one."""
    from assistant.agent.offline.entities import extract_entities

    count = extract_entities(question).gpu_count
    return count if count and count > 1 else None


def _unknown(result: FitResult, lang: Lang) -> str:
    text = in_language(result.message, lang) or pick(lang, "", "Modèle ou carte inconnu.")
    if result.suggestions:
        text += (
            pick(lang, " Did you mean: ", " Vouliez-vous dire : ")
            + ", ".join(result.suggestions[:5])
            + pick(lang, "?", " ?")
        )
    return text


def _head(result: FitResult, question: str, lang: Lang) -> str:
    model = result.model or (f"{num(result.params_b, lang)}B" if result.params_b else "?")
    task = TASKS.get(result.task, (result.task, result.task))
    setup = (
        f"{model} ({pick(lang, *task)}"
        + (f", {result.precision}" if result.precision else "")
        + (f", {num(result.context_tokens, lang, 0)} tokens" if result.context_tokens else "")
        + ")"
    )
    capacity = result.capacity_gb or result.vram_gb
    if not result.gpu and not capacity:
        return f"**{setup}{pick(lang, ' needs about ', ' demande environ ')}{gb(result.total_gb, lang)}**."
    where = result.gpu or pick(
        lang,
        f"a {gb(result.vram_gb or capacity, lang)} card",
        f"une carte de {gb(result.vram_gb or capacity, lang)}",
    )
    count = _gpu_count(question) if result.gpu else None
    if count:
        where = f"{count} × {where}"
    colon = " : " if lang == "fr" else ": "
    return (
        f"**{pick(lang, *FIT_VERDICTS[result.verdict])}** — {setup} {pick(lang, 'on', 'sur')} {where}{colon}"
        + pick(lang, "about ", "environ ")
        + gb(result.total_gb, lang)
        + (pick(lang, " per GPU", " par GPU") if count else "")
        + pick(lang, " needed for ", " nécessaires pour ")
        + gb(capacity, lang)
        + "."
    )


def render(result: FitResult, question: str, lang: Lang) -> str:
    """The verdict with its setup (model, task, precision) first, then the memory breakdown."""
    if result.verdict == "unknown" and not result.total_gb:
        return _unknown(result, lang)
    colon = " : " if lang == "fr" else ": "
    lines = [_head(result, question, lang)]
    breakdown = [
        f"{pick(lang, *ITEMS.get(line.item, (line.item, line.item)))}{colon}{gb(line.gb, lang)}"
        for line in result.breakdown
        if line.gb > 0.005
    ]
    if breakdown:
        lines.append(bullet_list(breakdown))
    options = [o for o in result.fits_with if o.verdict in ("fits", "tight")]
    if options and result.verdict != "fits":
        lines.append(
            pick(lang, "What would make it fit: ", "Pour que ça tienne : ")
            + pick(lang, "; ", " ; ").join(
                f"{in_language(o.change, lang) or o.change} (→ {gb(o.total_gb, lang)})"
                for o in options[:3]
            )
        )
    if result.bigger_cards and result.verdict == "does_not_fit":
        lines.append(
            pick(lang, "Cards it fits on: ", "Cartes où ça tient : ")
            + ", ".join(result.bigger_cards[:4])
        )
    measured = result.nearest_measured
    if measured is not None and measured.value_gb:
        where = " · ".join(
            x for x in (measured.model, measured.precision_or_method, measured.gpu) if x
        )
        lines.append(
            pick(lang, "Nearest measured peak: ", "Pic mesuré le plus proche : ")
            + f"{gb(measured.value_gb, lang)} ({where})."
        )
    return "\n\n".join(line for line in lines if line)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if model is None:
        return []
    task = METHOD_TASKS.get(ent.method or "")
    if task in (None, "inference") and model.lower().startswith(DIFFUSION):
        task = "image_generation"
    base = {
        "model": model, "params_b": ent.model_size_b if not ent.models else None, "task": task,
        "precision": ent.precision, "context_tokens": ent.context_tokens, "batch_size": ent.batch_size,
        "num_gpus": ent.gpu_count,
    }  # fmt: skip
    cards = named_cards(ent)
    if cards:
        return [{**base, "gpu": card} for card in cards[:2]]
    return [{**base, "vram_gb": ent.vram_gb}]


SKILL = Skill(
    tool="workload_fit",
    result=FitResult,
    build=build,
    render=render,
    search_hint="VRAM 24 Go modèles",
    slots=(
        "models",
        "model_size_b",
        "gpus",
        "vram_gb",
        "precision",
        "method",
        "context_tokens",
        "batch_size",
        "gpu_count",
    ),  # fmt: skip
    needs=("models", "model_size_b"),
    concepts=("fit", "model_task"),
    fallback="recommend_gpus",
)
