"""Reads that never see a write of this process half done.

Chroma's embedded client can return a record torn by a concurrent delete or upsert in another
thread (a memory without its list metadata). :class:`GuardedCollection` wraps a collection so that
its writes exclude its reads, while reads still run side by side. The lock is shared by every
wrapper of one collection in the process (two ``RaMem`` objects on one path included). Other
processes go through a Chroma server, whose reads are consistent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["GuardedCollection", "ReadWriteLock"]

#: Collection methods that change it; every other method is a read.
WRITES = frozenset({"add", "upsert", "update", "delete", "modify"})


class ReadWriteLock:
    """Many readers or one writer; a waiting writer goes before new readers."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False
        self._waiting_writers = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._writing or self._waiting_writers:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._waiting_writers += 1
            while self._writing or self._readers:
                self._cond.wait()
            self._waiting_writers -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


_LOCKS: dict[str, ReadWriteLock] = {}
_LOCKS_GUARD = threading.Lock()


def lock_for(key: str) -> ReadWriteLock:
    """The process's one lock for the collection ``key``."""
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, ReadWriteLock())


class GuardedCollection:
    """A Chroma collection whose :data:`WRITES` exclude its reads in this process."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection
        self._lock = lock_for(str(collection.id))

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._collection, name)
        if not callable(attr):
            return attr
        guard = self._lock.writing if name in WRITES else self._lock.reading
        return _guarded(attr, guard)


def _guarded(method: Callable[..., Any], guard: Callable[[], Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        with guard():
            return method(*args, **kwargs)

    return call
