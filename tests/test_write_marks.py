"""Write marks: a write marked pending before it touches the memories and written after, so a
write cut between the two is seen by every warm reader, and its re-run settles it."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.errors import StoreError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores import layout
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.stores.protocol import is_pending
from ramem_integrations.testing import HashingEmbedder, parts
from tests.test_store import put, unit

WHEN = datetime(2024, 3, 14, 18, tzinfo=UTC)
OLD = [
    {"speaker": "Maya", "text": "I walked the dog by the river."},
    {"speaker": "Sam", "text": "My sister bought a kiwi tart."},
]
NEW = [{"speaker": "Maya", "text": "I adopted a parrot called Kiwi."}]


def served(mem: RaMem) -> set[str]:
    """The texts a read of ``maya`` serves from the reader's cache (BM25 and dense)."""
    hits = [
        mem.retrieve(q, "maya", 5, mode=m)
        for q in ("parrot Kiwi", "dog")
        for m in ("bm25", "dense")
    ]
    return {h.memory.content for found in hits for h in found}


def cut(monkeypatch: pytest.MonkeyPatch, mem: RaMem) -> None:
    """The next write of ``mem`` reaches the memories but not its finished mark."""

    def killed(namespace: str) -> None:
        raise StoreError("the process died here")

    monkeypatch.setattr(mem.store, "mark_written", killed)


def pending(store: ChromaEpisodicStore, namespace: str = "maya") -> list[str]:
    return [key for key in store.written(namespace) if is_pending(key)]


WRITES: dict[str, tuple[Callable[[RaMem], object], str, bool]] = {
    # what is cut, the text it concerns, whether that text is stored once it is done
    "add": (
        lambda m: m.add_turns(NEW, "maya", session_time=WHEN, session_id="s2"),
        NEW[0]["text"],
        True,
    ),
    "forget": (lambda m: m.forget("maya", conversation_id="old"), OLD[0]["text"], False),
}


@pytest.mark.parametrize("operation", list(WRITES))
def test_a_write_cut_before_its_mark_is_seen_by_warm_readers_and_settled_by_its_rerun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, operation: str
) -> None:
    writer = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    reader = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    writer.add_turns(OLD, "maya", session_time=WHEN, session_id="s1", conversation_id="old")
    for mem in (reader, writer):
        served(mem)  # warm
    write, text, stored = WRITES[operation]
    cut(monkeypatch, writer)
    with pytest.raises(StoreError):
        write(writer)
    monkeypatch.undo()
    for mem in (reader, writer):  # its data reached the store: every reader serves it
        assert (text in served(mem)) is stored
    assert pending(reader.store)  # the cut write left its mark
    write(writer)  # the re-run: nothing left to do, yet it settles the namespace
    assert pending(reader.store) == []
    assert (text in served(reader)) is stored
    index = parts(reader).cache.index("maya")
    served(reader)
    assert parts(reader).cache.index("maya") is index  # settled: no reload per read


def test_readers_reload_while_a_write_is_pending_and_a_dead_writers_mark_expires(
    tmp_path: Path,
) -> None:
    reader = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    reader.add_turns(OLD, "maya", session_time=WHEN, session_id="s1")
    store = reader.store
    dead = ChromaEpisodicStore.from_client(store.client)  # type: ignore[attr-defined]
    dead.clock = lambda: time.time() - layout.PENDING_EXPIRY - 1  # began long ago, never ended
    dead.mark_pending("maya")
    index = parts(reader).cache.index("maya")
    served(reader)
    assert parts(reader).cache.index("maya") is not index  # a pending mark: loads afresh
    live = ChromaEpisodicStore.from_client(store.client)  # type: ignore[attr-defined]
    other = ChromaEpisodicStore.from_client(store.client)  # type: ignore[attr-defined]
    with live.marked("maya"):  # a write under way now
        put(other, [unit("x", "Maya's parrot talks.", "maya")])  # another one finishes
        assert pending(store) == [layout.PENDING_PREFIX + live.writer_id]  # the dead one's gone
    assert pending(store) == []
    assert not live.settle("maya")  # nothing pending: nothing written
    served(reader)
    index = parts(reader).cache.index("maya")
    served(reader)
    assert parts(reader).cache.index("maya") is index


def test_a_writers_own_mark_stays_while_another_of_its_writes_is_under_way(
    store: ChromaEpisodicStore,
) -> None:
    """Threads sharing a store object: the first write to finish keeps the object's pending
    key while its second write is under way."""
    with store.marked("alice"):
        with store.marked("alice"):
            pass
        assert pending(store, "alice") == [layout.PENDING_PREFIX + store.writer_id]
    assert pending(store, "alice") == []
    assert store.written("alice") == {store.own_mark("alice")[0]: 2}  # type: ignore[index]
