"""The LangGraph items of a :class:`~ramem_integrations.langgraph.RaMemStore`, beside its memories.

A LangGraph item is a namespace tuple, a key, a JSON value and two timestamps. RaMem keeps the
memory text; the items live in a second Chroma collection on the same client (no vectors: it is
read by id and by namespace only), so ``get``, ``list_namespaces`` and filtered listing answer
exactly what was put.

Namespace mapping: the tuple ``("memories", "alice")`` is the RaMem namespace
``"memories.alice"``, and an item's row id is a digest of its labels and key joined by
``\x1f``/``\x1e``. Both are applied through :func:`~.checks.check_namespace`, which refuses the
characters that join them, so both are injective and reversible.

An item row is the commit point of a put: it names the one memory it owns (``memory``), a
memory id made afresh by every put that writes one. A memory of the store's conversations that
no row owns (a put killed before its row was written) is never returned by a read. Rows written
before rows named their memory own the memory the old put made (:func:`legacy_memory_id`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import Item, MatchCondition

from ramem_integrations.core.anchoring import memory_id
from ramem_integrations.langgraph.checks import check_key, check_namespace
from ramem_integrations.stores.guard import GuardedCollection

#: The separator of namespace labels in a RaMem namespace (refused inside labels).
SEPARATOR = "."
#: The conversation id of an item's memory in RaMem: this prefix and the item's key.
CONVERSATION_PREFIX = "langgraph:"
_PAGE = 2000


def ramem_namespace(namespace: Sequence[str]) -> str:
    """The RaMem namespace of a LangGraph namespace tuple: its labels joined by periods."""
    return SEPARATOR.join(check_namespace(namespace))


def store_namespace(name: str) -> tuple[str, ...]:
    """The LangGraph namespace tuple of a RaMem namespace (inverse of :func:`ramem_namespace`)."""
    return tuple(name.split(SEPARATOR))


def prefixes(namespace: Sequence[str]) -> list[str]:
    """The RaMem names of every prefix of ``namespace``, itself included."""
    return [ramem_namespace(namespace[:n]) for n in range(1, len(namespace) + 1)]


def item_id(namespace: Sequence[str], key: str) -> str:
    """The row id of an item: a digest of its namespace and key."""
    raw = "\x1f".join([*check_namespace(namespace), "\x1e", check_key(key)])
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()


def legacy_memory_id(namespace: Sequence[str], key: str) -> str:
    """The id of the memory a put made before rows named their memory (one per key)."""
    return memory_id(ramem_namespace(namespace), CONVERSATION_PREFIX + key, ["item"])


@dataclass(frozen=True)
class Row:
    """One stored item, what its memory was made from (``source``; ``None``: no memory), the
    id of the memory it owns, and when it was first put (``order``: nanoseconds of the wall
    clock, which only orders listings; the item's own times come from the store's clock)."""

    item: Item
    source: tuple[str, str, str] | None  # (text, time ISO, speaker)
    memory: str | None = None
    order: int = 0


class ItemTable:
    """LangGraph items in a Chroma collection, keyed by :func:`item_id`; the collection comes
    from the store (:func:`~.layout.open_items`), guarded as its memories are."""

    def __init__(self, collection: GuardedCollection) -> None:
        self.collection = collection

    def get(self, namespace: Sequence[str], keys: Iterable[str]) -> dict[str, Row]:
        ids = [item_id(namespace, key) for key in keys]
        got = self.collection.get(ids=ids, include=["documents", "metadatas"]) if ids else None
        return {row.item.key: row for row in _rows(got)}

    def upsert(self, rows: Sequence[Row]) -> None:
        """Write rows, in one write."""
        if not rows:
            return
        self.collection.upsert(
            ids=[item_id(row.item.namespace, row.item.key) for row in rows],
            documents=[json.dumps(row.item.value, ensure_ascii=False) for row in rows],
            metadatas=[_metadata(row) for row in rows],
            embeddings=[[1.0]] * len(rows),
        )

    def delete(self, items: Sequence[tuple[Sequence[str], str]]) -> None:
        """Delete the rows of ``(namespace, key)`` items, in one write."""
        if items:
            self.collection.delete(ids=[item_id(namespace, key) for namespace, key in items])

    def under(self, prefix: Sequence[str]) -> list[Row]:
        """Every item whose namespace starts with ``prefix`` (read by that prefix alone)."""
        return self._scan({"prefixes": {"$contains": ramem_namespace(prefix)}} if prefix else None)

    def namespaces(self) -> list[tuple[str, ...]]:
        """Every namespace holding at least one item."""
        names = {str(m["namespace"]) for m in self._metadatas()}
        return sorted(store_namespace(n) for n in names)

    def _metadatas(self) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        offset = 0
        while True:
            got = self.collection.get(include=["metadatas"], limit=_PAGE, offset=offset)
            out.extend(got["metadatas"] or [])
            if len(got["ids"]) < _PAGE:
                return out
            offset += _PAGE

    def _scan(self, where: dict[str, Any] | None) -> list[Row]:
        rows: list[Row] = []
        offset = 0
        while True:
            got = self.collection.get(
                where=where, include=["documents", "metadatas"], limit=_PAGE, offset=offset
            )
            rows.extend(_rows(got))
            if len(got["ids"]) < _PAGE:
                return rows
            offset += _PAGE


def _metadata(row: Row) -> dict[str, Any]:
    item = row.item
    meta: dict[str, Any] = {
        "namespace": ramem_namespace(item.namespace),
        "prefixes": prefixes(item.namespace),
        "key": item.key,
        "created_at": item.created_at.isoformat(),
        "updated_at": item.updated_at.isoformat(),
        "order": row.order,
    }
    if row.source is not None:
        meta["text"], meta["time"], meta["speaker"] = row.source
    if row.memory is not None:
        meta["memory"] = row.memory
    return meta


def _rows(got: Mapping[str, Any] | None) -> list[Row]:
    if not got:
        return []
    rows = []
    for document, meta in zip(got["documents"], got["metadatas"], strict=True):
        item = Item(
            value=json.loads(document),
            key=str(meta["key"]),
            namespace=store_namespace(str(meta["namespace"])),
            created_at=datetime.fromisoformat(str(meta["created_at"])),
            updated_at=datetime.fromisoformat(str(meta["updated_at"])),
        )
        source, memory = None, None
        if "text" in meta:
            source = (str(meta["text"]), str(meta["time"]), str(meta["speaker"]))
            memory = str(meta.get("memory") or legacy_memory_id(item.namespace, item.key))
        order = int(meta.get("order") or item.created_at.timestamp() * 1e9)  # older rows: none
        rows.append(Row(item, source, memory, order))
    return rows


# -- LangGraph's matching rules: namespaces and value filters ------------------------------


def matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether ``namespace`` meets a prefix or suffix condition (``"*"`` matches any label)."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    own = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(p in ("*", n) for p, n in zip(path, own, strict=True)) if path else True


def _ordered(compare: Callable[[float, float], bool]) -> Callable[[Any, Any], bool]:
    """An ordering operator: a stored value that is not a number never matches."""

    def test(value: Any, wanted: Any) -> bool:
        try:
            return compare(float(value), float(wanted))
        except (TypeError, ValueError):
            return False

    return test


#: Filter operators, as LangGraph's stores read them (arguments checked by checks.check_filter).
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda value, wanted: value == wanted,
    "$ne": lambda value, wanted: value != wanted,
    "$gt": _ordered(lambda a, b: a > b),
    "$gte": _ordered(lambda a, b: a >= b),
    "$lt": _ordered(lambda a, b: a < b),
    "$lte": _ordered(lambda a, b: a <= b),
}


def meets(value: Any, wanted: Any) -> bool:
    """Whether a stored value meets a filter value (exact match, nested, or operators)."""
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operate(value, op, arg) for op, arg in wanted.items())
        return isinstance(value, Mapping) and all(meets(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(meets(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def _operate(value: Any, operator: str, argument: Any) -> bool:
    return bool(COMPARE[operator](value, argument))


def passes(item: Item, filter: Mapping[str, Any] | None) -> bool:
    """Whether an item's value meets every key of ``filter``."""
    return not filter or all(meets(item.value.get(k), v) for k, v in filter.items())
