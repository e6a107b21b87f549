"""``ramem upgrade``: a store in format version 1 into the collection-per-namespace layout.

Format 1 kept every namespace in one Chroma collection named like the store. The upgrade reads
it page by page and writes each record, as stored (id, document, metadata and embedding: no
re-embedding, no conversion), into its namespace's collection; then it checks, namespace by
namespace, that every id is there and the counts agree, and only then drops the old
collection and records the format version. Writes are upserts by id, so an upgrade interrupted
half way and run again finishes without duplicates or loss, and a finished one run again does
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from ramem_integrations.errors import StoreError
from ramem_integrations.stores import layout
from ramem_integrations.stores.chroma import DEFAULT_COLLECTION, ChromaEpisodicStore, check_format

_PAGE = 2000


def upgrade(
    client: Any,
    collection: str = DEFAULT_COLLECTION,
    *,
    progress: Callable[[int], object] | None = None,
    total: Callable[[int], object] | None = None,
) -> dict[str, Any]:
    """Upgrade the store ``collection`` on ``client`` to :data:`~.layout.FORMAT_VERSION`.

    ``total`` is told how many memories will be copied, ``progress`` how many each step
    copied. Returns ``{"format", "upgraded", "memories", "namespaces": {namespace: count}}``.
    """
    store = ChromaEpisodicStore(client, collection, checked=False)  # the old store, unchecked
    old = store.legacy_collection()
    if old is None:
        check_format(client, collection)
        return {"format": layout.FORMAT_VERSION, "upgraded": False, "memories": 0, "namespaces": {}}
    expected = _census(old, collection)
    if total:
        total(sum(len(ids) for ids in expected.values()))
    for page in _pages(old, ["documents", "metadatas", "embeddings"]):
        by_ns: dict[str, list[int]] = {}
        for i, meta in enumerate(page["metadatas"]):
            by_ns.setdefault(str(meta["namespace"]), []).append(i)
        vectors = np.asarray(page["embeddings"], dtype=np.float32)
        for namespace, rows in by_ns.items():
            store.put(
                namespace,
                [page["ids"][i] for i in rows],
                [page["documents"][i] for i in rows],
                [page["metadatas"][i] for i in rows],
                vectors[rows],
            )
        if progress:
            progress(len(page["ids"]))
    _verify(store, expected)
    client.delete_collection(collection)
    check_format(client, collection)
    counts = {ns: len(ids) for ns, ids in sorted(expected.items())}
    return {
        "format": layout.FORMAT_VERSION,
        "upgraded": True,
        "memories": sum(counts.values()),
        "namespaces": counts,
    }


def _pages(old: Any, include: list[str]) -> Iterator[Mapping[str, Any]]:
    offset = 0
    while True:
        page = old.get(include=include, limit=_PAGE, offset=offset)
        if page["ids"]:
            yield page
        if len(page["ids"]) < _PAGE:
            return
        offset += _PAGE


def _census(old: Any, collection: str) -> dict[str, list[str]]:
    """The ids of the old collection by namespace; refuses records without a namespace."""
    by_ns: dict[str, list[str]] = {}
    orphans = 0
    for page in _pages(old, ["metadatas"]):
        for memory_id, meta in zip(page["ids"], page["metadatas"], strict=True):
            namespace = (meta or {}).get("namespace")
            if not isinstance(namespace, str) or not namespace.strip():
                orphans += 1
                continue
            by_ns.setdefault(namespace, []).append(memory_id)
    if orphans:
        raise StoreError(
            f"{orphans} records of the collection {collection!r} have no 'namespace' in their "
            "metadata, so they belong to no namespace; nothing was changed. Add one to each "
            "(collection.update(ids=..., metadatas=...)) and run the upgrade again."
        )
    return by_ns


def _verify(store: ChromaEpisodicStore, expected: Mapping[str, list[str]]) -> None:
    """Every old id is in its namespace's collection, and the counts agree."""
    for namespace, ids in expected.items():
        present = store.present(namespace, ids)
        count = store.count(namespace)
        if len(present) != len(set(ids)) or count != len(set(ids)):
            raise StoreError(
                f"Upgrade check failed for namespace {namespace!r}: {len(set(ids))} memories "
                f"in the old collection, {len(present)} of them copied, {count} in the new "
                "one. The old collection is kept; run the upgrade again."
            )
