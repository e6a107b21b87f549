"""Forgetting (by memory, by conversation, by namespace) and JSONL backups that round-trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ramem_integrations.app import cli
from ramem_integrations.app.backup import export_namespace, import_file, read_export
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import DataFormatError
from ramem_integrations.memory.ramem import MODES, RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import WORDS, synthetic_conversation

pytestmark = pytest.mark.reliability

CONV_A = synthetic_conversation("conv-a", 3, 10, seed=1)
CONV_B = synthetic_conversation("conv-b", 2, 10, seed=2)
QUERIES = [*WORDS, "What did Ann say about the dentist last week?", "Bob Paris"]


def returned(mem: RaMem, ns: str) -> set[str]:
    """Every id any mode returns for any of the queries (k large)."""
    return {
        h.memory.id for q in QUERIES for mode in MODES for h in mem.retrieve(q, ns, 50, mode=mode)
    }


@pytest.fixture
def mem(tmp_path: Path) -> RaMem:
    memory = RaMem(ChromaEpisodicStore.from_path(tmp_path / "store"), embedder=HashingEmbedder())
    memory.add_conversation(CONV_A, "ann")
    memory.add_conversation(CONV_B, "ann")
    memory.add_conversation(CONV_A, "ben")
    return memory


def test_forgotten_memories_are_never_returned(mem: RaMem) -> None:
    assert returned(mem, "ann")  # BM25 indexes are loaded before forgetting
    victims = sorted(u.id for u in mem.memories("ann"))[:5]
    assert mem.forget("ann", ids=victims) == 5
    assert not returned(mem, "ann") & set(victims)
    assert mem.forget("ann", ids=victims) == 0  # idempotent

    b_ids = {u.id for u in mem.memories("ann") if u.conversation_id == "conv-b"}
    assert mem.forget("ann", conversation_id="conv-b") == len(b_ids) >= 15
    assert not returned(mem, "ann") & b_ids
    assert all(u.conversation_id == "conv-a" for u in mem.memories("ann"))

    assert mem.forget("ann") == 50 - 5 - len(b_ids) + len(b_ids & set(victims))
    assert returned(mem, "ann") == set() and mem.count("ann") == 0
    assert mem.count("ben") == 30  # the other namespace is untouched
    fresh = RaMem(mem.store, embedder=HashingEmbedder())  # and after a restart
    assert returned(fresh, "ann") == set()
    assert mem.forget("ben", ids=[next(iter(b_ids))]) == 0  # an id of another namespace


def test_export_import_round_trip(mem: RaMem, tmp_path: Path) -> None:
    out = tmp_path / "ann.jsonl"
    assert export_namespace(mem, "ann", out) == 50
    target = RaMem(ChromaEpisodicStore.from_path(tmp_path / "other"), embedder=HashingEmbedder())
    first, again = import_file(target, out), import_file(target, out)
    assert (first["read"], first["added"], first["changed"]) == (50, 50, 0)
    assert (again["added"], again["changed"], again["written"]) == (0, 0, 0)  # no duplicates
    assert target.store.ids("ann") and len(target.store.ids("ann")) == 50
    original = sorted(mem.memories("ann"), key=lambda u: u.id)
    assert sorted(target.memories("ann"), key=lambda u: u.id) == original  # ids, content, context
    for q in QUERIES:  # the restored BM25 ranking is the same
        assert target.retrieve(q, "ann", 10, mode="bm25") == mem.retrieve(q, "ann", 10, mode="bm25")
    again = tmp_path / "again.jsonl"
    export_namespace(target, "ann", again)
    assert again.read_bytes() == out.read_bytes()  # export is deterministic


def test_import_into_another_namespace_leaves_the_source(mem: RaMem, tmp_path: Path) -> None:
    out = tmp_path / "ann.jsonl"
    export_namespace(mem, "ann", out)
    before = sorted(mem.memories("ann"), key=lambda u: u.id)
    assert import_file(mem, out, "ann-copy") == {
        "namespace": "ann-copy",
        "read": 50,
        "added": 50,
        "changed": 0,
        "written": 50,
    }
    assert sorted(mem.memories("ann"), key=lambda u: u.id) == before
    copies = mem.memories("ann-copy")

    def body(units: list[MemoryUnit]) -> list[tuple[object, ...]]:
        return sorted((u.content, u.context, u.source_ids, u.conversation_id) for u in units)

    assert len(copies) == 50 and body(copies) == body(before)
    assert not {u.id for u in copies} & {u.id for u in before}


def test_cli_export_import(
    mem: RaMem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)
    store = str(tmp_path / "store")
    out = tmp_path / "b.jsonl"
    assert cli.main(["export", "--store", store, "--namespace", "ben", "--out", str(out)]) == 0
    assert cli.main(["import", str(out), "--store", str(tmp_path / "new"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {
        "namespace": "ben",
        "read": 30,
        "added": 30,
        "changed": 0,
        "written": 30,
    }
    assert cli.main(["import", str(out), "--store", str(tmp_path / "new"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {
        "namespace": "ben",
        "read": 30,
        "added": 0,
        "changed": 0,
        "written": 0,
    }
    restored = RaMem.from_path(tmp_path / "new", embedder=HashingEmbedder())
    assert sorted(restored.memories("ben"), key=lambda u: u.id) == sorted(
        mem.memories("ben"), key=lambda u: u.id
    )


def _corrupt(lines: list[str]) -> dict[str, list[str]]:
    meta = json.loads(lines[1])
    wrong_ns = {**meta, "metadata": {**meta["metadata"], "namespace": "eve"}}
    extra = {**meta, "metadata": {**meta["metadata"], "secret": "x"}}
    no_span = {
        **meta,
        "metadata": {k: v for k, v in meta["metadata"].items() if k != "session_end"},
    }
    return {
        "truncated last line": [*lines[:-1], lines[-1][: len(lines[-1]) // 2]],
        "a line missing": lines[:-1],
        "no header": lines[1:],
        "header of another format": [json.dumps({"format": "csv"}), *lines[1:]],
        "future version": [lines[0].replace('"version": 1', '"version": 9'), *lines[1:]],
        "memory of another namespace": [lines[0], json.dumps(wrong_ns), *lines[2:]],
        "unknown metadata field": [lines[0], json.dumps(extra), *lines[2:]],
        "context field missing": [lines[0], json.dumps(no_span), *lines[2:]],
        "not JSON": [lines[0], "hello", *lines[2:]],
        "empty": [],
    }


def test_bad_backups_are_refused_and_write_nothing(mem: RaMem, tmp_path: Path) -> None:
    out = tmp_path / "ann.jsonl"
    export_namespace(mem, "ann", out)
    lines = out.read_text().splitlines()
    target = RaMem(ChromaEpisodicStore.from_path(tmp_path / "t"), embedder=HashingEmbedder())
    for name, body in _corrupt(lines).items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(body) + ("\n" if body else ""))
        with pytest.raises(DataFormatError):
            read_export(bad)
        with pytest.raises(DataFormatError):
            import_file(target, bad)
        assert target.namespaces() == {}, name
