"""``RaMemStore``: a LangGraph ``BaseStore`` whose search is RaMem's contextual retrieval."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from ramem_integrations.core.conversation import parse_datetime
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.episodes import readable_metadata
from ramem_integrations.errors import DataFormatError, InvalidInputError, InvalidTimeError
from ramem_integrations.langgraph.items import (
    ItemTable,
    Row,
    matches,
    passes,
    ramem_namespace,
)
from ramem_integrations.memory import RaMem

#: The conversation id of an item's memory in RaMem: this prefix and the item's key.
CONVERSATION_PREFIX = "langgraph:"

_REFERENCE: ContextVar[datetime | None] = ContextVar("ramem_store_reference", default=None)


def utc_now() -> datetime:
    """The default clock: the wall clock, in UTC."""
    return datetime.now(UTC)


class RaMemStore(BaseStore):
    """A LangGraph store over RaMem: ``put`` writes an episodic memory, ``search`` reinstates.

    Setup:
        .. code-block:: bash

            pip install 'ramem-integrations[langgraph]'

    Key init args:
        memory: the :class:`~ramem_integrations.RaMem` holding the memories.
        fields: the value fields whose text becomes the memory (``["text"]``, like LangGraph's
            ``index={"fields": [...]}``; ``put(..., index=[...])`` overrides it per item and
            ``index=False`` stores the item without a memory). An item with none of them is
            kept and listed, but not searched by meaning.
        time_field: the value field saying when it was said (ISO 8601); ``clock()`` when absent.
        speaker_field / default_speaker: who said it (``"user"`` when the field is absent).
        clock: "now", for items without a time and for grounding questions; the wall clock by
            default. ``search(..., reference=...)`` grounds one question at another moment.
        episode_key: the key under which search results carry their episode.

    Instantiate:
        .. code-block:: python

            from ramem_integrations import RaMem
            from ramem_integrations.langgraph import RaMemStore

            store = RaMemStore(RaMem.from_path("./memory"))
            agent = create_agent(model, tools=[...], store=store)

    Usage:
        .. code-block:: python

            store.put(("memories", "alice"), "m1",
                      {"text": "I saw the dentist today", "time": "2024-03-12T18:00:00+00:00"})
            store.search(("memories", "alice"), query="What did the dentist say in March?")
            # [SearchItem(key='m1', value={'text': ..., 'episode': {'session': '12 March 2024',
            #   'reason': 'context', 'matched': ['time'], ...}}, score=...)]

    A namespace tuple is one RaMem namespace, its labels joined by periods
    (``("memories", "alice")`` is ``"memories.alice"``); every memory read is scoped to one.
    A search whose prefix covers several namespaces retrieves in each and merges (memories that
    meet the question's conditions first, then by score). RaMem memories of that namespace not
    written through the store (``RaMem.add_conversation``) are not returned: results are items.
    """

    __slots__ = (
        "_lock",
        "clock",
        "default_speaker",
        "episode_key",
        "fields",
        "items",
        "memory",
        "speaker_field",
        "time_field",
    )

    def __init__(
        self,
        memory: RaMem,
        *,
        fields: Sequence[str] = ("text",),
        time_field: str = "time",
        speaker_field: str = "speaker",
        default_speaker: str = "user",
        clock: Callable[[], datetime] = utc_now,
        episode_key: str = "episode",
        items_collection: str | None = None,
    ) -> None:
        if not isinstance(memory, RaMem):
            raise InvalidInputError(
                f"RaMemStore takes a RaMem, got {type(memory).__name__}: "
                "RaMemStore(RaMem.from_path('./memory'))."
            )
        if isinstance(fields, str) or not fields:
            raise InvalidInputError("fields must be a list of value fields, e.g. ['text'].")
        self.memory = memory
        self.fields = [(f, tokenize_path(f)) for f in fields]
        self.time_field, self.speaker_field = time_field, speaker_field
        self.default_speaker, self.clock, self.episode_key = default_speaker, clock, episode_key
        name = items_collection or f"{memory.store.name}_langgraph_items"
        self.items = ItemTable(memory.store.client, name)
        self._lock = threading.RLock()

    # -- the BaseStore contract ------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run Get, Put, Search and ListNamespaces ops in order; puts are checked first."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        sources = {i: self._source(op) for i, op in enumerate(ops) if isinstance(op, PutOp)}
        with self._lock:
            return [self._run(op, sources.get(i)) for i, op in enumerate(ops)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread, without blocking the event loop."""
        return await asyncio.to_thread(self.batch, list(ops))

    def search(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
        reference: datetime | None = None,
    ) -> list[SearchItem]:
        """LangGraph's search; ``reference`` grounds the query's times ("in March") at another
        moment than ``clock()``."""
        with _grounded_at(reference):
            return super().search(
                namespace_prefix, query=query, filter=filter, limit=limit, offset=offset
            )

    async def asearch(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
        reference: datetime | None = None,
    ) -> list[SearchItem]:
        """:meth:`search` without blocking the event loop."""
        with _grounded_at(reference):
            return await super().asearch(
                namespace_prefix, query=query, filter=filter, limit=limit, offset=offset
            )

    # -- the memories themselves, for prompts ----------------------------------------------
    def recall(
        self,
        namespace: tuple[str, ...],
        query: str,
        *,
        k: int = 5,
        reference: datetime | None = None,
    ) -> list[ScoredMemory]:
        """RaMem's retrieval in exactly ``namespace``: memories with their episodes, best
        first, the question grounded at ``reference`` (default ``clock()``)."""
        name = ramem_namespace(namespace)
        if not query.strip() or self.memory.count(name) == 0:
            return []
        return self.memory.retrieve(query, name, k, reference=reference or self.clock())

    async def arecall(
        self,
        namespace: tuple[str, ...],
        query: str,
        *,
        k: int = 5,
        reference: datetime | None = None,
    ) -> list[ScoredMemory]:
        """:meth:`recall` without blocking the event loop."""
        return await asyncio.to_thread(self.recall, namespace, query, k=k, reference=reference)

    # -- ops -------------------------------------------------------------------------------
    def _run(self, op: Op, source: tuple[str, str, str] | None) -> Result:
        if isinstance(op, GetOp):
            row = self.items.get(op.namespace, [op.key]).get(op.key)
            return row.item if row else None
        if isinstance(op, PutOp):
            self._put(op, source)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise InvalidInputError(f"Unknown store operation {type(op).__name__}.")

    def _source(self, op: PutOp) -> tuple[str, str, str] | None:
        """What the item's memory is made of: (text, ISO time, speaker), or None for none."""
        if op.value is None:
            return None
        try:
            json.dumps(op.value)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(
                f"Item {op.key!r}: the value must be JSON (dicts, lists, strings, numbers): {exc}."
            ) from exc
        if op.index is False:
            return None
        fields = self.fields if op.index is None else [(f, tokenize_path(f)) for f in op.index]
        texts = [t for _, path in fields for t in get_text_at_path(op.value, path) if t.strip()]
        if not texts:
            return None
        raw_time = op.value.get(self.time_field)
        try:
            when = parse_datetime(raw_time, f"item {op.key!r}") if raw_time else self.clock()
        except DataFormatError as exc:
            raise InvalidTimeError(
                f"Item {op.key!r}: {self.time_field!r} must be an ISO 8601 time such as "
                f"'2024-03-12T18:00:00+00:00', got {raw_time!r}."
            ) from exc
        speaker = str(op.value.get(self.speaker_field) or self.default_speaker)
        return "\n".join(texts), when.isoformat(), speaker

    def _put(self, op: PutOp, source: tuple[str, str, str] | None) -> None:
        namespace, name = op.namespace, ramem_namespace(op.namespace)
        old = self.items.get(namespace, [op.key]).get(op.key)
        conversation = CONVERSATION_PREFIX + op.key
        if old is not None and old.source != source and old.source is not None:
            self.memory.forget(name, conversation_id=conversation)
        if op.value is None:
            self.items.delete(namespace, op.key)
            return
        if source is not None and (old is None or old.source != source):
            text, when, speaker = source
            moment = datetime.fromisoformat(when)
            self.memory.add_turns(
                [{"id": "item", "speaker": speaker, "text": text, "time": moment}],
                name,
                session_time=moment,
                session_id=op.key,
                conversation_id=conversation,
            )
        now = datetime.now(UTC)
        created = old.item.created_at if old else now
        item = Item(
            value=dict(op.value),
            key=op.key,
            namespace=namespace,
            created_at=created,
            updated_at=now,
        )
        self.items.upsert(Row(item, source))

    def _search(self, op: SearchOp) -> list[SearchItem]:
        rows = _in_put_order(self.items.under(op.namespace_prefix))
        rows = [r for r in rows if passes(r.item, op.filter)]
        if not op.query:
            return [_search_item(r.item) for r in rows[op.offset : op.offset + op.limit]]
        ranked = self._ranked(op, rows)
        found = {(item.namespace, item.key) for item in ranked}
        scoreless = [
            _search_item(r.item) for r in rows if (r.item.namespace, r.item.key) not in found
        ]
        return [*ranked, *scoreless][op.offset : op.offset + op.limit]

    def _ranked(self, op: SearchOp, rows: list[Row]) -> list[SearchItem]:
        """The items whose memories RaMem retrieves for the query, best first."""
        by_namespace: dict[tuple[str, ...], dict[str, Row]] = {}
        for row in rows:
            if row.source is not None:
                by_namespace.setdefault(row.item.namespace, {})[row.item.key] = row
        reference = _REFERENCE.get() or self.clock()
        scored: list[tuple[ScoredMemory, Row]] = []
        for namespace, own in by_namespace.items():
            name = ramem_namespace(namespace)
            total = self.memory.count(name)
            wanted = op.offset + op.limit + max(total - len(own), 0)
            k = total if op.filter else min(total, wanted)
            seen: set[str] = set()
            for hit in self.memory.retrieve(str(op.query), name, max(k, 1), reference=reference):
                key = hit.memory.conversation_id.removeprefix(CONVERSATION_PREFIX)
                mine = hit.memory.conversation_id.startswith(CONVERSATION_PREFIX)
                if mine and key in own and key not in seen:
                    seen.add(key)
                    scored.append((hit, own[key]))
        if len(by_namespace) > 1:
            scored.sort(key=lambda pair: (pair[0].reason != "context", -pair[0].score))
        return [self._found(hit, row.item) for hit, row in scored]

    def _found(self, hit: ScoredMemory, item: Item) -> SearchItem:
        value = {**item.value, self.episode_key: readable_metadata(hit)}
        return _search_item(item, value=value, score=float(hit.score))

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        names = [
            ns
            for ns in self.items.namespaces()
            if all(matches(c, ns) for c in op.match_conditions or ())
        ]
        if op.max_depth is not None:
            names = sorted({ns[: op.max_depth] for ns in names})
        return names[op.offset : op.offset + op.limit]


def _in_put_order(rows: list[Row]) -> list[Row]:
    """Items grouped by namespace, namespaces and items in the order first put (as LangGraph's
    InMemoryStore lists them)."""
    rows = sorted(rows, key=lambda r: r.item.created_at)
    first: dict[tuple[str, ...], datetime] = {}
    for row in rows:
        first.setdefault(row.item.namespace, row.item.created_at)
    return sorted(rows, key=lambda r: (first[r.item.namespace], r.item.created_at))


def _search_item(
    item: Item, *, value: dict[str, Any] | None = None, score: float | None = None
) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=item.value if value is None else value,
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=score,
    )


@contextmanager
def _grounded_at(reference: datetime | None) -> Iterator[None]:
    if reference is not None and (
        not isinstance(reference, datetime) or reference.utcoffset() is None
    ):
        raise InvalidTimeError(
            f"reference must be a timezone-aware datetime, got {reference!r}; e.g. "
            "datetime(2024, 9, 2, tzinfo=timezone.utc)."
        )
    token = _REFERENCE.set(reference)
    try:
        yield
    finally:
        _REFERENCE.reset(token)
