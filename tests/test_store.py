from datetime import UTC, datetime

import numpy as np
import pytest

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError, NamespaceError, StoreError
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from tests.fakes import HashingEmbedder

SPAN = TimeSpan(datetime(2023, 5, 8, 10, tzinfo=UTC), datetime(2023, 5, 8, 11, tzinfo=UTC))


def unit(uid: str, text: str, ns: str, conv: str = "c1", **ctx: object) -> MemoryUnit:
    context = EpisodicContext("s1", SPAN, **ctx)  # type: ignore[arg-type]
    return MemoryUnit(uid, text, context, ns, (uid,), conv)


def put(store: ChromaEpisodicStore, units: list[MemoryUnit]) -> None:
    store.upsert(units, HashingEmbedder().embed([u.content for u in units]))


def test_upsert_get_query_round_trip(store: ChromaEpisodicStore) -> None:
    units = [
        unit("a", "Ann likes hiking", "alice", participants=("Ann", "Bob")),
        unit("b", "Ann paints sunsets", "alice"),
    ]
    put(store, units)
    assert sorted(store.get("alice"), key=lambda u: u.id) == units
    (best, sim), *_ = store.query("alice", HashingEmbedder().embed(["hiking"])[0], 2)
    assert best.id == "a" and 0 < sim <= 1.0
    assert [u.id for u in store.get("alice", where={"participants": {"$contains": "Bob"}})] == ["a"]


def test_namespaces_are_isolated(store: ChromaEpisodicStore) -> None:
    put(store, [unit("a1", "secret of alice", "alice"), unit("b1", "secret of bob", "bob")])
    vec = HashingEmbedder().embed(["secret"])[0]
    assert {u.namespace for u, _ in store.query("alice", vec, 10)} == {"alice"}
    assert [u.id for u in store.get("bob")] == ["b1"]
    assert store.get("alice", ids=["b1"]) == []  # an id from another namespace is not readable
    assert store.namespaces() == {"alice": 1, "bob": 1}


@pytest.mark.parametrize("bad", [None, "", "  ", 3])
def test_reads_without_a_namespace_are_refused(store: ChromaEpisodicStore, bad: object) -> None:
    with pytest.raises(NamespaceError, match="namespace is required"):
        store.get(bad)  # type: ignore[arg-type]
    with pytest.raises(NamespaceError):
        store.query(bad, np.ones(64, np.float32), 3)  # type: ignore[arg-type]


def test_upsert_is_idempotent(store: ChromaEpisodicStore) -> None:
    units = [unit("a", "one", "ns"), unit("b", "two", "ns")]
    put(store, units)
    put(store, units)
    assert store.count("ns") == 2


def test_delete_by_id_conversation_and_namespace(store: ChromaEpisodicStore) -> None:
    put(
        store,
        [
            unit("a", "x", "ns", "c1"),
            unit("b", "y", "ns", "c2"),
            unit("c", "z", "ns", "c2"),
            unit("d", "w", "other", "c2"),
        ],
    )
    assert store.delete("ns", ids=["a"]) == ["a"]
    assert sorted(store.delete("ns", conversation_id="c2")) == ["b", "c"]
    assert store.count("ns") == 0 and store.count("other") == 1
    assert store.delete("other") == ["d"]


def test_mismatched_embeddings_are_refused_before_writing(store: ChromaEpisodicStore) -> None:
    with pytest.raises(InvalidInputError, match="2 memories but 1 embeddings"):
        store.upsert([unit("a", "x", "ns"), unit("b", "y", "ns")], np.zeros((1, 64), np.float32))
    assert store.count("ns") == 0


def test_bad_collection_name_is_a_store_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError, match="store names"):
        ChromaEpisodicStore.from_path(tmp_path, collection="x")


def test_paging_reads_every_memory(
    store: ChromaEpisodicStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ramem_integrations.stores.chroma as chroma

    monkeypatch.setattr(chroma, "_PAGE", 3)
    put(store, [unit(f"m{i}", f"memory {i}", "ns") for i in range(8)])
    assert len(store.get("ns")) == 8 and store.namespaces() == {"ns": 8}
