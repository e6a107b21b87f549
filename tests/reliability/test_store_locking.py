"""One lock for every way of opening an embedded store (issue 31, items 1 and 15).

A second process is refused whether it opens the path with ``RaMem.from_path``, with
``RaMem.from_client(chromadb.PersistentClient(path))`` (the pattern docs/langchain.md shows) or
through the ``ramem`` command, before it writes anything; deleting ``.ramem.lock`` while the
store is held does not let it in. A process forked after its parent opened a store gets a
StoreBusyError when it uses one, instead of hanging inside Chroma.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ramem_integrations.stores.process_lock import LOCK_NAME

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
RAMEM = Path(sys.executable).with_name("ramem")

#: Opens the store (argv[1]) the way argv[2] says, writes 20 turns, says "ready", waits for
#: stdin, writes 20 more in another namespace and exits.
SCRIPT = """
import sys
from datetime import UTC, datetime
import chromadb
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

path, how = sys.argv[1], sys.argv[2]
if how == "client":
    mem = RaMem.from_client(chromadb.PersistentClient(path), embedder=HashingEmbedder())
else:
    mem = RaMem.from_path(path, embedder=HashingEmbedder())
def write(namespace, session):
    turns = [{"speaker": "Ann", "text": f"note {i} about the dentist"} for i in range(20)]
    when = datetime(2025, 5, session, 19, tzinfo=UTC)
    mem.add_turns(turns, namespace, session_time=when)
write("first", 1)
print("ready", flush=True)
sys.stdin.read()
write("second", 2)
print(mem.namespaces(), flush=True)
"""


def python(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[call-overload]
    )


def opened(store: Path, how: str) -> subprocess.Popen[str]:
    holder = python(str(store), how)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ready", (
        holder.stderr.read() if holder.stderr else ""
    )
    return holder


def refused(store: Path, how: str, holder: subprocess.Popen[str]) -> None:
    second = python(str(store), how)
    out, err = second.communicate("", timeout=120)
    assert second.returncode != 0 and "ready" not in out
    assert "StoreBusyError" in err and f"pid {holder.pid}" in err
    assert f"chroma run --path {store.resolve()}" in err


def finished(holder: subprocess.Popen[str]) -> str:
    out, err = holder.communicate("", timeout=120)
    assert holder.returncode == 0, err
    return out.splitlines()[-1]


@pytest.mark.parametrize(
    ("first", "second"), [("client", "client"), ("client", "path"), ("path", "client")]
)
def test_a_second_process_is_refused_however_it_opens_the_path(
    tmp_path: Path, first: str, second: str
) -> None:
    store = tmp_path / "store"
    holder = opened(store, first)
    try:
        refused(store, second, holder)
        cli = subprocess.run(
            [str(RAMEM), "query", "dentist", "--store", str(store), "--namespace", "first"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert cli.returncode != 0 and "open in another process" in cli.stderr
    finally:
        last = finished(holder)
    assert last == "{'first': 20, 'second': 20}"  # the holder's writes all stand
    reader = opened(store, second)  # and the store opens, reads and writes once it is free
    assert finished(reader) == "{'first': 20, 'second': 20}"


def test_deleting_the_lock_file_does_not_let_a_second_process_in(tmp_path: Path) -> None:
    store = tmp_path / "store"
    holder = opened(store, "path")
    try:
        (store / LOCK_NAME).unlink()
        second = python(str(store), "path")
        out, err = second.communicate("", timeout=120)
        assert second.returncode != 0 and "ready" not in out
        assert "open in another process" in err and "chroma run --path" in err
    finally:
        assert finished(holder) == "{'first': 20, 'second': 20}"


#: Opens the store (argv[1]), writes, forks; the child opens a store the way argv[2] says (or
#: uses the parent's object), tries to write and prints what happened; the parent then reads.
FORK = """
import os, sys
from datetime import UTC, datetime
import chromadb
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

path, how = sys.argv[1], sys.argv[2]
mem = RaMem.from_path(path, embedder=HashingEmbedder())
turns = [{"speaker": "Ann", "text": f"note {i} about the dentist"} for i in range(20)]
mem.add_turns(turns, "first", session_time=datetime(2025, 5, 1, 19, tzinfo=UTC))
child = os.fork()
if child == 0:
    try:
        if how == "path":
            mine = RaMem.from_path(path, embedder=HashingEmbedder())
        elif how == "client":
            mine = RaMem.from_client(chromadb.PersistentClient(path), embedder=HashingEmbedder())
        elif how == "other path":
            mine = RaMem.from_path(path + "-other", embedder=HashingEmbedder())
        else:
            mine = mem
        mine.add_turns(turns, "child", session_time=datetime(2025, 5, 2, 19, tzinfo=UTC))
        print("child wrote", flush=True)
    except Exception as exc:
        print(f"child {type(exc).__name__}: {exc}", flush=True)
    os._exit(0)
os.waitpid(child, 0)
print(mem.namespaces(), flush=True)
"""


@pytest.mark.parametrize("how", ["path", "client", "parent's object", "other path"])
def test_a_forked_child_is_refused_with_an_error_not_a_hang(tmp_path: Path, how: str) -> None:
    store = tmp_path / "store"
    run = subprocess.run(
        [sys.executable, "-c", FORK, str(store), how],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # before: the child hung inside Chroma
    )
    assert run.returncode == 0, run.stderr
    said, namespaces = run.stdout.splitlines()
    assert said.startswith("child StoreBusyError: ") and "forked from process" in said
    assert "'spawn'" in said and "chroma run --path" in said
    assert namespaces == "{'first': 20}"  # the parent's store is as it wrote it
