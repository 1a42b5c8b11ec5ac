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


def search_query(reading: Reading) -> str:
    """What to search the corpus for; empty when the turn has nothing to look up."""
    base = " ".join(reading.entities.gpus) if reading.intents == ["declined"] else reading.text
    if reading.follow_up:
        base = " ".join([*reading.entities.gpus, *reading.entities.topics, base])
    hints = [INTENT_HINTS[i] for i in reading.tool_intents if i in INTENT_HINTS]
    query = " ".join([base, *hints]).strip()
    return query[:MAX_QUERY_CHARS]
