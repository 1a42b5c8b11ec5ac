"""This machine's GPUs: "what GPU do I have?", "quel GPU dans cette machine ?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import in_language, num, pick
from assistant.language import Lang
from assistant.tools.probe.models import ProbedGpu, ProbeReport

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


def _gpu_line(gpu: ProbedGpu, lang: Lang) -> str:
    bits = [gpu.name or "?"]
    if gpu.memory_total_gb:
        bits.append(f"{num(gpu.memory_total_gb, lang)} {pick(lang, 'GB', 'Go')}")
    if gpu.compute_capability:
        bits.append(f"CC {gpu.compute_capability}")
    if gpu.driver_version:
        bits.append(pick(lang, "driver ", "pilote ") + gpu.driver_version)
    if gpu.cuda_version:
        bits.append(f"CUDA {gpu.cuda_version}")
    if gpu.mig_mode:
        bits.append(f"MIG {gpu.mig_mode}")
    match = gpu.catalog_match
    if match is not None and match.name:
        bits.append(
            pick(lang, "catalog: ", "catalogue : ")
            + match.name
            + (f" (`{match.arch_target}`)" if match.arch_target else "")
        )
    return f"- {' · '.join(bits)}"


def render(result: ProbeReport, question: str, lang: Lang) -> str:
    """How many GPUs were found and how, one line each; none found is a normal answer."""
    if not result.available or not result.gpus:
        text = pick(
            lang, "**No GPU found** on this machine", "**Aucun GPU détecté** sur cette machine"
        )
        text += f" ({result.platform})."
        if result.hint:
            text += "\n\n" + (
                in_language(result.hint, lang)
                or pick(
                    lang, result.hint, "Sur Colab : Exécution → Modifier le type d'exécution → GPU."
                )
            )
        return text
    lines = [
        pick(
            lang,
            f"**{len(result.gpus)} GPU(s) found** (via {result.method}):",
            f"**{len(result.gpus)} GPU détecté(s)** (via {result.method}) :",
        )
    ]
    lines.extend(_gpu_line(gpu, lang) for gpu in result.gpus)
    return "\n".join(lines)


def how_to_check(lang: Lang, remote: bool = True) -> str:
    """How to see which GPU a machine has and uses: where the asker is not at this machine
    (Discord, a shared chat: `remote`), or as the answer to "how do I know which GPU is used?"."""
    head = (
        pick(
            lang,
            "**I can't see your machine from here**, so check it yourself and send me the card's "
            "name:",
            "**Je ne vois pas votre machine d'ici** : vérifiez vous-même et envoyez-moi le nom de "
            "la carte :",
        )
        if remote
        else pick(
            lang,
            "**To see which GPU you have and which one a program uses**, check on the machine:",
            "**Pour voir quel GPU vous avez et lequel un programme utilise**, vérifiez sur la "
            "machine :",
        )
    )
    steps = pick(
        lang,
        "- in a terminal: `nvidia-smi` (or `!nvidia-smi` in a Colab/Jupyter cell); it lists the "
        "NVIDIA cards and the processes running on each;\n"
        "- in Python: `import torch; print(torch.cuda.get_device_name(0))` "
        "(`torch.cuda.is_available()` is False when no GPU is visible);\n"
        "- Windows: Task Manager → Performance shows every GPU (integrated and NVIDIA) and its "
        "load;\n"
        "- AMD: `rocm-smi` or `rocminfo` (each card's gfx target), and `torch.cuda.is_available()` "
        "with PyTorch's ROCm build; Mac: Apple menu → About This Mac (the chip, e.g. M2 Pro).",
        "- dans un terminal : `nvidia-smi` (ou `!nvidia-smi` dans une cellule Colab/Jupyter) ; il "
        "liste les cartes NVIDIA et les processus sur chacune ;\n"
        "- en Python : `import torch; print(torch.cuda.get_device_name(0))` "
        "(`torch.cuda.is_available()` vaut False quand aucun GPU n'est visible) ;\n"
        "- Windows : Gestionnaire des tâches → Performance affiche chaque GPU (intégré et NVIDIA) "
        "et sa charge ;\n"
        "- AMD : `rocm-smi` ou `rocminfo` (la cible gfx de chaque carte), et "
        "`torch.cuda.is_available()` avec la version ROCm de PyTorch ; Mac : menu Pomme → À propos "
        "de ce Mac (la puce, par ex. M2 Pro).",
    )
    return f"{head}\n\n{steps}"


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One probe of this machine's GPUs, or none when the question names a card."""
    from assistant.agent.offline.concepts import names_concept
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.agent.offline.skills.cloud_instances import instance_named

    if ent.gpus or ent.unknown_gpus:
        return []  # a card the asker states ("my laptop has a 1650") is the card to use
    if instance_named(reading.text):
        return []  # "which GPU is in Standard_NC40ads_H100_v5?": the instance's, in the data
    if phrase_spans("stated_hardware", reading.text):
        return []  # "I only have integrated Intel HD graphics": so is what they have
    if names_concept("check_gpu", reading.text):
        return []  # "how do I check the cards are seen?" asks for the steps, not for this machine
    return [{}]


SKILL = Skill(
    tool="probe_gpus",
    result=ProbeReport,
    build=build,
    render=render,
    search_hint="vérifier ce qu'on a nvidia-smi",
    concepts=("this_machine", "what_is_there"),
)
