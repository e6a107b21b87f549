"""The write path: conversations anchored into memory units, written once, caches kept current.

:class:`Writer` anchors conversations (or plain turns) into units, skips those already stored
unchanged, embeds and upserts the rest in batches, and keeps the namespace cache reads use
current on every write and delete (other writers' writes reach it through
:mod:`~ramem_integrations.index.freshness`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

import numpy as np

from ramem_integrations.core.anchoring import Anchorer
from ramem_integrations.core.conversation import (
    Conversation,
    Session,
    Turn,
    check_conversation,
    parse_datetime,
)
from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.core.limits import Limits, check_unicode
from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.segmentation import EpisodeSegmenter, Segmenter
from ramem_integrations.core.time.corrections import corrected
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import (
    EmbeddingError,
    InvalidInputError,
    InvalidTimeError,
    MemoryConflictError,
    WriteConflictError,
)
from ramem_integrations.index.namespaces import NamespaceCache
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.regrouping import regrouped
from ramem_integrations.models.embeddings import Embedder, Vectors
from ramem_integrations.stores.protocol import MemoryStore

#: Memories embedded per call. The embedder sorts a call's texts by length before padding them
#: to a common length, so a larger call pads less (measured in docs/performance.md).
EMBED_BATCH = 1024
#: The job's last batch is cut in two, its end being this fraction of it: the last upsert is
#: the one write no embedding overlaps, so it is kept small (docs/performance.md).
LAST_WRITE_FRACTION = 1 / 8

Progress = Callable[[int], None]
#: Memories of one namespace, written together.
Batch = tuple[str, list[MemoryUnit]]
#: A batch's write under way: its future (the memories another writer stored first under
#: ids of the batch), namespace, memories and their embeddings.
Pending = tuple["Future[list[MemoryUnit]]", str, list[MemoryUnit], Vectors]


class Writer:
    """Anchors and stores memories; keeps the namespace cache current with its own writes."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        anchorer: Anchorer,
        cache: NamespaceCache,
    ) -> None:
        self.store, self.embedder, self.anchorer, self.cache = store, embedder, anchorer, cache
        #: Cuts each session's units into episodes; None stores turns without episodes.
        self.segmenter: EpisodeSegmenter | None = Segmenter()
        #: How long a turn may be (checked before anything is anchored or written).
        self.limits = Limits()
        #: Whether a batch's upsert runs beside the next batch's embedding; None: for a Chroma
        #: server only (an embedded Chroma holds the GIL while it writes, so it overlaps nothing).
        self.overlap_writes: bool | None = None
        #: The words corrections of a time are read by (the lexicon's time section).
        self.time_words: TimeWords = ENGLISH.time

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        """The conversation's memory units in ``namespace`` (nothing is written)."""
        if not isinstance(conversation, Conversation):
            raise InvalidInputError(
                f"Expected a Conversation, got {type(conversation).__name__}. "
                "Load one with ramem_integrations.load_conversations(path)."
            )
        check_conversation(conversation, self.limits)
        units = corrected(self.anchorer.anchor(conversation, namespace), self.time_words)
        return self.segmenter.segment(units) if self.segmenter else units

    def add_conversations(
        self,
        conversations: Iterable[Conversation],
        namespace: str | None = None,
        *,
        progress: Progress | None = None,
        replace: bool = False,
        total: Progress | None = None,
    ) -> dict[str, int]:
        """Add many conversations in one batched write; the number of memories per namespace.
        ``total`` is told how many memories ``progress`` will count once they are anchored
        (fewer than the turns when messages are grouped into one memory)."""
        if isinstance(conversations, Conversation | str | bytes | Mapping) or not isinstance(
            conversations, Iterable
        ):
            raise InvalidInputError(
                f"Expected an iterable of Conversations, got {type(conversations).__name__}."
            )
        todo = list(conversations)
        for conversation in todo:
            if not isinstance(conversation, Conversation):
                self.anchor(conversation, namespace or "-")  # raises the type error
            check_namespace(namespace or conversation.id)  # RaMem.anchor checks one
            check_conversation(conversation, self.limits)  # before any word is embedded
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ramem-anchor")
        try:
            anchored = [pool.submit(self.anchor, c, namespace or c.id) for c in todo]
            # While they are anchored, the first conversation's words are embedded; nothing is
            # written before every conversation is anchored and checked.
            ahead = self._embed_ahead(todo[0], namespace or todo[0].id) if todo else {}
            units = [unit for future in anchored for unit in future.result()]
        finally:
            pool.shutdown(cancel_futures=True)
        if total:
            total(len(units))
        self._add(units, progress, replace, ahead, edited_turns(todo))
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
        """One session of turns as a conversation, every argument checked (the namespace by
        RaMem)."""
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
        self,
        memories: Sequence[MemoryUnit],
        *,
        progress: Progress | None = None,
        replace: bool = False,
        embedded: Mapping[str, np.ndarray] | None = None,
        edits: frozenset[tuple[str, str]] = frozenset(),
    ) -> list[str]:
        """Embed and upsert memory units; those already stored unchanged are skipped.
        ``embedded`` holds texts already embedded, by text
        (:func:`~ramem_integrations.memory.embedding.memory_embeddings`): they are not embedded
        again.

        A unit whose id is stored with different text raises :class:`MemoryConflictError`
        before anything is written, unless ``replace`` says to overwrite it on purpose or it
        holds a message its sender edited (``edits``: conversation id, turn id). A
        stored memory whose turns the units now hold under other ids (a chat burst that grew by
        a message) is deleted once they are written (:mod:`~ramem_integrations.memory.regrouping`).

        Units whose ids were free when checked are inserted, never upserted: when another
        writer stored one of those ids with other text in the meantime (two threads or
        processes writing one id at once), its text stays and, once the rest is written,
        :class:`WriteConflictError` names the ids not written. No text is lost silently.
        """
        units = list(memories)
        for unit in units:
            if not isinstance(unit, MemoryUnit):
                raise InvalidInputError(f"Expected MemoryUnit objects, got {type(unit).__name__}.")
            check_fields(unit, self.limits)
        return self._add(units, progress, replace, embedded or {}, edits)

    def _add(
        self,
        units: list[MemoryUnit],
        progress: Progress | None,
        replace: bool,
        ahead: Mapping[str, np.ndarray],
        edits: frozenset[tuple[str, str]] = frozenset(),
    ) -> list[str]:
        """:meth:`add_memories` of checked units; ``ahead`` holds words already embedded. A
        unit holding a turn of ``edits`` (conversation id, turn id: a message its sender
        edited) replaces the stored text of that turn without ``replace``."""
        by_ns: dict[str, list[MemoryUnit]] = {}
        for unit in units:
            by_ns.setdefault(unit.namespace, []).append(unit)
        checked = {ns: self._changed(ns, group, replace, edits) for ns, group in by_ns.items()}
        fresh = {ns: changed for ns, (changed, _) in checked.items()}
        free = {(ns, unit_id) for ns, (_, ids) in checked.items() for unit_id in ids}
        replaced = {ns: self._regrouped(ns, fresh[ns], replace, edits) for ns in by_ns}
        fresh = {ns: [u for u in fresh[ns] if u.id not in replaced[ns][1]] for ns in fresh}
        if progress:
            for namespace, group in by_ns.items():
                progress(len(group) - len(fresh[namespace]))
        for namespace, todo in fresh.items():
            if not todo:  # nothing to write: a re-run finishes what a cut write left pending
                self.store.settle(namespace)
        theirs = self._write(batches(fresh), progress, ahead, free)
        taken = {(u.namespace, u.id): u for u in theirs}
        lost = [u for u in units if (u.namespace, u.id) in taken]
        lost = [u for u in lost if taken[u.namespace, u.id].content != u.content]
        if lost:  # before the regrouped memories go: their words stay stored
            raise race_lost(lost, taken)
        for namespace, (old, _) in replaced.items():  # now: a crash before leaves no words lost
            if old:
                self.forget(namespace, ids=old)
        return [u.id for u in units]

    def _embed_ahead(self, conversation: Conversation, namespace: str) -> dict[str, np.ndarray]:
        """The vectors of the first :data:`EMBED_BATCH` of the conversation's turns, by text,
        made before it is anchored (a memory's content is its turn as said). Nothing when
        the conversation is stored already (a re-run embeds only what changed) or its
        messages carry their own times (they may be grouped into other texts)."""
        turns = [turn for session in conversation.sessions for turn in session.turns]
        if any(turn.time for turn in turns) or self.store.ids(
            namespace, conversation_id=conversation.id
        ):
            return {}
        texts = list(dict.fromkeys(t.text if t.text.strip() else t.full_text for t in turns))
        batch = [text for text in texts if text.strip()][:EMBED_BATCH]
        return dict(zip(batch, self.embedder.embed(batch), strict=True))

    def _write(
        self,
        batches: list[Batch],
        progress: Progress | None,
        ahead: Mapping[str, np.ndarray],
        free: set[tuple[str, str]],
    ) -> list[MemoryUnit]:
        """Embed and store batch after batch; with :attr:`overlap_writes`, each batch's upsert
        overlaps the next one's embedding (one background thread writes, in order). Units
        whose (namespace, id) is in ``free`` (not stored when checked) are inserted; returns
        the memories another writer stored first under such ids, where they are not as given.

        The caches and ``progress`` are updated in this thread once a batch's write returned.
        A failed write or embedding raises its own error here after the write in flight has
        finished, so the store holds whole batches only, as after a crash: re-running writes
        the rest and duplicates nothing.
        """
        overlap = self.store.remote if self.overlap_writes is None else self.overlap_writes
        theirs: list[MemoryUnit] = []
        if len(batches) < 2 or not overlap:
            for namespace, batch in batches:
                vectors = memory_vectors(self.embedder, batch, ahead)
                kept = self._store(namespace, batch, vectors, free)
                theirs += self._written(namespace, batch, vectors, progress, kept)
            return theirs
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ramem-write") as pool:
            pending: Pending | None = None
            try:
                for namespace, batch in batches:
                    vectors = memory_vectors(self.embedder, batch, ahead)
                    if pending is not None:
                        done, pending = pending, None
                        theirs += self._settle(done, progress)
                    pending = (
                        pool.submit(self._store, namespace, batch, vectors, free),
                        namespace,
                        batch,
                        vectors,
                    )
                if pending is not None:
                    done, pending = pending, None
                    theirs += self._settle(done, progress)
            except BaseException:
                if pending is not None and pending[0].exception() is None:  # waits for it
                    self._written(*pending[1:], progress, pending[0].result())  # cached
                raise
        return theirs

    def _store(
        self, namespace: str, batch: list[MemoryUnit], vectors: Vectors, free: set[tuple[str, str]]
    ) -> list[MemoryUnit]:
        """Write one batch: ids free when checked are inserted, the others upserted; returns
        the memories another writer stored first under the free ids. A failed write drops
        the namespace's cache (an unknown part of the batch may be stored)."""
        new = [i for i, u in enumerate(batch) if (namespace, u.id) in free]
        old = [i for i, u in enumerate(batch) if (namespace, u.id) not in free]
        matrix = np.asarray(vectors)
        try:
            if old:
                self.store.upsert([batch[i] for i in old], matrix[old])
            return self.store.insert([batch[i] for i in new], matrix[new]) if new else []
        except BaseException:
            self.cache.stale(namespace)
            raise

    def _settle(self, pending: Pending, progress: Progress | None) -> list[MemoryUnit]:
        """Wait for a batch's write (raising its own error), then update the caches."""
        kept = pending[0].result()
        return self._written(*pending[1:], progress, kept)

    def _written(
        self,
        namespace: str,
        batch: list[MemoryUnit],
        vectors: Vectors,
        progress: Progress | None,
        theirs: list[MemoryUnit],
    ) -> list[MemoryUnit]:
        """Keep the caches current after ``batch`` (embedded as ``vectors``) was stored, but
        for ``theirs``, stored first by another writer (the cache then loads afresh)."""
        if theirs:
            self.cache.stale(namespace)
        else:
            self.cache.added(namespace, batch, vectors)
        if progress:
            progress(len(batch))
        return theirs

    def _changed(
        self,
        namespace: str,
        units: list[MemoryUnit],
        replace: bool,
        edits: frozenset[tuple[str, str]] = frozenset(),
    ) -> tuple[list[MemoryUnit], set[str]]:
        """The units not yet stored as they are, and the ids not stored at all; refuses to
        change silently what a stored memory says: its words, who said them, or when (a
        message its sender edited is not silent: it replaces the words it had)."""
        unique = {u.id: u for u in units}
        stored = {u.id: u for u in self.store.get(namespace, ids=list(unique))}
        clashes = [
            u
            for u in unique.values()
            if u.id in stored and said_otherwise(stored[u.id], u) and not holds(u, edits)
        ]
        if clashes and not replace:
            raise conflict(namespace, clashes, stored)
        return [u for u in unique.values() if stored.get(u.id) != u], set(unique) - set(stored)

    def _regrouped(
        self,
        namespace: str,
        units: list[MemoryUnit],
        replace: bool,
        edits: frozenset[tuple[str, str]] = frozenset(),
    ) -> tuple[list[str], set[str]]:
        """Stored memories that the new ``units`` hold under other ids (a burst of messages
        that grew): the ids to delete once ``units`` are written; and the ids of units whose
        turns and words are stored already (not to write). Refuses, before anything is
        written, when their words differ (unless ``replace``)."""
        turns = [turn for u in units for turn in u.source_ids]
        if not turns:
            return [], set()
        conversations = [u.conversation_id for u in units]
        stored = self.store.holding(namespace, conversations, turns)
        kept, changed, held = regrouped(units, stored)
        kept += [old for old, new in changed if holds(new, edits)]
        changed = [(old, new) for old, new in changed if not holds(new, edits)]
        if changed and not replace:
            raise conflict(namespace, [new for _, new in changed], {n.id: o for o, n in changed})
        return [u.id for u in kept] + [old.id for old, _ in changed], {u.id for u in held}

    def reembed(self, namespace: str, progress: Progress | None = None) -> int:
        """Embed the namespace's stored memories again, with this writer's embedder and
        today's recipe (:mod:`~ramem_integrations.memory.embedding`); returns how many.

        Only the vectors are written (``MemoryStore.set_vectors``): a text changed or a memory
        deleted by another writer meanwhile is never written back. Batch by batch:
        after a crash, running it again finishes the job. The caller checks that the namespace
        exists (``Freshness.sync``)."""
        stored = self.store.dimension(namespace)
        if stored is not None and stored != self.embedder.dimension:
            raise EmbeddingError(
                f"Namespace {namespace!r} holds {stored}-dimensional vectors and the embedder "
                f"{self.embedder.name!r} makes {self.embedder.dimension}: a namespace keeps one "
                "dimension. To change embedders, export the namespace and import it into a new "
                "store with the new one ('ramem export', then 'ramem import')."
            )
        units = self.store.get(namespace)
        for start in range(0, len(units), EMBED_BATCH):
            batch = units[start : start + EMBED_BATCH]
            vectors = memory_vectors(self.embedder, batch)
            self.store.set_vectors(namespace, [u.id for u in batch], vectors)
            if progress:
                progress(len(batch))
        self.cache.forget(namespace)  # the next read loads the new vectors
        return len(units)

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
        for memory_id in ids or ():
            check_unicode(memory_id, f"The memory id {memory_id!r}")
        if conversation_id is not None:
            check_unicode(conversation_id, f"The conversation id {conversation_id!r}")
        try:
            removed = self.store.delete(namespace, ids=ids, conversation_id=conversation_id)
        except BaseException:
            self.cache.stale(namespace)  # an unknown part may be deleted
            raise
        self.cache.removed(namespace, removed)
        return len(removed)


def batches(todo: Mapping[str, list[MemoryUnit]]) -> list[Batch]:
    """Each namespace's memories in batches of :data:`EMBED_BATCH`, the last batch of all cut
    so that its end (:data:`LAST_WRITE_FRACTION` of it) is written alone."""
    out = [
        (namespace, units[start : start + EMBED_BATCH])
        for namespace, units in todo.items()
        for start in range(0, len(units), EMBED_BATCH)
    ]
    if out and (end := int(len(out[-1][1]) * LAST_WRITE_FRACTION)):
        namespace, last = out.pop()
        out += [(namespace, last[:-end]), (namespace, last[-end:])]
    return out


def edited_turns(conversations: Iterable[Conversation]) -> frozenset[tuple[str, str]]:
    """(conversation id, turn id) of every message its sender edited."""
    return frozenset(
        (c.id, turn.id)
        for c in conversations
        for s in c.sessions
        for turn in s.turns
        if turn.edited
    )


def holds(unit: MemoryUnit, turns: frozenset[tuple[str, str]]) -> bool:
    """Whether ``unit`` holds one of ``turns`` (conversation id, turn id)."""
    return any((unit.conversation_id, turn) in turns for turn in unit.source_ids)


def said_otherwise(old: MemoryUnit, new: MemoryUnit) -> list[str]:
    """What ``new`` would change of what ``old`` says: ``text``, ``speaker``, ``time`` (when
    its messages were sent, else when its session began). Empty when they say the same."""
    return [
        what
        for what, (before, after) in {
            "text": (old.content, new.content),
            "speaker": (old.context.speaker, new.context.speaker),
            "time": (_said(old), _said(new)),
        }.items()
        if before != after
    ]


def _said(unit: MemoryUnit) -> object:
    context = unit.context
    return context.said_at.start if context.said_at else context.session_span.start


def conflict(
    namespace: str, clashes: list[MemoryUnit], stored: Mapping[str, MemoryUnit]
) -> MemoryConflictError:
    """The error for a write that would change what stored memories say, with one example and
    the ways out."""
    first, old = clashes[0], stored[clashes[0].id]
    where = (
        f"turn {', '.join(first.source_ids) or first.id} of conversation {first.conversation_id!r}"
    )
    changes = said_otherwise(old, first) or ["text"]
    shown = {
        "text": (_short(old.content), _short(first.content)),
        "speaker": (repr(old.context.speaker), repr(first.context.speaker)),
        "time": (str(_said(old)), str(_said(first))),
    }
    detail = "; ".join(f"{w}: stored {shown[w][0]}, new {shown[w][1]}" for w in changes)
    return MemoryConflictError(
        f"{len(clashes)} memor{'y' if len(clashes) == 1 else 'ies'} of namespace {namespace!r} "
        f"would be overwritten with different {' and '.join(changes)} (e.g. {where}: "
        f"{detail}). Nothing was written. "
        "If this is another conversation, give it its own id (conversation_id=..., or "
        "'ramem ingest --conversation ID'); to replace them on purpose, pass "
        "replace=True (or --replace on 'ramem ingest' or 'ramem import')."
    )


def race_lost(
    lost: list[MemoryUnit], theirs: Mapping[tuple[str, str], MemoryUnit]
) -> WriteConflictError:
    """The error for memories whose ids another writer took with other text while this write
    was under way: theirs stay, these were not written."""
    first = lost[0]
    ids = list(dict.fromkeys(u.id for u in lost))
    spaces = ", ".join(repr(n) for n in dict.fromkeys(u.namespace for u in lost))
    stored = theirs[first.namespace, first.id].content
    return WriteConflictError(
        f"{len(ids)} memor{'y' if len(ids) == 1 else 'ies'} of namespace {spaces} (ids "
        f"{', '.join(repr(i) for i in ids[:5])}) were not written: another writer stored other "
        f"text under the same id at the same moment (e.g. stored {_short(stored)}, yours "
        f"{_short(first.content)}). Theirs is kept; the rest of this write is stored. If yours "
        "is another memory, give it its own id (conversation_id=...); to replace theirs on "
        "purpose, write it again with replace=True.",
        ids,
    )


def _short(text: str, size: int = 60) -> str:
    return repr(text if len(text) <= size else text[: size - 1] + "…")


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
        asks = turn.get("asks_memory", False)
        if not isinstance(asks, bool):
            raise InvalidInputError(f"Turn {index}: 'asks_memory' must be True or False.")
        turn_id = str(turn.get("id") or f"{session_id}:{index}")
        out.append(Turn(turn_id, speaker, text, when, asks_memory=asks))
    if not out:
        raise InvalidInputError("No turns given; pass at least one.")
    ids = [t.id for t in out]
    if len(ids) != len(set(ids)):
        raise InvalidInputError("Turn ids repeat; give every turn its own 'id' or none.")
    return out


def segmenter_for(anchorer: Anchorer) -> EpisodeSegmenter:
    """The episode cuts that go with an anchorer: its own ``episode_segmenter()`` when it has
    one (an ``LLMAnchorer`` cuts with the same model), else the offline lexical cuts."""
    own = getattr(anchorer, "episode_segmenter", None)
    return own() if callable(own) else Segmenter()


def check_fields(unit: MemoryUnit, limits: Limits) -> None:
    """Refuse a memory a caller built whose text or any name in it is over ``limits``: its
    content (``message_chars``; its restatement, with names and dates written out, up to twice
    a message and a name); its ids, namespace and every name of its context (``name_chars``).
    The error names the memory and the field."""
    memory = f"memory {unit.id[:60]!r}"
    limits.check_name(unit.id, "a memory id")
    limits.check_text(unit.content, memory)
    restated = unit.restatement or ""
    if len(restated) > 2 * (limits.message_chars + limits.name_chars):  # names and dates
        found = f"the restatement has {len(restated):,} characters (twice a message and a name)"
        raise limits.refuse("message_chars", found, memory)
    ctx = unit.context
    episode = ctx.episode
    names: dict[str, Iterable[str | None]] = {
        "namespace": (unit.namespace,),
        "conversation_id": (unit.conversation_id,),
        "source_ids": unit.source_ids,
        "corrects": (*unit.corrects, *unit.corrected_by),
        "session_id": (ctx.session_id,),
        "speaker": (ctx.speaker,),
        "participants": ctx.participants,
        "location": (ctx.location,),
        "entities": ctx.entities,
        "topic": (ctx.topic,),
        "aliases": (name for pair in ctx.aliases for name in pair),
        "mention_times": (mention.text for mention in ctx.mention_times),
    }
    if episode is not None:
        names["episode"] = (
            episode.id,
            episode.next_id,
            episode.topic,
            *episode.participants,
            *episode.places,
            *episode.entities,
        )
    for field, values in names.items():
        for value in values:
            if value is not None:
                limits.check_name(value, f"{memory} {field}")
