"""The LangGraph store, tools and middleware under the inputs of issue 31 (items 4, 5, 7, 8 and
15): real agents, real Chroma on a temporary path, the hashing embedder."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.store.base import InvalidNamespaceError, PutOp

from examples.langgraph_agent_memory import ScriptedToolModel, UserContext
from ramem_integrations.adapters_common.context import HEADER
from ramem_integrations.errors import RamemError
from ramem_integrations.langgraph import RaMemMiddleware, RaMemStore, memory_tools
from ramem_integrations.langgraph.items import item_id, prefixes
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability

NOW = datetime(2025, 6, 2, 18, tzinfo=UTC)
ALICE = ("memories", "alice")
FACTS = [
    "My sister Ana lives in Porto.",
    "I am allergic to peanuts.",
    "My bike is a green Brompton.",
]


def open_store(path: Path) -> RaMemStore:
    return RaMemStore(RaMem.from_path(path, embedder=HashingEmbedder()), clock=lambda: NOW)


@pytest.fixture
def store(tmp_path: Path) -> RaMemStore:
    return open_store(tmp_path / "store")


class RepeatedIdModel(ScriptedToolModel):
    """A model whose tool-call ids restart every turn (``call_0``), as many providers' do."""

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        reply = super()._reply(messages)
        calls = [{**call, "id": "call_0"} for call in reply.tool_calls]
        return AIMessage(content=reply.content, tool_calls=calls) if calls else reply


def agent(store: RaMemStore, **middleware: Any) -> Any:
    return create_agent(
        RepeatedIdModel(inputs=[]),
        tools=memory_tools(),
        store=store,
        context_schema=UserContext,
        middleware=[RaMemMiddleware(**middleware)] if middleware else [],
    )


def said(store: RaMemStore, namespace: tuple[str, ...]) -> list[str]:
    return sorted(i.value["text"] for i in store.search(namespace, limit=100))


# -- item 4: save_memory keys ------------------------------------------------------------------


def test_save_memory_keeps_every_fact_when_tool_call_ids_repeat(store: RaMemStore) -> None:
    bot = agent(store)
    for fact in FACTS:
        bot.invoke({"messages": [HumanMessage(fact)]}, context={"user_id": "alice"})
    assert said(store, ALICE) == sorted(FACTS)
    bot.invoke({"messages": [HumanMessage(FACTS[0])]}, context={"user_id": "alice"})
    assert said(store, ALICE) == sorted(FACTS)  # saved again: not a copy
    assert store.memory.count("memories.alice") == 3


# -- items 7 and 15: user ids with periods -----------------------------------------------------


def test_a_dotted_user_id_never_reads_another_users_namespace(store: RaMemStore) -> None:
    store.put(("memories", "alice", "t1"), "pin", {"text": "My bank PIN is 4921."})
    bot = agent(store, k=5)
    state = bot.invoke(
        {"messages": [HumanMessage("What is my bank PIN?")]}, context={"user_id": "alice.t1"}
    )
    inputs = " ".join(m.text for m in state["messages"])
    assert "4921" not in inputs
    with pytest.raises(InvalidNamespaceError, match=r"cannot contain '\.'") as caught:
        store.recall(("memories", "alice.t1"), "What is my bank PIN?")
    assert isinstance(caught.value, RamemError)


def test_the_middleware_of_a_dotted_user_id_puts_no_other_memory_in_the_model_input(
    store: RaMemStore,
) -> None:
    store.put(("memories", "alice", "t1"), "pin", {"text": "My bank PIN is 4921."})
    model = RepeatedIdModel(inputs=[])
    bot = create_agent(
        model, tools=[], store=store, context_schema=UserContext, middleware=[RaMemMiddleware()]
    )
    bot.invoke(
        {"messages": [HumanMessage("What is my bank PIN?")]}, context={"user_id": "alice.t1"}
    )
    seen = " ".join(m.text for inputs in model.inputs for m in inputs)
    assert HEADER not in seen and "4921" not in seen


def test_an_email_user_id_saves_and_finds_its_own_memories(store: RaMemStore) -> None:
    bot = agent(store, k=5)
    user = {"user_id": "john.smith@example.com"}
    bot.invoke({"messages": [HumanMessage(FACTS[1])]}, context=user)
    state = bot.invoke({"messages": [HumanMessage("What am I allergic to?")]}, context=user)
    assert "peanuts" in state["messages"][-1].text
    assert store.list_namespaces() == [("memories", "john%2Esmith@example%2Ecom")]
    other = bot.invoke(
        {"messages": [HumanMessage("What am I allergic to?")]},
        context={"user_id": "john%2Esmith@example%2Ecom"},  # its escaped form is another user
    )
    assert "peanuts" not in other["messages"][-1].text


# -- item 8: labels that would share a row -----------------------------------------------------


def test_labels_holding_row_id_separators_cannot_share_a_row(store: RaMemStore) -> None:
    store.put(("memories", "alice", "x"), "k", {"text": "Alice's own note."})
    for namespace in [("memories", "alice\x1fx"), ("memories", "alice\x1e", "x")]:
        with pytest.raises(InvalidNamespaceError, match="cannot contain") as caught:
            store.put(namespace, "k", {"text": "Someone else's note."})
        assert isinstance(caught.value, RamemError)
        with pytest.raises(InvalidNamespaceError):
            store.get(namespace, "k")
    item = store.get(("memories", "alice", "x"), "k")
    assert item is not None and item.value == {"text": "Alice's own note."}
    assert store.list_namespaces() == [("memories", "alice", "x")]


# -- item 15: bad values, keys, times, filters and limits --------------------------------------


def _deep(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"text": "bottom"}
    for _ in range(depth):
        value = {"inner": value}
    return value


BAD_PUTS: list[tuple[str, Any, Any, str]] = [
    ("a list value", "k", ["I like tea"], "must be a dict"),
    ("a string value", "k", "I like tea", "must be a dict"),
    ("an int value", "k", 42, "must be a dict"),
    ("a 10,000-deep value", "k", _deep(10_000), "nested too deeply"),
    ("key None", None, {"text": "I like tea"}, "key must be a non-empty string"),
    ("key 7", 7, {"text": "I like tea"}, "key must be a non-empty string"),
    ("time 0", "k", {"text": "I like tea", "time": 0}, "ISO 8601"),
    ("time ''", "k", {"text": "I like tea", "time": ""}, "ISO 8601"),
]


@pytest.mark.parametrize(
    ("key", "value", "message"), [c[1:] for c in BAD_PUTS], ids=[c[0] for c in BAD_PUTS]
)
def test_bad_puts_are_refused_before_anything_is_written(
    store: RaMemStore, key: Any, value: Any, message: str
) -> None:
    store.put(ALICE, "kept", {"text": "I like coffee."})
    with pytest.raises(RamemError, match=message) as caught:
        store.put(ALICE, key, value)
    assert isinstance(caught.value, ValueError)  # what LangGraph users catch
    assert [i.key for i in store.search(ALICE)] == ["kept"]
    assert store.memory.count("memories.alice") == 1


BAD_SEARCHES: list[tuple[str, dict[str, Any], str]] = [
    ("limit -1", {"limit": -1}, "limit must be an integer"),
    ("offset -2", {"offset": -2}, "offset must be an integer"),
    ("an unknown operator", {"filter": {"n": {"$in": [1]}}}, "Unknown filter operator"),
    ("$gt of text", {"filter": {"n": {"$gt": "five"}}}, "compares numbers"),
]


@pytest.mark.parametrize(
    ("arguments", "message"), [c[1:] for c in BAD_SEARCHES], ids=[c[0] for c in BAD_SEARCHES]
)
def test_bad_searches_are_refused_with_a_value_error(
    store: RaMemStore, arguments: dict[str, Any], message: str
) -> None:
    for n in range(3):
        store.put(ALICE, f"k{n}", {"text": f"Note {n}.", "n": n})
    with pytest.raises(RamemError, match=message) as caught:
        store.search(ALICE, **arguments)
    assert isinstance(caught.value, ValueError)


def test_an_ordering_filter_matches_numbers_only(store: RaMemStore) -> None:
    store.put(ALICE, "a", {"text": "Note a.", "n": 3})
    store.put(ALICE, "b", {"text": "Note b.", "n": 9})
    assert store.search(ALICE, filter={"text": {"$gt": 5}}) == []  # text is not a number
    assert [i.key for i in store.search(ALICE, filter={"n": {"$gt": 5}})] == ["b"]


# -- item 5: two writers putting one key -------------------------------------------------------


def consistent(store: RaMemStore, key: str) -> None:
    """The item's memory is the only one of its key that reads return, with its text."""
    item = store.get(ALICE, key)
    assert item is not None
    hits = store.recall(ALICE, item.value["text"], k=100)
    mine = [h.memory.content for h in hits if h.memory.conversation_id == f"langgraph:{key}"]
    assert mine == [item.value["text"]]
    (found,) = [i for i in store.search(ALICE, query=item.value["text"]) if i.key == key]
    assert found.value["text"] == item.value["text"]


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_put_inside_another_put_of_the_key_never_conflicts_and_ends_consistent(
    tmp_path: Path, when: str
) -> None:
    """Two writers (two stores over one path, as two workers): the second's whole put of a
    key lands just before, or just after, the first one writes its memory."""
    first, second = open_store(tmp_path / "store"), open_store(tmp_path / "store")
    first.put(ALICE, "k", {"text": "Version zero: the garden."})
    write = first.memory.add_memories  # where a put writes its memory

    def interleaved(*args: Any, **kwargs: Any) -> list[str]:
        if when == "before":
            second.put(ALICE, "k", {"text": "Second writer: the bread."})
        ids = write(*args, **kwargs)
        if when == "after":
            second.put(ALICE, "k", {"text": "Second writer: the bread."})
        return ids

    first.memory.add_memories = interleaved  # type: ignore[method-assign]
    first.put(ALICE, "k", {"text": "First writer: the lake."})
    consistent(open_store(tmp_path / "store"), "k")


def test_two_writers_putting_one_key_never_conflict_and_end_consistent(tmp_path: Path) -> None:
    """Two stores over one path, each in its own thread, putting new values of one key."""
    writers = [open_store(tmp_path / "store") for _ in range(2)]
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for version in range(20):
                text = f"Writer {n} version {version}: the garden and the bread."
                writers[n].put(ALICE, "k", {"text": text})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    consistent(open_store(tmp_path / "store"), "k")


def test_re_putting_a_value_repairs_its_lost_memory(store: RaMemStore) -> None:
    value = {"text": "I saw the dentist today.", "time": "2024-03-12T18:00:00+00:00"}
    store.put(ALICE, "m1", value)
    store.memory.forget("memories.alice")  # the memory lost, as a crash of the old put did
    assert store.recall(ALICE, "dentist") == []
    store.put(ALICE, "m1", value)
    (hit,) = store.recall(ALICE, "dentist")
    assert hit.memory.content == value["text"]


# -- stores written before this version ----------------------------------------------------------


def _old_put(store: RaMemStore, namespace: tuple[str, ...], key: str, text: str) -> None:
    """What ``put`` wrote at 53cc507: the memory under turn id ``item``, a row naming none."""
    when = datetime(2024, 3, 12, 18, tzinfo=UTC)
    name = ".".join(namespace)
    store.memory.add_turns(
        [{"id": "item", "speaker": "user", "text": text, "time": when}],
        name,
        session_time=when,
        session_id=key,
        conversation_id=f"langgraph:{key}",
    )
    meta = {
        "namespace": name,
        "prefixes": prefixes(namespace),
        "key": key,
        "created_at": when.isoformat(),
        "updated_at": when.isoformat(),
        "text": text,
        "time": when.isoformat(),
        "speaker": "user",
    }
    store.items.collection.upsert(
        ids=[item_id(namespace, key)],
        documents=[json.dumps({"text": text, "time": when.isoformat()})],
        metadatas=[meta],
        embeddings=[[1.0]],
    )


def test_items_of_an_older_store_are_found_and_replaced_cleanly(tmp_path: Path) -> None:
    old = open_store(tmp_path / "store")
    _old_put(old, ALICE, "m1", "I saw the dentist today.")
    store = open_store(tmp_path / "store")
    (found,) = store.search(ALICE, query="dentist")
    assert found.key == "m1" and found.score is not None
    assert [h.memory.content for h in store.recall(ALICE, "dentist")] == [
        "I saw the dentist today."
    ]
    store.put(ALICE, "m1", {"text": "The dentist moved to Elm Street."})
    assert [m.content for m in store.memory.memories("memories.alice")] == [
        "The dentist moved to Elm Street."
    ]


@pytest.mark.parametrize(
    "namespace",
    [("memories", "alice.t1"), ("memories", ""), ("a", 3), ("memories", "alice\x1fx")],
    ids=["period", "empty", "not text", "row separator"],
)
def test_every_operation_refuses_a_bad_label(store: RaMemStore, namespace: tuple[Any, ...]) -> None:
    """LangGraph's own methods refuse what LangGraph refuses; the store's check refuses the
    rest, and everything reaching it directly (ops in a batch, recall) as a RamemError too."""
    calls = [
        lambda: store.put(namespace, "k", {"text": "Note."}),
        lambda: store.get(namespace, "k"),
        lambda: store.delete(namespace, "k"),
        lambda: store.search(namespace, query="note"),
        lambda: store.list_namespaces(prefix=namespace),
        lambda: store.batch([PutOp(namespace, "k", {"text": "Note."})]),
        lambda: store.recall(namespace, "note"),
    ]
    for call in calls:
        with pytest.raises(InvalidNamespaceError, match="label"):
            call()
    for call in calls[-2:]:
        with pytest.raises(RamemError, match="label"):
            call()
    assert store.list_namespaces() == []
