"""An evaluation store whose nearest-neighbour search is exact, so a run's figures repeat.

Chroma's HNSW index is approximate: two runs over the same memories could rank a few
neighbours differently (the content baseline drifted from 0.5561 to 0.5594 on one conversation).
:class:`ExactStore` answers dense queries by computing the cosine similarity of the query to
every vector of the namespace (NumPy, rows in id order, ties broken by id); everything else is
the ordinary :class:`~ramem_integrations.stores.chroma.ChromaEpisodicStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.stores.chroma import DEFAULT_COLLECTION, ChromaEpisodicStore, Where

Matrix = npt.NDArray[np.float64]


class ExactStore(ChromaEpisodicStore):
    """A Chroma store with exact dense search over each namespace's vectors (cached per
    namespace, dropped on every write)."""

    def __init__(self, client: Any, collection: str = DEFAULT_COLLECTION) -> None:
        super().__init__(client, collection)
        self._vectors: dict[str, tuple[list[str], Matrix]] = {}

    def vectors(self, namespace: str) -> tuple[list[str], Matrix]:
        """The namespace's ids (sorted) and their unit-length vectors, one row each."""
        cache = self._vectors
        if namespace not in cache:
            units, vectors = self.get_with_vectors(namespace)
            order = sorted(range(len(units)), key=lambda i: units[i].id)
            ids = [units[i].id for i in order]
            matrix = np.zeros((0, 0))
            if ids:
                matrix = np.asarray(vectors[order], dtype=np.float64)
                norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                matrix = matrix / np.where(norms == 0, 1.0, norms)
            cache[namespace] = (ids, matrix)
        return cache[namespace]

    def query_ids(
        self,
        namespace: str,
        embedding: np.ndarray,
        k: int,
        *,
        where: Where | None = None,
        among: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """The ``k`` most similar memories (meeting ``where``, or among ``among``), exactly."""
        if k <= 0 or (among is not None and not among):
            return []
        ids, matrix = self.vectors(namespace)
        if not ids:
            return []
        allowed = set(among) if among is not None else set(self.ids(namespace, where=where))
        rows = [i for i, memory_id in enumerate(ids) if memory_id in allowed]
        query = np.asarray(embedding, dtype=np.float64).reshape(-1)
        query = query / (np.linalg.norm(query) or 1.0)
        similarity = matrix[rows] @ query
        order = sorted(range(len(rows)), key=lambda j: (-float(similarity[j]), ids[rows[j]]))
        return [(ids[rows[j]], float(similarity[j])) for j in order[:k]]

    def query(
        self, namespace: str, embedding: np.ndarray, k: int, *, where: Where | None = None
    ) -> list[tuple[MemoryUnit, float]]:
        """Like :meth:`query_ids`, with the memories read."""
        ranked = self.query_ids(namespace, embedding, k, where=where)
        units = {u.id: u for u in self.get(namespace, ids=[i for i, _ in ranked])}
        return [(units[i], score) for i, score in ranked if i in units]

    def upsert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> None:
        super().upsert(memories, embeddings)
        self._vectors.clear()

    def delete(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> list[str]:
        removed = super().delete(namespace, ids=ids, conversation_id=conversation_id)
        self._vectors.clear()
        return removed
