"""A program whose needs are not given: "is it possible to run this on my GTX 1060 6gb?", "would
the app run on an 8 GB M1?", "ça tournera sur ma RX 6600 ?". Nobody can say yes or no without the
program's requirements, so the answer says so first and gives the card's side of it: memory and the
largest models that fit, the PyTorch builds that run on it, its half precisions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import num, pick
from assistant.language import Lang
from assistant.tools.readiness import LargestModel, Readiness

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One card, and the memory it is sold with; none when the question names what is to run (a
    model, a program, a feature or a guide part: another skill checks it) or several cards."""
    from assistant.agent.offline.concepts import concepts_in

    text = reading.text
    if len(ent.gpus) != 1 or ent.models or ent.model_size_b or ent.parts or ent.topics:
        return []
    if _failure_to_explain(text):
        return []  # 'not detected by the app': a failure to explain, not a card to size up
    if not {"unnamed_program", "runs_program"} & concepts_in(text) or _names_a_program(text):
        return []
    args: dict[str, Any] = {"gpu": ent.gpus[0]}
    if sold := ent.memory_of(ent.gpus[0]):
        args["vram_gb"] = sold
    if (count := ent.count_of(ent.gpus[0])) and count > 1:
        args["gpu_count"] = count  # 'I only have 2 RTX 4090'
    if "model_task" in concepts_in(text) or ent.method not in (None, "inference"):
        args["training"] = True  # 'is it enough for training?'
    return [args]


def _failure_to_explain(text: str) -> bool:
    """A failure the question reports that the card's figures do not answer: an error or a card
    not detected; running out of memory is the card's size, which they do answer."""
    from assistant.agent.offline.concepts import names_concept, reports_failure

    if names_concept("not_detected", text):
        return True
    return reports_failure(text) and not names_concept("out_of_memory", text)


def _names_a_program(text: str) -> bool:
    """The question names software the catalog knows ('does ComfyUI run on…'); 'CUDA out of
    memory' names none."""
    from assistant.agent.offline.concepts import names_concept
    from assistant.tools.software import names_software

    return names_software(text) and not names_concept("out_of_memory", text)


def asks_if_card_runs(ent: Entities, reading: Reading) -> bool:
    """Whether the question asks if the cards it names run something it does not name."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.skills.common import named_cards

    named = concepts_in(reading.text)
    return bool(named_cards(ent)) and bool({"unnamed_program", "runs_program"} & named)


def _named_instead(ent: Entities, reading: Reading) -> str | None:
    """The skill that checks what the question does name: a model, a program, a feature."""
    if _failure_to_explain(reading.text):
        return None  # the failure's entry answers
    if ent.models or ent.model_size_b:
        return "workload_fit"
    if _names_a_program(reading.text):
        return "software_support"
    if ent.topics:
        return "gpu_capability"
    return None


def _model(m: LargestModel | None, lang: Lang) -> str:
    if m is None:
        return pick(lang, "none of the models checked", "aucun des modèles testés")
    return f"{m.model} ({m.precision}, {num(m.total_gb, lang)} {pick(lang, 'GB', 'Go')})"


def _image(result: Readiness, lang: Lang) -> str:
    """The largest image model that fits, by name (its precision is the fit's choice, not what a
    user would run)."""
    m = result.largest_image_model
    if m is None:
        return pick(lang, "none of the image models checked", "aucun des modèles d'image testés")
    return pick(lang, f"up to {m.model}", f"jusqu'à {m.model}")


_VERDICT = {
    "yes": ("yes", "oui"),
    "no": ("no", "non"),
    "partial": ("partly", "en partie"),
    "unknown": ("unknown", "inconnu"),
}


def _training_line(result: Readiness, lang: Lang) -> str:
    """When the program trains: the largest model each way of fine-tuning fits on the cards."""
    if not (result.largest_qlora or result.largest_lora or result.largest_full_finetune):
        return ""
    cards = f"{result.gpu_count} × " if result.gpu_count > 1 else ""
    vram = f"{cards}{num(result.vram_gb, lang)} {pick(lang, 'GB', 'Go')}"

    def name(m: LargestModel | None) -> str:
        if m is None:
            return pick(lang, "none of the models checked", "aucun des modèles testés")
        return f"{m.model} ({num(m.total_gb, lang)} {pick(lang, 'GB', 'Go')})"

    return pick(
        lang,
        f"- **Fine-tuning** ({vram}): QLoRA up to {name(result.largest_qlora)}, LoRA in 16-bit "
        f"up to {name(result.largest_lora)}, full fine-tuning (Adam, mixed precision"
        + (", states sharded over the cards" if result.gpu_count > 1 else "")
        + f") up to {name(result.largest_full_finetune)}.",
        f"- **Fine-tuning** ({vram}) : QLoRA jusqu'à {name(result.largest_qlora)}, LoRA en 16 "
        f"bits jusqu'à {name(result.largest_lora)}, fine-tuning complet (Adam, précision mixte"
        + (", états répartis sur les cartes" if result.gpu_count > 1 else "")
        + f") jusqu'à {name(result.largest_full_finetune)}.",
    )


def render(result: Readiness, question: str, lang: Lang) -> str:
    """The condition first (it depends on the program), then memory, PyTorch, precision, and what
    to look up in the program's README."""
    if result.gpu is None:
        from assistant.agent.offline.skills.common import render_unknown

        return render_unknown(question, result.suggestions, lang)
    gb = pick(lang, "GB", "Go")
    lines = [f"**{pick(lang, result.message, result.message_fr)}**", ""]
    vram = num(result.vram_gb, lang) if result.vram_gb is not None else "?"
    if result.gpu_count > 1:
        vram = f"{result.gpu_count} × {vram}"
    training = _training_line(result, lang)
    if training:
        lines.append(training)
    lines.append(
        pick(
            lang,
            f"- **Memory** ({vram} {gb}): the largest LLM that fits for inference is "
            f"{_model(result.largest_llm, lang)}; for images, {_image(result, lang)}.",
            f"- **Mémoire** ({vram} {gb}) : le plus gros LLM qui tient en inférence est "
            f"{_model(result.largest_llm, lang)} ; en image, {_image(result, lang)}.",
        )
    )
    reason = pick(lang, result.framework_reason or "", result.framework_reason_fr or "")
    fix = pick(lang, result.framework_fix or "", result.framework_fix_fr or "")
    if reason:
        colon = pick(lang, ":", " :")
        lines.append(f"- **{result.framework}**{colon} {reason}" + (f" {fix}" if fix else ""))
    if result.vendor == "nvidia" and result.fp16_full_rate and result.bf16:
        fp16 = pick(lang, *_VERDICT.get(result.fp16_full_rate, ("?", "?")))
        bf16 = pick(lang, *_VERDICT.get(result.bf16, ("?", "?")))
        line = pick(
            lang,
            f"- **Precision**: FP16 at full rate: {fp16}; BF16: {bf16}.",
            f"- **Précision** : FP16 à plein débit : {fp16} ; BF16 : {bf16}.",
        )
        if result.fp16_full_rate == "no":
            line += pick(
                lang,
                " Run it in FP32 if it offers the choice (a `--no-half` or `--precision full` "
                "option): FP16 gives no speed-up on this card.",
                " Lancez-le en FP32 s'il le permet (option `--no-half` ou `--precision full`) : "
                "le FP16 n'accélère rien sur cette carte.",
            )
        lines.append(line)
    elif result.instead:
        lines.append(f"- {pick(lang, result.instead, result.instead_fr or result.instead)}")
    lines.append(
        pick(
            lang,
            "- **Look up in its README**: the minimum VRAM (or the GPU it was tested on), the "
            "PyTorch or CUDA version it pins, and extensions built for CUDA alone (xformers, "
            "flash-attn, bitsandbytes, custom kernels); a training run needs several times the "
            "memory of inference.",
            "- **À chercher dans son README** : la VRAM minimale (ou le GPU sur lequel il a été "
            "testé), la version de PyTorch ou de CUDA qu'il impose, et les extensions faites pour "
            "CUDA seul (xformers, flash-attn, bitsandbytes, kernels maison) ; un entraînement "
            "demande plusieurs fois la mémoire de l'inférence.",
        )
    )
    return "\n".join(lines)


SKILL = Skill(
    tool="card_readiness",
    result=Readiness,
    build=build,
    render=render,
    search_hint="VRAM minimum requirements PyTorch build card support",
    slots=("gpus",),
    needs=("gpus",),
    concepts=("unnamed_program", "runs_program"),
    requires=("unnamed_program", "runs_program"),
    fallback=_named_instead,
)
