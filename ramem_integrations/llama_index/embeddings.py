"""RaMem's embedder as a LlamaIndex ``BaseEmbedding``, so an index can share it."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding, Embedding
from pydantic import PrivateAttr

from ramem_integrations.llama_index.nodes import EMBEDDED_KEY
from ramem_integrations.memory.embedding import spoken_vectors
from ramem_integrations.models.embeddings import Embedder, as_embedder, embed_query

#: How a node's embed text starts when it carries a speaker line (LlamaIndex's default
#: metadata template, ``{key}: {value}``, with ``said_by`` the one key the embedding sees).
SAID_BY = f"{EMBEDDED_KEY}: "


def spoken(text: str) -> tuple[str, str | None]:
    """A node's embed text as (words, speaker line): ``"said_by: Mel (to Caro)\\n\\nwords"``
    gives ``("words", "Mel (to Caro)")``; the node's other embedded metadata lines stay with
    the words. A text without a ``said_by`` line is words alone."""
    head, sep, body = text.partition("\n\n")
    lines = head.split("\n")
    line = next((n for n in lines if n.startswith(SAID_BY)), None)
    if not sep or line is None or not body.strip():
        return text, None
    others = "\n".join(n for n in lines if n is not line)
    return (f"{others}\n\n{body}" if others else body), line[len(SAID_BY) :]


class RaMemEmbedding(BaseEmbedding):
    """A RaMem :class:`~ramem_integrations.models.embeddings.Embedder` as a LlamaIndex embed model.

    A node RaMem made (:func:`~ramem_integrations.llama_index.to_node`, the extractor) embeds
    as RaMem's own vectors do: its words plus, weighted, its ``said_by`` speaker line
    (:func:`~ramem_integrations.memory.embedding.spoken_vectors`).

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
        return self._get_text_embeddings([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[Embedding]:
        rows: list[Embedding] = spoken_vectors(self._embedder, [spoken(t) for t in texts]).tolist()
        return rows
