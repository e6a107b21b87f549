"""Reads keep the cache current without the write service: index/freshness.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.errors import UnknownNamespaceError
from ramem_integrations.evaluation import importgraph
from ramem_integrations.index.freshness import Freshness
from ramem_integrations.index.namespaces import NamespaceCache
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder

WHEN = datetime(2024, 3, 14, 18, tzinfo=UTC)


@pytest.mark.parametrize(
    "reader", ["ramem_integrations.index.freshness", "ramem_integrations.memory.source"]
)
def test_the_read_path_imports_no_writer(reader: str) -> None:
    imported = importgraph.reachable([reader], importgraph.graph())
    assert "ramem_integrations.memory.writing" not in imported


def test_a_second_object_sees_the_first_ones_writes_through_freshness(tmp_path: Path) -> None:
    writer = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    store = ChromaEpisodicStore.from_client(writer.store.client)  # type: ignore[attr-defined]
    cache = NamespaceCache(
        store.get_with_vectors, marks=lambda ns: store.written(ns, others_only=True)
    )
    fresh = Freshness(store, cache)
    with pytest.raises(UnknownNamespaceError, match="missing_ok=True"):
        fresh.sync("ann")
    assert fresh.sync("ann", missing_ok=True) is False
    writer.add_turns([{"speaker": "Ann", "text": "I moved to Lyon."}], "ann", session_time=WHEN)
    assert fresh.sync("ann") is True
    assert fresh.known("ann").places == ("Lyon",)
    writer.add_turns(
        [{"speaker": "Bob", "text": "I moved to Paris."}], "ann", session_time=WHEN, session_id="s2"
    )
    assert fresh.known("ann").places == ("Lyon",)  # not yet synced: the cache as loaded
    fresh.sync("ann")
    assert set(fresh.known("ann").places) == {"Lyon", "Paris"}
