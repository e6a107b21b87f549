"""RaMem's embedder as a LangChain ``Embeddings``, so a LangChain vector store can share it."""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings

from ramem_integrations.models.embeddings import Embedder, as_embedder, embed_query


class RaMemEmbeddings(Embeddings):
    """A RaMem :class:`~ramem_integrations.models.embeddings.Embedder` as LangChain ``Embeddings``.

    Instantiate:
        .. code-block:: python

            from ramem_integrations.langchain import RaMemEmbeddings

            embeddings = RaMemEmbeddings()            # the packaged offline MiniLM model
            embeddings = RaMemEmbeddings(mem.embedder)  # the one a RaMem store was built with
    """

    def __init__(self, embedder: Embedder | Any = None) -> None:
        self.embedder = as_embedder(embedder)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        rows: list[list[float]] = self.embedder.embed(texts).tolist()
        return rows

    def embed_query(self, text: str) -> list[float]:
        row: list[float] = embed_query(self.embedder, text).tolist()
        return row
