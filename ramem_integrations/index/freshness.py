"""Reads see every write: the namespace cache brought up to the store's write marks before a
read, and what a namespace knows, kept with the cache it is read from.

The read path needs this and no writer: :class:`Freshness` reads the store's write marks
(:meth:`~ramem_integrations.stores.protocol.MemoryStore.written`, one small read) and reloads a
namespace only when another object or process has written there since it was loaded.
"""

from __future__ import annotations

from ramem_integrations.core.frames import KnownContext
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.errors import UnknownNamespaceError
from ramem_integrations.index.namespaces import NamespaceCache
from ramem_integrations.stores.protocol import MemoryStore


class Freshness:
    """Keeps a namespace cache current with a store, and what each namespace knows."""

    def __init__(
        self, store: MemoryStore, cache: NamespaceCache, lexicon: Lexicon = ENGLISH
    ) -> None:
        self.store, self.cache, self.lexicon = store, cache, lexicon
        self._known: dict[str, tuple[int, KnownContext]] = {}

    def sync(self, namespace: str, *, missing_ok: bool = False) -> bool:
        """Bring the namespace's cache up to every write committed so far, by anyone.

        One small read of the store's write marks; the cache is reloaded only when another
        object or process has written since it was loaded. Returns whether the namespace was
        ever written; if not, raises :class:`UnknownNamespaceError` unless ``missing_ok``.
        """
        others = self.cache.refresh(namespace)
        if others or self.store.own_mark(namespace) or self.cache.loaded(namespace):
            return True
        if self.store.has_memories(namespace):
            return True
        if missing_ok:
            return False
        raise unknown_namespace(namespace)

    def known(self, namespace: str) -> KnownContext:
        """What the namespace knows: its people, places, entities and date range (kept until
        the cached namespace changes; call :meth:`sync` first for other writers' writes)."""
        version = self.cache.version(namespace)
        cached = self._known.get(namespace)
        if cached is None or cached[0] != version:
            units = list(self.cache.memories(namespace).values())
            cached = self._known[namespace] = (
                version,
                KnownContext.from_memories(units, self.lexicon),
            )
        return cached[1]


def unknown_namespace(namespace: str) -> UnknownNamespaceError:
    """The error for a read of a namespace never written. It names no other namespace: their
    names are other users' data (an administrator lists them with ``RaMem.namespaces()``)."""
    return UnknownNamespaceError(
        f"No memories were ever written to namespace {namespace!r} in this store. Check the "
        "name and the store; pass missing_ok=True to read a namespace that may be new as empty."
    )
