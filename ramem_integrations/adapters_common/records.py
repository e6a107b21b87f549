"""Episodic metadata for the frameworks' own documents and nodes, and back.

Shared by the LangChain and LlamaIndex adapters:

- :func:`anchor_records` turns texts a user already has (a LangChain ``Document``, a LlamaIndex
  node: a text, its metadata, maybe an id) into :class:`MemoryUnit` objects, through the same
  anchorer RaMem uses, so their metadata can carry the flat episodic keys of
  :meth:`MemoryUnit.to_metadata`.
- :func:`unit_of` reads such metadata back (``None`` for a record without it).

Each record needs a time: the first of :data:`TIME_KEYS` in its metadata (a datetime, an ISO or
free-form date string, or epoch seconds), else the caller's default. The speaker is the first of
:data:`SPEAKER_KEYS`, the session the first of :data:`SESSION_KEYS` (else the record's day).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ramem_integrations.core.anchoring import Anchorer, RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn, parse_datetime
from ramem_integrations.core.ids import digest
from ramem_integrations.core.limits import check_unicode
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import DataFormatError, InvalidInputError

__all__ = [
    "SESSION_KEYS",
    "SPEAKER_KEYS",
    "TIME_KEYS",
    "Record",
    "anchor_records",
    "unit_of",
]

#: Metadata keys read, in order, for when a record was said or written.
TIME_KEYS = ("session_time", "timestamp", "time", "date", "created_at")
#: Metadata keys read, in order, for who said or wrote it.
SPEAKER_KEYS = ("speaker", "author", "sender", "role")
#: Metadata keys read, in order, for the session (sitting) it belongs to.
SESSION_KEYS = ("session_id", "session")
#: The conversation of records that name none (their ids leave it out, as they always did).
DEFAULT_CONVERSATION = "documents"
#: The keys :meth:`MemoryUnit.from_metadata` needs; a record without them is not episodic.
REQUIRED_KEYS = ("namespace", "session_id", "session_start", "session_end")


@dataclass(frozen=True)
class Record:
    """A text a framework holds, its metadata, and its id if it has one."""

    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None


def _first(meta: Mapping[str, Any], keys: Sequence[str]) -> Any:
    return next((meta[k] for k in keys if meta.get(k) not in (None, "")), None)


def record_time(record: Record, default: datetime | None, where: str) -> datetime:
    """When ``record`` was said: from its metadata, else ``default``."""
    value = _first(record.metadata, TIME_KEYS)
    if value is None:
        if default is None:
            raise InvalidInputError(
                f"{where} has no time. Put one in its metadata under one of "
                f"{', '.join(TIME_KEYS)}, or pass default_time=."
            )
        value = default
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    try:
        return parse_datetime(value, where)
    except DataFormatError as exc:
        raise InvalidInputError(str(exc)) from exc


def _record_id(
    record: Record, namespace: str, conversation: str, when: datetime, speaker: str
) -> str:
    """The record's own id, else a digest of where, when, by whom and what was said (the
    conversation named when it is not the default one, whose ids are as they always were)."""
    if record.id:
        return record.id
    parts = [speaker, when.isoformat(), record.text]
    if conversation != DEFAULT_CONVERSATION:
        parts.insert(0, conversation)
    return digest(namespace, *parts)


def anchor_records(
    records: Sequence[Record],
    namespace: str,
    *,
    default_time: datetime | None = None,
    default_speaker: str = "user",
    conversation_id: str = DEFAULT_CONVERSATION,
    anchorer: Anchorer | None = None,
) -> list[MemoryUnit]:
    """One memory unit per record, in order, anchored as RaMem anchors a conversation.

    Records are grouped into conversations (metadata ``conversation_id``, else
    ``conversation_id``) and sessions (:data:`SESSION_KEYS`, else the record's day), so the
    anchorer sees who else took part. A unit's id is the record's id, or a hash of namespace,
    conversation, speaker, time and text when the record has none (the same record always gets
    the same id; the same words in two conversations, two ids).
    """
    if not isinstance(namespace, str) or not namespace.strip():
        raise InvalidInputError("A namespace is required, e.g. namespace='alice'.")
    turns: list[tuple[str, str, Turn]] = []  # (conversation, session, turn)
    for index, record in enumerate(records, 1):
        if not isinstance(record.text, str) or not record.text.strip():
            raise InvalidInputError(f"Record {index} has no text; there is nothing to remember.")
        when = record_time(record, default_time, f"Record {index}")
        speaker = str(_first(record.metadata, SPEAKER_KEYS) or default_speaker)
        session = str(_first(record.metadata, SESSION_KEYS) or f"{when:%Y-%m-%d}")
        conv = str(record.metadata.get("conversation_id") or conversation_id)
        for name, text in [
            ("text", record.text),
            ("id", record.id or ""),
            ("speaker", speaker),
            ("session", session),
            ("conversation id", conv),
        ]:
            check_unicode(text, f"Record {index}: its {name}")
        turn_id = _record_id(record, namespace, conv, when, speaker)
        turns.append((conv, session, Turn(turn_id, speaker, record.text, when)))
    by_turn: dict[str, MemoryUnit] = {}
    for conversation in _conversations(turns):
        # One unit per record: a framework's records are not grouped into utterances.
        for unit in (anchorer or RuleAnchorer(group_gap=None)).anchor(conversation, namespace):
            by_turn[unit.source_ids[0]] = replace(unit, id=unit.source_ids[0])
    missing = [turn.id for _, _, turn in turns if turn.id not in by_turn]
    if missing:
        raise InvalidInputError(
            f"The anchorer made no memory for record(s) {missing[:3]}; use an anchorer that "
            "makes one memory per turn (RuleAnchorer does)."
        )
    return [by_turn[turn.id] for _, _, turn in turns]


def _conversations(turns: list[tuple[str, str, Turn]]) -> list[Conversation]:
    grouped: dict[str, dict[str, list[Turn]]] = {}
    for conv, session, turn in turns:
        grouped.setdefault(conv, {}).setdefault(session, []).append(turn)
    out = []
    for conv, sessions in grouped.items():
        built = []
        for sid, members in sessions.items():
            ordered = sorted(members, key=lambda t: t.time or datetime.min.replace(tzinfo=UTC))
            start = ordered[0].time or datetime.now(UTC)  # every turn has a time here
            built.append(Session(sid, start, tuple(ordered)))
        built.sort(key=lambda s: s.start)
        out.append(Conversation(conv, tuple(built)))
    return out


def unit_of(id: str, text: str, metadata: Mapping[str, Any]) -> MemoryUnit | None:
    """The memory unit a record's episodic metadata describes, or None when it has none."""
    if not all(key in metadata for key in REQUIRED_KEYS) or not text.strip():
        return None
    try:
        return MemoryUnit.from_metadata(id, text, metadata)
    except (KeyError, TypeError, ValueError):
        return None
