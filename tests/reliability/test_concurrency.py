"""Concurrency: threads in one process, several processes, several clients on a Chroma server."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import chromadb
import pytest

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import StoreError
from ramem_integrations.memory.ramem import MODES, RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import (
    WORDS,
    ChromaServer,
    conversation_json,
    synthetic_conversation,
)
from tests.test_regrouping import SAID, chat

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
READERS = 4
DURATION = 6.0  # seconds of concurrent reading and writing
START = datetime(2023, 1, 1, tzinfo=UTC)


def versioned(n: int, version: int) -> MemoryUnit:
    """Memory ``n`` at ``version``: its text, topic and session all say the version, so a
    read that mixes two versions (a torn read) is visible."""
    start = START + timedelta(days=version)
    words = " ".join(WORDS[(n + i) % len(WORDS)] for i in range(5))
    ctx = EpisodicContext(
        session_id=f"v{version}",
        session_span=TimeSpan(start, start + timedelta(hours=1)),
        participants=("Ann", "Ben"),
        speaker="Ann",
        entities=(f"E{n}",),
        topic=f"v{version}",
    )
    return MemoryUnit(
        f"m{n}", f"Ann said {words} (version {version})", ctx, "shared", (f"t{n}",), "c"
    )


def whole(unit: MemoryUnit) -> None:
    version = int(re.search(r"version (\d+)", unit.content).group(1))  # type: ignore[union-attr]
    assert unit.context.topic == f"v{version}", "content and context from different writes"
    assert unit.context.session_id == f"v{version}"
    assert unit.context.session_span.start == START + timedelta(days=version)
    assert unit.context.participants == ("Ann", "Ben") and unit.source_ids
    assert unit == versioned(int(unit.id[1:]), version)


def test_readers_and_a_writer_in_one_process(fake_mem: RaMem) -> None:
    fake_mem.add_memories([versioned(n, 0) for n in range(60)])
    stop = threading.Event()
    errors: list[BaseException] = []
    counts = {"reads": 0, "writes": 0, "hits": 0}
    lock = threading.Lock()

    def writer() -> None:
        version = 1
        while not stop.is_set():
            try:  # rewrite a third of the memories, add new ones, forget a few
                rewrite = [versioned(n, version) for n in range(version % 3, 60, 3)]
                fake_mem.add_memories(rewrite, replace=True)  # new versions, on purpose
                fake_mem.add_memories([versioned(60 + version, version)])
                if version % 4 == 0:
                    fake_mem.forget("shared", ids=[f"m{60 + version - 2}"])
                with lock:
                    counts["writes"] += 1
                version += 1
            except BaseException as exc:
                errors.append(exc)
                return

    def reader(seed: int) -> None:
        i = seed
        while not stop.is_set():
            try:
                query = f"{WORDS[i % len(WORDS)]} {WORDS[(i * 7) % len(WORDS)]}"
                hits = fake_mem.retrieve(query, "shared", 10, mode=MODES[i % len(MODES)])
                for hit in hits:
                    whole(hit.memory)
                if i % 5 == 0:
                    for unit in fake_mem.memories("shared"):
                        whole(unit)
                with lock:
                    counts["reads"] += 1
                    counts["hits"] += len(hits)
                i += 1
            except BaseException as exc:
                errors.append(exc)
                return

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader, args=(s,)) for s in range(READERS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(DURATION)
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not errors, repr(errors[0])
    print(f"{READERS} readers + 1 writer for {DURATION} s: {counts}")
    assert counts["reads"] > 0 and counts["writes"] > 0  # both ran; speed is not the point
    # after the storm the BM25 index agrees with the store
    fresh = RaMem(fake_mem.store, embedder=HashingEmbedder())
    for word in WORDS:
        assert fake_mem.retrieve(word, "shared", 20, mode="bm25") == fresh.retrieve(
            word, "shared", 20, mode="bm25"
        )


# ---------------------------------------------------------------- several processes


def runner(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.reliability.runner", *args]


def test_second_process_on_an_embedded_store_is_refused(tmp_path: Path) -> None:
    """Chroma's embedded store is not process-safe (it silently loses vectors, see
    docs/reliability.md); a second process is refused with an error naming server mode."""
    store = tmp_path / "store"
    holder = subprocess.Popen(
        runner("hold", str(store)),
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        second = subprocess.run(
            runner("hold", str(store)),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            input="",
        )
        assert second.returncode != 0
        assert "StoreBusyError" in second.stderr and "chroma run --path" in second.stderr
        assert f"pid {holder.pid}" in second.stderr
        with pytest.raises(StoreError, match="HttpClient"):  # this process too
            RaMem.from_path(store, embedder=HashingEmbedder())
    finally:
        holder.communicate("", timeout=30)
    # once the holder has exited (or been killed) the store opens again
    assert RaMem.from_path(store, embedder=HashingEmbedder()).namespaces() == {}


# ---------------------------------------------------------------- a Chroma server


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[str]:
    server = ChromaServer(tmp_path / "server")
    try:
        yield server.address
    finally:
        server.stop()


CLIENTS = 3


def test_several_processes_on_a_chroma_server(tmp_path: Path, chroma_server: str) -> None:
    """Three client processes write at once, each its own namespace and one shared namespace
    (the same conversation, so the same ids: upserts race); every memory is stored exactly
    once and reachable by dense and BM25 queries."""
    conv = tmp_path / "conv.json"
    conv.write_text(json.dumps(conversation_json(synthetic_conversation("default", 4, 30, seed=5))))
    procs = [
        subprocess.Popen(
            runner("ingest", "-", str(conv), f"own{i},shared", "--server", chroma_server),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(CLIENTS)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and "done" in out, err[-2000:]
    names = ",".join([*(f"own{i}" for i in range(CLIENTS)), "shared"])
    done = subprocess.run(
        runner("verify", "-", str(conv), names, "--server", chroma_server),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for ns, row in report.items():
        assert row == {
            "expected": 120,
            "stored": 120,
            "rows": 120,
            "duplicates": 0,
            "wrong": 0,
            "missing": 0,
            "bm25_disagree": 0,
            "dense_unreachable": 0,
        }, (ns, row)


def test_embedded_store_opened_twice_in_one_process_works(tmp_path: Path) -> None:
    """Two RaMem objects on one path in one process share Chroma's client: both see writes."""
    a = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    b = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    a.add_memories([versioned(1, 0)])
    assert b.memories("shared") == [versioned(1, 0)]
    b.add_memories([replace(versioned(1, 0), content="changed")], replace=True)
    assert a.memories("shared")[0].content == "changed"


RAW_WRITER = """
import sys, numpy as np, chromadb
from chromadb.config import Settings
path, who = sys.argv[1], sys.argv[2]
client = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False))
col = client.get_or_create_collection("raw_two", embedding_function=None)
rng = np.random.default_rng(len(who))
for i in range(0, 1500, 50):
    col.upsert(ids=[f"{who}{j}" for j in range(i, i + 50)],
               embeddings=rng.random((50, 8)).astype("float32"))
print("ok", flush=True)
"""


#: How a raw writer or reader of one embedded path shared by two processes can fail (Chroma's
#: own errors, seen in loops of this test under load).
CHROMA_RACES = (
    "database is locked",  # SQLite refuses one writer
    "already exists",  # both processes create the schema at once: one fails to start
    "hnsw segment reader",  # both wrote; the vector index files do not read back
)


def test_what_chroma_does_with_two_processes(tmp_path: Path) -> None:
    """Chroma 1.5.9 itself, without our lock: two PersistentClients on one path in two
    processes. Timing decides among: one writer refused by SQLite or by a schema race, both
    writing with every record in SQLite, or both writing and the vector index not reading back
    (docs/reliability.md has the measured loss). Any other outcome fails. This is why the
    store refuses a second process."""
    path = str(tmp_path / "raw")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RAW_WRITER, path, who],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("a", "bb")
    ]
    refused = False
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 0 and any(race in err for race in CHROMA_RACES[:2]):
            refused = True  # one writer failed mid-way or at the start
            continue
        assert proc.returncode == 0 and out.strip() == "ok", err[-2000:]
    if refused:
        return
    check = (
        "import sys, numpy as np, chromadb; c = chromadb.PersistentClient(sys.argv[1]);"
        "col = c.get_collection('raw_two'); q = col.query(query_embeddings=np.ones((1, 8),"
        " dtype='float32'), n_results=5000, include=[]); print(col.count(), len(q['ids'][0]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", check, path], capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        # the index files do not read back: an error by name, or the reader dies on them
        # (SIGSEGV, seen once under load in a fresh-clone CI run)
        crashed = done.returncode == -signal.SIGSEGV
        assert crashed or CHROMA_RACES[2] in done.stderr, (done.returncode, done.stderr[-3000:])
        print("two processes, one embedded path: the vector index does not read back")
        return
    stored, reachable = map(int, done.stdout.split())
    print(f"two processes, one embedded path: {stored} records, {reachable} reachable by query")
    assert stored == 3000  # SQLite serialises the writes; the HNSW files are another matter


def test_a_regrouped_burst_through_a_chroma_server(chroma_server: str) -> None:
    """The same as tests/test_regrouping.py, through ``chroma run``: the where-clause that finds
    the memories holding a turn is Chroma's, so the server must read it the same."""
    host, port = chroma_server.split(":")
    mem = RaMem.from_client(
        chromadb.HttpClient(host=host, port=int(port)), embedder=HashingEmbedder()
    )
    for count in (3, 4, 4):
        mem.add_turns(chat(count), "b", session_time=SAID, session_id="s1", conversation_id="c")
    assert sorted(u.content for u in mem.memories("b")) == [
        "no way, congrats\nwhen do you start?",
        "omg\nI got the job at the bakery!",
    ]
