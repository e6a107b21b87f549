"""The store's layout in Chroma (format version 3): a collection per namespace.

A store named ``N`` (``collection=`` of :meth:`RaMem.from_path`, ``ramem_memories`` by default)
is these Chroma collections:

- ``N.<readable>.<digest>``, one per namespace: its memories, searched without any namespace
  filter, so a query's cost depends on its own namespace only. The name is a readable part of
  the namespace and a digest of the store name and the namespace (Chroma allows 3-512
  characters from ``[a-zA-Z0-9._-]``); the collection's metadata holds both names, which is
  how :meth:`~ramem_integrations.stores.chroma.ChromaEpisodicStore.namespaces` finds them.
- ``N.writes``: the write marks, one record per namespace (id :func:`marks_id`) whose
  metadata holds each writer's count of finished writes under its own key, and, while a write
  of that writer is under way, a *pending* key with the (epoch) second it began (Chroma merges
  the keys of an upsert into the record, so writers never overwrite each other's), read by id;
  and in the collection's metadata the format version.

An id names a memory within its namespace's collection: the same id in two namespaces is two
memories. (Stores written by earlier versions also hold ``N.ids``, a registry that moved an
id written into another namespace out of the first; it is no longer read, and left as is.)

Format version 1 kept every namespace in the one collection ``N``, filtered on each read.
``ramem upgrade`` copies such a store into this layout (see :mod:`.upgrade`). Format version 2
kept a mark record per namespace and writer, found by a namespace filter; opening such a store
drops those records (they only tell caches of writes since) and marks it format 3.
"""

from __future__ import annotations

import hashlib
import re

from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.errors import StoreError, StoreFormatError

#: The layout this version of the package reads and writes.
FORMAT_VERSION = 3
#: Metadata keys: on the marks collection (the version), on each namespace collection.
FORMAT_KEY, STORE_KEY, NAMESPACE_KEY = "ramem_format", "ramem_store", "ramem_namespace"
MARKS_SUFFIX = ".writes"
#: On a LangGraph ``RaMemStore``'s items collection: the name of the store its RaMem reads.
#: Item rows carry ``ITEM_FIELD`` in their metadata, which no memory does (older items
#: collections have no marker; their rows tell them apart).
ITEMS_KEY, ITEM_FIELD = "ramem_langgraph_items", "prefixes"
#: A namespace's marks record: ids start with this; each writer's key with ``WRITER_PREFIX``;
#: a writer's write under way with ``PENDING_PREFIX`` (its key: this prefix and its id).
MARKS_PREFIX, WRITER_PREFIX, PENDING_PREFIX = "ns.", "w_", "p_"
#: Seconds after which a pending mark is taken for one a dead writer left: the next writer to
#: finish a write clears it. One write call of one batch takes seconds; readers distrust
#: their cache while any pending mark stands, however old, so this bounds only their cost.
PENDING_EXPIRY = 600
#: A namespace's marks record holds at most this many writers' keys (Chroma Cloud allows 32
#: metadata keys a record): a writer that finds it full clears the others' keys in the same
#: upsert that bumps its own, so the record still changes on every write.
MAX_WRITERS = 16
MAX_NAME = 512  # Chroma's limit on a collection name
_DIGEST = 16
_READABLE = 40
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_STORE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,398}[A-Za-z0-9]")


def check_store_name(name: object) -> str:
    """Return ``name`` if it can prefix the store's collections, else raise StoreError."""
    if not isinstance(name, str) or not _STORE_NAME.fullmatch(name) or ".." in name:
        raise StoreError(
            f"{name!r} cannot name a store: store names (collection=) take 3-400 letters, "
            "digits, '.', '_' or '-', start and end with a letter or digit, and have no '..'."
        )
    return name


def collection_name(store: str, namespace: str) -> str:
    """The Chroma collection of ``namespace`` in the store named ``store`` (a namespace that
    is not one raises :class:`~ramem_integrations.errors.NamespaceError`: every read or write
    of a store names its collection here or its write marks in :func:`marks_id`)."""
    check_namespace(namespace)
    digest = hashlib.sha256(f"{store}\x1f{namespace}".encode()).hexdigest()[:_DIGEST]
    room = MAX_NAME - len(store) - len(digest) - 2
    readable = _UNSAFE.sub("_", namespace)[: min(_READABLE, max(room, 0))]
    return f"{store}.{readable}.{digest}" if readable else f"{store}.{digest}"


def marks_id(namespace: str) -> str:
    """The id of the record holding the write marks of ``namespace`` (checked)."""
    return MARKS_PREFIX + hashlib.sha256(check_namespace(namespace).encode()).hexdigest()[:32]


def namespace_metadata(store: str, namespace: str) -> dict[str, str]:
    """The metadata a namespace's collection carries: which store and namespace it holds."""
    return {STORE_KEY: store, NAMESPACE_KEY: namespace}


def upgrade_command(store: str, where: str | None = None) -> str:
    """The ``ramem upgrade`` command for a store at path ``where`` (None: a Chroma server)."""
    target = f"--store {where}" if where else "--server HOST:PORT"
    named = "" if store == "ramem_memories" else f" --collection {store}"
    return f"ramem upgrade {target}{named}"


def old_layout(store: str, where: str | None, count: int) -> StoreFormatError:
    """The error for a store in format version 1 (``where``: its path, if embedded)."""
    fix = upgrade_command(store, where)
    if where is None:
        fix = f"{upgrade_command(store, 'PATH')} (an embedded store) or {fix} (a Chroma server)"
    return StoreFormatError(
        f"The store {where or store!r} is in format version 1: its {count} memories are in one "
        f"Chroma collection {store!r} for every namespace. This version keeps a collection per "
        f"namespace (format {FORMAT_VERSION}), so a query pays for its own namespace only. "
        f"Upgrade it once with: {fix}. Nothing is re-embedded or lost."
    )


def newer_layout(store: str, version: object) -> StoreFormatError:
    return StoreFormatError(
        f"The store {store!r} is in format version {version}, newer than this version of "
        f"ramem-integrations reads ({FORMAT_VERSION}). Upgrade the package: "
        "pip install -U ramem-integrations."
    )


def items_collection(name: str, owner: object) -> StoreError:
    """The error for opening or upgrading a LangGraph items collection as a store of memories."""
    store = f" of the store {owner!r}" if isinstance(owner, str) else ""
    return StoreError(
        f"The Chroma collection {name!r} holds the items of a LangGraph RaMemStore{store}, "
        "not memories: it is no store to open or upgrade, and nothing was changed. Open the "
        "store it belongs to (RaMem.from_path(PATH) with its collection=, then "
        "RaMemStore(mem)); its items come with it."
    )
