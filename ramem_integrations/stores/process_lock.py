"""One process per embedded store: an advisory lock that refuses a second process.

Chroma's embedded mode (``PersistentClient``) is not process-safe. Measured with chromadb 1.5.9:
two processes writing one store path both succeed without an error, and the vector (HNSW)
index on disk silently loses what one of them wrote (6,050 records in SQLite, 5,700 reachable by
a query after a restart). Chroma's answer to several processes is its server
(``chroma run``, ``HttpClient``). So :func:`hold` takes an exclusive ``flock`` on the store
directory itself for the life of the process, and a second process opening the same store
gets a :class:`~ramem_integrations.errors.StoreBusyError` that says to run a server. Every way of
opening a path takes it: ``from_path``, the CLI, and a ``PersistentClient`` handed to
``from_client`` (:func:`hold_client`).

The lock is on the directory, not on a file in it, so deleting a file cannot defeat it; the
file ``.ramem.lock`` only names the holder's pid for the error (and is skipped on a read-only
mount). The lock belongs to the process: opening the same path again in the same process is
allowed (Chroma shares one client per path within a process), and the operating system
releases it when the process ends, however it ends (``SIGKILL`` included), so a crash never
leaves a stale lock. On systems without ``fcntl`` (Windows) no lock is taken.

A process forked after its parent opened a store shares the parent's lock but not Chroma's
working state: Chroma's embedded client hangs in the child, on any path (measured with chromadb
1.5.9: an upsert never returns). So the child does not inherit the parent's "held" state
(:func:`os.register_at_fork`): it closes its copy of the lock, and opening an embedded store in
the child raises :class:`StoreBusyError` naming the parent, instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

from ramem_integrations.errors import StoreBusyError, StoreError

#: The file naming the pid that holds the store (information only: the lock is the directory).
LOCK_NAME = ".ramem.lock"

_held: dict[str, int] = {}  # path -> file descriptor, held until the process ends
_forked_from: tuple[int, str] | None = None  # the parent, and a store it held, at the fork
_guard = threading.Lock()


def _after_fork_in_child() -> None:
    """The child of a fork: the parent's stores are the parent's, not this process's."""
    global _guard, _forked_from
    _guard = threading.Lock()  # another thread of the parent may have held it
    if _held and _forked_from is None:
        _forked_from = (os.getppid(), next(iter(_held)))
    for fd in _held.values():
        with contextlib.suppress(OSError):
            os.close(fd)  # the parent keeps its lock; the child no longer shares it
    _held.clear()


if hasattr(os, "register_at_fork"):  # pragma: no branch - not on Windows
    os.register_at_fork(after_in_child=_after_fork_in_child)


def hold(path: str | Path) -> None:
    """Take the store at ``path`` for this process, or raise :class:`StoreError`."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    if not str(path).strip():
        raise StoreError("The store path is empty; give a folder, e.g. './memory'.")
    try:
        directory = Path(path).resolve()
    except RuntimeError as exc:  # a loop of symbolic links (Python < 3.13)
        raise StoreError(
            f"Could not open a store at {path}: {exc}. Give a directory you can write."
        ) from exc
    key = str(directory)
    with _guard:
        if key in _held:
            return
        if _forked_from is not None:
            raise forked_error(key, *_forked_from)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(directory, os.O_RDONLY)
        except OSError as exc:  # a loop of symbolic links (Python >= 3.13) among others
            raise StoreError(
                f"Could not open a store at {directory}: {exc}. Give a directory you can write."
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            pid = _holder(directory)
            raise StoreBusyError(
                f"The store at {directory} is open in another process (pid {pid}). "
                "An embedded Chroma store serves one process: two processes writing it lose "
                "vectors without an error. To share memory between processes, run a Chroma "
                f"server on it (chroma run --path {directory} --port 8000) and open it with "
                "RaMem.from_client(chromadb.HttpClient(host='localhost', port=8000)).",
                str(directory),
                pid,
            ) from exc
        _held[key] = fd
        with contextlib.suppress(OSError):  # a read-only store: the lock holds without it
            (directory / LOCK_NAME).write_text(str(os.getpid()))


def hold_client(client: Any) -> None:
    """:func:`hold` the directory of an embedded (persistent) chromadb client; a client of a
    server, or one kept in memory, needs no lock."""
    settings = client.get_settings() if hasattr(client, "get_settings") else None
    if settings is not None and settings.is_persistent:
        hold(settings.persist_directory)


def forked_error(directory: str, parent: int, opened: str) -> StoreBusyError:
    """The error of a process forked after its parent opened the embedded store ``opened``."""
    return StoreBusyError(
        f"The store at {directory} cannot be used in this process (pid {os.getpid()}): it "
        f"was forked from process {parent} after that process opened the embedded store at "
        f"{opened}, and Chroma's embedded client hangs in a forked child. Open embedded "
        "stores after forking, or start workers with multiprocessing's 'spawn' start "
        "method; to share one store between processes, run a Chroma server on it "
        f"(chroma run --path {directory} --port 8000) and open it with "
        "RaMem.from_client(chromadb.HttpClient(host='localhost', port=8000)).",
        directory,
        str(parent),
    )


def _holder(directory: Path) -> str:
    try:
        return (directory / LOCK_NAME).read_text().strip() or "unknown"
    except OSError:
        return "unknown"
