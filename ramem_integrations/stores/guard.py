"""Every call the store makes to Chroma goes through here: reads that never see a write of this
process half done, and a server's failures as :class:`~ramem_integrations.errors.StoreError`.

Chroma's embedded client can return a record torn by a concurrent delete or upsert in another
thread (a memory without its list metadata). :class:`GuardedCollection` wraps a collection so that
its writes exclude its reads, while reads still run side by side. The lock is shared by every
wrapper of one collection in the process (two ``RaMem`` objects on one path included). Other
processes go through a Chroma server, whose reads are consistent.

A Chroma server that is down, or dies during a call, makes its HTTP client raise ``httpx``
errors; :class:`Guarded` (the client) and :class:`GuardedCollection` turn them into a
``StoreError`` naming the server and what to do.

An embedded client used in a process forked after it was opened would hang inside Chroma; its
calls raise :class:`~ramem_integrations.errors.StoreBusyError` there instead.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from ramem_integrations.errors import StoreError
from ramem_integrations.stores.process_lock import forked_error

__all__ = ["Guarded", "GuardedCollection", "ReadWriteLock", "location"]

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


def location(client: Any) -> str:
    """Where a chromadb client's store is, for messages: a server's URL or a path."""
    settings = client.get_settings() if hasattr(client, "get_settings") else None
    if settings is None:
        return ""
    if settings.chroma_server_host:
        scheme = "https" if settings.chroma_server_ssl_enabled else "http"
        return f"{scheme}://{settings.chroma_server_host}:{settings.chroma_server_http_port}"
    return str(settings.persist_directory) if settings.is_persistent else "memory"


@contextmanager
def _server_errors(where: str) -> Iterator[None]:
    """Turn a Chroma server's transport failure into a :class:`StoreError`."""
    try:
        yield
    except httpx.TransportError as exc:
        at = f" at {where}" if where else ""
        raise StoreError(
            f"The Chroma server{at} did not answer ({type(exc).__name__}: {exc}). "
            "Start it (chroma run --path DIR --host HOST --port PORT) or check its address. "
            "If a write was under way, an unknown part of it may be stored: once the server "
            "answers, run the same call again; writes go by id, so it completes the write, "
            "never duplicates a memory, and tells every reader of the namespace to reload."
        ) from exc


class Guarded:
    """Any Chroma object (a client) whose methods raise :class:`StoreError` when the
    server at ``where`` fails."""

    def __init__(self, target: Any, where: str) -> None:
        self._target, self._where = target, where
        self._pid = os.getpid()  # an embedded client works in this process only
        self._embedded = bool(where) and not where.startswith(("http://", "https://"))

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr
        return _guarded(attr, self._guard)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        if self._embedded and os.getpid() != self._pid:
            raise forked_error(self._where, self._pid, self._where)
        with _server_errors(self._where):
            yield


class GuardedCollection(Guarded):
    """A Chroma collection whose :data:`WRITES` exclude its reads in this process, and whose
    server's failures are :class:`StoreError`."""

    def __init__(self, collection: Any, where: str = "") -> None:
        super().__init__(collection, where)
        self._lock = lock_for(str(collection.id))

    def __getattr__(self, name: str) -> Any:
        attr = super().__getattr__(name)
        if not callable(attr):
            return attr
        return _guarded(attr, self._lock.writing if name in WRITES else self._lock.reading)


def _guarded(method: Callable[..., Any], guard: Callable[[], Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        with guard():
            return method(*args, **kwargs)

    return call
