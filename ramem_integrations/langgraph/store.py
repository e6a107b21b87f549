"""``RaMemStore``: a LangGraph ``BaseStore`` whose search is RaMem's contextual retrieval."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    tokenize_path,
)

from ramem_integrations.adapters_common.asked import Reference, Undated, asked_at
from ramem_integrations.adapters_common.hits import readable_metadata
from ramem_integrations.core.conversation import parse_datetime
from ramem_integrations.core.limits import Limits
from ramem_integrations.core.types import MemoryUnit, ScoredMemory, utc_now
from ramem_integrations.errors import DataFormatError, InvalidInputError, InvalidTimeError
from ramem_integrations.langgraph.checks import (
    check_filter,
    check_key,
    check_namespace,
    check_page,
    check_value,
)
from ramem_integrations.langgraph.items import (
    CONVERSATION_PREFIX,
    Row,
    matches,
    passes,
    ramem_namespace,
)
from ramem_integrations.langgraph.layout import items_name, memories_beside, open_items
from ramem_integrations.memory.embedding import memory_embeddings
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore

#: What an item's memory is made of: (text, ISO time, speaker), or None for no memory.
Source = tuple[str, str, str] | None
#: An item: its namespace and key.
Where = tuple[tuple[str, ...], str]


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
        items_collection: the Chroma collection of the items (``<store>_langgraph_items`` by
            default); a name of the store's own collections, or of a collection holding
            anything but items, is refused.

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
    (``("memories", "alice")`` is ``"memories.alice"``), in a RaMem store of the items' own
    (``<store>_langgraph``, :attr:`memory`; :mod:`.layout`), so no LangChain or LlamaIndex
    namespace of the given RaMem is ever one of them; every memory read is scoped to one.
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
        if not isinstance(memory.store, ChromaEpisodicStore):
            raise InvalidInputError(
                "RaMemStore keeps its items in Chroma beside the memories, so it needs a RaMem "
                f"over a ChromaEpisodicStore, not a {type(memory.store).__name__}: "
                "RaMemStore(RaMem.from_path('./memory'))."
            )
        if isinstance(fields, str) or not fields:
            raise InvalidInputError("fields must be a list of value fields, e.g. ['text'].")
        name = items_name(memory, items_collection)
        self.memory = memories_beside(memory)
        self.fields = [(f, tokenize_path(f)) for f in fields]
        self.time_field, self.speaker_field = time_field, speaker_field
        self.default_speaker, self.clock, self.episode_key = default_speaker, clock, episode_key
        self.items = open_items(memory, self.memory, name)
        self._lock = threading.RLock()

    # -- the BaseStore contract ------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run Get, Put, Search and ListNamespaces ops in order; every op is checked first,
        so a bad one writes nothing."""
        ops = list(ops)
        for op in ops:
            _check(op, self.memory.limits)
        sources = {i: self._source(op) for i, op in enumerate(ops) if isinstance(op, PutOp)}
        with self._lock:
            made = self._premade(ops, sources)
            results: list[Result] = []
            run: list[tuple[PutOp, Source, str | None]] = []  # puts in a row: one commit
            for i, op in enumerate(ops):
                if isinstance(op, PutOp):
                    run.append((op, sources[i], made.get(i)))
                    results.append(None)
                    continue
                self._commit(run)
                run = []
                results.append(self._run(op))
            self._commit(run)
            return results

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | NotProvided | None = NOT_PROVIDED,
    ) -> None:
        """LangGraph's put, with the key checked as given (LangGraph's ``str(key)`` would
        store ``None`` as ``"None"``)."""
        super().put(namespace, check_key(key, self.memory.limits), value, index, ttl=ttl)

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | NotProvided | None = NOT_PROVIDED,
    ) -> None:
        """:meth:`put` without blocking the event loop."""
        await super().aput(namespace, check_key(key, self.memory.limits), value, index, ttl=ttl)

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
        reference: Reference = None,
    ) -> list[SearchItem]:
        """LangGraph's search; ``reference`` grounds the query's times ("in March") at another
        moment than ``clock()`` (a datetime or a callable returning one; ``UNDATED``: not
        grounded, with a warning), as every surface's ``reference``
        (:mod:`ramem_integrations.adapters_common.asked`)."""
        _check_reference(reference)
        op = SearchOp(namespace_prefix, filter, limit, offset, query)
        _check(op, self.memory.limits)
        with self._lock:
            return self._search(op, asked_at(reference, self.clock))

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
        reference: Reference = None,
    ) -> list[SearchItem]:
        """:meth:`search` without blocking the event loop."""
        return await asyncio.to_thread(
            self.search,
            namespace_prefix,
            query=query,
            filter=filter,
            limit=limit,
            offset=offset,
            reference=reference,
        )

    # -- the memories themselves, for prompts ----------------------------------------------
    def recall(
        self,
        namespace: tuple[str, ...],
        query: str,
        *,
        k: int = 5,
        reference: Reference = None,
    ) -> list[ScoredMemory]:
        """RaMem's retrieval in exactly ``namespace``: memories with their episodes, best
        first, the question grounded at ``reference`` (default ``clock()``; as
        :meth:`search`'s)."""
        _check_reference(reference)
        if not isinstance(query, str):
            raise InvalidInputError(
                f"query must be text, got {type(query).__name__}; e.g. "
                "store.recall(('memories', 'alice'), 'What did the dentist say?')."
            )
        name = ramem_namespace(namespace)
        if not query.strip() or self.memory.count(name) == 0:
            return []
        when = asked_at(reference, self.clock)
        wanted = k
        while True:
            hits = self.memory.retrieve(query, name, wanted, reference=when)
            owned = self._owned(namespace, hits)
            if len(owned) == len(hits) or len(hits) < wanted:
                return owned[:k]
            wanted += len(hits) - len(owned)

    def _owned(self, namespace: tuple[str, ...], hits: list[ScoredMemory]) -> list[ScoredMemory]:
        """``hits`` without the store's memories that no item owns (a put cut short)."""
        rows = self.items.get(namespace, {key for h in hits if (key := _key(h)) is not None})
        return [
            h
            for h in hits
            if (key := _key(h)) is None or (key in rows and rows[key].memory == h.memory.id)
        ]

    async def arecall(
        self,
        namespace: tuple[str, ...],
        query: str,
        *,
        k: int = 5,
        reference: Reference = None,
    ) -> list[ScoredMemory]:
        """:meth:`recall` without blocking the event loop."""
        return await asyncio.to_thread(self.recall, namespace, query, k=k, reference=reference)

    # -- ops -------------------------------------------------------------------------------
    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            row = self.items.get(op.namespace, [op.key]).get(op.key)
            return row.item if row else None
        if isinstance(op, SearchOp):
            return self._search(op, self.clock())
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise InvalidInputError(f"Unknown store operation {type(op).__name__}.")

    def _source(self, op: PutOp) -> tuple[str, str, str] | None:
        """What the item's memory is made of: (text, ISO time, speaker), or None for none."""
        if op.value is None or op.index is False:
            return None
        fields = self.fields if op.index is None else [(f, tokenize_path(f)) for f in op.index]
        texts = [t for _, path in fields for t in get_text_at_path(op.value, path) if t.strip()]
        if not texts:
            return None
        raw_time = op.value.get(self.time_field)
        try:
            if raw_time is None:  # absent: said now; anything else must be a time
                when = self.clock()
            elif isinstance(raw_time, str) and raw_time.strip():
                when = parse_datetime(raw_time, f"item {op.key!r}")
            else:
                raise DataFormatError(f"not an ISO 8601 string: {raw_time!r}")
        except DataFormatError as exc:
            raise InvalidTimeError(
                f"Item {op.key!r}: {self.time_field!r} must be an ISO 8601 time such as "
                f"'2024-03-12T18:00:00+00:00', got {raw_time!r}."
            ) from exc
        speaker = str(op.value.get(self.speaker_field) or self.default_speaker)
        return "\n".join(texts), when.isoformat(), speaker

    def _premade(self, ops: list[Op], sources: Mapping[int, Source]) -> dict[int, str]:
        """The memories of the batch's puts that write one, stored before any row names them
        (so unowned until then), with one embedding call: ``{op index: memory id}``. A put
        whose item is stored unchanged writes none (unless an earlier op of the batch touched
        its key)."""
        puts = {i: op for i, op in enumerate(ops) if isinstance(op, PutOp)}
        olds = self._rows((op.namespace, op.key) for op in puts.values())
        touched: set[Where] = set()
        todo: dict[int, tuple[tuple[str, ...], str, tuple[str, str, str]]] = {}
        for i, op in puts.items():
            where, source = (op.namespace, op.key), sources[i]
            if source is not None and op.value is not None:
                old = None if where in touched else olds.get(where)
                if old is None or not self._unchanged(old, op.value, source):
                    todo[i] = (op.namespace, op.key, source)
            touched.add(where)
        return dict(zip(todo, self._remember(list(todo.values())), strict=True))

    def _commit(self, run: list[tuple[PutOp, Source, str | None]]) -> None:
        """Write the rows of consecutive puts, each naming its new memory (``made`` by
        :meth:`_premade`, under an id of its own), in one write: the rows are the commit
        point. Then forget the memories the replaced rows named, and the ones no row took.

        A kill before the rows leaves unowned memories that no read returns; a kill after
        them leaves the old memories unowned. Every put's memory id is its own, so a writer
        only ever forgets a memory a row it replaced owned, never another writer's: concurrent
        puts to one key leave the last row and its memory. A key put twice in the run keeps
        the last value."""
        last: dict[Where, tuple[PutOp, Source, str | None]] = {}
        forget: list[tuple[tuple[str, ...], str]] = []
        for op, source, made in run:
            earlier = last.get((op.namespace, op.key))
            if earlier is not None and earlier[2] is not None:
                forget.append((op.namespace, earlier[2]))  # replaced before it was committed
            last[(op.namespace, op.key)] = (op, source, made)
        olds = self._rows(last)
        lost = {  # changed since the batch began (another writer): their memories now
            where: source
            for where, (op, source, made) in last.items()
            if source is not None
            and made is None
            and op.value is not None
            and not self._same(olds.get(where), op.value, source)
        }
        remade = dict(
            zip(lost, self._remember([(*w, source) for w, source in lost.items()]), strict=True)
        )
        rows, deleted = [], []
        for where, (op, source, made) in last.items():
            old = olds.get(where)
            if op.value is None:
                deleted.append(where)
            elif self._same(old, op.value, source):
                if made is not None:  # stored unchanged by an earlier op of the batch after all
                    forget.append((op.namespace, made))
                continue
            else:
                now = self.clock()
                item = Item(
                    value=dict(op.value),
                    key=op.key,
                    namespace=op.namespace,
                    created_at=old.item.created_at if old else now,
                    updated_at=now,
                )
                memory = made or remade.get(where)
                rows.append(Row(item, source, memory, old.order if old else time.time_ns()))
            if old is not None and old.memory is not None:
                forget.append((op.namespace, old.memory))
        self.items.upsert(rows)
        self.items.delete(deleted)
        by_namespace: dict[tuple[str, ...], list[str]] = {}
        for namespace, memory in forget:
            by_namespace.setdefault(namespace, []).append(memory)
        for namespace, memories in by_namespace.items():
            self.memory.forget(ramem_namespace(namespace), ids=memories)

    def _rows(self, wheres: Iterable[Where]) -> dict[Where, Row]:
        """The stored rows of these items, read one namespace at a time."""
        keys: dict[tuple[str, ...], list[str]] = {}
        for namespace, key in dict.fromkeys(wheres):
            keys.setdefault(namespace, []).append(key)
        return {
            (namespace, key): row
            for namespace, wanted in keys.items()
            for key, row in self.items.get(namespace, wanted).items()
        }

    def _same(self, old: Row | None, value: Mapping[str, Any], source: Source) -> bool:
        return old is not None and self._unchanged(old, value, source)

    def _unchanged(
        self, old: Row, value: Mapping[str, Any], source: tuple[str, str, str] | None
    ) -> bool:
        """Whether ``old`` already holds ``value`` and its memory (then a put writes nothing:
        re-putting a value repairs a missing memory and is otherwise free)."""
        if old.item.value != value or old.source != source:
            return False
        name = ramem_namespace(old.item.namespace)
        return old.memory is None or bool(self.memory.store.ids(name, ids=[old.memory]))

    def _remember(
        self, puts: Sequence[tuple[tuple[str, ...], str, tuple[str, str, str]]]
    ) -> list[str]:
        """Store a memory of each ``(namespace, key, source)``, each under an id no other put
        uses, their texts embedded in one call; return their ids."""
        units: list[MemoryUnit] = []
        for namespace, key, (text, when, speaker) in puts:
            moment = datetime.fromisoformat(when)
            turn = {"id": f"item:{uuid.uuid4().hex}", "speaker": speaker, "text": text}
            (unit,) = self.memory.anchor_turns(
                [{**turn, "time": moment}],
                ramem_namespace(namespace),
                session_time=moment,
                session_id=key,
                conversation_id=CONVERSATION_PREFIX + key,
            )
            units.append(unit)
        if units:
            self.memory.add_memories(units, embedded=memory_embeddings(self.memory.embedder, units))
        return [unit.id for unit in units]

    def _search(self, op: SearchOp, reference: datetime | None) -> list[SearchItem]:
        """The items of ``op``, ranked by RaMem for its query grounded at ``reference``
        (None: undated)."""
        rows = _in_put_order(self.items.under(op.namespace_prefix))
        rows = [r for r in rows if passes(r.item, op.filter)]
        if not op.query:
            return [_search_item(r.item) for r in rows[op.offset : op.offset + op.limit]]
        ranked = self._ranked(op, rows, reference)
        found = {(item.namespace, item.key) for item in ranked}
        scoreless = [
            _search_item(r.item) for r in rows if (r.item.namespace, r.item.key) not in found
        ]
        return [*ranked, *scoreless][op.offset : op.offset + op.limit]

    def _ranked(
        self, op: SearchOp, rows: list[Row], reference: datetime | None
    ) -> list[SearchItem]:
        """The items whose memories RaMem retrieves for the query grounded at ``reference``,
        best first: only the memories of ``rows`` (those the filter kept) are ranked."""
        by_namespace: dict[tuple[str, ...], dict[str, Row]] = {}
        for row in rows:
            if row.source is not None:
                by_namespace.setdefault(row.item.namespace, {})[row.item.key] = row
        scored: list[tuple[ScoredMemory, Row]] = []
        for namespace, own in by_namespace.items():
            mine = {row.memory: row for row in own.values() if row.memory is not None}
            if not mine:
                continue
            hits = self.memory.retrieve(
                str(op.query),
                ramem_namespace(namespace),
                min(len(mine), op.offset + op.limit),
                reference=reference,
                missing_ok=True,
                within=mine,  # the items the filter kept, and no memory that no item owns
            )
            scored += [(hit, mine[hit.memory.id]) for hit in hits]
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


def _check(op: Op, limits: Limits) -> None:
    """Refuse a bad op before any op of its batch runs (what LangGraph's stores refuse, and
    labels, keys and values the store cannot represent or that are over ``limits``)."""
    if isinstance(op, GetOp | PutOp):
        check_namespace(op.namespace, limits=limits)
        check_key(op.key, limits)
        if isinstance(op, PutOp) and op.value is not None:
            check_value(op.key, op.value, limits)
    elif isinstance(op, SearchOp):
        check_namespace(op.namespace_prefix, empty_ok=True, limits=limits)
        check_filter(op.filter)
        check_page(op.limit, op.offset)
        if op.query is not None and not isinstance(op.query, str):
            raise InvalidInputError(f"query must be text, got {type(op.query).__name__}.")
    elif isinstance(op, ListNamespacesOp):
        for condition in op.match_conditions or ():
            check_namespace(condition.path, empty_ok=True, limits=limits)
        check_page(op.limit, op.offset)


def _key(hit: ScoredMemory) -> str | None:
    """The item key of a memory the store wrote, else None."""
    conversation = hit.memory.conversation_id
    return (
        conversation.removeprefix(CONVERSATION_PREFIX)
        if conversation.startswith(CONVERSATION_PREFIX)
        else None
    )


def _in_put_order(rows: list[Row]) -> list[Row]:
    """Items grouped by namespace, namespaces and items in the order first put (as LangGraph's
    InMemoryStore lists them)."""
    rows = sorted(rows, key=lambda r: r.order)
    first: dict[tuple[str, ...], int] = {}
    for row in rows:
        first.setdefault(row.item.namespace, row.order)
    return sorted(rows, key=lambda r: (first[r.item.namespace], r.order))


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


def _check_reference(reference: Reference) -> None:
    if reference is None or isinstance(reference, Undated) or callable(reference):
        return
    if not isinstance(reference, datetime) or reference.utcoffset() is None:
        raise InvalidTimeError(
            f"reference must be a timezone-aware datetime, a callable returning one or "
            f"UNDATED, got {reference!r}; e.g. datetime(2024, 9, 2, tzinfo=timezone.utc)."
        )
