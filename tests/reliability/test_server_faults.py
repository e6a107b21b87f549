"""A Chroma server that is down or dies during a write (issue 31, item 11).

Every call then raises a :class:`StoreError` naming the server and what to do, never a raw
``httpx`` error; a write cut off part way is stored in part, and running the same call again
once the server is back completes it without a duplicate.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ramem_integrations.errors import StoreError
from ramem_integrations.memory import writing as ingest_module
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import ChromaServer

pytestmark = pytest.mark.reliability

WHEN = datetime(2025, 5, 30, 19, tzinfo=UTC)
TURNS = [
    {"speaker": "Ann", "text": f"turn {i}: the dentist moved to Friday {i}"} for i in range(100)
]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ChromaServer]]:
    started: list[ChromaServer] = []
    yield started
    for server in started:
        server.kill()


def test_a_server_that_is_down_raises_a_store_error_naming_it(
    tmp_path: Path, servers: list[ChromaServer]
) -> None:
    server = ChromaServer(tmp_path / "server")
    servers.append(server)
    client = server.client()
    mem = RaMem.from_client(client, embedder=HashingEmbedder())
    mem.add_turns(TURNS[:10], "ann", session_time=WHEN)
    assert mem.retrieve("dentist", "ann", k=3, mode="bm25")
    server.kill()
    calls = {
        "retrieve": lambda: mem.retrieve("dentist", "ann", k=3),
        "add_turns": lambda: mem.add_turns(TURNS[10:20], "ann", session_time=WHEN),
        "namespaces": mem.namespaces,
        "forget": lambda: mem.forget("ann"),
        "from_client": lambda: RaMem.from_client(client, embedder=HashingEmbedder()),
    }
    for name, call in calls.items():
        with pytest.raises(StoreError) as raised:
            call()
        message = str(raised.value)
        assert f"Chroma server at {server.url} did not answer" in message, name
        assert "chroma run --path" in message and "run the same call again" in message, name


def test_a_langgraph_store_on_a_server_that_is_down_raises_a_store_error(
    tmp_path: Path, servers: list[ChromaServer]
) -> None:
    pytest.importorskip("langgraph")
    from ramem_integrations.langgraph import RaMemStore

    server = ChromaServer(tmp_path / "server")
    servers.append(server)
    store = RaMemStore(RaMem.from_client(server.client(), embedder=HashingEmbedder()))
    store.put(("memories", "ann"), "m1", {"text": "the dentist moved to Friday"})
    assert store.get(("memories", "ann"), "m1") is not None
    server.kill()
    calls = {
        "put": lambda: store.put(("memories", "ann"), "m2", {"text": "a new note"}),
        "get": lambda: store.get(("memories", "ann"), "m1"),
        "search": lambda: store.search(("memories",), query="dentist"),
        "list_namespaces": store.list_namespaces,
        "delete": lambda: store.delete(("memories", "ann"), "m1"),
    }
    for name, call in calls.items():
        with pytest.raises(StoreError) as raised:
            call()
        assert f"Chroma server at {server.url} did not answer" in str(raised.value), name


class KillingEmbedder(HashingEmbedder):
    """Kills the server when asked to embed for the ``at``-th time (a write half done)."""

    def __init__(self, server: ChromaServer, at: int) -> None:
        self.server, self.at, self.calls = server, at, 0

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        self.calls += 1
        if self.calls == self.at:
            self.server.kill()
        return super().embed(texts)


def test_a_write_cut_by_a_dying_server_says_so_and_running_it_again_converges(
    tmp_path: Path, servers: list[ChromaServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest_module, "EMBED_BATCH", 16)  # 100 turns: several writes
    server = ChromaServer(tmp_path / "server")
    servers.append(server)
    mem = RaMem.from_client(server.client(), embedder=KillingEmbedder(server, at=4))
    with pytest.raises(StoreError, match="an unknown part of it may be stored") as raised:
        mem.add_turns(TURNS, "ann", session_time=WHEN)
    assert server.url in str(raised.value)

    again = ChromaServer(tmp_path / "server")  # the same store, served again
    servers.append(again)
    kept = RaMem.from_client(again.client(), embedder=HashingEmbedder()).count("ann")
    assert 0 < kept < len(TURNS)  # part of the call was written
    print(f"kept {kept} of {len(TURNS)} turns")  # docs/reliability.md quotes it (pytest -s)
    mem = RaMem.from_client(again.client(), embedder=HashingEmbedder())
    mem.add_turns(TURNS, "ann", session_time=WHEN)  # the same call, run again
    fresh = RaMem.from_client(again.client(), embedder=HashingEmbedder())
    stored = sorted(u.content for u in fresh.memories("ann"))
    assert stored == sorted(t["text"] for t in TURNS)  # each turn once, none lost
