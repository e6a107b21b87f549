"""Reads tests compare the package's own answers with: a ContextFilter as a Chroma where-clause,
and exact nearest neighbours over a store's stored vectors (its public reads, in NumPy)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.stores.protocol import MemoryStore

Where = dict[str, Any]


def _overlaps(prefix: str, span: TimeSpan) -> Where:
    start, end = span.to_epoch()
    return {"$and": [{f"{prefix}_start": {"$lt": end}}, {f"{prefix}_end": {"$gt": start}}]}


def _any_of(clauses: list[Where]) -> Where:
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


def where_for(condition: ContextFilter | None) -> Where | None:
    """``condition`` as a Chroma where-clause (None when empty): an oracle for
    ``ContextFilter.met_by``. Dates compare as epoch seconds; lists match with ``$contains``."""
    if not condition:
        return None
    clauses: list[Where] = []
    if condition.time is not None:
        prefixes = {"session": "session", "event": "event", "episode": "episode_event"}
        spans = [_overlaps(prefixes[c], condition.time) for c in condition.TIME_COORDINATES]
        clauses.append(_any_of(spans))
    entities = ("entities", "episode_entities")
    for person in condition.people:
        keys = ("participants", "episode_participants", *entities)
        clauses.append(_any_of([{key: {"$contains": person}} for key in keys]))
    if condition.places:
        places = [{"location": {"$in": list(condition.places)}}]
        keys = ("episode_places", *entities)
        places += [{key: {"$contains": p}} for p in condition.places for key in keys]
        clauses.append(_any_of(places))
    clauses.extend(
        _any_of([{key: {"$contains": e}} for key in entities]) for e in condition.entities
    )
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def nearest(
    store: MemoryStore,
    namespace: str,
    embedding: np.ndarray,
    k: int,
    *,
    where: Where | None = None,
) -> list[tuple[MemoryUnit, float]]:
    """The ``k`` memories whose stored vectors are nearest ``embedding`` by cosine similarity,
    exactly, as ``(memory, similarity)``; with ``where``, among those a Chroma store finds
    matching that where-clause."""
    units, vectors = store.get_with_vectors(namespace)
    if where is not None:
        assert isinstance(store, ChromaEpisodicStore)
        kept = set(store.ids(namespace, where=where))
        rows = [i for i, u in enumerate(units) if u.id in kept]
        units, vectors = [units[i] for i in rows], vectors[rows]
    if not units or k <= 0:
        return []
    query = np.asarray(embedding, dtype=np.float64)
    matrix = np.asarray(vectors, dtype=np.float64)
    sims = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    order = np.argsort(-sims, kind="stable")[:k]
    return [(units[i], float(sims[i])) for i in order]
