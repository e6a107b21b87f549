"""RaMem's embedder as a LlamaIndex ``BaseEmbedding``, so an index can share it."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding, Embedding
from pydantic import PrivateAttr

from ramem_integrations.embeddings import Embedder, as_embedder, embed_query


class RaMemEmbedding(BaseEmbedding):
    """A RaMem :class:`~ramem_integrations.embeddings.Embedder` as a LlamaIndex embed model.

    .. code-block:: python

        from llama_index.core import VectorStoreIndex
        from ramem_integrations.llama_index import RaMemEmbedding

        index = VectorStoreIndex(nodes, embed_model=RaMemEmbedding())  # offline MiniLM
    """

    _embedder: Embedder = PrivateAttr()

    def __init__(self, embedder: Embedder | Any = None, **kwargs: Any) -> None:
        wrapped = as_embedder(embedder)
        kwargs.setdefault("model_name", wrapped.name)
        kwargs.setdefault("embed_batch_size", 64)
        super().__init__(**kwargs)
        self._embedder = wrapped

    @classmethod
    def class_name(cls) -> str:
        return "RaMemEmbedding"

    def _get_query_embedding(self, query: str) -> Embedding:
        row: Embedding = embed_query(self._embedder, query).tolist()
        return row

    async def _aget_query_embedding(self, query: str) -> Embedding:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> Embedding:
        row: Embedding = self._embedder.embed([text])[0].tolist()
        return row

    def _get_text_embeddings(self, texts: list[str]) -> list[Embedding]:
        rows: list[Embedding] = self._embedder.embed(texts).tolist()
        return rows
