"""The write path: conversations anchored into memory units, written once, caches kept current.

:class:`Writer` anchors conversations (or plain turns) into units, skips those already stored
unchanged, embeds and upserts the rest in batches, and keeps the caches reads use (the BM25
index and the namespace's known context) current on every write and delete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ramem_integrations.core.anchoring import Anchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn, parse_datetime
from ramem_integrations.core.frames import KnownContext
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.embeddings import Embedder
from ramem_integrations.errors import InvalidInputError, InvalidTimeError
from ramem_integrations.lexical import LexicalIndex
from ramem_integrations.stores.chroma import ChromaEpisodicStore, check_namespace

EMBED_BATCH = 256

Progress = Callable[[int], None]


class Writer:
    """Anchors and stores memories; keeps the BM25 index and the known context current."""

    def __init__(
        self,
        store: ChromaEpisodicStore,
        embedder: Embedder,
        anchorer: Anchorer,
        lexical: LexicalIndex,
    ) -> None:
        self.store, self.embedder, self.anchorer, self.lexical = store, embedder, anchorer, lexical
        self._known: dict[str, KnownContext] = {}

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        """The conversation's memory units in ``namespace`` (nothing is written)."""
        if not isinstance(conversation, Conversation):
            raise InvalidInputError(
                f"Expected a Conversation, got {type(conversation).__name__}. "
                "Load one with ramem_integrations.load_conversations(path)."
            )
        return self.anchorer.anchor(conversation, check_namespace(namespace))

    def add_conversations(
        self,
        conversations: Iterable[Conversation],
        namespace: str | None = None,
        *,
        progress: Progress | None = None,
    ) -> dict[str, int]:
        """Add many conversations in one batched write; the number of memories per namespace."""
        if isinstance(conversations, Conversation | str | bytes | Mapping) or not isinstance(
            conversations, Iterable
        ):
            raise InvalidInputError(
                f"Expected an iterable of Conversations, got {type(conversations).__name__}."
            )
        units: list[MemoryUnit] = []
        for conversation in conversations:
            if not isinstance(conversation, Conversation):
                self.anchor(conversation, namespace or "-")  # raises the type error
            units.extend(self.anchor(conversation, namespace or conversation.id))
        self.add_memories(units, progress=progress)
        counts: dict[str, int] = {}
        for unit in units:
            counts[unit.namespace] = counts.get(unit.namespace, 0) + 1
        return counts

    def session_of_turns(
        self,
        turns: Sequence[Turn | Mapping[str, Any]],
        namespace: str,
        *,
        session_time: datetime,
        session_id: str | None,
        conversation_id: str,
    ) -> Conversation:
        """One session of turns as a conversation, every argument checked."""
        check_namespace(namespace)
        if not isinstance(session_time, datetime) or session_time.utcoffset() is None:
            raise InvalidTimeError(
                f"session_time must be a timezone-aware datetime, got {session_time!r}; e.g. "
                "datetime(2024, 3, 12, 18, tzinfo=timezone.utc)."
            )
        named = (("session_id", session_id or "-"), ("conversation_id", conversation_id))
        for name, value in named:
            if not isinstance(value, str) or not value.strip():
                raise InvalidInputError(f"{name} must be a non-empty string, got {value!r}.")
        if isinstance(turns, str | bytes | Mapping) or not isinstance(turns, Iterable):
            raise InvalidInputError(
                f"turns must be a list of Turns or dicts, got {type(turns).__name__}."
            )
        sid = session_id or session_time.isoformat()
        session = Session(sid, session_time, tuple(as_turns(list(turns), sid)))
        return Conversation(conversation_id, (session,))

    def add_memories(
        self, memories: Sequence[MemoryUnit], *, progress: Progress | None = None
    ) -> list[str]:
        """Embed and upsert memory units; those already stored unchanged are skipped."""
        units = list(memories)
        for unit in units:
            if not isinstance(unit, MemoryUnit):
                raise InvalidInputError(f"Expected MemoryUnit objects, got {type(unit).__name__}.")
        by_ns: dict[str, list[MemoryUnit]] = {}
        for unit in units:
            by_ns.setdefault(unit.namespace, []).append(unit)
        for namespace, group in by_ns.items():
            self._add_namespace(namespace, group, progress)
        return [u.id for u in units]

    def _add_namespace(
        self, namespace: str, units: list[MemoryUnit], progress: Progress | None
    ) -> None:
        fresh = self._changed(namespace, units)
        if progress:
            progress(len(units) - len(fresh))
        for start in range(0, len(fresh), EMBED_BATCH):
            batch = fresh[start : start + EMBED_BATCH]
            vectors = self.embedder.embed([u.search_text for u in batch])
            self.store.upsert(batch, vectors)
            self.lexical.added(namespace, batch)
            self._known.pop(namespace, None)
            if progress:
                progress(len(batch))

    def _changed(self, namespace: str, units: list[MemoryUnit]) -> list[MemoryUnit]:
        unique = {u.id: u for u in units}
        stored = {u.id: u for u in self.store.get(namespace, ids=list(unique))}
        return [u for u in unique.values() if stored.get(u.id) != u]

    def forget(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> int:
        """Delete memories: by id, by source conversation, or the whole namespace."""
        if isinstance(ids, str):
            raise InvalidInputError("ids must be a list of memory ids, not one string: ids=[id].")
        removed = self.store.delete(namespace, ids=ids, conversation_id=conversation_id)
        self.lexical.removed(namespace, removed)
        self._known.pop(namespace, None)
        return len(removed)

    def known(self, namespace: str) -> KnownContext:
        """What the namespace knows: its people, places, entities and date range (cached)."""
        if namespace not in self._known:
            self._known[namespace] = KnownContext.from_memories(self.store.get(namespace))
        return self._known[namespace]


def as_turns(turns: Sequence[Turn | Mapping[str, Any]], session_id: str) -> list[Turn]:
    """Turns from ``Turn`` objects or plain dicts, with ids ``<session>:<n>`` when missing."""
    out = []
    for index, turn in enumerate(turns, 1):
        if isinstance(turn, Turn):
            out.append(turn)
            continue
        if not isinstance(turn, Mapping):
            raise InvalidInputError(
                f"Turn {index} is a {type(turn).__name__}; give a Turn or a dict with "
                "'speaker' and 'text'."
            )
        speaker, text = turn.get("speaker"), turn.get("text")
        if not isinstance(speaker, str) or not speaker.strip():
            raise InvalidInputError(f"Turn {index} has no speaker; give 'speaker': 'Alice'.")
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError(f"Turn {index} has no text; give 'text': '...'.")
        time = turn.get("time")
        when = parse_datetime(time, f"turn {index}") if time is not None else None
        out.append(Turn(str(turn.get("id") or f"{session_id}:{index}"), speaker, text, when))
    if not out:
        raise InvalidInputError("No turns given; pass at least one.")
    ids = [t.id for t in out]
    if len(ids) != len(set(ids)):
        raise InvalidInputError("Turn ids repeat; give every turn its own 'id' or none.")
    return out
