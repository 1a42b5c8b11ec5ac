"""The relevance floor: is a query about the corpus at all?

A query is compared with the corpus and with a fixed set of everyday, non-GPU topics (food, weather,
sport, travel...). When its best passage is not closer than its closest everyday topic by a
margin, the query is off-topic and search returns nothing. Comparing against a background, rather
than a fixed similarity cut, copes with embedding models whose similarities all sit in a narrow
band (multilingual-e5 scores almost any pair above 0.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from assistant.retrieval.embeddings import get_embedder

if TYPE_CHECKING:
    import numpy as np

# Everyday topics, in both languages. None of them may touch what the corpus covers (GPUs,
# computing, cloud, prices of hardware, learning to program), or on-topic queries would lose.
BACKGROUND_TOPICS = (
    "best restaurant and food recipes",
    "meilleur restaurant et recettes de cuisine",
    "weather forecast for tomorrow",
    "prévisions météo pour demain",
    "football match results and sports news",
    "résultats de match de football et sport",
    "travel, flights, hotels and holidays",
    "voyage, vols, hôtels et vacances",
    "train and bus timetables",
    "horaires de train et de bus",
    "learn to play a musical instrument",
    "apprendre à jouer d'un instrument de musique",
    "movies, books and TV series recommendations",
    "films, livres et séries à voir",
    "health, diet, calories and exercise",
    "santé, régime, calories et sport",
    "pets, dogs and cats care",
    "animaux de compagnie, chiens et chats",
    "geography, capitals and countries",
    "géographie, capitales et pays",
    "history and politics",
    "histoire et politique",
    "car repair, bicycles and transport",
    "réparation de voiture, vélo et transports",
    "clothes, fashion and shopping",
    "vêtements, mode et shopping",
    "jobs, salaries and taxes",
    "emploi, salaires et impôts",
    "gardening and home improvement",
    "jardinage et bricolage",
    "love, family and relationships",
    "amour, famille et relations",
    "administrative paperwork: passports, visas and identity cards",
    "démarches administratives : passeport, visa et carte d'identité",
)


@dataclass(frozen=True)
class Floor:
    """Thresholds of the relevance floor for one embedding model."""

    margin: float  # best passage similarity minus best background similarity must reach this
    lexical: float  # or, in keyword-only search, the best BM25 score on the query's own words


# Measured on tests/retrieval/queries.json (see docs/retrieval.md): e5 separates on-topic
# (margin >= +0.013) from off-topic (<= -0.016); MiniLM, an English model, separates poorly.
# Re-measured with the knowledge base indexed (many more passages raise chance similarities):
# on-topic >= +0.018, off-topic <= +0.003, so the e5 floor sits in the middle of that gap.
FLOORS = {
    "e5": Floor(margin=0.010, lexical=2.0),
    "minilm": Floor(margin=-0.085, lexical=2.0),
}
DEFAULT_FLOOR = Floor(margin=0.0, lexical=2.0)


@lru_cache(maxsize=4)
def _background(model: str) -> np.ndarray:
    return get_embedder(model).embed_documents(list(BACKGROUND_TOPICS))


def background_similarity(model: str, query_vector: np.ndarray) -> float:
    """Cosine similarity of the query to its closest everyday topic."""
    return float((_background(model) @ query_vector.reshape(-1)).max())
