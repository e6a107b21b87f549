"""Core value types: time spans, episodic context, memory units, recall frames.

All are frozen dataclasses. Datetimes are always timezone-aware; spans are half-open
``[start, end)``. ``MemoryUnit.to_metadata`` / ``from_metadata`` are the one mapping to the flat
metadata a vector store keeps (dates as integer epoch seconds, lists as lists, nothing None);
it and every other view of a memory are written by :mod:`.serialise`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Any, Literal

from ramem_integrations.core.serialise import MetadataValue, flat_metadata
from ramem_integrations.errors import InvalidInputError, InvalidTimeError


def utc_now() -> datetime:
    """The default clock of the framework adapters: the wall clock, in UTC."""
    return datetime.now(UTC)


def _require_aware(value: datetime, name: str) -> None:
    if not isinstance(value, datetime):
        raise InvalidTimeError(f"{name} must be a datetime, got {type(value).__name__}.")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidTimeError(
            f"{name} ({value.isoformat()}) has no timezone. Pass an aware datetime, "
            "e.g. datetime(2023, 5, 8, tzinfo=timezone.utc)."
        )


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A half-open interval of time ``[start, end)`` between two aware datetimes."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        _require_aware(self.start, "TimeSpan.start")
        _require_aware(self.end, "TimeSpan.end")
        if not self.start < self.end:
            raise InvalidTimeError(
                f"TimeSpan start {self.start.isoformat()} must be before "
                f"end {self.end.isoformat()}."
            )

    @classmethod
    def day(cls, day: date, tz: Any = UTC) -> TimeSpan:
        """The whole calendar day ``day`` in timezone ``tz``."""
        start = datetime(day.year, day.month, day.day, tzinfo=tz)
        return cls(start, start + timedelta(days=1))

    @classmethod
    def from_epoch(cls, start: int, end: int, tz: tzinfo = UTC) -> TimeSpan:
        """Build a span from integer epoch seconds, shown in ``tz`` (UTC by default)."""
        return cls(datetime.fromtimestamp(start, tz), datetime.fromtimestamp(end, tz))

    def to_epoch(self) -> tuple[int, int]:
        """The span as integer epoch seconds ``(start, end)``."""
        return int(self.start.timestamp()), int(self.end.timestamp())

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    def overlaps(self, other: TimeSpan) -> bool:
        """True when the two half-open spans share at least one instant."""
        return self.start < other.end and other.start < self.end

    def contains(self, moment: datetime | TimeSpan) -> bool:
        """True when a moment, or a whole span, lies inside this span."""
        if isinstance(moment, TimeSpan):
            return self.start <= moment.start and moment.end <= self.end
        return self.start <= moment < self.end

    def label(self) -> str:
        """A short human label: '7 May 2023', 'May 2023', '2023', or a range of days."""
        start, last = self.start, self.end - timedelta(microseconds=1)
        whole_days = start.time() == datetime.min.time() and self.end.time() == start.time()
        if not whole_days:
            first = f"{_day_label(start)} {start:%H:%M}"
            final = f"{_day_label(last)} {last:%H:%M}"
            return first if first == final else f"{first} to {final}"  # one minute: one time
        if self.duration == timedelta(days=1):
            return _day_label(start)
        if start.day == 1 and self.end.day == 1:
            months = (self.end.year - start.year) * 12 + self.end.month - start.month
            if months == 1:
                return f"{start:%B} {start.year}"
            if months == 12 and start.month == 1:
                return str(start.year)
        return f"{_day_label(start)} to {_day_label(last)}"


def _day_label(moment: datetime) -> str:
    return f"{moment.day} {moment:%B} {moment.year}"


@dataclass(frozen=True, slots=True)
class TimeMention:
    """A time expression as written in a text, and the span it grounds to."""

    text: str
    span: TimeSpan


@dataclass(frozen=True, slots=True)
class Episode:
    """The episode a turn belongs to: a run of consecutive turns about one event or subject.

    Its context is read from all of its turns (see :mod:`ramem_integrations.core.segmentation`):
    ``event_time`` is the first time cue any of them grounds, so a turn's "last Thursday" dates
    its whole episode. ``position`` is the turn's own place in the episode, from 0. ``said`` runs
    from its first message to its last when its turns carry their own times (chats).
    ``next_id`` is the id of the episode that follows it in its session (None for the last).
    """

    id: str
    position: int = 0
    event_time: TimeSpan | None = None
    participants: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    topic: str | None = None
    said: TimeSpan | None = None
    next_id: str | None = None


@dataclass(frozen=True, slots=True)
class EpisodicContext:
    """Where a memory comes from: its episode's coordinates.

    ``session_span`` (when it was said) is always present; ``event_time`` (when the thing
    happened) only when it can be inferred. The two are kept apart on purpose. ``said_at`` is
    when the memory's own messages were sent (first to last, a minute after it) when they carry
    their own times: in a chat session that runs past midnight, the day of the message.
    """

    session_id: str
    session_span: TimeSpan
    event_time: TimeSpan | None = None
    mention_times: tuple[TimeMention, ...] = ()
    participants: tuple[str, ...] = ()
    speaker: str | None = None
    location: str | None = None
    entities: tuple[str, ...] = ()
    topic: str | None = None
    episode: Episode | None = None
    #: Other names the participants are called by: ``(alias, participant)`` pairs.
    aliases: tuple[tuple[str, str], ...] = ()
    said_at: TimeSpan | None = None


@dataclass(frozen=True, slots=True)
class MemoryUnit:
    """One memory: the words as said (``content``, verbatim) plus the episode they came from.

    ``restatement`` is derived text beside them (the speaker named, "yesterday" written as a
    date) that search indexes when present; it never replaces ``content``, which is what is
    returned, exported and shown to a generator. ``asks_memory`` marks a question someone put
    to the memory itself (kept, but ranked after statements of fact).
    """

    id: str
    content: str
    context: EpisodicContext
    namespace: str
    source_ids: tuple[str, ...] = ()
    conversation_id: str = ""
    restatement: str | None = None
    asks_memory: bool = False  # a question put to the memory, not a statement of fact
    #: Derived links of a correction (:mod:`.corrections`): the memories that correct this
    #: one's time, and those this one corrects.
    corrected_by: tuple[str, ...] = ()
    corrects: tuple[str, ...] = ()

    @property
    def search_text(self) -> str:
        """What search indexes: the restatement when there is one, else the content."""
        return self.restatement or self.content

    def __post_init__(self) -> None:
        if not isinstance(self.content, str) or not self.content.strip():
            raise InvalidInputError(f"Memory {self.id!r} has empty content; give it some text.")
        if not isinstance(self.namespace, str) or not self.namespace.strip():
            raise InvalidInputError(f"Memory {self.id!r} has no namespace; name one, e.g. 'alice'.")

    def to_metadata(self) -> dict[str, MetadataValue]:
        """Flat store metadata: epoch-second ints for dates, lists for lists, no None
        (:func:`~ramem_integrations.core.serialise.flat_metadata`)."""
        return flat_metadata(self)

    @classmethod
    def from_metadata(cls, id: str, content: str, meta: Mapping[str, Any]) -> MemoryUnit:
        """Inverse of :meth:`to_metadata`. Times come back in the clock of the place they were
        said (``utc_offset``, or ``said_offset`` for a message sent from another zone than its
        session's), so "happened 2 August 2024" reads as the speaker's day."""
        tz = timezone(timedelta(seconds=int(meta["utc_offset"]))) if "utc_offset" in meta else UTC
        # a message whose speaker was in another zone than the session's: its times in theirs
        own = timezone(timedelta(seconds=int(meta["said_offset"]))) if "said_offset" in meta else tz
        event = _span_of(meta, "event", own)
        mentions = tuple(
            TimeMention(text, TimeSpan.from_epoch(int(s), int(e), own))
            for text, s, e in zip(
                _listed(meta, "mention_texts"),
                _listed(meta, "mention_starts"),
                _listed(meta, "mention_ends"),
                strict=True,
            )
        )
        context = EpisodicContext(
            session_id=str(meta["session_id"]),
            session_span=TimeSpan.from_epoch(
                int(meta["session_start"]), int(meta["session_end"]), tz
            ),
            event_time=event,
            mention_times=mentions,
            participants=_listed(meta, "participants"),
            speaker=meta.get("speaker"),
            location=meta.get("location"),
            entities=_listed(meta, "entities"),
            topic=meta.get("topic"),
            episode=_episode_of(meta, tz),
            aliases=tuple(
                zip(_listed(meta, "alias_names"), _listed(meta, "alias_of"), strict=True)
            ),
            said_at=_span_of(meta, "said", own),
        )
        return cls(
            id=id,
            content=content,
            context=context,
            namespace=str(meta["namespace"]),
            source_ids=_listed(meta, "source_ids"),
            conversation_id=str(meta.get("conversation_id", "")),
            restatement=meta.get("restatement"),
            asks_memory=bool(meta.get("asks_memory", False)),
            corrected_by=_listed(meta, "corrected_by"),
            corrects=_listed(meta, "corrects"),
        )


def _listed(meta: Mapping[str, Any], key: str) -> tuple[Any, ...]:
    """A list of the flat metadata, kept as a list or, where a store takes only scalars
    (LlamaIndex's vector stores), as the JSON string :func:`.serialise.scalar_metadata` writes."""
    value = meta.get(key)
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.startswith("[") else [value]
        except ValueError:
            value = [value]
    return tuple(value or ())


def _span_of(meta: Mapping[str, Any], key: str, tz: tzinfo) -> TimeSpan | None:
    """The span stored as ``<key>_start`` / ``<key>_end`` epoch seconds, if any."""
    if f"{key}_start" not in meta:
        return None
    return TimeSpan.from_epoch(int(meta[f"{key}_start"]), int(meta[f"{key}_end"]), tz)


def _episode_of(meta: Mapping[str, Any], tz: tzinfo) -> Episode | None:
    if "episode_id" not in meta:
        return None
    return Episode(
        id=str(meta["episode_id"]),
        position=int(meta.get("episode_position", 0)),
        event_time=_span_of(meta, "episode_event", tz),
        said=_span_of(meta, "episode_said", tz),
        participants=_listed(meta, "episode_participants"),
        places=_listed(meta, "episode_places"),
        entities=_listed(meta, "episode_entities"),
        topic=meta.get("episode_topic"),
        next_id=meta.get("episode_next"),
    )


#: What a condition constrains (:class:`Condition`).
ConditionKind = Literal["time", "participant", "location", "entity", "relation", "recency"]


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition a recall frame puts on valid evidence.

    ``kind`` is one of :data:`ConditionKind`. ``evidence`` is the words of the question it was
    read from; ``reason`` says why it is or is not grounded. A ``relation`` condition has
    ``value`` ``"before"``, ``"after"``, ``"first"`` or ``"last"`` and names its anchor event in
    ``anchor`` ("the appointment").
    An ``open`` time condition is one side of a time with no stated reach ("before 23 December
    2023", "after May"): it runs to the edge of the conversation's dates. An ``outside_sessions``
    time condition falls where no session was held ("in winter 2021", asked of a chat of 2023):
    only memories that anchor an event time in it meet it, and many that tell of it do not.
    """

    kind: ConditionKind
    value: str
    evidence: str
    grounded: bool
    span: TimeSpan | None = None
    reason: str = ""
    anchor: str | None = None
    open: bool = False
    outside_sessions: bool = False
    #: A ``participant`` the question wrote by an alias ("Sammy" for Samantha).
    by_alias: bool = False
    #: A relative time left ungrounded because the question's date is unknown ("last week",
    #: asked with no reference): ``reason`` says so in words, this says so to code.
    undated: bool = False

    @property
    def times_by_anchor(self) -> bool:
        """A relation to an anchor event that sets a time ("after the appointment"): the
        retriever finds the event by searching, and the time runs before or after it."""
        return self.kind == "relation" and bool(self.anchor) and self.value in ("before", "after")


@dataclass(frozen=True, slots=True)
class RecallFrame:
    """A question read for what it asks (``need``) and what valid evidence must meet."""

    query: str
    need: str
    conditions: tuple[Condition, ...] = ()
    reference: datetime | None = None
    asks_time: bool = False  # the question asks for a time ("When did ...?")
    asks_several: bool = False  # ... for several things ("What sports does Kevin play?")

    @property
    def grounded(self) -> tuple[Condition, ...]:
        """The conditions that are reliably grounded; only these steer retrieval."""
        return tuple(c for c in self.conditions if c.grounded)

    @property
    def is_grounded(self) -> bool:
        return bool(self.grounded)

    @property
    def is_sure(self) -> bool:
        """Whether the conditions bound their evidence on every side: no open range ("before
        23 December 2023": a message said after it may report on before it), no time where no
        session was held (only anchored event times meet it), no relation to an anchor event
        found by searching ("before the new series came out") and no named thing or person
        that is not a participant (a memory meets it by naming it, but what is said about Oliver
        need not name him: "he loved the park")."""
        return not any(
            c.open or c.outside_sessions or c.times_by_anchor or c.kind == "entity"
            for c in self.conditions
        )

    @property
    def time_range(self) -> TimeSpan | None:
        """The span the grounded time conditions agree on, if any.

        Their intersection ("the Sunday before 25 October 2022" is 23 October); when they do
        not meet, the span covering them all ("last Friday, said on 23 January": the event's
        day and the day it was mentioned).
        """
        spans = [c.span for c in self.grounded if c.kind == "time" and c.span is not None]
        if not spans:
            return None
        start, end = max(s.start for s in spans), min(s.end for s in spans)
        if start < end:
            return TimeSpan(start, end)
        return TimeSpan(min(s.start for s in spans), max(s.end for s in spans))

    def values(self, kind: str) -> tuple[str, ...]:
        """The values of the grounded conditions of one kind."""
        return tuple(c.value for c in self.grounded if c.kind == kind)

    @property
    def why_not_grounded(self) -> str:
        """Why the frame does not activate contextual retrieval ('' when it does)."""
        if self.is_grounded:
            return ""
        if not self.conditions:
            return "the question names no time, person, place or event to check evidence against"
        return "; ".join(f"{c.evidence!r}: {c.reason}" for c in self.conditions)


#: Why a memory was retrieved: it meets the frame's conditions, or content relevance alone.
Reason = Literal["context", "content", "episode", "reply"]
#: How to retrieve: the full method, and the plain retrievers it falls back on.
RetrievalMode = Literal["ramem", "content", "dense", "bm25"]


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """A retrieved memory, its score, and why it was chosen.

    ``reason`` is ``"context"`` (it meets the frame's conditions, listed in ``matched``),
    ``"content"`` (chosen by content relevance alone, the fallback), ``"episode"`` (a turn of
    the episode of the hit whose id is in ``matched``, reinstated with it) or ``"reply"`` (a
    named person's reply to that hit, a question put to them). ``score`` is its content
    relevance, one input of the order: ``placed`` says what set its place.
    """

    memory: MemoryUnit
    score: float
    reason: Reason = "content"
    matched: tuple[str, ...] = field(default=())
    #: Why it stands where it stands in the ranking (the step that placed it), in words.
    placed: str = field(default="", compare=False)
    #: Whether ``score`` includes the bonus for meeting the conditions (the soft order).
    lifted: bool = field(default=False, compare=False)
    #: The recall frame it was retrieved for (RaMem's own retrieval), so a prompt shows the
    #: conditions the retrieval read.
    frame: RecallFrame | None = field(default=None, compare=False, repr=False)
    #: The character span of its content that best matches the question, when it is longer than
    #: one passage (:mod:`~ramem_integrations.core.passages`): what the packer may show of it
    #: when the whole does not fit.
    excerpt: tuple[int, int] | None = field(default=None, compare=False, repr=False)
