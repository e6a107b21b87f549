"""RaMemStore against LangGraph's own InMemoryStore: the same checks, side by side.

No store conformance suite ships in an installable package (``langgraph-checkpoint-conformance``
covers checkpointers only), so these are the checks of LangGraph's ``libs/checkpoint/tests/
test_store.py`` run against both stores, plus what only RaMemStore does (search by episode).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.base")

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from ramem_integrations.errors import InvalidInputError, InvalidTimeError
from ramem_integrations.langgraph import RaMemStore, ramem_namespace, store_namespace
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import CountingEmbedder, HashingEmbedder

NOW = datetime(2024, 9, 2, 9, 0, tzinfo=UTC)


def _ramem_store(tmp_path: Path) -> RaMemStore:
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    return RaMemStore(mem, clock=lambda: NOW)


STORES: dict[str, Callable[[Path], BaseStore]] = {
    "InMemoryStore": lambda _: InMemoryStore(),
    "RaMemStore": _ramem_store,
}


@pytest.fixture(params=list(STORES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> BaseStore:
    return STORES[request.param](tmp_path)


@pytest.fixture
def ramem_store(tmp_path: Path) -> RaMemStore:
    return _ramem_store(tmp_path)


def _fill(store: BaseStore, namespaces: list[tuple[str, ...]]) -> None:
    for i, ns in enumerate(namespaces):
        store.put(ns, f"id_{i}", {"data": f"value_{i:02d}"})


TREE = [
    ("a", "b", "c"),
    ("a", "b", "d", "e"),
    ("a", "b", "d", "i"),
    ("a", "b", "f"),
    ("a", "c", "f"),
    ("b", "a", "f"),
    ("users", "123"),
    ("users", "456", "settings"),
    ("admin", "users", "789"),
]

#: (list_namespaces arguments, expected result) on TREE, from LangGraph's own store tests.
LIST_CASES: list[tuple[dict[str, Any], list[tuple[str, ...]]]] = [
    ({"prefix": ("a", "b")}, [TREE[0], TREE[1], TREE[2], TREE[3]]),
    ({"suffix": ("f",)}, [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]),
    ({"prefix": ("a",), "suffix": ("f",)}, [("a", "b", "f"), ("a", "c", "f")]),
    ({"prefix": ("a", "b"), "max_depth": 3}, [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]),
    ({"prefix": ("a", "b"), "limit": 2}, [("a", "b", "c"), ("a", "b", "d", "e")]),
    ({"prefix": ("a", "b"), "offset": 2}, [("a", "b", "d", "i"), ("a", "b", "f")]),
    ({"prefix": ("a", "*", "f")}, [("a", "b", "f"), ("a", "c", "f")]),
    ({"suffix": ("*", "f")}, [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]),
    ({"prefix": ("nonexistent",)}, []),
    ({"prefix": ("users", "123")}, [("users", "123")]),
    ({"prefix": ("users", "*")}, [("users", "123"), ("users", "456", "settings")]),
    ({"prefix": ("*", "users"), "suffix": ("*", "settings")}, []),
    (
        {"max_depth": 2},
        [
            ("a", "b"),
            ("a", "c"),
            ("admin", "users"),
            ("b", "a"),
            ("users", "123"),
            ("users", "456"),
        ],
    ),
    ({}, sorted(TREE)),
]


@pytest.mark.parametrize(("arguments", "expected"), LIST_CASES, ids=[str(c[0]) for c in LIST_CASES])
def test_list_namespaces(store: BaseStore, arguments: dict[str, Any], expected: list[Any]) -> None:
    _fill(store, TREE)
    assert store.list_namespaces(**arguments) == expected


def test_list_namespaces_pagination_and_empty(store: BaseStore) -> None:
    assert store.list_namespaces() == []
    _fill(store, [("namespace", f"sub_{i:02d}") for i in range(20)])
    for offset in (0, 5, 15):
        got = store.list_namespaces(prefix=("namespace",), limit=5, offset=offset)
        assert got == [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


BAD_NAMESPACES = [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]


@pytest.mark.parametrize("namespace", BAD_NAMESPACES, ids=str)
def test_bad_namespaces_are_refused(store: BaseStore, namespace: tuple[str, ...]) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "foo", {"foo": "bar"})
    with pytest.raises(InvalidNamespaceError):
        asyncio.run(store.aput(namespace, "foo", {"foo": "bar"}))


def test_get_put_replace_delete(store: BaseStore) -> None:
    ns = ("foo", "langgraph", "foo")
    assert store.get(ns, "bar") is None
    store.put(ns, "bar", {"foo": "bar"})
    first = store.get(ns, "bar")
    assert first is not None and first.value == {"foo": "bar"}
    assert (first.namespace, first.key) == (ns, "bar")
    store.put(ns, "bar", {"foo": "baz"})
    second = store.get(ns, "bar")
    assert second is not None and second.value == {"foo": "baz"}
    assert second.updated_at >= first.updated_at
    assert store.search(ns)[0].value == {"foo": "baz"}
    store.delete(ns, "bar")
    assert store.get(ns, "bar") is None
    assert store.search(ns) == []
    store.delete(ns, "never-there")  # deleting a missing key is not an error


def test_batch_runs_every_op_kind(store: BaseStore) -> None:
    results = store.batch(
        [
            PutOp(("x", "y"), "k", {"n": 1}),
            PutOp(("x", "z"), "k", {"n": 2}),
        ]
    )
    assert results == [None, None]
    got, found, names = store.batch(
        [
            GetOp(("x", "y"), "k"),
            SearchOp(("x",), filter={"n": 2}),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("x",)),)),
        ]
    )
    assert got is not None and got.value == {"n": 1}  # type: ignore[union-attr]
    assert [i.value for i in found] == [{"n": 2}]  # type: ignore[union-attr]
    assert names == [("x", "y"), ("x", "z")]


def test_async_methods(store: BaseStore) -> None:
    async def run() -> tuple[Any, ...]:
        await store.aput(("a", "b"), "k", {"v": 1})
        got = await store.aget(("a", "b"), "k")
        found = await store.asearch(("a",))
        names = await store.alist_namespaces()
        await store.adelete(("a", "b"), "k")
        return got, found, names, await store.aget(("a", "b"), "k")

    got, found, names, gone = asyncio.run(run())
    assert got.value == {"v": 1}
    assert [i.key for i in found] == ["k"]
    assert names == [("a", "b")]
    assert gone is None


ITEMS = [
    (("docs", "a"), "d1", {"kind": "report", "score": 4.5, "meta": {"lang": "en"}}),
    (("docs", "b"), "d2", {"kind": "note", "score": 3.0, "meta": {"lang": "fr"}}),
    (("docs", "a"), "d3", {"kind": "report", "score": 2.0, "meta": {"lang": "fr"}}),
    (("other",), "d4", {"kind": "report", "score": 5.0}),
]

#: (filter, keys expected, in the order both stores list them)
FILTER_CASES: list[tuple[dict[str, Any] | None, list[str]]] = [
    (None, ["d1", "d3", "d2"]),
    ({"kind": "report"}, ["d1", "d3"]),
    ({"score": {"$gt": 3.0}}, ["d1"]),
    ({"score": {"$gte": 3.0}}, ["d1", "d2"]),
    ({"score": {"$lt": 3.0}, "kind": "report"}, ["d3"]),
    ({"kind": {"$ne": "report"}}, ["d2"]),
    ({"meta": {"lang": "fr"}}, ["d3", "d2"]),
    ({"kind": {"$eq": "note"}}, ["d2"]),
    ({"missing": "x"}, []),
]


@pytest.mark.parametrize(("filter", "keys"), FILTER_CASES, ids=[str(c[0]) for c in FILTER_CASES])
def test_search_with_filter(
    store: BaseStore, filter: dict[str, Any] | None, keys: list[str]
) -> None:
    for ns, key, value in ITEMS:
        store.put(ns, key, value)
    assert [i.key for i in store.search(("docs",), filter=filter)] == keys


def test_search_limit_and_offset(store: BaseStore) -> None:
    for ns, key, value in ITEMS:
        store.put(ns, key, value)
    assert [i.key for i in store.search(("docs",), limit=2)] == ["d1", "d3"]
    assert [i.key for i in store.search(("docs",), offset=1, limit=1)] == ["d3"]
    assert [i.key for i in store.search((), limit=10)] == ["d1", "d3", "d2", "d4"]


# -- what only RaMemStore does ------------------------------------------------------------


MARCH = {
    "text": "I saw the dentist, she said the wisdom tooth must come out",
    "time": "2024-03-12T18:00:00+00:00",
}
JULY = {"text": "Routine check-up at the dentist, all fine", "time": "2024-07-08T10:00:00+00:00"}


def test_namespace_mapping_is_reversible() -> None:
    for ns in [("memories", "alice"), ("a",), ("users", "u-1", "prefs")]:
        assert store_namespace(ramem_namespace(ns)) == ns
    assert ramem_namespace(("memories", "alice")) == "memories.alice"


def test_put_writes_a_memory_with_its_said_time(ramem_store: RaMemStore) -> None:
    ramem_store.put(("memories", "alice"), "m1", MARCH)
    (unit,) = ramem_store.memory.memories("memories.alice")
    assert "wisdom tooth must come out" in unit.content
    assert unit.context.session_span.start == datetime(2024, 3, 12, 18, tzinfo=UTC)
    assert unit.context.speaker == "user"
    ramem_store.put(("memories", "alice"), "m2", {"text": "No time given"})
    times = {u.context.session_span.start for u in ramem_store.memory.memories("memories.alice")}
    assert NOW in times  # the clock's "now"


def test_search_grounds_times_and_returns_episodes(ramem_store: RaMemStore) -> None:
    ns = ("memories", "alice")
    ramem_store.put(ns, "july", JULY)
    ramem_store.put(ns, "march", MARCH)
    found = ramem_store.search(ns, query="What did the dentist say in March?")
    assert [i.key for i in found] == ["march", "july"]
    episode = found[0].value["episode"]
    assert episode["reason"] == "context" and episode["matched"] == ["time March 2024"]
    assert episode["session_start"] == "2024-03-12T18:00:00+00:00"
    assert episode["speaker"] == "user"
    assert found[0].value["text"] == MARCH["text"]
    assert found[0].score is not None and found[0].score > 0
    assert found[1].value["episode"]["reason"] == "content"


def test_relative_times_ground_at_the_reference(ramem_store: RaMemStore) -> None:
    ns = ("memories", "alice")
    ramem_store.put(ns, "march", MARCH)
    ramem_store.put(ns, "july", JULY)
    question = "What did the dentist say last month?"
    in_april = ramem_store.search(ns, query=question, reference=datetime(2024, 4, 2, tzinfo=UTC))
    in_august = ramem_store.search(ns, query=question, reference=datetime(2024, 8, 2, tzinfo=UTC))
    assert in_april[0].key == "march" and in_april[0].value["episode"]["reason"] == "context"
    assert in_august[0].key == "july" and in_august[0].value["episode"]["reason"] == "context"
    with pytest.raises(InvalidTimeError):
        ramem_store.search(ns, query=question, reference=datetime(2024, 8, 2))


def test_concurrent_searches_each_ground_at_their_own_reference(ramem_store: RaMemStore) -> None:
    """The reference is an argument handed down, not state: searches in flight together (and
    a plain batch, at the clock's now) each read their own."""
    ns = ("memories", "alice")
    ramem_store.put(ns, "march", MARCH)
    ramem_store.put(ns, "july", JULY)
    question = "What did the dentist say last month?"
    april, august = datetime(2024, 4, 2, tzinfo=UTC), datetime(2024, 8, 2, tzinfo=UTC)

    async def both() -> list[list[SearchItem]]:
        searches = [ramem_store.asearch(ns, query=question, reference=at) for at in (april, august)]
        return list(await asyncio.gather(*searches))

    in_april, in_august = asyncio.run(both())
    assert (in_april[0].key, in_august[0].key) == ("march", "july")
    (at_now,) = ramem_store.batch([SearchOp(ns, query=question)])
    assert at_now == ramem_store.search(ns, query=question, reference=NOW)


def test_no_read_crosses_namespaces(ramem_store: RaMemStore) -> None:
    ramem_store.put(("memories", "alice"), "m", MARCH)
    ramem_store.put(("memories", "bob"), "m", {"text": "My dentist said my teeth are perfect"})
    found = ramem_store.search(("memories", "bob"), query="What did the dentist say in March?")
    assert [(i.namespace, i.value["text"]) for i in found] == [
        (("memories", "bob"), "My dentist said my teeth are perfect")
    ]
    assert ramem_store.get(("memories", "bob"), "m").value["text"].startswith("My dentist")  # type: ignore[union-attr]
    both = ramem_store.search(("memories",), query="dentist wisdom tooth")
    assert {i.namespace for i in both} == {("memories", "alice"), ("memories", "bob")}


def test_a_second_put_replaces_that_item_only(ramem_store: RaMemStore) -> None:
    ns = ("memories", "alice")
    ramem_store.put(ns, "march", MARCH)
    ramem_store.put(ns, "july", JULY)
    created = ramem_store.get(ns, "march").created_at  # type: ignore[union-attr]
    ramem_store.put(ns, "march", {**MARCH, "text": "The dentist said to floss more"})
    texts = sorted(u.content for u in ramem_store.memory.memories("memories.alice"))
    assert len(texts) == 2
    assert "floss more" in texts[1] and "Routine check-up" in texts[0]
    assert ramem_store.get(ns, "march").created_at == created  # type: ignore[union-attr]
    ramem_store.put(ns, "march", {**MARCH, "text": "The dentist said to floss more"})
    assert ramem_store.memory.count("memories.alice") == 2  # the same put again: no duplicate
    ramem_store.delete(ns, "march")
    assert [u.content for u in ramem_store.memory.memories("memories.alice")] == texts[:1]


def test_index_fields_and_items_without_text(ramem_store: RaMemStore) -> None:
    ns = ("memories", "alice")
    ramem_store.put(ns, "prefs", {"theme": "dark"})
    ramem_store.put(ns, "note", {"memory": "Dentist in March"}, index=["memory"])
    ramem_store.put(ns, "hidden", {"text": "Dentist again"}, index=False)
    (unit,) = ramem_store.memory.memories("memories.alice")
    assert "Dentist in March" in unit.content
    found = ramem_store.search(ns, query="dentist")
    assert found[0].key == "note"
    assert {i.key: i.score for i in found[1:]} == {"prefs": None, "hidden": None}


def test_bad_values_are_refused_before_anything_is_written(ramem_store: RaMemStore) -> None:
    ns = ("memories", "alice")
    with pytest.raises(InvalidTimeError, match="ISO 8601"):
        ramem_store.batch(
            [PutOp(ns, "ok", MARCH), PutOp(ns, "bad", {"text": "x", "time": "not a date"})]
        )
    with pytest.raises(InvalidInputError, match="JSON"):
        ramem_store.put(ns, "obj", {"text": "x", "when": object()})
    assert ramem_store.get(ns, "ok") is None
    assert ramem_store.memory.count("memories.alice") == 0


def test_the_store_persists_on_the_same_path(tmp_path: Path) -> None:
    first = RaMemStore(RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder()))
    first.put(("memories", "alice"), "march", MARCH)
    again = RaMemStore(RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder()))
    assert again.get(("memories", "alice"), "march").value == MARCH  # type: ignore[union-attr]
    assert again.search(("memories", "alice"), query="dentist")[0].key == "march"


def test_public_names_are_pinned() -> None:
    import ramem_integrations.langgraph as lg

    assert sorted(lg.__all__) == [
        "DEFAULT_NAMESPACE",
        "RaMemMiddleware",
        "RaMemStore",
        "escape_label",
        "memory_context",
        "memory_tools",
        "ramem_namespace",
        "store_namespace",
    ]
    for name in lg.__all__:
        assert getattr(lg, name) is not None


def test_concurrent_async_puts(ramem_store: RaMemStore) -> None:
    async def put_all() -> None:
        await asyncio.gather(
            *(
                ramem_store.aput(("memories", "alice"), f"m{n}", {"text": f"Note {n}"})
                for n in range(6)
            )
        )

    asyncio.run(put_all())
    assert sorted(i.key for i in ramem_store.search(("memories", "alice"))) == [
        f"m{n}" for n in range(6)
    ]
    assert ramem_store.memory.count("memories.alice") == 6


def test_item_times_come_from_the_injected_clock(tmp_path: Path) -> None:
    ticks = iter([NOW, NOW.replace(hour=10)])
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    store = RaMemStore(mem, clock=lambda: next(ticks))
    ns = ("memories", "alice")
    store.put(ns, "march", MARCH)  # MARCH has its own time: the clock stamps only the item
    store.put(ns, "march", {**MARCH, "text": "The dentist said to floss more"})
    item = store.get(ns, "march")
    assert item is not None
    assert (item.created_at, item.updated_at) == (NOW, NOW.replace(hour=10))


def test_a_batch_of_puts_embeds_its_texts_in_one_call(tmp_path: Path) -> None:
    """As InMemoryStore embeds a batch's texts in one call: five puts in two namespaces, one
    of them a re-put of a stored item (no memory to write) and one a key put twice."""
    embedder = CountingEmbedder()
    store = RaMemStore(RaMem.from_path(tmp_path / "s", embedder=embedder), clock=lambda: NOW)
    alice, bob = ("memories", "alice"), ("memories", "bob")
    store.put(alice, "march", MARCH)
    embedder.calls.clear()
    store.batch(
        [
            PutOp(alice, "march", MARCH),  # stored unchanged: nothing to embed
            PutOp(alice, "july", JULY),
            PutOp(bob, "tea", {"text": "I drink green tea", "speaker": "Bob"}),
            PutOp(bob, "bike", {"text": "My bike is a green Brompton", "speaker": "Bob"}),
            PutOp(bob, "tea", {"text": "I drink black tea now", "speaker": "Bob"}),
        ]
    )
    (call,) = embedder.calls
    words = [JULY["text"], "I drink green tea", "My bike is a green Brompton"]
    assert sorted(call) == sorted([*words, "I drink black tea now", "user", "Bob"])
    assert store.get(bob, "tea").value["text"] == "I drink black tea now"  # type: ignore[union-attr]
    assert sorted(u.content for u in store.memory.memories("memories.bob")) == [
        "I drink black tea now",
        "My bike is a green Brompton",
    ]  # the first tea's memory, replaced inside the batch, is gone
    assert store.memory.count("memories.alice") == 2
    found = store.search(bob, query="What tea do I drink?", limit=1)
    assert [(i.key, i.value["episode"]["speaker"]) for i in found] == [("tea", "Bob")]


def test_a_filtered_search_ranks_only_the_items_that_match(tmp_path: Path) -> None:
    """Forty items closer to the query than the one item the filter keeps: at limit=1 the
    filtered search returns that one, ranked (with its score and episode)."""
    store = _ramem_store(tmp_path)
    ns = ("memories", "alice")
    store.batch(
        [
            PutOp(ns, f"n{n}", {"text": f"The dentist said to floss, visit {n}", "kind": "noise"})
            for n in range(40)
        ]
        + [PutOp(ns, "bill", {"text": "Paid the clinic bill", "kind": "bill"})]
    )
    query = "What did the dentist say about flossing?"
    assert store.search(ns, query=query, limit=1)[0].key.startswith("n")
    (found,) = store.search(ns, query=query, filter={"kind": "bill"}, limit=1)
    assert found.key == "bill" and found.score is not None
    assert found.value["episode"]["reason"] == "content"
    offset = store.search(ns, query=query, filter={"kind": "noise"}, limit=3, offset=2)
    everything = store.search(ns, query=query, filter={"kind": "noise"}, limit=5)
    assert [i.key for i in offset] == [i.key for i in everything[2:5]]


def test_a_batch_runs_its_ops_in_order(ramem_store: RaMemStore) -> None:
    """Reads between puts see the puts before them; a key deleted later in the batch leaves
    neither its item nor its memory."""
    ns = ("memories", "alice")
    results = ramem_store.batch(
        [
            PutOp(ns, "march", MARCH),
            GetOp(ns, "march"),
            PutOp(ns, "march", None),
            PutOp(ns, "july", JULY),
            GetOp(ns, "march"),
            SearchOp(ns, query="dentist"),
        ]
    )
    assert results[1].value == MARCH  # type: ignore[union-attr]
    assert results[4] is None
    assert [i.key for i in results[5]] == ["july"]  # type: ignore[union-attr]
    assert [u.content for u in ramem_store.memory.memories("memories.alice")] == [JULY["text"]]
