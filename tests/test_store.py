import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from ramem_integrations.core.anchoring import memory_id
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError, NamespaceError, StoreError
from ramem_integrations.stores import layout
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from tests.store_reads import nearest

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
    (best, sim), *_ = nearest(store, "alice", HashingEmbedder().embed(["hiking"])[0], 2)
    assert best.id == "a" and 0 < sim <= 1.0
    assert [u.id for u in store.get("alice", where={"participants": {"$contains": "Bob"}})] == ["a"]


def test_namespaces_are_isolated(store: ChromaEpisodicStore) -> None:
    put(store, [unit("a1", "secret of alice", "alice"), unit("b1", "secret of bob", "bob")])
    vec = HashingEmbedder().embed(["secret"])[0]
    assert {u.namespace for u, _ in nearest(store, "alice", vec, 10)} == {"alice"}
    assert [u.id for u in store.get("bob")] == ["b1"]
    assert store.get("alice", ids=["b1"]) == []  # an id from another namespace is not readable
    assert store.namespaces() == {"alice": 1, "bob": 1}


@pytest.mark.parametrize("bad", [None, "", "  ", 3])
def test_reads_without_a_namespace_are_refused(store: ChromaEpisodicStore, bad: object) -> None:
    with pytest.raises(NamespaceError, match="namespace is required"):
        store.get(bad)  # type: ignore[arg-type]
    with pytest.raises(NamespaceError):
        store.get_with_vectors(bad)  # type: ignore[arg-type]


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


# ---------------------------------------------------------------- the layout (format 2)


def collection_names(store: ChromaEpisodicStore) -> set[str]:
    return {c.name for c in store.client.list_collections()}


def test_reads_of_an_unknown_namespace_create_nothing(store: ChromaEpisodicStore) -> None:
    put(store, [unit("a", "Ann likes hiking", "alice")])
    before = collection_names(store)
    vec = HashingEmbedder().embed(["hiking"])[0]
    reads = {
        "has_memories": store.has_memories("nobody"),
        "count": store.count("nobody"),
        "get": store.get("nobody"),
        "ids": store.ids("nobody", ids=["a"]),
        "present": store.present("nobody", ["a"]),
        "nearest": nearest(store, "nobody", vec, 5),
        "get_with_vectors": store.get_with_vectors("nobody")[0],
        "written": store.written("nobody"),
    }
    assert reads == {
        "has_memories": False,
        "count": 0,
        "get": [],
        "ids": [],
        "present": set(),
        "nearest": [],
        "get_with_vectors": [],
        "written": {},
    }
    assert collection_names(store) == before
    assert store.namespaces() == {"alice": 1}


def test_a_write_creates_the_namespace_collection(store: ChromaEpisodicStore) -> None:
    put(store, [unit("a", "Ann likes hiking", "alice")])
    name, metadata = store.namespace_collection("alice")
    assert name in collection_names(store) and name.startswith("ramem_memories.alice.")
    assert metadata == {"ramem_store": "ramem_memories", "ramem_namespace": "alice"}
    assert store.client.get_collection(name).metadata == metadata


@pytest.mark.parametrize(
    "namespace",
    ["a", "Ann Lee", "memories.alice", "..", "ünïcødé ✓", "-x-", "1.2.3.4", "日本", "a" * 600],
)
def test_any_namespace_gets_a_valid_collection(store: ChromaEpisodicStore, namespace: str) -> None:
    put(store, [unit("m", "a memory", namespace)])
    name, _ = store.namespace_collection(namespace)
    assert 3 <= len(name) <= 512
    assert store.get(namespace)[0].namespace == namespace
    assert store.namespaces() == {namespace: 1}


def test_an_id_is_a_memory_of_its_namespace_only(store: ChromaEpisodicStore) -> None:
    """The same id in two namespaces is two memories: writing or deleting it in one never
    touches the other, nor the other's write marks."""
    put(store, [unit("doc-1", "Ann likes hiking", "alice"), unit("doc-2", "stays", "alice")])
    marks = store.written("alice")
    put(store, [unit("doc-1", "Bob likes hiking", "bob")])
    assert [u.content for u in store.get("alice")] == ["Ann likes hiking", "stays"]
    assert [u.content for u in store.get("bob")] == ["Bob likes hiking"]
    assert store.written("alice") == marks
    assert store.namespaces() == {"alice": 2, "bob": 1}
    store.delete("bob", ids=["doc-1"])
    assert store.namespaces() == {"alice": 2}


def anchored(ns: str, turn: str, text: str, conv: str = "c1") -> MemoryUnit:
    """A memory under the id the anchorers make for ``ns``."""
    context = EpisodicContext("s1", SPAN)
    return MemoryUnit(memory_id(ns, conv, [turn]), text, context, ns, (turn,), conv)


def test_an_anchored_memory_carried_into_another_namespace_is_a_copy(
    store: ChromaEpisodicStore,
) -> None:
    """A memory written into another namespace under the id made for its first one is a
    second memory there: the first namespace keeps its own."""
    first = anchored("alice", "t1", "Ann likes hiking")
    put(store, [first, anchored("alice", "t2", "stays")])
    put(store, [replace(first, namespace="bob")])
    assert [u.content for u in store.get("alice")] == ["Ann likes hiking", "stays"]
    assert [u.id for u in store.get("bob")] == [first.id]
    put(store, [first])  # written again at home: bob's copy stays bob's
    assert store.namespaces() == {"alice": 2, "bob": 1}


def test_stores_of_other_names_never_see_each_other(store: ChromaEpisodicStore) -> None:
    other = ChromaEpisodicStore.from_client(store.client, collection="other_store")
    put(store, [unit("a", "in the default store", "alice")])
    put(other, [unit("a", "in the other store", "alice")])
    assert [u.content for u in store.get("alice")] == ["in the default store"]
    assert [u.content for u in other.get("alice")] == ["in the other store"]
    assert other.namespaces() == {"alice": 1} and store.namespaces() == {"alice": 1}


def test_a_deleted_namespace_reads_empty_and_is_not_listed(store: ChromaEpisodicStore) -> None:
    put(store, [unit("a", "x", "alice"), unit("b", "y", "bob")])
    assert store.delete("alice") == ["a"]
    assert store.get("alice") == [] and not store.has_memories("alice")
    assert store.namespaces() == {"bob": 1}
    put(store, [unit("a", "x again", "alice")])
    assert store.namespaces() == {"alice": 1, "bob": 1}


def test_each_writer_keeps_its_own_count_in_the_namespace_marks(
    store: ChromaEpisodicStore,
) -> None:
    """Two store objects writing one namespace at once: the namespace's one marks record holds
    both counts (an upsert's keys merge into it), so neither hides the other's writes."""
    other = ChromaEpisodicStore.from_client(store.client)

    def write(target: ChromaEpisodicStore, tag: str) -> None:
        for i in range(15):
            put(target, [unit(f"{tag}{i}", f"memory {tag} {i}", "alice")])

    threads = [threading.Thread(target=write, args=(s, t)) for s, t in ((store, "a"), (other, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    marks = store.written("alice")
    assert marks == {store.own_mark("alice")[0]: 15, other.own_mark("alice")[0]: 15}  # type: ignore[index]
    assert store.written("alice", others_only=True) == {other.own_mark("alice")[0]: 15}  # type: ignore[index]
    assert store.marks.get(include=[])["ids"] == [layout.marks_id("alice")]  # one record
    assert store.written("bob") == {}


def test_a_format_2_store_opens_as_format_3_and_drops_its_old_marks(tmp_path: Path) -> None:
    """Format 2 kept a marks record per namespace and writer. Opening drops them (a new
    process has no cache they could warn) and keeps every memory and fresh mark."""
    import chromadb

    client = chromadb.PersistentClient(path=str(tmp_path / "s"))
    store = ChromaEpisodicStore.from_client(client)
    put(store, [unit("a", "Ann likes hiking", "alice"), unit("b", "Bob paints", "bob")])
    store.marks.upsert(  # as format 2 wrote them, and its version
        ids=["3f" * 20, "a1" * 20],
        embeddings=[[0.0], [0.0]],
        metadatas=[{"namespace": "alice", "writes": 4}, {"namespace": "bob", "writes": 1}],
    )
    store.marks.modify(metadata={layout.FORMAT_KEY: 2})
    reopened = ChromaEpisodicStore.from_client(client)
    assert reopened.marks.metadata[layout.FORMAT_KEY] == layout.FORMAT_VERSION == 3
    assert sorted(reopened.marks.get(include=[])["ids"]) == sorted(
        [layout.marks_id("alice"), layout.marks_id("bob")]
    )
    assert reopened.written("alice") == {store.own_mark("alice")[0]: 1}  # type: ignore[index]
    assert {u.id for u in reopened.get("alice")} == {"a"} and reopened.namespaces() == {
        "alice": 1,
        "bob": 1,
    }


MANY_NAMESPACES = """
import sys
from datetime import UTC, datetime
import numpy as np
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.stores import layout
from ramem_integrations.stores.chroma import ChromaEpisodicStore
span = TimeSpan(datetime(2023, 1, 1, tzinfo=UTC), datetime(2023, 1, 2, tzinfo=UTC))
s = ChromaEpisodicStore.from_path(sys.argv[1])
rng = np.random.default_rng(0)
N = 150
for n in range(N):
    units = [
        MemoryUnit(f"{n}-{i}", f"text {i}", EpisodicContext("s", span), f"ns{n}", (f"t{i}",), "c")
        for i in range(20)
    ]
    v = rng.standard_normal((20, 16)).astype(np.float32)
    s.upsert(units, v)
bad = 0
for rep in range(2):
    for n in range(N):
        index = s.client.get_collection(layout.collection_name(s.name, f"ns{n}"))
        found = index.query(query_embeddings=rng.standard_normal((1, 16)), n_results=5)
        hits = found["ids"][0]
        bad += len(hits) != 5 or not all(h.startswith(f"{n}-") for h in hits)
print("namespaces", N, "bad queries", bad, "namespaces()", len(s.namespaces()))
"""


def test_many_namespaces_under_a_low_open_file_limit(tmp_path: Path) -> None:
    """Chroma keeps (open-file limit) / 5 indexes open; under macOS's default limit of 256 a
    store of 150 namespaces failed ("unable to open database file") until the store raised
    its soft limit."""
    import resource
    import subprocess
    import sys

    def low_limit() -> None:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        )

    done = subprocess.run(
        [sys.executable, "-c", MANY_NAMESPACES, str(tmp_path / "s")],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=low_limit,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "namespaces 150 bad queries 0 namespaces() 150"


@pytest.mark.parametrize("address", ["localhost", "localhost:", ":8000", "localhost:port", ""])
def test_a_malformed_server_address_is_a_store_error(address: str) -> None:
    from ramem_integrations.errors import StoreError
    from ramem_integrations.stores.chroma import server_client

    with pytest.raises(StoreError, match="HOST:PORT"):
        server_client(address)
