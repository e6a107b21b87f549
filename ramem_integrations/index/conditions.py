"""Which of a namespace's memories meet a :class:`ContextFilter`, in NumPy and set lookups.

:meth:`ContextFilter.met_by` checks one memory in Python; asking it of every memory of a
namespace on every grounded question holds the interpreter lock for milliseconds, which
threads serving other questions wait for. A :class:`ConditionTable` reads each memory's
coordinates once (the spans as epoch seconds, the names lower-cased into inverted indexes)
and answers the same question for all of them at once. A property test holds it equal to
``met_by``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.types import MemoryUnit, TimeSpan

Mask = npt.NDArray[np.bool_]
Rows = npt.NDArray[np.int32]


class ConditionTable:
    """The coordinates of a fixed set of memories, for :meth:`among`."""

    def __init__(self, memories: Mapping[str, MemoryUnit]) -> None:
        self.ids = list(memories)
        units = list(memories.values())
        self._spans = {
            "event": _spans(u.context.event_time for u in units),
            "episode": _spans(
                u.context.episode.event_time if u.context.episode else None for u in units
            ),
            "session": _spans(u.context.session_span for u in units),
        }
        names: dict[str, set[int]] = {}  # participants and entities, own or episode's
        entities: dict[str, set[int]] = {}  # entities, own or episode's
        places: dict[str, set[int]] = {}  # entities, the location, the episode's places
        for row, unit in enumerate(units):
            ctx, episode = unit.context, unit.context.episode
            things = [*ctx.entities, *(episode.entities if episode else ())]
            people = [*ctx.participants, *(episode.participants if episode else ())]
            where = [ctx.location or "", *(episode.places if episode else ())]
            _index(entities, things, row)
            _index(names, [*things, *people], row)
            _index(places, [*things, *(p for p in where if p)], row)
        # row numbers as int32 arrays: about a tenth of the memory of sets of Python ints
        self._names, self._entities, self._places = map(_frozen, (names, entities, places))

    def among(self, where: ContextFilter) -> list[str]:
        """The ids of the memories that meet ``where``, in table order."""
        mask = np.ones(len(self.ids), dtype=bool)
        if where.time is not None:
            met = np.zeros(len(self.ids), dtype=bool)
            for coordinate in where.TIME_COORDINATES:  # "session", "event", "episode"
                met |= self._overlap(coordinate, where.time_for(coordinate) or where.time)
            mask &= met
        for person in where.people:
            mask &= self._rows(self._names, [person])
        if where.places:
            mask &= self._rows(self._places, where.places)
        for entity in where.entities:
            mask &= self._rows(self._entities, [entity])
        return [self.ids[row] for row in np.flatnonzero(mask)]

    def _overlap(self, kind: str, span: TimeSpan) -> Mask:
        """Half-open overlap, as :meth:`TimeSpan.overlaps`; a memory without the span misses."""
        starts, ends = self._spans[kind]
        start, end = span.start.timestamp(), span.end.timestamp()
        with np.errstate(invalid="ignore"):  # NaN (no span) compares False
            return (starts < end) & (start < ends)

    def _rows(self, index: dict[str, Rows], names: Iterable[str]) -> Mask:
        """The memories holding any of ``names`` (compared lower-cased)."""
        mask = np.zeros(len(self.ids), dtype=bool)
        for name in names:
            rows = index.get(name.lower())
            if rows is not None:
                mask[rows] = True
        return mask


def _spans(spans: Iterable[TimeSpan | None]) -> tuple[np.ndarray, np.ndarray]:
    pairs = [(s.start.timestamp(), s.end.timestamp()) if s else (np.nan, np.nan) for s in spans]
    array = np.array(pairs, dtype=np.float64).reshape(-1, 2)
    return array[:, 0], array[:, 1]


def _index(index: dict[str, set[int]], names: Iterable[str], row: int) -> None:
    for name in names:
        index.setdefault(name.lower(), set()).add(row)


def _frozen(index: dict[str, set[int]]) -> dict[str, Rows]:
    return {
        name: np.fromiter(rows, dtype=np.int32, count=len(rows)) for name, rows in index.items()
    }
