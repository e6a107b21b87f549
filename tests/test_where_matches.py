"""The Python where-clause evaluator (used to filter cached lexical candidates) agrees with
Chroma on the clauses ``where_for`` and ``scoped`` write, and the lexical cache stays current."""

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ramem_integrations.memory import RaMem
from ramem_integrations.stores.chroma import matches, scoped, where_for
from tests.test_retrieval import filters_strategy, memories_strategy, memory


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=memories_strategy, where=filters_strategy)
def test_python_where_agrees_with_chroma(fake_mem: RaMem, rows: Any, where: Any) -> None:
    fake_mem.forget("ns")
    units = [
        memory(i, f"memory number {i}", s, p, e, ents, loc)
        for i, (s, e, p, ents, loc) in enumerate(rows)
    ]
    fake_mem.add_memories(units)
    clause = scoped("ns", where_for(where))
    in_python = {u.id for u in units if matches(clause, u.to_metadata())}
    assert in_python == set(fake_mem.store.ids("ns", where=where_for(where)))


@pytest.mark.parametrize(
    "clause",
    [{"namespace": {"$ne": "ns"}}, {"$not": {}}, {"a": 1, "b": 2}, {"topic": {"$nin": ["x"]}}],
)
def test_unknown_clauses_are_refused(clause: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        matches(clause, {"namespace": "ns", "topic": "y"})


def test_lexical_cache_follows_writes_moves_and_deletes(fake_mem: RaMem) -> None:
    first = memory(1, "Ann: the blue kite flew", 1)
    fake_mem.add_memories([first])
    assert [h.memory.id for h in fake_mem.retrieve("blue kite", "ns", 3, mode="bm25")] == ["m001"]
    moved = replace(first, namespace="other")
    fake_mem.add_memories([moved])  # same id, another namespace: it leaves "ns"
    assert fake_mem.retrieve("blue kite", "ns", 3, mode="bm25") == []
    assert [h.memory.namespace for h in fake_mem.retrieve("blue kite", "other", 3)] == ["other"]
    fake_mem.store.delete("other", ids=[first.id])  # behind RaMem's back
    assert fake_mem.retrieve("blue kite", "other", 3, mode="bm25") == []


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=memories_strategy, where=filters_strategy)
def test_dense_by_cached_ids_equals_dense_by_where(fake_mem: RaMem, rows: Any, where: Any) -> None:
    fake_mem.forget("ns")
    units = [
        memory(i, f"memory number {i} about kites", s, p, e, ents, loc)
        for i, (s, e, p, ents, loc) in enumerate(rows)
    ]
    fake_mem.add_memories(units)
    fake_mem.lexical.index("ns")  # loaded: dense filters by the cached ids
    vector = fake_mem.embedder.embed(["kites"])[0]
    by_where = fake_mem.store.query("ns", vector, 10, where=where_for(where))
    by_ids = fake_mem.source.dense("ns", "kites", 10, where)
    assert [u.id for u, _ in by_ids] == [u.id for u, _ in by_where]
