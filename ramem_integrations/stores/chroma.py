"""ChromaEpisodicStore: memories with their episodic metadata, a Chroma collection per namespace.

The only module that imports chromadb. Every read and write is scoped to a namespace, whose
memories live in a collection of their own (see :mod:`~ramem_integrations.stores.layout`), so a
query's cost does not grow with other namespaces. Collections are created with
``embedding_function=None``: this package embeds, Chroma never downloads a model.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from chromadb.errors import NotFoundError

from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import InvalidInputError, StoreError
from ramem_integrations.stores import layout
from ramem_integrations.stores.guard import Guarded, GuardedCollection, location
from ramem_integrations.stores.layout import (
    MARKS_SUFFIX,
    NAMESPACE_KEY,
    PENDING_PREFIX,
    STORE_KEY,
    WRITER_PREFIX,
)
from ramem_integrations.stores.process_lock import hold, hold_client
from ramem_integrations.stores.protocol import is_pending

if TYPE_CHECKING:
    from ramem_integrations.stores.protocol import MemoryStore

#: The store's name: the prefix of its collections (see :mod:`.layout`).
DEFAULT_COLLECTION = "ramem_memories"
_PAGE = 2000
#: Collections listed in one call: Chroma describes each in about 50 KB (its configuration and
#: schema), so a page of them is kept small.
_LIST_PAGE = 100
#: Turn ids asked for in one read of the memories holding them.
_TURNS_PER_READ = 200
_COSINE = {"hnsw": {"space": "cosine"}}

Where = dict[str, Any]


def _forget_inherited_clients() -> None:
    """In a forked child: Chroma shares one embedded client per path within a process, and the
    parent's hangs in the child, so a client the child opens is built anew (and then refused
    by the lock, with an error instead of a hang). Clients of a server are kept."""
    from chromadb.api.shared_system_client import SharedSystemClient

    systems = SharedSystemClient._identifier_to_system
    for key, system in list(systems.items()):
        if not system.settings.chroma_server_host:
            _inherited_systems.append(systems.pop(key))  # kept: tearing one down could hang


_inherited_systems: list[Any] = []
if hasattr(os, "register_at_fork"):  # pragma: no branch - not on Windows
    os.register_at_fork(after_in_child=_forget_inherited_clients)


def _any_of(clauses: list[Where]) -> Where:
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


def _all_of(clauses: list[Where]) -> Where | None:
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


class ChromaEpisodicStore:
    """Memory units in Chroma, a collection per namespace, read and written one namespace at a
    time: the :class:`~.protocol.MemoryStore` the package reads and writes.

    A store has a name (``collection=``, ``ramem_memories`` by default): the prefix of its
    collections, so two stores of other names on one Chroma never see each other's memories.
    Reads never create a collection: a namespace never written reads as empty. Beside the
    memories, a small collection of *write marks* records, per namespace, how many writes each
    store object has made there (:meth:`mark_written`), and which of them are under way
    (:meth:`mark_pending`). Every write marks itself pending before it touches the memories and
    finished after, so a reader holding a cache of the namespace learns of another object's or
    another process's writes with one small read by id (:meth:`written`), and of a write that
    was cut between the two (a killed process) by the pending mark it left.

    Setup:
        ``pip install ramem-integrations`` (chromadb is a core dependency).

    Instantiate:
        .. code-block:: python

            store = ChromaEpisodicStore.from_path("./memory")           # embedded
            store = ChromaEpisodicStore.from_client(chromadb.HttpClient(port=8000))

    A store in the older one-collection layout raises
    :class:`~ramem_integrations.errors.StoreFormatError` naming ``ramem upgrade``.
    """

    def __init__(
        self, client: Any, collection: str = DEFAULT_COLLECTION, *, checked: bool = True
    ) -> None:
        """``checked``: whether opening checks the store's format (only the upgrade, which
        opens an old store to convert it, passes False)."""
        hold_client(client)  # an embedded store serves one process; before anything is written
        self.client = client
        self.name = collection
        self.where = location(client)
        self._chroma = Guarded(client, self.where)  # a server's failures become StoreErrors
        opened = check_format if checked else _marks
        self.marks = GuardedCollection(opened(self._chroma, collection), self.where)
        self._batch = int(getattr(self._chroma, "get_max_batch_size", lambda: 5000)())
        self.writer_id = uuid.uuid4().hex
        #: The wall clock pending marks are stamped with (epoch seconds).
        self.clock: Callable[[], float] = time.time
        self._writes: dict[str, int] = {}
        self._under_way: dict[str, int] = {}  # this object's writes under way, by namespace
        self._marking = threading.RLock()  # its marks change one at a time
        self._collections: dict[str, GuardedCollection] = {}

    @classmethod
    def from_path(
        cls, path: str | Path, collection: str = DEFAULT_COLLECTION
    ) -> ChromaEpisodicStore:
        """An embedded store persisted under ``path``."""
        client = persistent_client(path)
        check_format(client, collection, str(path))  # the error names this path
        return cls(client, collection)

    @classmethod
    def from_client(cls, client: Any, collection: str = DEFAULT_COLLECTION) -> ChromaEpisodicStore:
        """A store over any chromadb client: ``PersistentClient``, ``HttpClient``, cloud.

        An embedded client's path is taken for this process as by :meth:`from_path`."""
        return cls(client, collection)

    # -- the layout ----------------------------------------------------------------------
    def legacy_collection(self) -> Any | None:
        """The format-1 collection of every namespace, if the store still has one."""
        return _legacy(self._chroma, self.name)

    def _collection(self, namespace: str, *, create: bool = False) -> GuardedCollection | None:
        """The namespace's collection; None if it has none and ``create`` is false."""
        name = layout.collection_name(self.name, namespace)  # checks the namespace
        found = self._collections.get(namespace)
        if found is not None:
            return found
        try:
            raw = self._chroma.get_collection(name, embedding_function=None)
        except NotFoundError:
            if not create:
                return None
            try:
                raw = self._chroma.get_or_create_collection(
                    name,
                    embedding_function=None,
                    configuration=_COSINE,
                    metadata=layout.namespace_metadata(self.name, namespace),
                )
            except Exception:  # created at the same moment by another process: read it
                raw = self._chroma.get_collection(name, embedding_function=None)
        meta = raw.metadata or {}
        if meta.get(STORE_KEY) != self.name or meta.get(NAMESPACE_KEY) != namespace:
            raise StoreError(
                f"The Chroma collection {name!r} belongs to namespace "
                f"{meta.get(NAMESPACE_KEY)!r} of store {meta.get(STORE_KEY)!r}, not to "
                f"{namespace!r} of {self.name!r}. Rename the store (collection=...)."
            )
        return self._collections.setdefault(namespace, GuardedCollection(raw, self.where))

    def beside(self, suffix: str) -> ChromaEpisodicStore:
        """The store named ``<this store's name><suffix>`` on the same client (a LangGraph
        store's memories)."""
        return ChromaEpisodicStore(self.client, self.name + suffix)

    def side_collection(self, name: str) -> GuardedCollection | None:
        """Another collection on this store's client (a LangGraph store's items), or None,
        read and written through the store's guard as its memories are: a server's failures
        are StoreErrors and, in this process, its writes exclude its reads."""
        found = find_collection(self._chroma, name)
        return None if found is None else GuardedCollection(found, self.where)

    def create_side_collection(self, name: str, metadata: Mapping[str, str]) -> GuardedCollection:
        """:meth:`side_collection` ``name``, created with ``metadata`` when it does not exist."""
        made = self._chroma.get_or_create_collection(
            name, metadata=dict(metadata), embedding_function=None
        )
        return GuardedCollection(made, self.where)

    def namespace_collection(self, namespace: str) -> tuple[str, dict[str, str]]:
        """The name and metadata of the Chroma collection that holds ``namespace``: what
        another tool (langchain-chroma) needs to write memories this store reads."""
        name = layout.collection_name(self.name, namespace)
        return name, layout.namespace_metadata(self.name, namespace)

    # -- writes -------------------------------------------------------------------------
    def upsert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> None:
        """Insert or replace memories by id; re-adding the same memory never duplicates it.

        An id names a memory of its namespace only: the same id in two namespaces is two
        memories, and a write into one never touches the other."""
        if len(memories) != len(embeddings):
            raise InvalidInputError(
                f"{len(memories)} memories but {len(embeddings)} embeddings; give one each."
            )
        vectors = np.asarray(embeddings, dtype=np.float32)
        for namespace, picked in _by_namespace(memories).items():
            units = [memories[i] for i in picked]
            self.put(
                namespace,
                [m.id for m in units],
                [m.content for m in units],
                [m.to_metadata() for m in units],
                vectors[picked],
            )

    def insert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> list[MemoryUnit]:
        """Store memories under ids not stored yet, never replacing a stored one; returns the
        stored memories that are not as given: another writer's, stored under the same id
        after the caller checked that it was free (their text, or their coordinates).

        Chroma has no compare-and-set, but its ``add`` keeps a stored record whole (text,
        metadata and vector; measured with chromadb 1.5.9, embedded and server), so of two
        writers inserting one id at once the first to reach the store keeps it, and the
        other learns it here, from one read of the ids it wrote."""
        if len(memories) != len(embeddings):
            raise InvalidInputError(
                f"{len(memories)} memories but {len(embeddings)} embeddings; give one each."
            )
        vectors = np.asarray(embeddings, dtype=np.float32)
        others: list[MemoryUnit] = []
        for namespace, picked in _by_namespace(memories).items():
            rows = {memories[i].id: i for i in picked}  # an id given twice: its last row
            units = {memory_id: memories[i] for memory_id, i in rows.items()}
            self.put(
                namespace,
                list(units),
                [m.content for m in units.values()],
                [m.to_metadata() for m in units.values()],
                vectors[list(rows.values())],
                insert=True,
            )
            others += [u for u in self.get(namespace, ids=list(units)) if u != units[u.id]]
        return others

    def put(
        self,
        namespace: str,
        ids: list[str],
        documents: list[str],
        metadatas: list[Mapping[str, Any]],
        embeddings: np.ndarray,
        *,
        insert: bool = False,
    ) -> None:
        """Write records into the namespace's collection as they are (no conversion), each
        call marked pending before and written after; ``insert`` keeps records already
        stored under those ids (Chroma's ``add``) instead of replacing them."""
        target = self._collection(namespace, create=True)
        assert target is not None
        for start in range(0, len(ids), self._batch):
            end = start + self._batch
            with self.marked(namespace):
                (target.add if insert else target.upsert)(
                    ids=ids[start:end],
                    documents=documents[start:end],
                    metadatas=list(metadatas[start:end]),
                    embeddings=embeddings[start:end],
                )

    def dimension(self, namespace: str) -> int | None:
        """The length of the namespace's stored vectors (None when it holds none)."""
        collection = self._collection(namespace)
        if collection is None:
            return None
        got = collection.get(limit=1, include=["embeddings"])
        embeddings = got["embeddings"]
        return None if embeddings is None or not len(embeddings) else len(embeddings[0])

    def set_vectors(self, namespace: str, ids: Sequence[str], embeddings: np.ndarray) -> None:
        """Replace the vectors of stored memories of ``namespace``; their texts and metadata
        stay as they are, and ids no longer stored there are skipped."""
        if len(ids) != len(embeddings):
            raise InvalidInputError(
                f"{len(ids)} ids but {len(embeddings)} embeddings; give one each."
            )
        collection = self._collection(namespace)
        if collection is None or not len(ids):
            return
        vectors = np.asarray(embeddings, dtype=np.float32)
        for start in range(0, len(ids), self._batch):
            end = start + self._batch
            with self.marked(namespace):
                collection.update(ids=list(ids[start:end]), embeddings=vectors[start:end])

    def delete(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> list[str]:
        """Delete memories of a namespace (all, by id, or by source conversation); returns ids.

        Deleting nothing still settles the namespace (:meth:`settle`): the re-run of a forget
        cut after its delete finishes what the cut one left pending."""
        doomed = self.ids(namespace, ids=ids, conversation_id=conversation_id)
        collection = self._collection(namespace)
        if collection is None or not doomed:
            self.settle(namespace)
            return []
        for start in range(0, len(doomed), self._batch):
            with self.marked(namespace):
                collection.delete(ids=doomed[start : start + self._batch])
        return doomed

    @contextmanager
    def marked(self, namespace: str) -> Iterator[None]:
        """One write call to ``namespace``: marked pending before, written after it returns.

        A call that raises or is killed leaves its pending mark: whether its change reached
        the store is unknown, so every reader distrusts its cache until the mark is cleared
        (by this object's next finished write or :meth:`settle`, or by any writer once it is
        :data:`~.layout.PENDING_EXPIRY` old). This object's pending key stays while any of its
        writes to the namespace is under way (threads may share a store)."""
        self.mark_pending(namespace)
        try:
            yield
        finally:
            with self._marking:
                self._under_way[namespace] -= 1
        self.mark_written(namespace)

    def mark_pending(self, namespace: str) -> None:
        """Record, before a write touches ``namespace``, that this object's write is under way
        (its pending key, holding the second it began)."""
        with self._marking:
            self._upsert_marks(namespace, {PENDING_PREFIX + self.writer_id: int(self.clock())})
            self._under_way[namespace] = self._under_way.get(namespace, 0) + 1

    def mark_written(self, namespace: str) -> tuple[str, int]:
        """Record one more write by this store object to ``namespace``, finished; returns its
        mark.

        Call it after the write: a reader that sees the new mark then sees the write. This
        object's count changes in the namespace's marks record (Chroma merges an upsert's
        metadata keys into the record), and in the same upsert its pending key is cleared
        (unless another of its writes is under way), pending keys older than
        :data:`~.layout.PENDING_EXPIRY` too (writers killed mid-write left them), and when the
        record holds :data:`~.layout.MAX_WRITERS` keys, the other writers' counts. Either way
        the record takes a value it never had (this object's count only grows), so no reader
        mistakes it for a state it saw before."""
        with self._marking:
            self._writes[namespace] = self._writes.get(namespace, 0) + 1
            key, count = self.own_mark(namespace) or ("", 0)
            marks = self._marks_of(namespace)
            own = PENDING_PREFIX + self.writer_id
            mine = own if not self._under_way.get(namespace) else None
            expired = self.clock() - layout.PENDING_EXPIRY
            cleared = [k for k, v in marks.items() if is_pending(k) and (k == mine or v < expired)]
            others = [k for k in marks if k.startswith(WRITER_PREFIX) and k != key]
            if len(others) + len(cleared) >= layout.MAX_WRITERS - 1:  # full: their counts too
                cleared += others
            self._upsert_marks(namespace, {key: count, **dict.fromkeys(cleared)})  # None: drop
        return key, count

    def settle(self, namespace: str) -> bool:
        """Finish what a cut write left: when the namespace's marks hold a pending key (this
        object's, or any writer's), mark a write finished, which clears this object's pending
        key and expired ones and so makes every reader reload once. Returns whether it did.
        A write that finds nothing to do calls it, so its re-run always settles."""
        if not any(is_pending(key) for key in self._marks_of(namespace)):
            return False
        self.mark_written(namespace)
        return True

    def _upsert_marks(self, namespace: str, keys: Mapping[str, Any]) -> None:
        self.marks.upsert(
            ids=[layout.marks_id(namespace)],
            embeddings=[[0.0]],  # Chroma wants a vector; marks are only ever read by id
            metadatas=[{"namespace": namespace, **keys}],
        )

    def _marks_of(self, namespace: str) -> dict[str, int]:
        """Every key of the namespace's marks record: writers' counts and pending writes."""
        page = self.marks.get(ids=[layout.marks_id(namespace)], include=["metadatas"])
        found = page["metadatas"][0] if page["ids"] else None
        return {
            key: int(value)
            for key, value in (found or {}).items()
            if key.startswith((WRITER_PREFIX, PENDING_PREFIX))
        }

    def own_mark(self, namespace: str) -> tuple[str, int] | None:
        """This object's latest mark on ``namespace`` (None before its first write there)."""
        count = self._writes.get(namespace)
        if count is None:
            return None
        return layout.WRITER_PREFIX + self.writer_id, count

    def written(self, namespace: str, *, others_only: bool = False) -> dict[str, int]:
        """The namespace's write marks (writer key -> writes, and pending key -> the second a
        write under way began): they change on every write. One read of one record, by id.

        ``others_only`` leaves out this object's own keys (its writes are known to it)."""
        marks = self._marks_of(namespace)
        if others_only:
            marks.pop(WRITER_PREFIX + self.writer_id, None)
            marks.pop(PENDING_PREFIX + self.writer_id, None)
        return marks

    @property
    def remote(self) -> bool:
        """Whether Chroma is a server this client talks to over HTTP. An embedded Chroma's
        Rust core holds the GIL while it writes, so a write there overlaps no other work of
        this process (measured in docs/performance.md); an HTTP call releases it."""
        settings = getattr(self.client, "get_settings", None)
        return callable(settings) and "fastapi" in str(settings().chroma_api_impl).lower()

    def has_memories(self, namespace: str) -> bool:
        """Whether the namespace holds at least one memory (reads one id)."""
        collection = self._collection(namespace)
        return collection is not None and bool(collection.get(limit=1, include=[])["ids"])

    # -- reads --------------------------------------------------------------------------
    def ids(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
        where: Where | None = None,
    ) -> list[str]:
        """The ids of a namespace's memories (among ``ids``; of ``conversation_id``; matching
        the Chroma where-clause ``where``)."""
        if conversation_id is not None:
            where = _all_of([c for c in (where, {"conversation_id": conversation_id}) if c])
        found: list[str] = []
        for page in self._pages(namespace, where, ids, include=[]):
            found.extend(page["ids"])
        return found

    def get(
        self, namespace: str, *, ids: Sequence[str] | None = None, where: Where | None = None
    ) -> list[MemoryUnit]:
        """The memories of a namespace (among ``ids``; matching the Chroma where-clause
        ``where``)."""
        units: list[MemoryUnit] = []
        for page in self._pages(namespace, where, ids, include=["documents", "metadatas"]):
            units.extend(_units(page["ids"], page["documents"], page["metadatas"]))
        return units

    def holding(
        self, namespace: str, conversation_ids: Sequence[str], turn_ids: Sequence[str]
    ) -> list[MemoryUnit]:
        """The memories of these conversations that hold any of these turns."""
        units: dict[str, MemoryUnit] = {}
        turns, conversations = sorted(set(turn_ids)), sorted(set(conversation_ids))
        for start in range(0, len(turns), _TURNS_PER_READ):
            held = [
                {"source_ids": {"$contains": t}} for t in turns[start : start + _TURNS_PER_READ]
            ]
            where = _all_of([{"conversation_id": {"$in": conversations}}, _any_of(held)])
            units.update((u.id, u) for u in self.get(namespace, where=where))
        return list(units.values())

    def get_with_vectors(self, namespace: str) -> tuple[list[MemoryUnit], np.ndarray]:
        """Every memory of a namespace with its stored embedding (row ``i`` is memory ``i``)."""
        units: list[MemoryUnit] = []
        rows: list[np.ndarray] = []
        for page in self._pages(
            namespace, None, None, include=["documents", "metadatas", "embeddings"]
        ):
            units.extend(_units(page["ids"], page["documents"], page["metadatas"]))
            if len(page["ids"]):
                rows.append(np.asarray(page["embeddings"], dtype=np.float32))
        matrix = np.concatenate(rows) if rows else np.zeros((0, 0), dtype=np.float32)
        return units, matrix

    def present(self, namespace: str, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` (memories of ``namespace``) are still stored. Reads ids only."""
        collection = self._collection(namespace)
        if not ids or collection is None:
            return set()
        found: set[str] = set()
        id_list = list(ids)
        for start in range(0, len(id_list), _PAGE):
            found.update(collection.get(ids=id_list[start : start + _PAGE], include=[])["ids"])
        return found

    def count(self, namespace: str) -> int:
        collection = self._collection(namespace)
        return 0 if collection is None else int(collection.count())

    def namespaces(self) -> dict[str, int]:
        """Every namespace of the store that holds memories, with its number of memories.

        Counting reads each namespace (an embedded Chroma loads its index, about 2.7 MB a
        namespace); :meth:`namespace_names` reads the names alone."""
        counts = {
            namespace: int(Guarded(found, self.where).count())
            for namespace, found in self._namespace_collections()
        }
        return {namespace: n for namespace, n in sorted(counts.items()) if n}

    def namespace_names(self) -> list[str]:
        """Every namespace ever written in the store, sorted (one whose memories were all
        forgotten included), read from the collections' metadata: no namespace is opened."""
        return sorted(namespace for namespace, _ in self._namespace_collections())

    def _namespace_collections(self) -> Iterator[tuple[str, Any]]:
        """Each namespace of this store and its collection, as Chroma lists them."""
        offset = 0
        while True:
            page = self._chroma.list_collections(limit=_LIST_PAGE, offset=offset)
            for found in page:
                meta = found.metadata or {}
                if meta.get(STORE_KEY) == self.name and NAMESPACE_KEY in meta:
                    yield str(meta[NAMESPACE_KEY]), found
            if len(page) < _LIST_PAGE:
                return
            offset += _LIST_PAGE

    def _pages(
        self, namespace: str, where: Where | None, ids: Sequence[str] | None, include: list[str]
    ) -> Iterator[Mapping[str, Any]]:
        collection = self._collection(namespace)
        if collection is None:
            return
        clause = where or None
        if ids is not None:
            id_list = list(ids)
            for start in range(0, len(id_list), _PAGE):
                yield collection.get(
                    ids=id_list[start : start + _PAGE], where=clause, include=include
                )
            return
        offset = 0
        while True:
            page = collection.get(where=clause, include=include, limit=_PAGE, offset=offset)
            yield page
            if len(page["ids"]) < _PAGE:
                return
            offset += _PAGE


def persistent_client(path: str | Path) -> Any:
    """Chroma's embedded client on ``path``, the path first taken for this process (a second
    process gets a StoreError pointing to server mode, before Chroma writes anything)."""
    import chromadb
    from chromadb.config import Settings

    hold(path)
    refuse_read_only(Path(path))
    raise_file_limit()
    try:
        return chromadb.PersistentClient(
            path=str(path), settings=Settings(anonymized_telemetry=False)
        )
    except Exception as exc:
        raise StoreError(f"Could not open a Chroma store at {path}: {exc}") from exc


def server_client(address: str) -> Any:
    """Chroma's HTTP client on the server at ``address``: ``HOST:PORT`` or a URL
    (``http://localhost:8000``, as ``chroma run`` prints it)."""
    import chromadb
    from chromadb.config import Settings

    host, port, ssl = server_address(address)
    try:
        return chromadb.HttpClient(
            host=host, port=port, ssl=ssl, settings=Settings(anonymized_telemetry=False)
        )
    except Exception as exc:
        raise StoreError(f"No Chroma server answers at {address}: {exc}. Is it running?") from exc


def server_address(address: str) -> tuple[str, int, bool]:
    """(host, port, https) of ``HOST:PORT`` or ``http(s)://HOST:PORT[/]``.

    >>> server_address("http://localhost:8765/"), server_address("127.0.0.1:8000")
    (('localhost', 8765, False), ('127.0.0.1', 8000, False))
    """
    from urllib.parse import urlsplit

    scheme, sep, _ = address.partition("://")
    parts = urlsplit(address if sep else f"http://{address}")
    try:
        port = parts.port
    except ValueError:
        port = None
    if (sep and scheme.lower() not in ("http", "https")) or not parts.hostname or port is None:
        raise StoreError(
            f"A Chroma server is named HOST:PORT or http://HOST:PORT (e.g. localhost:8000), "
            f"got {address!r}."
        )
    return parts.hostname, port, parts.scheme == "https"


def refuse_read_only(path: Path) -> None:
    """A store Chroma could not open: one on a read-only mount or with files this user cannot
    write. Chroma's embedded client writes its SQLite database when it opens it, even to read
    (measured with chromadb 1.5.9: "attempt to write a readonly database"), so it is refused
    here with the way out, before Chroma fails."""
    files = [path, *(f for f in (path / "chroma.sqlite3",) if f.exists())]
    if all(os.access(f, os.W_OK) for f in files):
        return
    raise StoreError(
        f"The store at {path} is read-only (a read-only mount, or files you cannot write). "
        "Chroma writes its database even to read it, so it cannot be opened in place. Copy it "
        f"to a writable place (cp -r {path} /tmp/ramem-store-copy) and open the copy."
    )


#: Open files an embedded store asks for. Chroma keeps (open-file limit) / 5 namespace indexes
#: open, using most of the limit; at macOS's default of 256 a store of about 100 namespaces
#: then fails with "unable to open database file".
FILE_LIMIT = 4096


def raise_file_limit(wanted: int = FILE_LIMIT) -> None:
    """Raise this process's soft open-file limit to ``wanted`` (at most the hard limit), before
    Chroma sizes its index cache from it. Never lowers it; a no-op without ``resource``."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # not allowed here: keep the limit
            return


def _marks(client: Any, name: str) -> Any:
    """The store's collection of write marks (whose metadata holds the format version)."""
    layout.check_store_name(name)
    try:
        return client.get_or_create_collection(name + MARKS_SUFFIX, embedding_function=None)
    except StoreError:  # a server that did not answer (see .guard): its message stands
        raise
    except Exception as exc:
        raise StoreError(f"Could not open the Chroma store {name!r}: {exc}.") from exc


def find_collection(client: Any, name: str) -> Any | None:
    """The Chroma collection ``name`` on ``client``, or None (never created here)."""
    try:
        return client.get_collection(name, embedding_function=None)
    except NotFoundError:
        return None


def _legacy(client: Any, name: str) -> Any | None:
    """The format-1 collection named like the store, if any; a LangGraph items collection
    of that name is refused (it is not a store: upgrading it would drop every item)."""
    found = find_collection(client, name)
    if found is None:
        return None
    if is_items(found):
        raise layout.items_collection(name, (found.metadata or {}).get(layout.ITEMS_KEY))
    return found


def is_items(collection: Any) -> bool:
    """Whether a Chroma collection holds a LangGraph RaMemStore's items (its marker, or, in
    an older one without it, rows that only items have)."""
    if layout.ITEMS_KEY in (collection.metadata or {}):
        return True
    first = collection.get(limit=1, include=["metadatas"])["metadatas"] or [{}]
    return layout.ITEM_FIELD in (first[0] or {})


def check_format(client: Any, name: str, where: str | None = None) -> Any:
    """Open the marks collection of the store ``name``, refusing another layout than
    :data:`~.layout.FORMAT_VERSION` (a new store records it); returns the marks collection.

    ``where``: the store's path, named in the error."""
    marks = _marks(client, name)
    found = dict(marks.metadata or {})
    version = found.get(layout.FORMAT_KEY)
    if isinstance(version, int) and version > layout.FORMAT_VERSION:
        raise layout.newer_layout(name, version)
    old = _legacy(client, name)
    count = int(old.count()) if old is not None else 0
    if count:
        raise layout.old_layout(name, where, count)
    if version != layout.FORMAT_VERSION:
        _drop_writer_records(marks)
        marks.modify(metadata={**found, layout.FORMAT_KEY: layout.FORMAT_VERSION})
    return marks


def _drop_writer_records(marks: Any) -> None:
    """Delete the marks records of format 2 (one per namespace and writer, found by a filter).

    They only told caches of writes since they were loaded; a process opening the store now
    has no cache older than this. Records of this format (:func:`~.layout.marks_id`) stay,
    so a second process upgrading at the same time never drops fresh marks."""
    old = [i for i in marks.get(include=[])["ids"] if not i.startswith(layout.MARKS_PREFIX)]
    for start in range(0, len(old), _PAGE):
        marks.delete(ids=old[start : start + _PAGE])


def _by_namespace(memories: Sequence[MemoryUnit]) -> dict[str, list[int]]:
    """The rows of ``memories`` by namespace (each namespace checked)."""
    rows: dict[str, list[int]] = {}
    for i, memory in enumerate(memories):
        rows.setdefault(check_namespace(memory.namespace), []).append(i)
    return rows


def _units(ids: Sequence[str], documents: Any, metadatas: Any) -> list[MemoryUnit]:
    return [
        MemoryUnit.from_metadata(i, doc, meta)
        for i, doc, meta in zip(ids, documents, metadatas, strict=True)
    ]


if TYPE_CHECKING:

    def _is_a_memory_store(store: ChromaEpisodicStore) -> MemoryStore:
        return store  # mypy checks that Chroma implements the protocol
