"""The corpus query for a turn: the question, plus the French words of what it asks about.

The documents are French and many questions are English; the retrieval glossary bridges single
words, and these hints name the *kind* of passage each intent wants (never a known question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.agent.offline.reading import Reading

MAX_QUERY_CHARS = 600

INTENT_HINTS: dict[str, str] = {
    "gpu_lookup": "compute capability architecture",
    "gpu_compare": "VRAM architecture FP16 TFLOPS",
    "gpu_capability": "ce qui manque",
    "rent_cost": "location à l'heure prix indicatif",
    "spot_vs_dedicated": "instance spot dédiée interrompue sauvegarde",
    "rent_vs_buy": "achat location usage quotidien",
    "forgotten_instance": "éteignez instance oubliée week-end",
    "storage_cost": "stockage persistant facturé à l'arrêt",
    "budget_plan": "budget apprendre répartition Colab location",
    "workload_fit": "VRAM 24 Go modèles",
    "recommend_gpus": "recommandation achat carte",
    "probe_gpus": "vérifier ce qu'on a nvidia-smi",
}


def capability_terms(reading: Reading) -> str:
    """A capability question's own words: the features' names and the cards' architectures.

    A question about one feature ("does the H100 support FP8?") finds the passages that name the
    feature and the architectures; a guide topic (megakernels, a part) keeps the generic hint, the
    guide's answers about topics being written as what works and what is missing.
    """
    from assistant.knowledge.features import get_feature
    from assistant.knowledge.matching import match_gpu

    names: list[str] = []
    generic = not reading.entities.topics
    for key in reading.entities.topics[:2]:
        feature = get_feature(key)
        if feature is None:
            generic = True
            continue
        names.append(feature.name.split(" (")[0])
    for card in reading.entities.gpus[:2]:
        found = match_gpu(card).gpu
        if found is not None and found.architecture:
            names.append(str(found.architecture))
    if generic:
        names.append(INTENT_HINTS["gpu_capability"])
    return " ".join(dict.fromkeys(names))


def search_query(reading: Reading) -> str:
    """What to search the corpus for; empty when the turn has nothing to look up."""
    base = " ".join(reading.entities.gpus) if reading.intents == ["declined"] else reading.text
    if reading.follow_up:
        base = " ".join([*reading.entities.gpus, *reading.entities.topics, base])
    hints = [
        capability_terms(reading) if i == "gpu_capability" else INTENT_HINTS[i]
        for i in reading.tool_intents
        if i in INTENT_HINTS
    ]
    query = " ".join([base, *hints]).strip()
    return query[:MAX_QUERY_CHARS]
