"""MemoryStore: what the rest of the package needs from a store of memories.

Memories are kept per namespace; every call names one, and nothing reads across namespaces.
Beside the memories, a store keeps *write marks*: per namespace, how many writes each store
object has made there and which are under way (marked before a write touches the
memories, cleared after), so a reader holding a cache learns of other writers' writes,
finished or cut, with one small read (:meth:`MemoryStore.written`).
:class:`~.chroma.ChromaEpisodicStore` implements it; its layout, registry moves and file
limits stay its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.stores.layout import PENDING_PREFIX


class MemoryStore(Protocol):
    """Memory units and their vectors, a namespace at a time, with write marks."""

    # -- writes: each marks the namespace pending before it and written once it is done -----
    def upsert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> None:
        """Insert or replace memories by id within their namespaces (row ``i`` embeds memory
        ``i``)."""
        ...

    def insert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> list[MemoryUnit]:
        """Store memories under ids not stored yet, never replacing a stored one; returns the
        stored memories that are not as given (another writer's, stored meanwhile)."""
        ...

    def set_vectors(self, namespace: str, ids: Sequence[str], embeddings: np.ndarray) -> None:
        """Replace the vectors of stored memories, skipping ids no longer stored."""
        ...

    def delete(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> list[str]:
        """Delete memories (all, by id, or by source conversation); returns the ids deleted.
        Deleting nothing settles the namespace (below)."""
        ...

    def settle(self, namespace: str) -> bool:
        """When a write left the namespace's marks pending (it was cut), mark one finished
        (clearing this object's pending mark and expired ones); whether it did."""
        ...

    # -- reads: a namespace never written reads as empty, and nothing is created -----------
    def ids(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> list[str]:
        """The ids of the namespace's memories (among ``ids``; of ``conversation_id``)."""
        ...

    def get(self, namespace: str, *, ids: Sequence[str] | None = None) -> list[MemoryUnit]:
        """The namespace's memories (among ``ids`` when given)."""
        ...

    def holding(
        self, namespace: str, conversation_ids: Sequence[str], turn_ids: Sequence[str]
    ) -> list[MemoryUnit]:
        """The memories of these conversations that hold any of these turns."""
        ...

    def get_with_vectors(self, namespace: str) -> tuple[list[MemoryUnit], np.ndarray]:
        """Every memory of the namespace and its vector (row ``i`` is memory ``i``)."""
        ...

    def dimension(self, namespace: str) -> int | None:
        """The length of the namespace's vectors (None when it holds none)."""
        ...

    def has_memories(self, namespace: str) -> bool:
        """Whether the namespace holds at least one memory."""
        ...

    def count(self, namespace: str) -> int:
        """How many memories the namespace holds."""
        ...

    def namespaces(self) -> dict[str, int]:
        """Every namespace holding memories, with its number of memories."""
        ...

    def namespace_names(self) -> list[str]:
        """Every namespace ever written, sorted, without reading any of them."""
        ...

    # -- write marks -----------------------------------------------------------------------
    def own_mark(self, namespace: str) -> tuple[str, int] | None:
        """This object's latest mark on the namespace (None before its first write there)."""
        ...

    def written(self, namespace: str, *, others_only: bool = False) -> dict[str, int]:
        """The namespace's write marks (writer -> writes, and pending keys of writes under
        way, see :func:`is_pending`), without this object's own when ``others_only``; they
        change on every write."""
        ...

    @property
    def remote(self) -> bool:
        """Whether writes go to a server (so a write can overlap other work of this process)."""
        ...


def is_pending(mark: str) -> bool:
    """Whether a key of :meth:`MemoryStore.written` marks a write under way (or cut)."""
    return mark.startswith(PENDING_PREFIX)
