"""The exact vector table a loaded namespace is ranked by, and the cache's bounds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.index.namespaces import BYTES_PER_MEMORY, NamespaceCache
from ramem_integrations.index.vectors import VectorTable, top


def brute_force(ids: list[str], matrix: np.ndarray, query: np.ndarray, k: int) -> list[str]:
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    sims = unit @ (query / np.linalg.norm(query))
    return [ids[j] for j in sorted(range(len(ids)), key=lambda j: (-sims[j], ids[j]))[:k]]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [1, 5, 50, 500])
def test_search_equals_brute_force_after_adds_replacements_and_removals(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    vectors = {f"m{i:03d}": rng.normal(size=16) for i in range(200)}
    table = VectorTable(list(vectors)[:120], np.array(list(vectors.values())[:120]))
    table.add(list(vectors)[120:], np.array(list(vectors.values())[120:]))
    for i in range(0, 200, 7):  # replace some
        vectors[f"m{i:03d}"] = rng.normal(size=16)
        table.add([f"m{i:03d}"], vectors[f"m{i:03d}"].reshape(1, -1))
    gone = [f"m{i:03d}" for i in range(0, 200, 3)]
    table.remove([*gone, "unknown"])
    for memory_id in gone:
        del vectors[memory_id]
    query = rng.normal(size=16)
    found = table.search(query, k)
    assert len(table) == len(vectors)
    assert [i for i, _ in found] == brute_force(
        list(vectors), np.array(list(vectors.values())), query, k
    )
    among = sorted(vectors)[::2]
    restricted = table.search(query, k, among=[*among, "m001", "unknown"])  # m001 is gone
    subset = {i: vectors[i] for i in among}
    assert [i for i, _ in restricted] == brute_force(
        list(subset), np.array(list(subset.values())), query, k
    )


@pytest.mark.parametrize(
    ("rows", "query", "k", "expected"),
    [
        (
            {"b": [1, 0], "a": [2, 0], "c": [0, 1]},
            [1, 0],
            2,
            [("a", 1.0), ("b", 1.0)],
        ),  # tie: by id
        ({"b": [1, 0], "a": [2, 0], "c": [0, 1]}, [1, 0], 1, [("a", 1.0)]),
        ({"x": [1, 1], "y": [-1, -1]}, [1, 1], 5, [("x", 1.0), ("y", -1.0)]),  # k past the size
        ({"x": [0, 0], "y": [0, 1]}, [0, 1], 2, [("y", 1.0), ("x", 0.0)]),  # a zero vector
        ({}, [0, 1], 3, []),
        ({"x": [1, 0]}, [1, 0], 0, []),
    ],
)
def test_search_cases(
    rows: dict[str, list[float]], query: list[float], k: int, expected: list[tuple[str, float]]
) -> None:
    table = VectorTable(list(rows), np.array(list(rows.values()), dtype=float))
    found = table.search(np.array(query, dtype=float), k)
    assert [i for i, _ in found] == [i for i, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected])


def test_a_write_between_two_searches_of_one_question_is_seen() -> None:
    """The similarities kept for a question are dropped by any add or remove."""
    table = VectorTable(["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]]))
    query = np.array([1.0, 0.2])
    assert [i for i, _ in table.search(query, 2)] == ["a", "b"]
    table.add(["c"], np.array([[1.0, 0.2]]))
    assert [i for i, _ in table.search(query, 2)] == ["c", "a"]
    assert [i for i, _ in table.search(query, 2, among=["a", "b"])] == ["a", "b"]
    table.add(["a"], np.array([[0.0, -1.0]]))  # replaced
    table.remove(["c"])
    assert table.search(query, 3) == [
        ("b", pytest.approx(0.196, abs=1e-3)),
        ("a", pytest.approx(-0.196, abs=1e-3)),
    ]


@pytest.mark.parametrize(
    ("values", "k", "expected"),
    [
        ([0.5, 0.9, 0.1], 2, ["r1", "r0"]),
        ([0.5, 0.5, 0.5, 0.9], 3, ["r3", "r0", "r1"]),  # ties at the cut: by id
        ([0.2, 0.7, 0.7], 5, ["r1", "r2", "r0"]),  # k past the size
        ([], 3, []),
    ],
)
def test_top_orders_by_value_then_id(values: list[float], k: int, expected: list[str]) -> None:
    ids = [f"r{i}" for i in range(len(values))]
    rows = np.arange(len(values))[::-1].copy()  # rows given in another order than their ids
    got = top(ids, rows, np.array(values)[rows], k)
    assert [i for i, _ in got] == expected


def test_among_nothing_known_finds_nothing() -> None:
    table = VectorTable(["a"], np.array([[1.0, 0.0]]))
    assert table.search(np.array([1.0, 0.0]), 3, among=[]) == []
    assert table.search(np.array([1.0, 0.0]), 3, among=["zz"]) == []


def test_vectors_of_another_width_are_refused() -> None:
    table = VectorTable(["a"], np.array([[1.0, 0.0]]))
    with pytest.raises(ValueError, match="3 dimensions"):
        table.add(["b"], np.array([[1.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="2 ids but 1 vectors"):
        table.add(["b", "c"], np.array([[1.0, 0.0]]))


def unit(namespace: str, i: int) -> MemoryUnit:
    when = datetime(2024, 1, 1, tzinfo=UTC)
    ctx = EpisodicContext(session_id="s", session_span=TimeSpan(when, when + timedelta(hours=1)))
    return MemoryUnit(f"{namespace}-{i}", f"note {i}", ctx, namespace=namespace)


def loader(size: int, dim: int = 64):  # type: ignore[no-untyped-def]
    loads: list[str] = []

    def load(namespace: str) -> tuple[list[MemoryUnit], np.ndarray]:
        loads.append(namespace)
        return [unit(namespace, i) for i in range(size)], np.ones((size, dim))

    return load, loads


def test_the_cache_drops_least_recently_used_namespaces_past_its_bytes() -> None:
    load, loads = loader(100)
    one = 100 * (64 * 8 + BYTES_PER_MEMORY)  # about what one namespace of 100 takes
    index = NamespaceCache(load, max_bytes=int(2.5 * one))
    for namespace in ["a", "b", "c"]:
        index.vectors(namespace)
    assert index.loaded("a") is None and index.loaded("b") and index.loaded("c")
    assert index.nbytes <= 2.5 * one
    index.vectors("b")  # b is recent now: d pushes c out
    index.vectors("d")
    assert index.loaded("c") is None and index.loaded("b") and index.loaded("d")
    assert loads == ["a", "b", "c", "d"]


def test_a_namespace_larger_than_the_bound_still_serves_its_query() -> None:
    load, _ = loader(100)
    index = NamespaceCache(load, max_bytes=10)
    assert len(index.vectors("a")) == 100 and index.loaded("a")
    index.vectors("b")
    assert index.loaded("a") is None and index.loaded("b")


def test_writes_keep_the_loaded_vectors_current_and_drop_them_without_vectors() -> None:
    load, loads = loader(3, dim=2)
    index = NamespaceCache(load)
    index.vectors("a")
    index.added("a", [unit("a", 7)], np.array([[0.0, 1.0]]))
    assert index.vectors("a").search(np.array([0.0, 1.0]), 1)[0][0] == "a-7"
    index.removed("a", ["a-7"])
    assert "a-7" not in {i for i, _ in index.vectors("a").search(np.array([0.0, 1.0]), 10)}
    index.added("a", [unit("a", 8)])  # no vectors: the namespace reloads when next asked for
    assert index.loaded("a") is None
    index.vectors("a")
    assert loads == ["a", "a"]
