"""Keyword search (BM25 via bm25s) over the search's tokens (`assistant.knowledge.tokens`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.knowledge.tokens import tokenize

if TYPE_CHECKING:
    import numpy as np


class LexicalIndex:
    """BM25 over a fixed list of texts; scores every text for a query."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        self.size = len(texts)
        tokens = [tokenize(t) or ["_empty_"] for t in texts]
        self._vocab = {tok for doc in tokens for tok in doc}
        self._bm25 = bm25s.BM25()
        if tokens:
            self._bm25.index(tokens, show_progress=False)

    def known(self, terms: Sequence[str]) -> list[str]:
        """The terms that occur in the indexed texts."""
        return [t for t in terms if t in self._vocab]

    def scores(self, terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every text for the (already tokenised) query terms."""
        import numpy as np

        terms = self.known(terms)
        if not terms or not self.size:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(list(terms)), dtype=np.float32)
