"""The conditions of a recall frame as a filter a memory meets or not (:class:`ContextFilter`),
and whether a text says a name (:func:`names_in`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import ClassVar

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.text import STOP_WORDS
from ramem_integrations.core.types import Episode, MemoryUnit, TimeSpan

#: The label of a memory that meets a time only by being said after it (its report).
SAID_AFTER = "said after"


@dataclass(frozen=True)
class ContextFilter:
    """The conditions of a frame that a store can check: all must hold.

    ``time``: one of the memory's :attr:`TIME_COORDINATES` overlaps it (its session span, its
    event time, its episode's event time). ``people``: each is a participant or a named entity
    of the memory or its episode. ``places``: a place (or an entity) of the memory or its
    episode is one of them. ``entities``: each is among the entities of either. A memory that
    says a name in any case (:meth:`said`) meets its condition too: chats write "left it in the
    boston", which anchoring does not read as a name (:func:`names_in`). A store's filter checks
    the anchored names only; :meth:`meets` checks both.
    """

    #: The spans of a memory a time condition is checked against, in the order
    #: :meth:`labels_for` prefers them; a store's filter reads the same names.
    TIME_COORDINATES: ClassVar[tuple[str, ...]] = ("session", "event", "episode")

    time: TimeSpan | None = None
    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    #: How long after ``time`` a memory may have been said and still meet it: a report of a
    #: day is said on it or after it (:func:`~.tables.report_lag`).
    said_after: timedelta = timedelta(0)

    def __bool__(self) -> bool:
        return bool(self.time or self.people or self.places or self.entities)

    def met_by(self, unit: MemoryUnit) -> tuple[str, ...] | None:
        """The conditions ``unit`` or its episode meets (:meth:`labels`), or None when it misses
        any of them."""
        return self.labels_for(unit) if self.meets(unit) else None

    def labels(self) -> tuple[str, ...]:
        """What a memory that meets every condition is shown to match ('time May 2023', ...)."""
        return _labels(self)

    def labels_for(self, unit: MemoryUnit) -> tuple[str, ...]:
        """:meth:`labels` for ``unit``: a time it meets only by a longer span of its own
        ("this year" for "in May") is shown as that span ('time 2024'), not as the asked one;
        one it meets only by being said after it (:attr:`said_after`) as 'said after 7 May'."""
        labels = self.labels()
        own = self._own_time(unit)
        if self.time is not None and own is None and self.said_after:  # met by the lag only
            return (f"{SAID_AFTER} {self.time.label()}", *labels[1:])
        if self.time is None or own is None or self.time.contains(own):
            return labels
        return (f"time {own.label()}", *labels[1:])

    def _own_time(self, unit: MemoryUnit) -> TimeSpan | None:
        """The span by which ``unit`` meets the time condition: its session, else its own or
        its episode's event time."""
        if self.time is None:
            return None
        spans = self.time_spans(unit)
        inside = [s for s in spans if s is not None and self.time.contains(s)]
        meeting = [s for s in spans if s is not None and s.overlaps(self.time)]
        return next(iter(inside or meeting), None)

    def time_spans(self, unit: MemoryUnit) -> tuple[TimeSpan | None, ...]:
        """``unit``'s spans named by :attr:`TIME_COORDINATES`, in their order."""
        ctx = unit.context
        episode = ctx.episode.event_time if ctx.episode else None
        spans = {"session": ctx.session_span, "event": ctx.event_time, "episode": episode}
        return tuple(spans[name] for name in self.TIME_COORDINATES)

    def time_for(self, coordinate: str) -> TimeSpan | None:
        """The time a memory's ``coordinate`` span must overlap: :attr:`time`, and for the
        session (when it was said) up to :attr:`said_after` later."""
        if self.time is None or coordinate != "session" or not self.said_after:
            return self.time
        return TimeSpan(self.time.start, self.time.end + self.said_after)

    def said(self, unit: MemoryUnit) -> str:
        """The words in which ``unit`` may say a condition's name: its searched text."""
        return unit.search_text

    def meets(self, unit: MemoryUnit) -> bool:
        """True when ``unit`` or its episode meets every condition."""
        ctx = unit.context
        episode = ctx.episode or Episode("")
        if self.time is not None and not any(
            span is not None and span.overlaps(time)
            for span, name in zip(self.time_spans(unit), self.TIME_COORDINATES, strict=True)
            if (time := self.time_for(name)) is not None
        ):
            return False
        if not (self.people or self.places or self.entities):
            return True
        entities = {e.lower() for e in (*ctx.entities, *episode.entities)}
        names = entities | {n.lower() for n in (*ctx.participants, *episode.participants)}
        said = self.said(unit)
        if any(p.lower() not in names and not names_in(said, p) for p in self.people):
            return False
        if self.places:
            here = entities | {p.lower() for p in (ctx.location or "", *episode.places) if p}
            if not here & {p.lower() for p in self.places} and not any(
                names_in(said, p) for p in self.places
            ):
                return False
        return all(e.lower() in entities or names_in(said, e) for e in self.entities)


def names_in(text: str, name: str) -> bool:
    """Whether ``text`` says ``name`` as a whole word (any case); never for a name that is a
    common word, month or weekday in lower case ("Will", "May")."""
    return bool(text) and _name_pattern(name).search(text) is not None


#: Month and weekday names (English): "May" or "Sunday" in lower case is no name.
_CALENDAR_NAMES = frozenset((*dict(ENGLISH.time.months), *dict(ENGLISH.time.weekdays)))


@lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern[str]:
    folded = name.strip().lower()
    if not folded or folded in STOP_WORDS or folded in _CALENDAR_NAMES:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile(rf"(?<!\w){re.escape(folded)}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=256)
def _labels(where: ContextFilter) -> tuple[str, ...]:
    met = [f"time {where.time.label()}"] if where.time is not None else []
    met += [f"participant {person}" for person in where.people]
    if where.places:
        met.append(f"place {' or '.join(where.places)}")
    return (*met, *(f"entity {entity}" for entity in where.entities))
