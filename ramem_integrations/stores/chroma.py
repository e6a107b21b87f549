"""ChromaEpisodicStore: memories with their episodic metadata in one Chroma collection.

The only module that imports chromadb. Every read and write is scoped to a namespace. The
collection is created with ``embedding_function=None``: this package embeds, Chroma never
downloads a model.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.retrieval import ContextFilter
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError, NamespaceError, StoreError
from ramem_integrations.stores.guard import GuardedCollection

DEFAULT_COLLECTION = "ramem_memories"
#: The companion collection of write marks: ``<collection>.writes``.
MARKS_SUFFIX = ".writes"
_PAGE = 2000

Where = dict[str, Any]


def check_namespace(namespace: Any) -> str:
    """Return ``namespace`` if it is a usable name, else raise :class:`NamespaceError`."""
    if not isinstance(namespace, str) or not namespace.strip():
        raise NamespaceError(
            f"A namespace is required (got {namespace!r}). Name the user, agent or conversation "
            "the memories belong to, e.g. namespace='alice'. Reads never span namespaces."
        )
    return namespace


def scoped(namespace: str, where: Where | None = None) -> Where:
    """A where-clause limited to one namespace, combined with ``where`` if given."""
    own: Where = {"namespace": check_namespace(namespace)}
    if not where:
        return own
    return {"$and": [own, where]}


def _overlaps(prefix: str, span: TimeSpan) -> Where:
    start, end = span.to_epoch()
    return {"$and": [{f"{prefix}_start": {"$lt": end}}, {f"{prefix}_end": {"$gt": start}}]}


def _any_of(clauses: list[Where]) -> Where:
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


def _all_of(clauses: list[Where]) -> Where | None:
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def where_for(condition: ContextFilter | None) -> Where | None:
    """Translate a :class:`ContextFilter` into a Chroma where-clause (None when empty).

    Dates compare as epoch seconds; lists match with ``$contains`` (never equality).
    """
    if not condition:
        return None
    clauses: list[Where] = []
    if condition.time is not None:
        spans = [_overlaps("event", condition.time), _overlaps("episode_event", condition.time)]
        if condition.match_session:
            spans.insert(0, _overlaps("session", condition.time))
        clauses.append(_any_of(spans))
    entities = ("entities", "episode_entities")
    for person in condition.people:
        keys = ("participants", "episode_participants", *entities)
        clauses.append(_any_of([{key: {"$contains": person}} for key in keys]))
    if condition.places:
        clauses.append(
            _any_of(
                [
                    {"location": {"$in": list(condition.places)}},
                    *(
                        {key: {"$contains": p}}
                        for p in condition.places
                        for key in ("episode_places", *entities)
                    ),
                ]
            )
        )
    clauses.extend(
        _any_of([{key: {"$contains": e}} for key in entities]) for e in condition.entities
    )
    return _all_of(clauses)


class ChromaEpisodicStore:
    """Memory units in a Chroma collection, read and written one namespace at a time.

    Beside the memories, a small collection of *write marks* records, per namespace and per
    store object, how many writes it has made (:meth:`mark_written`). Any change to a
    namespace changes its marks (:meth:`written`), so a reader holding a cache of the
    namespace learns of another object's or another process's writes with one small read.

    Setup:
        ``pip install ramem-integrations`` (chromadb is a core dependency).

    Instantiate:
        .. code-block:: python

            store = ChromaEpisodicStore.from_path("./memory")           # embedded
            store = ChromaEpisodicStore.from_client(chromadb.HttpClient(port=8000))
    """

    def __init__(self, client: Any, collection: str = DEFAULT_COLLECTION) -> None:
        self.client = client
        try:
            self.collection = GuardedCollection(
                client.get_or_create_collection(
                    collection,
                    embedding_function=None,
                    configuration={"hnsw": {"space": "cosine"}},
                )
            )
            self.marks = client.get_or_create_collection(
                collection + MARKS_SUFFIX, embedding_function=None
            )
        except Exception as exc:
            raise StoreError(
                f"Could not open the Chroma collection {collection!r}: {exc}. Collection names "
                "take 3-500 letters, digits, '.', '_' or '-'."
            ) from exc
        self.writer_id = uuid.uuid4().hex
        self._writes: dict[str, int] = {}
        self._batch = int(getattr(client, "get_max_batch_size", lambda: 5000)())

    @classmethod
    def from_path(
        cls, path: str | Path, collection: str = DEFAULT_COLLECTION
    ) -> ChromaEpisodicStore:
        """An embedded store persisted under ``path``."""
        import chromadb
        from chromadb.config import Settings

        from ramem_integrations.stores.process_lock import hold

        hold(path)  # one process per embedded store; StoreError pointing to server mode
        try:
            client = chromadb.PersistentClient(
                path=str(path), settings=Settings(anonymized_telemetry=False)
            )
        except Exception as exc:
            raise StoreError(f"Could not open a Chroma store at {path}: {exc}") from exc
        return cls(client, collection)

    @classmethod
    def from_client(cls, client: Any, collection: str = DEFAULT_COLLECTION) -> ChromaEpisodicStore:
        """A store over any chromadb client: ``PersistentClient``, ``HttpClient``, cloud."""
        return cls(client, collection)

    # -- writes -------------------------------------------------------------------------
    def upsert(self, memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> None:
        """Insert or replace memories by id; re-adding the same memory never duplicates it."""
        if len(memories) != len(embeddings):
            raise InvalidInputError(
                f"{len(memories)} memories but {len(embeddings)} embeddings; give one each."
            )
        for start in range(0, len(memories), self._batch):
            chunk = memories[start : start + self._batch]
            self.collection.upsert(
                ids=[m.id for m in chunk],
                documents=[m.content for m in chunk],
                metadatas=[m.to_metadata() for m in chunk],
                embeddings=np.asarray(embeddings[start : start + self._batch], dtype=np.float32),
            )
        for namespace in dict.fromkeys(m.namespace for m in memories):
            self.mark_written(namespace)

    def delete(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> list[str]:
        """Delete memories of a namespace (all, by id, or by source conversation); returns ids."""
        where = {"conversation_id": conversation_id} if conversation_id is not None else None
        doomed = self.ids(namespace, where=where, ids=ids)
        for start in range(0, len(doomed), self._batch):
            self.collection.delete(ids=doomed[start : start + self._batch])
        if doomed:
            self.mark_written(namespace)
        return doomed

    def mark_written(self, namespace: str) -> tuple[str, int]:
        """Record one more write by this store object to ``namespace``; returns its mark.

        Call it after the write: a reader that sees the new mark then sees the write."""
        self._writes[namespace] = self._writes.get(namespace, 0) + 1
        key, count = self.own_mark(namespace) or ("", 0)
        self.marks.upsert(
            ids=[key],
            embeddings=[[0.0]],  # Chroma wants a vector; marks are only ever read by key
            metadatas=[{"namespace": check_namespace(namespace), "writes": count}],
        )
        return key, count

    def own_mark(self, namespace: str) -> tuple[str, int] | None:
        """This object's latest mark on ``namespace`` (None before its first write there)."""
        count = self._writes.get(namespace)
        if count is None:
            return None
        return hashlib.sha1(f"{namespace}\x1f{self.writer_id}".encode()).hexdigest(), count

    def written(self, namespace: str, *, others_only: bool = False) -> dict[str, int]:
        """The namespace's write marks (writer key -> writes): they change on every write.

        ``others_only`` leaves out this object's own mark (its writes are known to it)."""
        page = self.marks.get(
            where={"namespace": check_namespace(namespace)}, include=["metadatas"]
        )
        marks = {i: int(m["writes"]) for i, m in zip(page["ids"], page["metadatas"], strict=True)}
        own = self.own_mark(namespace)
        if others_only and own is not None:
            marks.pop(own[0], None)
        return marks

    def has_memories(self, namespace: str) -> bool:
        """Whether the namespace holds at least one memory (reads one id)."""
        page = self.collection.get(where=scoped(namespace), limit=1, include=[])
        return bool(page["ids"])

    # -- reads --------------------------------------------------------------------------
    def ids(
        self, namespace: str, *, where: Where | None = None, ids: Sequence[str] | None = None
    ) -> list[str]:
        """The ids of a namespace's memories matching ``where`` (and among ``ids``)."""
        found: list[str] = []
        for page in self._pages(namespace, where, ids, include=[]):
            found.extend(page["ids"])
        return found

    def get(
        self, namespace: str, *, where: Where | None = None, ids: Sequence[str] | None = None
    ) -> list[MemoryUnit]:
        """The memories of a namespace matching ``where`` (and among ``ids``)."""
        units: list[MemoryUnit] = []
        for page in self._pages(namespace, where, ids, include=["documents", "metadatas"]):
            units.extend(_units(page["ids"], page["documents"], page["metadatas"]))
        return units

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

    def query(
        self, namespace: str, embedding: np.ndarray, k: int, *, where: Where | None = None
    ) -> list[tuple[MemoryUnit, float]]:
        """Nearest memories by cosine similarity, as ``(memory, similarity)`` pairs."""
        if k <= 0:
            return []
        result = self.collection.query(
            query_embeddings=np.asarray(embedding, dtype=np.float32).reshape(1, -1),
            n_results=k,
            where=scoped(namespace, where),
            include=["documents", "metadatas", "distances"],
        )
        units = _units(result["ids"][0], result["documents"][0], result["metadatas"][0])
        return [(u, 1.0 - float(d)) for u, d in zip(units, result["distances"][0], strict=True)]

    def query_ids(
        self,
        namespace: str,
        embedding: np.ndarray,
        k: int,
        *,
        where: Where | None = None,
        among: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Like :meth:`query` but only ``(id, similarity)``: no documents or metadata read.

        ``among``: search only these ids, which the caller has already found to be the
        namespace's memories meeting ``where`` (Chroma filters ids much faster than it
        evaluates a long where-clause); the where-clause is then not sent.
        """
        if k <= 0 or (among is not None and not among):
            return []
        result = self.collection.query(
            query_embeddings=np.asarray(embedding, dtype=np.float32).reshape(1, -1),
            n_results=k,
            where=None if among is not None else scoped(namespace, where),
            ids=list(among) if among is not None else None,
            include=["distances"],
        )
        pairs = zip(result["ids"][0], result["distances"][0], strict=True)
        return [(i, 1.0 - float(d)) for i, d in pairs]

    def present(self, namespace: str, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` (memories of ``namespace``) are still stored. Reads ids only."""
        if not ids:
            return set()
        found: set[str] = set()
        id_list = list(ids)
        for start in range(0, len(id_list), _PAGE):
            found.update(self.collection.get(ids=id_list[start : start + _PAGE], include=[])["ids"])
        return found

    def count(self, namespace: str) -> int:
        return len(self.ids(namespace))

    def namespaces(self) -> dict[str, int]:
        """Every namespace in the collection with its number of memories."""
        counts: dict[str, int] = {}
        for page in self._all_pages(include=["metadatas"]):
            for meta in page["metadatas"]:
                ns = str(meta["namespace"])
                counts[ns] = counts.get(ns, 0) + 1
        return dict(sorted(counts.items()))

    def _pages(
        self, namespace: str, where: Where | None, ids: Sequence[str] | None, include: list[str]
    ) -> Iterator[Mapping[str, Any]]:
        clause = scoped(namespace, where)
        if ids is not None:
            id_list = list(ids)
            for start in range(0, len(id_list), _PAGE):
                yield self.collection.get(
                    ids=id_list[start : start + _PAGE], where=clause, include=include
                )
            return
        offset = 0
        while True:
            page = self.collection.get(where=clause, include=include, limit=_PAGE, offset=offset)
            yield page
            if len(page["ids"]) < _PAGE:
                return
            offset += _PAGE

    def _all_pages(self, include: list[str]) -> Iterator[Mapping[str, Any]]:
        offset = 0
        while True:
            page = self.collection.get(include=include, limit=_PAGE, offset=offset)
            yield page
            if len(page["ids"]) < _PAGE:
                return
            offset += _PAGE


def _units(ids: Sequence[str], documents: Any, metadatas: Any) -> list[MemoryUnit]:
    return [
        MemoryUnit.from_metadata(i, doc, meta)
        for i, doc, meta in zip(ids, documents, metadatas, strict=True)
    ]
