"""A namespace's memories held in memory: its memories, vectors and BM25 index, kept current.

The store is the source of truth: a namespace is loaded from it on first use and then updated in
place by each write, never reloaded per write. :class:`NamespaceCache` keeps the most recently
used namespaces only, bounded by count and by bytes, so a store with many namespaces does not
hold them all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.index.bm25 import BM25, lexical_text
from ramem_integrations.index.vectors import VectorTable
from ramem_integrations.stores.protocol import is_pending

T = TypeVar("T")

#: What a loaded memory costs besides its vector (its text, metadata and postings), an
#: estimate: 3.3 KB measured on the shipped chats set, 3.9 KB on LoCoMo
#: (benchmarks/cache_bytes.py).
BYTES_PER_MEMORY = 4_000
#: Loaded namespaces are dropped, least recently used first, past this many bytes.
MAX_BYTES = 512 * 2**20

Loader = Callable[[str], tuple[Sequence[MemoryUnit], npt.ArrayLike]]
Vector = npt.NDArray[np.float64]


class NamespaceCache:
    """BM25 indexes by namespace, loaded from the store on demand and kept current.

    With each loaded namespace it keeps the memories themselves and their vectors, so a query
    can rank (lexically and by similarity, see :meth:`vectors`), filter and materialise its
    candidates without going back to the store (see :meth:`memories`). Writes through
    :meth:`added` and :meth:`removed` keep all three current; namespaces past
    ``max_namespaces``, or past ``max_bytes`` in all, are dropped, least recently used first
    (the one in use always stays).
    """

    def __init__(
        self,
        load: Loader,
        max_namespaces: int = 64,
        marks: Callable[[str], Mapping[str, int]] | None = None,  # other writers' marks
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self._load = load
        self._marks = marks
        self._max = max_namespaces
        self._max_bytes = max_bytes
        self._indexes: OrderedDict[str, BM25] = OrderedDict()
        self._units: dict[str, dict[str, MemoryUnit]] = {}
        self._vectors: dict[str, VectorTable] = {}
        self._bytes: dict[str, int] = {}
        self._writes: dict[str, int] = {}
        self._seen: dict[str, dict[str, int]] = {}
        # loads, writes and drops of a namespace are atomic: a reader never sees one half done
        self._lock = threading.RLock()

    def index(self, namespace: str) -> BM25:
        """The namespace's index, built from the store the first time it is asked for."""
        with self._lock:
            return self._index(namespace)

    def _index(self, namespace: str) -> BM25:
        if namespace in self._indexes:
            self._indexes.move_to_end(namespace)
            return self._indexes[namespace]
        seen = dict(self._marks(namespace)) if self._marks else {}  # read before the load
        bm25 = BM25()
        units: dict[str, MemoryUnit] = {}
        memories, vectors = self._load(namespace)
        for memory in memories:
            bm25.add(memory.id, lexical_text(memory))
            units[memory.id] = memory
        self._indexes[namespace] = bm25
        self._units[namespace] = units
        self._vectors[namespace] = VectorTable([m.id for m in memories], vectors)
        self._seen[namespace] = seen
        self._measure(namespace)
        return bm25

    def memories(self, namespace: str) -> Mapping[str, MemoryUnit]:
        """The namespace's memories by id, as last loaded or written (loads it if needed)."""
        with self._lock:
            self._index(namespace)
            return self._units[namespace]

    def vectors(self, namespace: str) -> VectorTable:
        """The vectors of the namespace's memories (loads it if needed)."""
        with self._lock:
            self._index(namespace)
            return self._vectors[namespace]

    def loaded(self, namespace: str) -> Mapping[str, MemoryUnit] | None:
        """The namespace's memories by id if it is loaded, else None (loads nothing)."""
        return self._units.get(namespace)

    def version(self, namespace: str) -> int:
        """How many writes this index has seen for ``namespace`` (for caches keyed on it)."""
        return self._writes.get(namespace, 0)

    @property
    def nbytes(self) -> int:
        """An estimate of the bytes the loaded namespaces take."""
        return sum(self._bytes.values())

    def refresh(self, namespace: str) -> Mapping[str, int]:
        """Drop the namespace's cache if anyone else wrote it since it was loaded, or has a
        write under way or cut (a pending mark: until it is cleared, every read loads afresh);
        returns the other writers' marks on the namespace (one small read). Own writes never
        reload: they are applied in place by :meth:`added` and :meth:`removed`."""
        marks = self._marks(namespace) if self._marks else {}
        with self._lock:
            changed = dict(marks) != self._seen.get(namespace) or any(map(is_pending, marks))
            if namespace in self._indexes and changed:
                self.stale(namespace)
        return marks

    def stale(self, namespace: str) -> None:
        """Drop the namespace's cache, to load fresh when next asked for (its store changed
        in a way this cache was not told, e.g. a write of this process that failed)."""
        with self._lock:
            self.forget(namespace)
            self._writes[namespace] = self.version(namespace) + 1

    def added(
        self,
        namespace: str,
        memories: Iterable[MemoryUnit],
        vectors: npt.ArrayLike | None = None,
    ) -> None:
        """Keep a loaded index current after an upsert (unloaded ones load fresh later).

        ``vectors`` are the memories' embeddings, one row each; without them a loaded
        namespace is dropped, to load fresh when next asked for."""
        memories = list(memories)
        with self._lock:
            self._added(namespace, memories, vectors)

    def _added(
        self, namespace: str, memories: list[MemoryUnit], vectors: npt.ArrayLike | None
    ) -> None:
        self._writes[namespace] = self.version(namespace) + 1
        bm25 = self._indexes.get(namespace)
        if bm25 is None:
            return
        if vectors is None:
            self.forget(namespace)
            return
        for memory in memories:
            bm25.add(memory.id, lexical_text(memory))
            self._units[namespace][memory.id] = memory
        self._vectors[namespace].add([m.id for m in memories], vectors)
        self._measure(namespace)

    def removed(self, namespace: str, ids: Iterable[str]) -> None:
        with self._lock:
            self._writes[namespace] = self.version(namespace) + 1
            bm25 = self._indexes.get(namespace)
            if bm25 is not None:
                ids = list(ids)
                for doc_id in ids:
                    bm25.remove(doc_id)
                    self._units[namespace].pop(doc_id, None)
                self._vectors[namespace].remove(ids)

    def forget(self, namespace: str) -> None:
        with self._lock:
            self._indexes.pop(namespace, None)
            self._units.pop(namespace, None)
            self._vectors.pop(namespace, None)
            self._bytes.pop(namespace, None)
            self._seen.pop(namespace, None)

    def _measure(self, namespace: str) -> None:
        """Re-estimate the namespace's bytes, then drop least recently used namespaces past
        the bounds (never ``namespace`` itself)."""
        count = len(self._units[namespace])
        self._bytes[namespace] = self._vectors[namespace].nbytes + BYTES_PER_MEMORY * count
        while len(self._indexes) > 1 and (
            len(self._indexes) > self._max or self.nbytes > self._max_bytes
        ):
            oldest = next(iter(self._indexes))
            self.forget(oldest if oldest != namespace else list(self._indexes)[1])


def kept_current(
    built: dict[str, tuple[int, T]], cache: NamespaceCache, namespace: str, build: Callable[[], T]
) -> T:
    """What ``build()`` makes of ``namespace``, kept in ``built`` and made again once the
    cache has seen a write to it (its :meth:`~NamespaceCache.version` moved)."""
    version = cache.version(namespace)
    kept = built.get(namespace)
    if kept is None or kept[0] != version:
        kept = built[namespace] = (version, build())
    return kept[1]
