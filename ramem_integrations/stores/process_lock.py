"""One process per embedded store: an advisory lock that refuses a second process.

Chroma's embedded mode (``PersistentClient``) is not process-safe. Measured with chromadb 1.5.9:
two processes writing one store path both succeed without an error, and the vector (HNSW)
index on disk silently loses what one of them wrote (6,050 records in SQLite, 5,700 reachable by
a query after a restart). Chroma's answer to several processes is its server
(``chroma run``, ``HttpClient``). So :func:`hold` takes an exclusive ``flock`` on a file inside
the store directory for the life of the process, and a second process opening the same store
gets a :class:`~ramem_integrations.errors.StoreError` that says to run a server.

The lock belongs to the process: opening the same path again in the same process is allowed
(Chroma shares one client per path within a process), and the operating system releases it when
the process ends, however it ends (``SIGKILL`` included), so a crash never leaves a stale lock.
On systems without ``fcntl`` (Windows) no lock is taken.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ramem_integrations.errors import StoreError

LOCK_NAME = ".ramem.lock"

_held: dict[str, int] = {}  # path -> file descriptor, held until the process ends
_guard = threading.Lock()


def hold(path: str | Path) -> None:
    """Take the store at ``path`` for this process, or raise :class:`StoreError`."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    directory = Path(path).resolve()
    key = str(directory)
    with _guard:
        if key in _held:
            return
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(
                f"Could not open a store at {directory}: {exc}. Give a directory you can write."
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise StoreError(
                f"The store at {directory} is open in another process (pid {owner}). An "
                "embedded Chroma store serves one process: two processes writing it lose "
                "vectors without an error. To share memory between processes, run a Chroma "
                f"server on it (chroma run --path {directory} --port 8000) and open it with "
                "RaMem.from_client(chromadb.HttpClient(host='localhost', port=8000))."
            ) from exc
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        _held[key] = fd
