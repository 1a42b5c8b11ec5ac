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


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    return [{}]


SKILL = Skill(
    tool="probe_gpus",
    result=ProbeReport,
    build=build,
    render=render,
    search_hint="vérifier ce qu'on a nvidia-smi",
    concepts=("this_machine",),
)
