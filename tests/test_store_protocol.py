"""The MemoryStore protocol is all a RaMem needs: a RaMem over a wrapper that exposes only the
protocol's members, around a real Chroma store, writes, reads, re-embeds and forgets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.app.backup import export_namespace, import_file
from ramem_integrations.errors import UnknownNamespaceError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.stores.protocol import MemoryStore
from ramem_integrations.testing import HashingEmbedder

MEMBERS = sorted(name for name in vars(MemoryStore) if not name.startswith("_"))
TURNS = [
    {"speaker": "Ann", "text": "I saw the dentist last Tuesday."},
    {"speaker": "Bob", "text": "Was the tooth fine?"},
    {"speaker": "Ann", "text": "Yes, and I bought a kettle in Lyon."},
]


class OnlyTheProtocol:
    """A store exposing the protocol's members and nothing else; records what is called."""

    def __init__(self, inner: ChromaEpisodicStore) -> None:
        self._inner = inner
        self.called: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name not in MEMBERS:
            raise AttributeError(f"{name} is not part of the MemoryStore protocol")
        self.called.add(name)
        return getattr(self._inner, name)


def test_the_protocol_names_reads_writes_and_marks_only() -> None:
    assert MEMBERS == [
        "count",
        "delete",
        "dimension",
        "get",
        "get_with_vectors",
        "has_memories",
        "holding",
        "ids",
        "insert",
        "namespace_names",
        "namespaces",
        "own_mark",
        "remote",
        "set_vectors",
        "settle",
        "upsert",
        "written",
    ]


def test_a_ramem_needs_nothing_but_the_protocol(tmp_path: Path) -> None:
    store = OnlyTheProtocol(ChromaEpisodicStore.from_path(tmp_path / "store"))
    mem = RaMem(store, embedder=HashingEmbedder())  # type: ignore[arg-type]
    with pytest.raises(UnknownNamespaceError):
        mem.retrieve("dentist", "ann")
    ids = mem.add_turns(TURNS, "ann", session_time=datetime(2024, 3, 14, 18, tzinfo=UTC))
    hits = mem.retrieve("When did Ann see the dentist?", "ann", 2)
    assert hits[0].memory.content == TURNS[0]["text"]
    assert mem.known("ann").places == ("Lyon",)
    assert mem.count("ann") == 3 and mem.namespaces() == {"ann": 3}
    assert mem.namespace_names() == ["ann"]
    assert mem.reembed("ann") == 3
    backup = tmp_path / "ann.jsonl"
    assert export_namespace(mem, "ann", backup) == 3
    assert import_file(mem, backup, "copy")["written"] == 3
    assert mem.forget("ann", ids=ids[:1]) == 1
    assert sorted(h.memory.id for h in mem.retrieve("dentist", "ann", 3)) == sorted(ids[1:])
    assert store.called >= {"get", "get_with_vectors", "insert", "holding", "written"}


CHECKS: list[tuple[str, Callable[[MemoryStore], object], object]] = [
    ("count", lambda s: s.count("nobody"), 0),
    ("has_memories", lambda s: s.has_memories("nobody"), False),
    ("ids", lambda s: s.ids("nobody", conversation_id="c"), []),
    ("dimension", lambda s: s.dimension("nobody"), None),
    ("own_mark", lambda s: s.own_mark("nobody"), None),
    ("written", lambda s: s.written("nobody"), {}),
]


@pytest.mark.parametrize(("name", "read", "expected"), CHECKS, ids=[c[0] for c in CHECKS])
def test_reads_of_a_namespace_never_written_through_the_protocol(
    tmp_path: Path, name: str, read: Callable[[MemoryStore], object], expected: object
) -> None:
    store: MemoryStore = ChromaEpisodicStore.from_path(tmp_path / "store")
    assert read(store) == expected
