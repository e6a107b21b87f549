"""Where a :class:`~ramem_integrations.langgraph.RaMemStore` keeps its items and their memories.

The memories of a store's items live in a RaMem store of their own beside the given one:
``<store>_langgraph`` (``ramem_memories_langgraph`` by default), on the same Chroma client, read
with the given RaMem's embedder, anchorer, frame inducer, segmenter, strictness and limits as
they are when the store is made (``store.memory`` is that RaMem). So
the namespace ``("memories", "alice")`` of a LangGraph store and the namespace
``"memories.alice"`` a LangChain or LlamaIndex user names are two namespaces: no surface reads,
writes or forgets another's memories.

The items themselves live in one more collection (``<store>_langgraph_items`` by default),
marked in its metadata with the store it belongs to (:data:`~.stores.layout.ITEMS_KEY`). An
items collection of an older version (no marker) had its items' memories in the given store
itself: opening it moves them, once, into the store of their own (:func:`open_items`).
"""

from __future__ import annotations

from typing import cast

from ramem_integrations.errors import InvalidInputError, StoreError
from ramem_integrations.langgraph.items import CONVERSATION_PREFIX, ItemTable, ramem_namespace
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores import layout
from ramem_integrations.stores.chroma import ChromaEpisodicStore, is_items
from ramem_integrations.stores.guard import GuardedCollection

#: The suffixes of the store of the items' memories, and of the items collection.
MEMORIES_SUFFIX, ITEMS_SUFFIX = "_langgraph", "_langgraph_items"


def memories_beside(memory: RaMem) -> RaMem:
    """The RaMem holding a RaMemStore's memories: ``memory``'s parts over the store
    ``<store>_langgraph`` on the same client."""
    chroma = _chroma(memory)
    own = RaMem(
        chroma.beside(MEMORIES_SUFFIX),
        embedder=memory.embedder,
        anchorer=memory.anchorer,
        frame_inducer=memory.frame_inducer,
        strict=memory.reinstatement.strict,
        limits=memory.limits,
    )
    own.segmenter = memory.segmenter
    return own


def items_name(memory: RaMem, given: str | None) -> str:
    """The items collection's name: ``given``, checked, or ``<store>_langgraph_items``.

    Refused: a name of the store's own collections or of its memories' store, a store's
    name (``NAME.writes`` exists), and an existing collection that holds anything but items."""
    chroma = _chroma(memory)
    if given is None:
        return chroma.name + ITEMS_SUFFIX
    try:
        name = layout.check_store_name(given)
    except StoreError as exc:
        raise InvalidInputError(f"items_collection: {exc}") from exc
    ours = (chroma.name, chroma.name + MEMORIES_SUFFIX)
    clash = any(name == store or name.startswith(store + ".") for store in ours)
    if clash or name.endswith(layout.MARKS_SUFFIX) or _exists(chroma, name + layout.MARKS_SUFFIX):
        raise _not_items(name, "a RaMem store's own name or one of its collections")
    found = _find(chroma, name)
    if found is not None and not is_items(found) and found.count():
        raise _not_items(name, "an existing collection that does not hold LangGraph items")
    owner = (found.metadata or {}).get(layout.ITEMS_KEY) if found is not None else None
    if owner not in (None, chroma.name):
        raise _not_items(name, f"the items collection of the store {owner!r}")
    return name


def open_items(memory: RaMem, own: RaMem, name: str) -> ItemTable:
    """The items collection ``name`` of ``memory``'s store, opened through the store
    (:meth:`~.stores.chroma.ChromaEpisodicStore.side_collection`); an older one's memories (in
    ``memory`` itself) are moved into ``own`` first, then it is marked."""
    chroma = _chroma(memory)
    found = _find(chroma, name)
    if found is None:
        marker = {layout.ITEMS_KEY: chroma.name}
        return ItemTable(chroma.create_side_collection(name, marker))
    items = ItemTable(found)
    if layout.ITEMS_KEY not in (found.metadata or {}):
        for namespace in items.namespaces():
            _move(memory, own, ramem_namespace(namespace))
        found.modify(metadata={**(found.metadata or {}), layout.ITEMS_KEY: chroma.name})
    return items


def _move(old: RaMem, own: RaMem, namespace: str) -> None:
    """The store's memories of ``namespace`` from ``old`` into ``own``: written there first,
    then forgotten here (a move cut short is finished by the next open)."""
    units, vectors = old.store.get_with_vectors(namespace)
    rows = [i for i, u in enumerate(units) if u.conversation_id.startswith(CONVERSATION_PREFIX)]
    if rows:
        own.store.upsert([units[i] for i in rows], vectors[rows])
        old.forget(namespace, ids=[units[i].id for i in rows])


def _chroma(memory: RaMem) -> ChromaEpisodicStore:
    """The Chroma store under ``memory`` (RaMemStore checked it is one)."""
    return cast(ChromaEpisodicStore, memory.store)


def _find(chroma: ChromaEpisodicStore, name: str) -> GuardedCollection | None:
    """The collection ``name``, or None; a server that is down raises a StoreError."""
    return chroma.side_collection(name)


def _exists(chroma: ChromaEpisodicStore, name: str) -> bool:
    return _find(chroma, name) is not None


def _not_items(name: str, what: str) -> InvalidInputError:
    return InvalidInputError(
        f"items_collection={name!r} is {what}; writing items there would make memories "
        "unreadable. Give a name of its own (the default, '<store>_langgraph_items', is one)."
    )
