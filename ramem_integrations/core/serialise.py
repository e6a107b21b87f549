"""One serialiser of a memory: every view of a :class:`~.types.MemoryUnit` is built here.

- :func:`flat_metadata`: what a store keeps (``MemoryUnit.to_metadata``; read back by
  ``MemoryUnit.from_metadata``), exported by ``ramem export`` as it is; :func:`scalar_metadata`,
  the same with lists as JSON strings, for stores that take scalars only;
- :func:`memory_json`: every field as plain JSON, dates as ISO spans (``ramem query --json``);
- :func:`coordinates`: the coordinate lines a prompt, a LlamaIndex node and the terminal show.

Every view renders a coordinate one way: "said" is when the memory's own messages were sent
(``said_at``) when they carry their own times, else its session's span; names go through
:func:`shown_name`. Nothing here imports :mod:`.types` at run time, so the types use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ramem_integrations.core.types import Episode, MemoryUnit, TimeSpan

#: A value of the flat metadata: dates as epoch seconds, lists as lists, never None.
MetadataValue = str | int | float | bool | list[str] | list[int]


#: Characters that break a line (``str.splitlines``) beyond the ones JSON escapes itself.
_LINE_BREAKS = str.maketrans({c: f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"})


def quote(text: str) -> str:
    """Memory text as a one-line JSON string literal that decodes to exactly ``text``:
    newlines, quotes and markup stay inside it."""
    return json_line(text)


def json_line(value: Any) -> str:
    """Any JSON value on one line: no character inside it breaks a line (``str.splitlines``)."""
    return json.dumps(value, ensure_ascii=False).translate(_LINE_BREAKS)


#: A name shown bare: letters and digits, with inner spaces and the punctuation of names and
#: addresses ("Dr. O'Brien", "Mary-Jane", "alice.smith@corp.com"); nothing that separates
#: the fields of a line (":", ";", ",", "|"), opens a block ("[") or breaks a line.
_PLAIN_NAME = re.compile(r"\w(?:[\w.'’&@+/()-]| (?! ))*", re.UNICODE)
_MAX_PLAIN = 80


def shown_name(name: str) -> str:
    """A name (a speaker, participant, place or topic) as every output shows it: bare when it
    is plain (:data:`_PLAIN_NAME`), else quoted as :func:`quote` does, so a name can never
    break its line, forge a coordinate line or block, or add a field."""
    plain = len(name) <= _MAX_PLAIN and _PLAIN_NAME.fullmatch(name) and name[-1] != " "
    return name if plain else quote(name)


def shown_names(names: Sequence[str]) -> str:
    """Names as one field of a line: each through :func:`shown_name`, comma-separated."""
    return ", ".join(shown_name(n) for n in names)


def coordinates(unit: MemoryUnit) -> dict[str, str]:
    """A memory's coordinates as the strings a prompt shows (names through
    :func:`shown_name`)."""
    ctx = unit.context
    return {
        "said": (ctx.said_at or ctx.session_span).label(),
        "happened": ctx.event_time.label() if ctx.event_time else "not stated",
        "participants": marked_participants(ctx.participants, ctx.speaker) or "unknown",
        "place": shown_name(ctx.location) if ctx.location else "not stated",
        "topic": shown_names(ctx.topic.split(", ")) if ctx.topic else "not stated",
        "source": ", ".join(unit.source_ids) or unit.id,
    }


def marked_participants(participants: Sequence[str], speaker: str | None) -> str:
    """The participants (shown) with the one who said the (verbatim) text marked:
    ``Sam (speaker), Alice``."""
    people = (
        list(participants) if not speaker or speaker in participants else [speaker, *participants]
    )
    return ", ".join(
        f"{shown_name(p)} (speaker)" if p == speaker else shown_name(p) for p in people
    )


def flat_metadata(unit: MemoryUnit) -> dict[str, MetadataValue]:
    """The flat metadata a store keeps: epoch-second ints for dates, lists for lists, no None
    (its inverse is :meth:`MemoryUnit.from_metadata`)."""
    ctx = unit.context
    start, end = ctx.session_span.to_epoch()
    meta: dict[str, MetadataValue] = {
        "namespace": unit.namespace,
        "conversation_id": unit.conversation_id,
        "session_id": ctx.session_id,
        "session_start": start,
        "session_end": end,
    }
    offset = ctx.session_span.start.utcoffset()
    if offset:  # where it was said: its times read back in that zone's clock
        meta["utc_offset"] = int(offset.total_seconds())
    if ctx.event_time is not None:
        meta["event_start"], meta["event_end"] = ctx.event_time.to_epoch()
    if ctx.said_at is not None:
        meta["said_start"], meta["said_end"] = ctx.said_at.to_epoch()
        own = ctx.said_at.start.utcoffset()
        if own is not None and own != (offset or timedelta(0)):  # a speaker in another zone
            meta["said_offset"] = int(own.total_seconds())
    if ctx.mention_times:
        meta["mention_texts"] = [m.text for m in ctx.mention_times]
        meta["mention_starts"] = [m.span.to_epoch()[0] for m in ctx.mention_times]
        meta["mention_ends"] = [m.span.to_epoch()[1] for m in ctx.mention_times]
    optional: dict[str, MetadataValue | None] = {
        "participants": list(ctx.participants) or None,
        "speaker": ctx.speaker,
        "location": ctx.location,
        "entities": list(ctx.entities) or None,
        "topic": ctx.topic,
        "source_ids": list(unit.source_ids) or None,
        "restatement": unit.restatement,
        "asks_memory": unit.asks_memory,
        "alias_names": [alias for alias, _ in ctx.aliases] or None,
        "alias_of": [person for _, person in ctx.aliases] or None,
        "corrected_by": list(unit.corrected_by) or None,
        "corrects": list(unit.corrects) or None,
    }
    meta.update({key: value for key, value in optional.items() if value})
    if ctx.episode is not None:
        meta.update(_episode_metadata(ctx.episode))
    return meta


def scalar_metadata(meta: Mapping[str, MetadataValue]) -> dict[str, str | int | float | bool]:
    """Flat metadata with each list as a JSON string: what every LlamaIndex vector store takes
    (a value of str, int, float or None). :meth:`MemoryUnit.from_metadata` reads both forms."""
    return {
        key: json.dumps(value, ensure_ascii=False) if isinstance(value, list) else value
        for key, value in meta.items()
    }


def _episode_metadata(episode: Episode) -> dict[str, MetadataValue]:
    meta: dict[str, MetadataValue] = {
        "episode_id": episode.id,
        "episode_position": episode.position,
    }
    if episode.event_time is not None:
        meta["episode_event_start"], meta["episode_event_end"] = episode.event_time.to_epoch()
    if episode.said is not None:
        meta["episode_said_start"], meta["episode_said_end"] = episode.said.to_epoch()
    optional: dict[str, MetadataValue | None] = {
        "episode_participants": list(episode.participants) or None,
        "episode_places": list(episode.places) or None,
        "episode_entities": list(episode.entities) or None,
        "episode_topic": episode.topic,
        "episode_next": episode.next_id,
    }
    meta.update({key: value for key, value in optional.items() if value})
    return meta


def span_json(span: TimeSpan | None) -> dict[str, str] | None:
    """A span as plain JSON: ISO start and end, and its label."""
    if span is None:
        return None
    return {"start": span.start.isoformat(), "end": span.end.isoformat(), "label": span.label()}


def memory_json(unit: MemoryUnit) -> dict[str, Any]:
    """A memory as plain JSON: content, ids and every context field (dates as ISO spans)."""
    ctx = unit.context
    return {
        "id": unit.id,
        "namespace": unit.namespace,
        "conversation_id": unit.conversation_id,
        "source_ids": list(unit.source_ids),
        "content": unit.content,
        "restatement": unit.restatement,
        "corrected_by": list(unit.corrected_by),
        "corrects": list(unit.corrects),
        "context": {
            "session_id": ctx.session_id,
            "session_span": span_json(ctx.session_span),
            "said_at": span_json(ctx.said_at),
            "event_time": span_json(ctx.event_time),
            "mention_times": [
                {"text": m.text, **(span_json(m.span) or {})} for m in ctx.mention_times
            ],
            "participants": list(ctx.participants),
            "speaker": ctx.speaker,
            "location": ctx.location,
            "entities": list(ctx.entities),
            "topic": ctx.topic,
            "aliases": {p: [a for a, q in ctx.aliases if q == p] for _, p in ctx.aliases},
            "episode": None if ctx.episode is None else episode_json(ctx.episode),
        },
    }


def episode_json(episode: Episode) -> dict[str, Any]:
    """The episode a memory belongs to, as plain JSON."""
    return {
        "id": episode.id,
        "position": episode.position,
        "said": span_json(episode.said),
        "event_time": span_json(episode.event_time),
        "participants": list(episode.participants),
        "places": list(episode.places),
        "entities": list(episode.entities),
        "topic": episode.topic,
        "next_id": episode.next_id,
    }
