"""How close a question is to each knowledge entry, and whether an entry is about other cards.

A question is compared with every entry's title and "asked" phrasings (both languages) using the
search's own embedding model (query vectors, L2-normalised, so a dot product is a cosine); an
entry scores its best text. The texts are embedded once per model and, like every text the
package embeds, shipped precomputed (tools/build_vectors.py records them).
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

    from assistant.agent.offline.reading import Reading

log = get_logger(__name__)

_lock = threading.Lock()


def asked_texts() -> tuple[tuple[str, ...], list[str]]:
    """(entry id per text, texts): every entry title of both languages, in entry order, then
    every "asked" phrasing (other ways people put the same question)."""
    from assistant.knowledge.entries import load_entries

    entries = load_entries()
    phrasings = [(e.id, p) for e in entries for p in e.asked]
    ids = tuple(e.id for e in entries) + tuple(i for i, _ in phrasings)
    return ids, [e.title for e in entries] + [p for _, p in phrasings]


@lru_cache(maxsize=4)
def entry_vectors(model: str) -> tuple[tuple[str, ...], np.ndarray]:
    """(entry id per row, vectors) for every title and phrasing (see `asked_texts`)."""
    from assistant.retrieval.embeddings import get_embedder

    ids, texts = asked_texts()
    return ids, get_embedder(model).embed_queries(texts)


def title_scores(text: str) -> list[tuple[str, float]]:
    """(entry id, best cosine of the question to its titles and phrasings), nearest first; []
    without a model."""
    import numpy as np

    from assistant.retrieval.embeddings import EmbeddingUnavailable, get_embedder, model_key

    try:
        key = model_key()
        with _lock:
            ids, matrix = entry_vectors(key)
        question = get_embedder(key).embed_queries([text])[0]
    except (EmbeddingUnavailable, OSError, ValueError) as exc:
        log.info("offline: no knowledge lead (%s)", exc)
        return []
    sims = np.asarray(matrix, dtype=np.float32) @ np.asarray(question, dtype=np.float32)
    best: dict[str, float] = {}
    for entry_id, sim in zip(ids, sims.tolist(), strict=True):
        best[entry_id] = max(best.get(entry_id, -1.0), float(sim))
    return sorted(best.items(), key=lambda item: -item[1])


@cache
def _named(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(cards, features) a text names."""
    from assistant.agent.offline.entities import extract_entities

    found = extract_entities(text)
    return frozenset(found.gpus), frozenset(found.topics)


@cache
def _family(card: str) -> tuple[str, str]:
    """Cards that share a compute capability (or, without one, an architecture) are one family:
    an entry about the RX 6800 also answers for the RX 6700S, one about the RTX 3090 not for the
    A100."""
    from assistant.knowledge.matching import match_gpu

    found = match_gpu(card).gpu
    if found is None:
        return card, card
    return str(found.vendor), found.compute_capability or found.architecture


@cache
def _entry_names(entry_id: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The cards an entry's title names, those its title and direct answer name (an answer often
    widens the title: "the same holds for two RTX A6000s"), and the features its title names, in
    either language."""
    from assistant.knowledge.entries import load_entries

    entries = [e for e in load_entries() if e.id == entry_id]
    titles = [_named(e.title) for e in entries]
    answers = [_named(e.answer)[0] for e in entries]
    titled = frozenset().union(*(c for c, _ in titles))
    return titled, titled.union(*answers), frozenset().union(*(f for _, f in titles))


def about_something_else(reading: Reading, entry_id: str, generic: frozenset[str]) -> bool:
    """The entry's title names cards (or features), so does the question, and they share no card
    family with the entry's title and answer (no feature with its title): an entry about other
    cards or another feature. Generic topics ("CUDA programming") tell no feature apart."""
    titled, covered, features = _entry_names(entry_id)
    named = frozenset(reading.entities.gpus)
    if named and titled and not {_family(c) for c in named} & {_family(c) for c in covered}:
        return True
    asked = frozenset(reading.entities.topics) - generic
    return bool(asked and features - generic and not asked & features)
