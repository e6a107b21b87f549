"""Re-embedding a namespace: a store written with older vectors brought to today's recipe."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ramem_integrations.app.cli import main
from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.errors import EmbeddingError, UnknownNamespaceError
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import Embedder, MiniLMEmbedder
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import synthetic_conversation


def old_store(
    path: Path, namespaces: tuple[str, ...] = ("ann",), embedder: Embedder | None = None
) -> RaMem:
    """A store whose vectors are the restatements' embeddings, as before memory_vectors."""
    embedder = embedder or HashingEmbedder()
    mem = RaMem.from_path(path, embedder=embedder)
    for n, namespace in enumerate(namespaces):
        units = RuleAnchorer().anchor(synthetic_conversation(f"c{n}", 2, 9, seed=n), namespace)
        mem.store.upsert(units, embedder.embed([u.search_text for u in units]))
    return mem


def by_id(mem: RaMem, namespace: str) -> dict[str, tuple[object, np.ndarray]]:
    units, vectors = mem.store.get_with_vectors(namespace)
    return {u.id: (u, v) for u, v in zip(units, vectors, strict=True)}


def test_reembed_writes_todays_vectors_and_nothing_else(tmp_path: Path) -> None:
    mem = old_store(tmp_path / "store")
    before = by_id(mem, "ann")
    mem.retrieve("pottery", "ann", 3)  # a loaded cache must not keep the old vectors
    seen: list[int] = []
    assert mem.reembed("ann", progress=seen.append) == len(before) == sum(seen)
    after = by_id(mem, "ann")
    assert {i: u for i, (u, _) in after.items()} == {i: u for i, (u, _) in before.items()}
    units = [u for u, _ in after.values()]
    expected = memory_vectors(HashingEmbedder(), units)
    got = np.stack([v for _, v in after.values()])
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert not np.allclose(got, np.stack([v for _, v in before.values()]), atol=1e-3)

    fresh = RaMem.from_path(tmp_path / "fresh", embedder=HashingEmbedder())
    fresh.add_memories(units)  # written today: the same vectors, so the same answers
    for question in ("pottery", "What did Bob say about the dentist?", "tea with Ann"):
        assert mem.retrieve(question, "ann", 5) == fresh.retrieve(question, "ann", 5)
    assert mem.reembed("ann") == len(before)  # again: the same vectors
    np.testing.assert_allclose(np.stack([v for _, v in by_id(mem, "ann").values()]), got)


def test_reembed_never_writes_back_a_memory_deleted_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = old_store(tmp_path / "store")
    units = mem.store.get("ann")
    gone = units[0].id
    monkeypatch.setattr(mem.store, "get", lambda namespace, **kw: units)  # read before the delete
    mem.store.delete("ann", ids=[gone])
    assert mem.reembed("ann") == len(units)
    monkeypatch.undo()
    assert gone not in mem.store.ids("ann") and len(mem.store.ids("ann")) == len(units) - 1


def test_reembed_of_an_unknown_namespace_names_no_other(tmp_path: Path) -> None:
    mem = old_store(tmp_path / "store")
    with pytest.raises(UnknownNamespaceError, match="'anne'") as raised:
        mem.reembed("anne")
    assert "'ann'" not in str(raised.value)  # other namespaces' names are their users' data


def test_cli_reembeds_every_namespace_with_the_packaged_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "store"
    old = old_store(path, ("ann", "bob"), MiniLMEmbedder())
    counts = {ns: len(old.store.ids(ns)) for ns in ("ann", "bob")}
    assert main(["reembed", "--store", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"reembedded": counts}
    mem = RaMem.from_path(path)  # the packaged MiniLM, as the command used
    units, vectors = mem.store.get_with_vectors("bob")
    np.testing.assert_allclose(vectors, memory_vectors(mem.embedder, units), atol=1e-5)

    assert main(["reembed", "--store", str(path), "--namespace", "carl"]) == 2
    assert "No memories were ever written to namespace 'carl'" in capsys.readouterr().err


def test_another_dimension_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    mem = old_store(tmp_path / "store")  # 64-dimensional vectors
    before = by_id(mem, "ann")
    other = RaMem.from_path(tmp_path / "store", embedder=MiniLMEmbedder())
    with pytest.raises(EmbeddingError, match=r"holds 64-dimensional vectors.*ramem export"):
        other.reembed("ann")
    after = by_id(mem, "ann")
    assert all(np.array_equal(after[i][1], before[i][1]) for i in before)
