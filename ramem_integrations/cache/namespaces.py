"""BM25 over the memories of one namespace, kept current on add and delete.

The store is the source of truth: an index is built from it on first use and then updated in
place by each write, never rebuilt per write. :class:`NamespaceCache` keeps the indexes (with the
namespace's memories and vectors) of the most recently used namespaces only, bounded by count
and by bytes, so a store with many namespaces does not hold them all.
"""

from __future__ import annotations

import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from ramem_integrations.cache.vectors import VectorTable, top
from ramem_integrations.core.text import tokenize
from ramem_integrations.core.types import MemoryUnit

#: What a loaded memory costs besides its vector (its text, metadata and postings), an
#: estimate: 3.3 KB measured on the shipped chats set, 3.9 KB on LoCoMo
#: (benchmarks/cache_bytes.py).
BYTES_PER_MEMORY = 4_000
#: Loaded namespaces are dropped, least recently used first, past this many bytes.
MAX_BYTES = 512 * 2**20

Loader = Callable[[str], tuple[Sequence[MemoryUnit], npt.ArrayLike]]
Vector = npt.NDArray[np.float64]


class BM25:
    """Okapi BM25 with an inverted index that supports adding and removing documents.

    Each document has a row; a term's postings map rows to term frequencies, and a query scores
    each term's postings at once in NumPy. Adding, removing and searching are atomic, so a
    search in one thread never sees a document half-added or half-removed by a write in
    another."""

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self._lock = threading.RLock()
        self._postings: dict[str, dict[int, int]] = {}
        self._rows: dict[str, int] = {}  # document id -> row
        self._ids: list[str] = []  # row -> document id ("" for a free row)
        self._free: list[int] = []
        self._lengths = np.zeros(0)  # row -> document length in terms
        self._terms: dict[str, tuple[str, ...]] = {}
        self._total = 0
        self._writes = 0  # bumped by every add and remove: keys the last scores
        self._last: tuple[object, tuple[Vector, npt.NDArray[np.bool_]]] | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._rows

    def add(self, doc_id: str, text: str) -> None:
        """Index a document; re-adding an id replaces it."""
        counts = Counter(tokenize(text))
        with self._lock:
            self.remove(doc_id)
            self._writes += 1
            row = self._new_row(doc_id)
            for term, tf in counts.items():
                self._postings.setdefault(term, {})[row] = tf
            length = sum(counts.values())
            self._terms[doc_id] = tuple(counts)
            self._lengths[row] = length
            self._total += length

    def remove(self, doc_id: str) -> None:
        with self._lock:
            row = self._rows.pop(doc_id, None)
            if row is None:
                return
            self._writes += 1
            self._total -= int(self._lengths[row])
            for term in self._terms.pop(doc_id):
                del self._postings[term][row]
                if not self._postings[term]:
                    del self._postings[term]
            self._ids[row] = ""
            self._free.append(row)

    def _new_row(self, doc_id: str) -> int:
        if self._free:
            row = self._free.pop()
            self._ids[row] = doc_id
        else:
            row = len(self._ids)
            self._ids.append(doc_id)
            if row == len(self._lengths):  # grow by half again, so adds are amortised
                grown = np.zeros(max(8, row + row // 2))
                grown[:row] = self._lengths
                self._lengths = grown
        self._rows[doc_id] = row
        return row

    def search(
        self, query: str, k: int, *, among: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``k`` best ``(id, score)`` pairs, optionally only among the ids in ``among``."""
        if k <= 0:
            return []
        terms = tuple(sorted(set(tokenize(query))))
        with self._lock:
            scores, scored = self._scores(terms)
            if among is not None:
                known = (self._rows.get(i) for i in among)
                allowed = np.zeros(len(scored), dtype=bool)
                allowed[np.fromiter((r for r in known if r is not None), dtype=np.intp)] = True
                scored = scored & allowed
            rows = np.flatnonzero(scored)
            return top(self._ids, rows, scores[rows], k)

    def _scores(self, terms: tuple[str, ...]) -> tuple[Vector, npt.NDArray[np.bool_]]:
        """Every row's score for ``terms``, and which rows hold any of them. The last answer
        is kept until the next write: a question searched whole and then under a condition
        is scored once."""
        key = (terms, self._writes)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        scores = np.zeros(len(self._ids))
        scored = np.zeros(len(self._ids), dtype=bool)
        n = len(self._rows)
        avg = (self._total / n if n else 0.0) or 1.0  # documents without words: no zero
        for term in terms:
            docs = self._postings.get(term)
            if not docs:
                continue
            idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            rows = np.fromiter(docs.keys(), dtype=np.intp, count=len(docs))
            tf = np.fromiter(docs.values(), dtype=np.float64, count=len(docs))
            norm = tf + self.k1 * (1 - self.b + self.b * self._lengths[rows] / avg)
            scores[rows] += idf * tf * (self.k1 + 1) / norm
            scored[rows] = True
        self._last = (key, (scores, scored))
        return scores, scored


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
        """Drop the namespace's cache if anyone else wrote it since it was loaded; returns the
        other writers' marks on the namespace (one small read). Own writes never reload: they
        are applied in place by :meth:`added` and :meth:`removed`."""
        marks = self._marks(namespace) if self._marks else {}
        with self._lock:
            if namespace in self._indexes and dict(marks) != self._seen.get(namespace):
                self.forget(namespace)
                self._writes[namespace] = self.version(namespace) + 1
        return marks

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


def lexical_text(memory: MemoryUnit) -> str:
    """What BM25 indexes: the search text (the restatement, which names the speaker, else the
    content) and the entities."""
    return " ".join([memory.search_text, *memory.context.entities])
