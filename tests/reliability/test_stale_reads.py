"""Every read sees every write committed before it (issue 13, 4).

Two ``RaMem`` objects on one path in one process, and two processes through a Chroma server:
after one writes, forgets or replaces, the other's reads (BM25, dense, content, ramem, the
cached memories behind them, the known context, ``memories``) see it at once, though its caches
were warm. Reads check a per-namespace write mark in the store; nothing is rebuilt per query.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.memory.questions import MODES
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores import layout
from ramem_integrations.testing import HashingEmbedder, parts
from tests.reliability.test_concurrency import chroma_server  # noqa: F401  (fixture)

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2025, 6, 2, 18, tzinfo=UTC)
LATER = datetime(2025, 6, 9, 18, tzinfo=UTC)
OLD = [
    {"speaker": "Maya", "text": "I walked the dog by the river."},
    {"speaker": "Maya", "text": "The parrot at the pet shop was loud."},
    {"speaker": "Sam", "text": "My sister bought a kiwi tart."},
]
NEW = [{"speaker": "Maya", "text": "I adopted a parrot called Kiwi."}]
QUERY = "parrot Kiwi"


def warm(mem: RaMem) -> None:
    """Load every cache a read keeps: BM25 and its memories, the pool, the known context."""
    for mode in MODES:
        mem.retrieve(QUERY, "maya", k=3, mode=mode, reference=LATER)
    mem.known("maya")


def stale_reads(mem: RaMem, expect_first: str | None, *, gone: str | None = None) -> list[str]:
    """The read paths that do not yet show the last write (empty when none is stale)."""
    stale = []
    for mode in MODES:
        hits = mem.retrieve(QUERY, "maya", k=3, mode=mode, reference=LATER)
        texts = [h.memory.content for h in hits]
        if expect_first is not None and (not texts or texts[0] != expect_first):
            stale.append(f"{mode}: {texts}")
        if gone is not None and gone in texts:
            stale.append(f"{mode} still returns {gone!r}")
    names = set(mem.known("maya").entities) | set(mem.known("maya").participants)
    if expect_first is not None and "Kiwi" not in names:
        stale.append(f"known context: {sorted(names)}")
    contents = {m.content for m in mem.memories("maya")}
    if expect_first is not None and expect_first not in contents:
        stale.append("memories()")
    if gone is not None and gone in contents:
        stale.append("memories() still holds it")
    return stale


def test_two_objects_on_one_path_see_each_others_writes(tmp_path: Path) -> None:
    writer = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    reader = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    writer.add_turns(OLD, "maya", session_time=WHEN, session_id="s1")
    warm(reader)
    assert "I adopted a parrot called Kiwi." not in {m.content for m in reader.memories("maya")}

    ids = writer.add_turns(NEW, "maya", session_time=LATER, session_id="s2")
    assert stale_reads(reader, NEW[0]["text"]) == []  # stale reads: 0

    fixed = [{"speaker": "Maya", "text": "I adopted a parrot called Kiwi. She talks!"}]
    writer.add_turns(fixed, "maya", session_time=LATER, session_id="s2", replace=True)
    assert stale_reads(reader, fixed[0]["text"], gone=NEW[0]["text"]) == []

    assert writer.forget("maya", ids=ids) == 1
    assert stale_reads(reader, None, gone=fixed[0]["text"]) == []


def test_a_readers_own_writes_need_no_reload(tmp_path: Path) -> None:
    """Its own write updates a reader's caches in place: the BM25 index is not rebuilt."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_turns(OLD, "maya", session_time=WHEN, session_id="s1")
    warm(mem)
    index = parts(mem).cache.index("maya")
    mem.add_turns(NEW, "maya", session_time=LATER, session_id="s2")
    assert stale_reads(mem, NEW[0]["text"]) == []
    assert parts(mem).cache.index("maya") is index  # kept current, not reloaded


WRITE = textwrap.dedent(
    """
    import sys
    from datetime import UTC, datetime
    import chromadb
    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.testing import HashingEmbedder

    host, port = sys.argv[1].rsplit(":", 1)
    client = chromadb.HttpClient(host=host, port=int(port))
    mem = RaMem.from_client(client, embedder=HashingEmbedder())
    when = datetime(2025, 6, 9, 18, tzinfo=UTC)
    turns = [{"speaker": "Maya", "text": sys.argv[3]}]
    if sys.argv[2] == "add":
        mem.add_turns(turns, "maya", session_time=when, session_id="s2", replace=True)
    else:
        mem.forget("maya", conversation_id="default")
    """
)


def other_process(server: str, action: str, text: str = "") -> None:
    subprocess.run(
        [sys.executable, "-c", WRITE, server, action, text],
        cwd=ROOT,
        check=True,
        timeout=120,
        capture_output=True,
    )


def test_two_processes_through_a_chroma_server(chroma_server: str) -> None:  # noqa: F811
    import chromadb

    host, port = chroma_server.rsplit(":", 1)
    client: Callable[[], object] = lambda: chromadb.HttpClient(host=host, port=int(port))  # noqa: E731
    reader = RaMem.from_client(client(), embedder=HashingEmbedder())
    reader.add_turns(OLD, "maya", session_time=WHEN, session_id="s1", conversation_id="old")
    warm(reader)

    other_process(chroma_server, "add", NEW[0]["text"])
    assert stale_reads(reader, NEW[0]["text"]) == []  # stale reads across processes: 0

    other_process(chroma_server, "add", "I adopted a parrot called Kiwi. She talks!")
    assert stale_reads(reader, "I adopted a parrot called Kiwi. She talks!") == []

    other_process(chroma_server, "forget")
    assert stale_reads(reader, None, gone="I adopted a parrot called Kiwi. She talks!") == []
    assert reader.count("maya") == 3


def test_a_full_marks_record_still_shows_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More writers than a marks record keeps keys for: each new writer clears the others'
    keys as it bumps its own, and a warm reader still sees every write at once."""
    monkeypatch.setattr(layout, "MAX_WRITERS", 3)
    path = tmp_path / "store"
    reader = RaMem.from_path(path, embedder=HashingEmbedder())
    RaMem.from_path(path, embedder=HashingEmbedder()).add_turns(
        OLD, "maya", session_time=WHEN, session_id="s1"
    )
    warm(reader)
    for i in range(6):
        text = f"The parrot Kiwi learned word number {i}."
        writer = RaMem.from_path(path, embedder=HashingEmbedder())
        writer.add_turns(
            [{"speaker": "Maya", "text": text}], "maya", session_time=LATER, session_id=f"n{i}"
        )
        assert text in {m.content for m in reader.memories("maya")}
        hits = reader.retrieve(f"word number {i}", "maya", k=2, mode="bm25")
        assert hits[0].memory.content == text
        assert 1 <= len(reader.store.written("maya")) <= 3
