"""Our embedding function in Chroma's terms, so a collection never falls back to Chroma's default
(which would download a model)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _function_class() -> type:
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    class AdvisorEmbeddingFunction(EmbeddingFunction[Documents]):
        """Embeds with assistant.retrieval.embeddings, for documents and queries alike."""

        def __init__(self, model: str) -> None:
            self._model = model

        def __call__(self, input: Documents) -> Embeddings:
            from assistant.retrieval.embeddings import get_embedder

            return list(get_embedder(self._model).embed_documents(list(input)))

        def embed_query(self, input: Documents) -> Embeddings:
            from assistant.retrieval.embeddings import get_embedder

            return list(get_embedder(self._model).embed_queries(list(input)))

        @staticmethod
        def name() -> str:
            return "gpu-advisor"

        def get_config(self) -> dict[str, Any]:
            return {"model": self._model}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> AdvisorEmbeddingFunction:
            return AdvisorEmbeddingFunction(str(config.get("model", "minilm")))

        def default_space(self) -> Any:
            return "cosine"

    register_embedding_function(AdvisorEmbeddingFunction)
    return AdvisorEmbeddingFunction


def make_embedding_function(model: str) -> Any:
    """An instance of our Chroma embedding function for the given model key."""
    return _function_class()(model)
