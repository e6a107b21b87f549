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
_guard = threading.Lock()


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


def _holder(directory: Path) -> str:
    try:
        return (directory / LOCK_NAME).read_text().strip() or "unknown"
    except OSError:
        return "unknown"
