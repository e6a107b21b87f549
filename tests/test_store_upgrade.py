"""Format versions: a store written by format 1 (one collection for every namespace) is refused
with an error naming ``ramem upgrade``, which moves it into a collection per namespace without
changing a byte of any memory or vector."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings

from ramem_integrations.app.cli import main
from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.errors import StoreError, StoreFormatError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores import upgrade as upgrade_module
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import synthetic_conversation
from tests.reliability.test_concurrency import chroma_server  # noqa: F401  (a fixture)
from tests.store_reads import nearest

NAMESPACES = ("alice", "bob", "team.ops")
QUESTIONS = ("the dentist in Paris", "pottery class last week", "Ann Bob hiking", "budget")


def client_at(path: Path) -> Any:
    return chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))


def write_format_1(path: Path | Any, name: str = "ramem_memories") -> dict[str, dict[str, Any]]:
    """A store as format 1 wrote it: every namespace in the collection ``name`` (cosine,
    no embedding function), marks in ``name.writes``. Returns the raw records by id.
    ``path``: the store's directory, or a chromadb client."""
    client = client_at(path) if isinstance(path, Path) else path
    old = client.get_or_create_collection(
        name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )
    client.get_or_create_collection(name + ".writes", embedding_function=None)
    embedder = HashingEmbedder()
    records: dict[str, dict[str, Any]] = {}
    for n, namespace in enumerate(NAMESPACES):
        conversation = synthetic_conversation(f"c{n}", 2, 12, seed=n)
        units = RuleAnchorer().anchor(conversation, namespace)
        vectors = embedder.embed([u.search_text for u in units])  # what format 1 stored
        metadatas = [u.to_metadata() for u in units]
        metadatas[0] = {**metadatas[0], "original_content": "kept as is", "source": "notes.txt"}
        old.upsert(
            ids=[u.id for u in units],
            documents=[u.content for u in units],
            metadatas=metadatas,
            embeddings=vectors,
        )
    got = old.get(include=["documents", "metadatas", "embeddings"])
    for i, doc, meta, vec in zip(
        got["ids"], got["documents"], got["metadatas"], got["embeddings"], strict=True
    ):
        records[i] = {"document": doc, "metadata": meta, "embedding": np.asarray(vec)}
    return records


def old_top(path: Path, namespace: str, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
    """What format 1 answered: a filtered query on the shared collection."""
    old = client_at(path).get_collection("ramem_memories", embedding_function=None)
    got = old.query(query_embeddings=[vector], n_results=k, where={"namespace": namespace})
    return [(i, 1.0 - d) for i, d in zip(got["ids"][0], got["distances"][0], strict=True)]


def same_ranking(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> bool:
    """The same similarities rank by rank, and the same ids wherever no tie at the cut
    decides (the hashing embedder gives equal vectors to texts of equal words)."""
    sims = [round(s, 5) for _, s in a]
    if sims != [round(s, 5) for _, s in b]:
        return False
    return {i for i, s in a if round(s, 5) > sims[-1]} == {
        i for i, s in b if round(s, 5) > sims[-1]
    }


def run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_format_1_is_refused_then_upgraded_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "store"
    records = write_format_1(path)
    embedder = HashingEmbedder()
    probes = {q: embedder.embed([q])[0] for q in QUESTIONS}
    before = {(ns, q): old_top(path, ns, v, 5) for ns in NAMESPACES for q, v in probes.items()}

    with pytest.raises(StoreFormatError, match=f"ramem upgrade --store {path}"):
        RaMem.from_path(path, embedder=embedder)
    code, _, err = run("query", "budget", "--store", str(path), "--namespace", "bob", capsys=capsys)
    assert code == 2 and "format version 1" in err and "ramem upgrade --store" in err

    code, out, _ = run("upgrade", "--store", str(path), "--json", capsys=capsys)
    assert code == 0
    result = json.loads(out)
    per_ns = {
        ns: sum(r["metadata"]["namespace"] == ns for r in records.values()) for ns in NAMESPACES
    }
    assert result == {"format": 3, "upgraded": True, "memories": len(records), "namespaces": per_ns}

    mem = RaMem.from_path(path, embedder=embedder)
    assert mem.namespaces() == per_ns
    assert "ramem_memories" not in {c.name for c in client_at(path).list_collections()}
    for ns in NAMESPACES:  # every record as it was: document, metadata, vector
        raw = mem.store._collection(ns)
        assert raw is not None
        got = raw.get(include=["documents", "metadatas", "embeddings"])
        assert len(got["ids"]) == per_ns[ns]
        for i, doc, meta, vec in zip(
            got["ids"], got["documents"], got["metadatas"], got["embeddings"], strict=True
        ):
            assert doc == records[i]["document"] and meta == records[i]["metadata"]
            assert np.array_equal(np.asarray(vec), records[i]["embedding"])
    for (ns, q), ranked in before.items():  # the same nearest memories as format 1 answered
        after = [(u.id, s) for u, s in nearest(mem.store, ns, probes[q], 5)]
        assert same_ranking(after, ranked), (ns, q)

    fresh = RaMem.from_path(tmp_path / "fresh", embedder=embedder)  # written in format 2
    for ns in NAMESPACES:  # the same memories and vectors (today's write path embeds otherwise)
        fresh.store.upsert(*mem.store.get_with_vectors(ns))
        for q in QUESTIONS:
            assert mem.retrieve(q, ns, 5) == fresh.retrieve(q, ns, 5)

    code, out, _ = run("upgrade", "--store", str(path), capsys=capsys)  # again: a no-op
    assert code == 0 and "nothing to do" in out
    assert mem.namespaces() == per_ns


def test_the_format_check_is_each_opening_s_own_setting(tmp_path: Path) -> None:
    """Only an opening with ``checked=False`` (the upgrade's) reads an old store; it leaves
    every other opening checked."""
    client = client_at(tmp_path / "store")
    records = write_format_1(client)
    unchecked = ChromaEpisodicStore(client, checked=False)
    legacy = unchecked.legacy_collection()
    assert legacy is not None and legacy.count() == len(records)
    with pytest.raises(StoreFormatError, match="format version 1"):
        ChromaEpisodicStore(client)
    with pytest.raises(StoreFormatError, match="format version 1"):
        ChromaEpisodicStore.from_client(client)


def test_an_interrupted_upgrade_finishes_on_a_second_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    records = write_format_1(path)
    monkeypatch.setattr(upgrade_module, "_PAGE", 10)
    calls = {"n": 0}
    real_put = ChromaEpisodicStore.put

    def failing_put(self: ChromaEpisodicStore, *args: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # Ctrl-C half way through
        real_put(self, *args, **kwargs)

    monkeypatch.setattr(ChromaEpisodicStore, "put", failing_put)
    with pytest.raises(KeyboardInterrupt):
        upgrade_module.upgrade(client_at(path))
    with pytest.raises(StoreFormatError):  # still format 1 until the upgrade finishes
        ChromaEpisodicStore.from_path(path)
    monkeypatch.setattr(ChromaEpisodicStore, "put", real_put)
    result = upgrade_module.upgrade(client_at(path))
    assert result["upgraded"] and result["memories"] == len(records)
    store = ChromaEpisodicStore.from_path(path)
    ids = [i for ns in NAMESPACES for i in store.ids(ns)]
    assert sorted(ids) == sorted(records)  # no duplicates, nothing lost


def test_records_without_a_namespace_stop_the_upgrade_before_any_write(tmp_path: Path) -> None:
    client = client_at(tmp_path)
    old = client.get_or_create_collection("ramem_memories", embedding_function=None)
    old.upsert(ids=["x"], documents=["no namespace"], embeddings=[[1.0, 0.0]], metadatas=[{"a": 1}])
    with pytest.raises(StoreError, match=r"1 records .* have no 'namespace'"):
        upgrade_module.upgrade(client)
    assert old.count() == 1


def test_a_newer_format_is_refused(tmp_path: Path) -> None:
    ChromaEpisodicStore.from_path(tmp_path)
    marks = client_at(tmp_path).get_collection("ramem_memories.writes")
    marks.modify(metadata={"ramem_format": 4})
    with pytest.raises(StoreFormatError, match=r"format version 4.*pip install -U"):
        ChromaEpisodicStore.from_path(tmp_path)


def test_upgrade_of_a_missing_store_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run("upgrade", "--store", str(tmp_path / "nope"), capsys=capsys)
    assert code == 2 and "is not a ramem store" in err
    code, _, err = run("upgrade", "--server", "localhost", capsys=capsys)
    assert code == 2 and "HOST:PORT" in err


@pytest.mark.reliability
def test_upgrade_through_a_chroma_server(
    chroma_server: str,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    host, port = chroma_server.rsplit(":", 1)
    client = chromadb.HttpClient(host=host, port=int(port))
    records = write_format_1(client, name="team_memory")
    with pytest.raises(StoreFormatError, match="--server HOST:PORT --collection team_memory"):
        RaMem.from_client(client, collection="team_memory", embedder=HashingEmbedder())
    argv = ("upgrade", "--server", chroma_server, "--collection", "team_memory", "--json")
    code, out, _ = run(*argv, capsys=capsys)
    assert code == 0 and json.loads(out)["memories"] == len(records)
    mem = RaMem.from_client(client, collection="team_memory", embedder=HashingEmbedder())
    assert mem.store.remote  # so ingestion writes beside embedding (Writer.overlap_writes)
    assert sum(mem.namespaces().values()) == len(records)
    for ns in NAMESPACES:
        units, vectors = mem.store.get_with_vectors(ns)
        for unit, vector in zip(units, vectors, strict=True):
            assert unit.content == records[unit.id]["document"]
            assert np.array_equal(vector, records[unit.id]["embedding"].astype(np.float32))
    code, out, _ = run(*argv, capsys=capsys)
    assert code == 0 and json.loads(out)["upgraded"] is False
