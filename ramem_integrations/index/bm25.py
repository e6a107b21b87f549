"""Okapi BM25 over the memories of one namespace, updated in place on add and delete."""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ramem_integrations.core.anchoring import unframed
from ramem_integrations.core.text import tokenize
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.index.vectors import top

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


#: Whether the lexical text keeps the restatement's framing names (the speaker, the addressee).
#: False: a question naming a person matches the messages that say the name, not every message
#: of theirs ("🎉" included). True by default: without them recall fell in every development family
#: (docs/rules.md, eval system ``lexical-unframed``).
FRAMED = True


def lexical_text(memory: MemoryUnit, *, framed: bool = FRAMED) -> str:
    """What BM25 indexes: the search text (the restatement, else the content) and the
    entities; unless ``framed``, without the names the restatement frames it with
    (:func:`~ramem_integrations.core.anchoring.unframed`)."""
    text = memory.search_text
    if not framed and memory.restatement:
        text = unframed(text, memory.context.speaker, memory.context.participants)
    return " ".join([text, *memory.context.entities])
