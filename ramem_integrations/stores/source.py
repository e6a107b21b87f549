"""StoreSource: the memory source retrieval reads, over the Chroma store and the BM25 cache."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from ramem_integrations.core.retrieval import ContextFilter, Hits
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.embeddings import Embedder
from ramem_integrations.lexical import LexicalIndex
from ramem_integrations.stores.chroma import ChromaEpisodicStore, check_namespace, where_for

#: Up to this many ids meeting a condition, dense search filters by id, not by where-clause.
ID_FILTER_MAX = 5000
#: The unfiltered dense search reads this many neighbours, so that a condition met by enough
#: of them needs no second, filtered search.
DENSE_POOL = 100


class StoreSource:
    """A :class:`~ramem_integrations.core.retrieval.MemorySource` over the store and BM25.

    Dense search asks Chroma for ids and similarities only; lexical search ranks, filters
    (the where-clause evaluated on the cached metadata, as Chroma would) and materialises from
    the namespace's loaded :class:`LexicalIndex`, checking with the store that its candidates
    still exist. Memories not in that cache are read from the store. Query embeddings are
    cached, so one retrieval embeds its question once.
    """

    def __init__(self, store: ChromaEpisodicStore, embedder: Embedder, lexical: LexicalIndex):
        self.store, self.embedder, self.lexical_index = store, embedder, lexical
        self._embed_query = lru_cache(maxsize=256)(self._embed_one)
        self._last_pool: tuple[object, list[tuple[str, float]]] = (None, [])

    def _embed_one(self, text: str) -> np.ndarray:
        row: np.ndarray = self.embedder.embed([text])[0]
        return row

    def dense(self, namespace: str, query: str, k: int, where: ContextFilter | None = None) -> Hits:
        embedding, cached = self._embed_query(query), self.lexical_index.loaded(namespace)
        if where is None:
            pool = self.store.query_ids(namespace, embedding, max(k, DENSE_POOL))
            self._last_pool = ((namespace, query, self.lexical_index.version(namespace)), pool)
            return self._materialise(namespace, pool[:k], cached)
        among = self._cached_among(namespace, where) if cached is not None else None
        ranked = self._from_pool(namespace, query, among, k) if among is not None else None
        if ranked is None and among is not None and len(among) <= ID_FILTER_MAX:
            ranked = self.store.query_ids(namespace, embedding, k, among=among)
        if ranked is None:
            ranked = self.store.query_ids(namespace, embedding, k, where=where_for(where))
        return self._materialise(namespace, ranked, cached)

    def _from_pool(
        self, namespace: str, query: str, among: Sequence[str], k: int
    ) -> list[tuple[str, float]] | None:
        """The ``k`` nearest memories meeting a condition, read off the unfiltered search just
        made for the same question when it holds ``k`` of them (they are then exactly what
        the filtered search would return); else None. The pool serves one filtered search."""
        key, pool = self._last_pool
        self._last_pool = (None, [])
        if key != (namespace, query, self.lexical_index.version(namespace)):
            return None
        valid = set(among)
        found = [hit for hit in pool if hit[0] in valid]
        return found[:k] if len(found) >= k or len(found) == len(valid) else None

    def lexical(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits:
        check_namespace(namespace)  # before the index: a nameless read is refused, not loaded
        among = self._cached_among(namespace, where)
        ranked = self.lexical_index.index(namespace).search(query, k, among=among)
        present = self.store.present(namespace, [i for i, _ in ranked])  # deleted by another writer
        kept = [(i, score) for i, score in ranked if i in present]
        return self._materialise(namespace, kept, self.lexical_index.memories(namespace))

    def _cached_among(self, namespace: str, where: ContextFilter | None) -> list[str] | None:
        """The ids of the namespace's cached memories that meet ``where`` (None without one).

        The same predicate as the Chroma where-clause (a property test holds them equal)."""
        if not where:
            return None
        units = self.lexical_index.memories(namespace)
        return [i for i, unit in units.items() if where.met_by(unit) is not None]

    def _materialise(
        self,
        namespace: str,
        ranked: Sequence[tuple[str, float]],
        cached: Mapping[str, MemoryUnit] | None,
    ) -> Hits:
        cached = cached or {}
        missing = [i for i, _ in ranked if i not in cached]
        fetched = {u.id: u for u in self.store.get(namespace, ids=missing)} if missing else {}
        units = {**fetched, **{i: cached[i] for i, _ in ranked if i in cached}}
        return [(units[i], score) for i, score in ranked if i in units]
