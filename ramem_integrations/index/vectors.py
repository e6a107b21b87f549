"""Exact nearest-neighbour search over one namespace's memory vectors, in NumPy.

A namespace of a few thousand memories is ranked faster by one matrix-vector product than by a
round trip to the store, and exactly: the same question always gets the same ranking. Vectors
are kept unit-length in float64 (cosine similarity is then a dot product); ties are broken by
id, so a ranking never depends on the order memories were written in.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]


class VectorTable:
    """The vectors of one namespace's memories by id, kept current by :meth:`add` and
    :meth:`remove` and ranked by :meth:`search`. Thread-safe: a search never sees a write half
    applied."""

    def __init__(self, ids: Sequence[str] = (), vectors: npt.ArrayLike | None = None) -> None:
        self._lock = threading.Lock()
        self._ids: list[str] = []
        self._rows: dict[str, int] = {}
        self._matrix: Matrix = np.zeros((0, 0))
        self._writes = 0  # bumped by every add and remove: keys the last similarity
        self._last: tuple[object, Matrix] | None = None
        if len(ids):
            self.add(ids, vectors if vectors is not None else np.zeros((0, 0)))

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def nbytes(self) -> int:
        """The bytes the vectors take (capacity included)."""
        return int(self._matrix.nbytes)

    def add(self, ids: Sequence[str], vectors: npt.ArrayLike) -> None:
        """Add or replace the vectors of ``ids`` (row ``i`` of ``vectors`` is ``ids[i]``)."""
        matrix = _unit_rows(vectors)
        if matrix.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} ids but {matrix.shape[0]} vectors")
        with self._lock:
            self._writes += 1
            for memory_id, row in zip(ids, matrix, strict=True):
                position = self._rows.get(memory_id)
                if position is None:
                    position = self._append(memory_id, row.shape[0])
                self._matrix[position] = row

    def remove(self, ids: Iterable[str]) -> None:
        """Drop the vectors of ``ids`` (unknown ids are ignored)."""
        with self._lock:
            self._writes += 1
            for memory_id in ids:
                position = self._rows.pop(memory_id, None)
                if position is None:
                    continue
                last = len(self._ids) - 1
                if position != last:  # the last row fills the hole
                    moved = self._ids[last]
                    self._ids[position] = moved
                    self._rows[moved] = position
                    self._matrix[position] = self._matrix[last]
                self._ids.pop()

    def search(
        self, query: npt.ArrayLike, k: int, *, among: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``k`` most similar ``(id, cosine similarity)`` pairs, optionally among ``among``."""
        if k <= 0:
            return []
        with self._lock:
            similarity = self._similarity(np.asarray(query))
            if among is None:
                rows = np.arange(len(similarity))
            else:
                wanted = (self._rows[i] for i in dict.fromkeys(among) if i in self._rows)
                rows = np.fromiter(wanted, dtype=np.intp)
            return top(self._ids, rows, similarity[rows], k)

    def _similarity(self, query: npt.NDArray[Any]) -> Matrix:
        """Every row's cosine similarity to ``query``. The last answer is kept until the next
        write: a question searched whole and then under a condition is multiplied once."""
        key = (query.dtype.str, query.shape, query.tobytes(), self._writes)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        vector = _unit_rows(query.reshape(1, -1))[0]
        # One product over every row (no copy of the rows).
        similarity = self._matrix[: len(self._ids)] @ vector if self._ids else np.zeros(0)
        self._last = (key, similarity)
        return similarity

    def _append(self, memory_id: str, dim: int) -> int:
        position = len(self._ids)
        if self._matrix.shape[1] != dim:
            if position:
                raise ValueError(f"vectors of {dim} dimensions, the table holds {self._dim}")
            self._matrix = np.zeros((0, dim))
        if position == self._matrix.shape[0]:  # grow by half again, so adds are amortised
            grown = np.zeros((max(8, position + position // 2), dim))
            grown[:position] = self._matrix[:position]
            self._matrix = grown
        self._ids.append(memory_id)
        self._rows[memory_id] = position
        return position

    @property
    def _dim(self) -> int:
        return int(self._matrix.shape[1])


def _unit_rows(vectors: npt.ArrayLike) -> Matrix:
    matrix = np.asarray(vectors, dtype=np.float64)
    if matrix.ndim != 2:
        matrix = matrix.reshape(len(matrix), -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: Matrix = matrix / np.where(norms == 0, 1.0, norms)
    return unit


def top(
    ids: Sequence[str], rows: npt.NDArray[np.intp], values: Matrix, k: int
) -> list[tuple[str, float]]:
    """The ``k`` best ``(ids[row], value)`` pairs of ``rows`` (scored ``values``), best first,
    ties by id, as a full sort would give: the rows at or above the k-th value are picked and
    ordered in NumPy, and only tied values are sorted by id in Python."""
    if len(rows) > k:
        cut = np.partition(values, len(values) - k)[len(values) - k]
        keep = values >= cut
        rows, values = rows[keep], values[keep]
    order = np.argsort(-values, kind="stable")
    rows, values = rows[order], values[order]
    pairs = list(zip([ids[r] for r in rows.tolist()], values.tolist(), strict=True))
    if len(values) > 1 and bool((values[1:] == values[:-1]).any()):
        pairs.sort(key=lambda pair: (-pair[1], pair[0]))
    return pairs[:k]
