"""RaMem: the facade users start from (add, retrieve, forget).

.. code-block:: python

    from ramem_integrations import RaMem

    mem = RaMem.from_path("./memory")
    mem.add_conversation(conversation, namespace="alice")
    hits = mem.retrieve("What did Bob say about the trip last August?", namespace="alice")
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.anchoring import Anchorer, RuleAnchorer
from ramem_integrations.core.conversation import Conversation
from ramem_integrations.core.retrieval import ContentRetriever, ContextFilter, Hits, single
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.embeddings import Embedder, MiniLMEmbedder, as_embedder
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.lexical import LexicalIndex
from ramem_integrations.stores.chroma import (
    DEFAULT_COLLECTION,
    ChromaEpisodicStore,
    check_namespace,
    where_for,
)

logger = logging.getLogger(__name__)

#: Retrieval modes: the baselines share the store with the full method.
MODES = ("content", "dense", "bm25")
EMBED_BATCH = 256

Progress = Callable[[int], None]
default_embedder = MiniLMEmbedder  # the packaged offline model; tests may swap it


class StoreSource:
    """A :class:`~ramem_integrations.core.retrieval.MemorySource` over the store and BM25."""

    def __init__(self, store: ChromaEpisodicStore, embedder: Embedder, lexical: LexicalIndex):
        self.store, self.embedder, self.lexical_index = store, embedder, lexical
        self._embed_query = lru_cache(maxsize=256)(self._embed_one)

    def _embed_one(self, text: str) -> np.ndarray:
        return self.embedder.embed([text])[0]

    def dense(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits:
        return self.store.query(namespace, self._embed_query(query), k, where=where_for(where))

    def lexical(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits:
        among = self.store.ids(namespace, where=where_for(where)) if where else None
        ranked = self.lexical_index.index(namespace).search(query, k, among=among)
        units = {u.id: u for u in self.store.get(namespace, ids=[i for i, _ in ranked])}
        return [(units[i], score) for i, score in ranked if i in units]


class RaMem:
    """Episodic long-term memory over a Chroma store.

    Args:
        store: where memories live (see :meth:`from_path`, :meth:`from_client`).
        embedder: an :class:`~ramem_integrations.embeddings.Embedder`, or a LangChain
            ``Embeddings``, LlamaIndex ``BaseEmbedding`` or Chroma ``EmbeddingFunction``;
            the packaged offline MiniLM model when omitted.
        anchorer: turns conversations into memory units; :class:`RuleAnchorer` when omitted.
    """

    def __init__(
        self,
        store: ChromaEpisodicStore,
        *,
        embedder: Any = None,
        anchorer: Anchorer | None = None,
    ) -> None:
        self.store = store
        self.embedder: Embedder = as_embedder(embedder) if embedder is not None else default_embedder()
        self.anchorer: Anchorer = anchorer or RuleAnchorer()
        self.lexical = LexicalIndex(lambda ns: self.store.get(ns))
        self.source = StoreSource(store, self.embedder, self.lexical)
        self.content = ContentRetriever(self.source)

    @classmethod
    def from_path(
        cls, path: str | Path, *, collection: str = DEFAULT_COLLECTION, **kwargs: Any
    ) -> RaMem:
        """Memory in an embedded Chroma store persisted under ``path``."""
        return cls(ChromaEpisodicStore.from_path(path, collection), **kwargs)

    @classmethod
    def from_client(
        cls, client: Any, *, collection: str = DEFAULT_COLLECTION, **kwargs: Any
    ) -> RaMem:
        """Memory over any chromadb client (``PersistentClient``, ``HttpClient``, ...)."""
        return cls(ChromaEpisodicStore.from_client(client, collection), **kwargs)

    # -- writing -----------------------------------------------------------------------
    def add_conversation(
        self, conversation: Conversation, namespace: str, *, progress: Progress | None = None
    ) -> list[str]:
        """Anchor a conversation and store its memories; re-adding it changes nothing."""
        if not isinstance(conversation, Conversation):
            raise InvalidInputError(
                f"add_conversation takes a Conversation, got {type(conversation).__name__}. "
                "Load one with ramem_integrations.load_conversations(path)."
            )
        units = self.anchorer.anchor(conversation, check_namespace(namespace))
        return self.add_memories(units, progress=progress)

    def add_memories(
        self, memories: Sequence[MemoryUnit], *, progress: Progress | None = None
    ) -> list[str]:
        """Embed and upsert memory units; those already stored unchanged are skipped."""
        units = list(memories)
        for unit in units:
            if not isinstance(unit, MemoryUnit):
                raise InvalidInputError(f"Expected MemoryUnit objects, got {type(unit).__name__}.")
        by_ns: dict[str, list[MemoryUnit]] = {}
        for unit in units:
            by_ns.setdefault(unit.namespace, []).append(unit)
        for namespace, group in by_ns.items():
            self._add_namespace(namespace, group, progress)
        return [u.id for u in units]

    def _add_namespace(
        self, namespace: str, units: list[MemoryUnit], progress: Progress | None
    ) -> None:
        fresh = self._changed(namespace, units)
        if progress:
            progress(len(units) - len(fresh))
        for start in range(0, len(fresh), EMBED_BATCH):
            batch = fresh[start : start + EMBED_BATCH]
            vectors = self.embedder.embed([u.content for u in batch])
            self.store.upsert(batch, vectors)
            self.lexical.added(namespace, batch)
            if progress:
                progress(len(batch))

    def _changed(self, namespace: str, units: list[MemoryUnit]) -> list[MemoryUnit]:
        stored = {u.id: u for u in self.store.get(namespace, ids=[u.id for u in units])}
        unique = {u.id: u for u in units}
        return [u for u in unique.values() if stored.get(u.id) != u]

    def forget(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> int:
        """Delete memories: by id, by source conversation, or the whole namespace."""
        removed = self.store.delete(namespace, ids=ids, conversation_id=conversation_id)
        self.lexical.removed(namespace, removed)
        return len(removed)

    # -- reading -----------------------------------------------------------------------
    def retrieve(
        self, query: str, namespace: str, k: int = 10, *, mode: str = "content"
    ) -> list[ScoredMemory]:
        """The ``k`` memories of ``namespace`` that best serve ``query``."""
        check_namespace(namespace)
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("The query is empty; ask a question in words.")
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InvalidInputError(f"k must be a positive integer, got {k!r}.")
        if mode == "dense":
            return single(self.source.dense(namespace, query, k), k)
        if mode == "bm25":
            return single(self.source.lexical(namespace, query, k), k)
        if mode == "content":
            return self.content.retrieve(query, namespace, k)
        raise InvalidInputError(f"Unknown mode {mode!r}; use one of: {', '.join(MODES)}.")

    def count(self, namespace: str) -> int:
        return self.store.count(namespace)

    def namespaces(self) -> dict[str, int]:
        return self.store.namespaces()

    def memories(self, namespace: str) -> list[MemoryUnit]:
        return self.store.get(namespace)


def add_all(
    mem: RaMem, conversations: Iterable[Conversation], namespace: str | None = None
) -> dict[str, int]:
    """Add conversations, each into ``namespace`` or a namespace named by its id."""
    counts: dict[str, int] = {}
    for conversation in conversations:
        ns = namespace or conversation.id
        counts[ns] = counts.get(ns, 0) + len(mem.add_conversation(conversation, ns))
    return counts
