"""CachedSource: the memory source retrieval reads: the namespace cache, dense and BM25."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache, partial

import numpy as np

from ramem_integrations.core.passages import Passages, Span
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.source import EVERYTHING, Hits, Scope
from ramem_integrations.index.conditions import ConditionTable
from ramem_integrations.index.namespaces import NamespaceCache
from ramem_integrations.index.passages import PassageIndex
from ramem_integrations.models.embeddings import Embedder, Vectors, embed_query

#: The weight of the messages before a question in its dense query vector, beside the
#: question's own (both unit vectors). Measured on LoCoMo dev (docs/llama_index.md).
CONTEXT_WEIGHT = 0.5


class CachedSource:
    """A :class:`~ramem_integrations.core.retrieval.source.MemorySource` over the namespace cache.

    Both rankings are read off the namespace's loaded cache (:class:`NamespaceCache`): dense
    search is exact, in NumPy, over the memories' vectors; lexical search is BM25. A condition
    is evaluated on the cached memories (as Chroma would evaluate the where-clause; a property
    test holds them equal). The cache is current: each retrieval first brings it up to every
    write committed before it (``Freshness.sync``, one read of the write marks), so no candidate
    is checked with the store again. A question is embedded as a query (the embedder's
    ``embed_query`` when it has one: e5, BGE, a LangChain ``Embeddings``); query embeddings are
    cached, so one retrieval embeds its question once. A search in a
    :class:`~ramem_integrations.core.retrieval.source.Scope` ranks only its ``within``
    memories, and a dense one leans toward its ``context``, the messages before the question.
    """

    def __init__(self, embedder: Embedder, cache: NamespaceCache):
        self.embedder, self.cache = embedder, cache
        self._embed_query = lru_cache(maxsize=256)(partial(embed_query, embedder))
        self._last_among: tuple[object, list[str] | None] = (None, None)
        self._tables: dict[str, tuple[tuple[str, int], object, ConditionTable | None]] = {}
        self._passages: dict[Passages, dict[str, tuple[int, PassageIndex]]] = {}
        self._lock = threading.Lock()

    def dense(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        among = self._cached_among(namespace, where, scope.within)
        vector = self._vector(query, scope.context)
        ranked = self.cache.vectors(namespace).search(vector, k, among=among)
        return self._cached(namespace, ranked)

    def lexical(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        among = self._cached_among(namespace, where, scope.within)
        ranked = self.cache.index(namespace).search(query, k, among=among)
        return self._cached(namespace, ranked)

    def _vector(self, query: str, context: str | None) -> Vectors:
        """The query's dense vector: the question's, plus :data:`CONTEXT_WEIGHT` times that of
        ``context`` (the messages before it), normalised."""
        embedding = self._embed_query(query)
        if not context or not context.strip():
            return embedding
        mixed = embedding + CONTEXT_WEIGHT * self._embed_query(context)
        norm = float(np.linalg.norm(mixed))
        return (mixed / norm if norm > 0 else embedding).astype(np.float32)

    def share(self, namespace: str, where: ContextFilter, scope: Scope = EVERYTHING) -> float:
        """The fraction of the namespace's cached memories (of ``scope.within``, if given) that
        meet ``where``."""
        among = self._cached_among(namespace, where, scope.within)
        everything = self._cached_among(namespace, None, scope.within)
        total = len(self.cache.memories(namespace) if everything is None else everything)
        return 0.0 if among is None or not total else len(among) / total

    def best_passage(
        self, namespace: str, query: str, memory_id: str, passages: Passages
    ) -> Span | None:
        """The span of the memory's passage (cut by ``passages``) that best matches ``query``,
        by BM25 over the namespace's passages (:class:`PassageIndex`, built when the namespace
        is first read, brought up to each write after it, kept for loaded namespaces only);
        None for a memory of one passage."""
        version = self.cache.version(namespace)
        with self._lock:
            built = self._passages.setdefault(passages, {})
            kept = built.get(namespace)
            if kept is None:
                for gone in [n for n in built if not self.cache.loaded(n)]:
                    del built[gone]
                index = PassageIndex(self.cache.memories(namespace).values(), passages)
                built[namespace] = (version, index)
            elif kept[0] != version:
                kept[1].update(self.cache.memories(namespace))
                built[namespace] = (version, kept[1])
            return built[namespace][1].best(query, memory_id)

    def _cached(self, namespace: str, ranked: Sequence[tuple[str, float]]) -> Hits:
        """The ranked memories, read from the cache (an id dropped by a write since is left out)."""
        cached = self.cache.memories(namespace)
        return [(cached[i], score) for i, score in ranked if i in cached]

    def _cached_among(
        self, namespace: str, where: ContextFilter | None, only: frozenset[str] | None
    ) -> list[str] | None:
        """The ids of the namespace's cached memories that meet ``where`` and are among
        ``only``, the ones a search may rank (None: every memory).

        The same predicate as the Chroma where-clause (a property test holds them equal). The
        last answer is kept, so a retrieval's dense and lexical searches filter once."""
        if not where:
            cached = self.cache.memories(namespace)
            return None if only is None else sorted(i for i in only if i in cached)
        among = self._where(namespace, where)
        return among if only is None else [i for i in among if i in only]

    def _where(self, namespace: str, where: ContextFilter) -> list[str]:
        """The ids of the namespace's cached memories that meet ``where`` (the last kept)."""
        key = (namespace, self.cache.version(namespace), where)
        last_key, last = self._last_among
        if last_key == key and last is not None:
            return last
        among = self._among(namespace, where)
        self._last_among = (key, among)
        return among

    def _among(self, namespace: str, where: ContextFilter) -> list[str]:
        """The ids meeting ``where``. The first question after a write checks each cached
        memory (``meets``); the second builds the namespace's :class:`ConditionTable`, which
        answers every later one at once. So a write between every question costs no more than
        the check, and a namespace read many times between writes pays for the table once."""
        key = (namespace, self.cache.version(namespace))
        units = self.cache.memories(namespace)
        with self._lock:
            cached = self._tables.get(namespace)
        if cached is None or cached[0] != key or cached[1] is not units:
            with self._lock:  # kept for loaded namespaces only, as the cache it is built from
                self._tables = {
                    ns: entry
                    for ns, entry in self._tables.items()
                    if self.cache.loaded(ns) is not None
                }
                self._tables[namespace] = (key, units, None)
            snapshot = list(units.items())  # one step under the GIL: a write may add to units
            return [i for i, unit in snapshot if where.meets(unit)]
        table = cached[2]
        if table is None:
            table = ConditionTable(dict(units))  # one step under the GIL, as above
            with self._lock:
                self._tables[namespace] = (key, units, table)
        return table.among(where)
