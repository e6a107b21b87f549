"""A real ``create_agent`` agent with RaMemStore, the memory tools and RaMemMiddleware."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langgraph.store.memory import InMemoryStore

from examples.langgraph_agent_memory import (
    MARCH_SAID,
    Clock,
    ScriptedToolModel,
    UserContext,
    first_memory,
    in_memory_store,
    ramem_store,
    run,
)
from ramem_integrations.adapters_common.context import HEADER
from ramem_integrations.core.serialise import quote, shown_name
from ramem_integrations.errors import InvalidInputError, NamespaceError
from ramem_integrations.langgraph import RaMemMiddleware, RaMemStore, memory_tools
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.tokens import count_tokens
from ramem_integrations.testing import HashingEmbedder

MARCH_Q = "What did the dentist say in March?"
OTHER_USER = {"alice": ("teeth are perfect", "floss more"), "bob": ("wisdom tooth", "looks fine")}

#: (user, question, RaMemStore's first memory, InMemoryStore's): the docs/langgraph.md table
FIRST: list[tuple[str, str, str, str]] = [
    ("alice", "What did the dentist say last month?", "Routine check-up", "wisdom tooth"),
    ("bob", "What did the dentist say last month?", "floss more", "teeth are perfect"),
    ("alice", MARCH_Q, "wisdom tooth", "wisdom tooth"),
    ("bob", MARCH_Q, "teeth are perfect", "teeth are perfect"),
    ("alice", "What did the dentist tell me in the spring?", "wisdom tooth", "looks fine"),
    (
        "bob",
        "What did the dentist tell me in the spring?",
        "teeth are perfect",
        "teeth are perfect",
    ),
]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    clock = Clock()
    path = str(tmp_path_factory.mktemp("agent"))
    model, ours = run(ramem_store(path, clock), clock, middleware=True)
    _, theirs = run(in_memory_store(), Clock(), middleware=False)
    return {"model": model, "ours": ours, "theirs": theirs}


@pytest.mark.slow
def test_the_march_memory_is_the_first_thing_in_the_models_input(
    scenario: dict[str, Any],
) -> None:
    (record,) = [r for r in scenario["ours"] if r["user"] == "alice" and r["text"] == MARCH_Q]
    system = record["model_input"][0]
    assert isinstance(system, SystemMessage)
    assert system.text.startswith(HEADER + "\n\n[1] said 12 March 2024")
    first_block = system.text.split("\n[2] said ")[0]
    assert "wisdom tooth must come out" in first_block
    assert first_memory(system.text) == first_memory(record["tool_result"])
    assert "wisdom tooth must come out" in record["reply"]
    assert system.text.endswith("You are a helpful assistant with a long-term memory.")


@pytest.mark.slow
def test_the_other_users_memories_never_appear(scenario: dict[str, Any]) -> None:
    assert len(scenario["ours"]) == 10
    for record in scenario["ours"]:
        seen = "\n".join(m.text for m in record["model_input"]) + record["tool_result"]
        for words in OTHER_USER[record["user"]]:
            assert words not in seen, (record["user"], record["text"])


@pytest.mark.slow
@pytest.mark.parametrize(("user", "question", "ours", "theirs"), FIRST)
def test_first_memory_per_question_against_in_memory_store(
    scenario: dict[str, Any], user: str, question: str, ours: str, theirs: str
) -> None:
    def first(records: list[dict[str, Any]]) -> str:
        (hit,) = [r for r in records if r["user"] == user and r["text"] == question]
        return str(first_memory(hit["tool_result"]))

    assert ours in first(scenario["ours"])
    assert theirs in first(scenario["theirs"])


@pytest.mark.slow
def test_the_memory_block_is_not_kept_in_the_agents_state(scenario: dict[str, Any]) -> None:
    for inputs in scenario["model"].inputs:
        assert sum(isinstance(m, SystemMessage) for m in inputs) == 1
        carriers = [m for m in inputs[1:] if HEADER in m.text]
        assert all(isinstance(m, ToolMessage) and m.name == "search_memory" for m in carriers)


# -- tools and middleware on their own (hashing embedder: fast) ----------------------------

SAID = datetime(2024, 3, 12, 18, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> RaMemStore:
    return RaMemStore(
        RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder()), clock=lambda: SAID
    )


def _agent(store: Any, **middleware: Any) -> tuple[Any, ScriptedToolModel]:
    model = ScriptedToolModel(inputs=[])
    agent = create_agent(
        model,
        tools=memory_tools(),
        store=store,
        context_schema=UserContext,
        middleware=[RaMemMiddleware(**middleware)] if middleware else [],
    )
    return agent, model


def test_tools_take_the_namespace_from_the_run(store: RaMemStore) -> None:
    agent, _ = _agent(store)
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "alice"})
    agent.invoke(
        {"messages": [HumanMessage("Bob's note.")]}, config={"configurable": {"user_id": "bob"}}
    )
    assert store.list_namespaces() == [("memories", "alice"), ("memories", "bob")]
    (item,) = store.search(("memories", "alice"))
    assert item.value == {"text": MARCH_SAID, "time": SAID.isoformat(), "speaker": "alice"}
    with pytest.raises(NamespaceError, match="user_id"):
        agent.invoke({"messages": [HumanMessage("No user.")]})


def test_tools_and_middleware_run_async(store: RaMemStore) -> None:
    agent, model = _agent(store, k=2, save="user")

    async def talk() -> dict[str, Any]:
        await agent.ainvoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "a"})
        return await agent.ainvoke({"messages": [HumanMessage(MARCH_Q)]}, context={"user_id": "a"})

    state = asyncio.run(talk())
    assert "wisdom tooth" in state["messages"][-1].text
    texts = sorted(i.value["text"] for i in store.search(("memories", "a"), limit=10))
    assert texts == sorted([MARCH_SAID, MARCH_SAID, MARCH_Q])  # the tool's save, two user turns
    asked = next(inputs for inputs in model.inputs if inputs[-1].text == MARCH_Q)
    assert asked[0].text.startswith(HEADER) and "wisdom tooth" in asked[0].text


def test_tools_work_on_langgraphs_own_store() -> None:
    agent, _ = _agent(InMemoryStore())
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "alice"})
    state = agent.invoke({"messages": [HumanMessage(MARCH_Q)]}, context={"user_id": "alice"})
    assert "wisdom tooth" in state["messages"][-1].text


def test_middleware_saves_the_exchange_with_timestamps(store: RaMemStore) -> None:
    agent, _ = _agent(store, save="exchange")
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "alice"})
    items = store.search(("memories", "alice"), limit=10)
    turns = {i.value["speaker"]: i.value for i in items if i.key.startswith("turn-")}
    assert turns["alice"] == {"text": MARCH_SAID, "time": SAID.isoformat(), "speaker": "alice"}
    assert turns["assistant"]["text"] == "Noted, I will remember that."
    assert turns["assistant"]["time"] == "2024-03-12T18:00:01+00:00"
    (saved,) = [i.value for i in items if i.key.startswith("saved-")]  # what save_memory wrote
    assert saved == {"text": MARCH_SAID, "time": SAID.isoformat(), "speaker": "alice"}
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "alice"})
    # new messages, new ids; the fact save_memory saved again is the same item, not a copy
    assert len(store.search(("memories", "alice"), limit=10)) == 5


#: (how the run names its user, memory_tools options, the speaker save_memory stores)
SPEAKERS: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    ({"context": {"user_id": "alice"}}, {}, "alice"),
    ({"config": {"configurable": {"user_id": "bob"}}}, {}, "bob"),
    ({"context": {"user_id": "john.smith@example.com"}}, {}, "john.smith@example.com"),
    ({"context": {"user_id": "alice"}}, {"user_name": "Alice Smith"}, "Alice Smith"),
    ({"context": {"user_id": "a1", "name": "Ann"}}, {"user_name": "{name}"}, "Ann"),
    ({"context": {"team": "t1"}}, {"namespace": ("memories", "{team}")}, "user"),  # no user id
]


@pytest.mark.parametrize(("run", "options", "speaker"), SPEAKERS, ids=[c[2] for c in SPEAKERS])
def test_save_memory_stores_who_said_it(
    store: RaMemStore, run: dict[str, Any], options: dict[str, Any], speaker: str
) -> None:
    """save_memory in a real agent stores the run's user as the speaker, so the memory reads
    "<user>: ..." when searched, not "user: ..."."""
    model = ScriptedToolModel(inputs=[])
    agent = create_agent(model, tools=memory_tools(**options), store=store)
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, **run)
    state = agent.invoke({"messages": [HumanMessage(MARCH_Q)]}, **run)
    (namespace,) = store.list_namespaces()
    (item,) = store.search(namespace)
    assert item.value["speaker"] == speaker
    (unit,) = store.memory.memories(".".join(namespace))
    assert (unit.context.speaker, unit.content) == (speaker, MARCH_SAID)
    found = next(m for m in state["messages"] if isinstance(m, ToolMessage))
    assert found.name == "search_memory"
    assert f"\n{shown_name(speaker)}: {quote(MARCH_SAID)}" in found.text


def test_memory_tools_refuse_an_empty_user_name() -> None:
    with pytest.raises(InvalidInputError, match="user_name"):
        memory_tools(user_name=" ")


def test_middleware_budget_in_memories_and_tokens(store: RaMemStore) -> None:
    for n in range(6):
        store.put(("memories", "alice"), f"m{n}", {"text": f"The dentist visit number {n}."})

    def shown(**options: Any) -> str:
        agent, model = _agent(store, **options)
        agent.invoke(
            {"messages": [HumanMessage("What did the dentist say?")]}, context={"user_id": "alice"}
        )
        return str(model.inputs[0][0].text)

    def blocks(**options: Any) -> int:
        return shown(**options).count("The dentist visit number")

    assert blocks(k=4) == 4
    # each memory is a group of its own: '[1] said <day>; with user' and 'user: "The ..."'
    groups = shown(k=2).split("\n\n")[1:3]
    one, two = count_tokens(groups)
    assert blocks(k=6, budget=one + two) == 2
    assert blocks(k=6, budget=one + two - 1) == 1  # never over the budget
    assert blocks(k=6, budget=one - 1) == 0  # not even for the best memory
    with pytest.warns(DeprecationWarning, match="budget"):
        assert blocks(k=6, max_tokens=one + two) == 2  # the old name still works


def test_middleware_options_are_checked() -> None:
    for options in [{"k": 0}, {"budget": 0}, {"budget": "50"}, {"save": "everything"}]:
        with pytest.raises(InvalidInputError):
            RaMemMiddleware(**options)
    agent, _ = _agent(InMemoryStore(), k=3)
    with pytest.raises(InvalidInputError, match="RaMemStore"):
        agent.invoke({"messages": [HumanMessage(MARCH_Q)]}, context={"user_id": "alice"})


def test_the_config_user_wins_over_a_context_user(store: RaMemStore) -> None:
    """A server sets the authenticated user in the config; a client sending another user in
    the context neither reads nor writes that user's memories (tools and middleware)."""
    agent, model = _agent(store, k=3, save="user")
    agent.invoke({"messages": [HumanMessage(MARCH_SAID)]}, context={"user_id": "alice"})
    state = agent.invoke(
        {"messages": [HumanMessage(MARCH_Q)]},
        context={"user_id": "alice"},  # what the client claims
        config={"configurable": {"user_id": "mallory"}},  # who the server authenticated
    )
    seen = "\n".join(m.text for inputs in model.inputs[-2:] for m in inputs)
    assert "wisdom tooth" not in seen
    assert "wisdom tooth" not in state["messages"][-1].text
    assert [i.value["text"] for i in store.search(("memories", "mallory"))] == [MARCH_Q]
    assert MARCH_Q not in [i.value["text"] for i in store.search(("memories", "alice"))]


#: A new user's messages, each said on Tuesday 3 September 2024 in its own thread, with the
#: day the agent's system message must show as "happened" when a later question finds it.
NEW_USER: list[tuple[str, str, str]] = [
    ("My dentist appointment moved to Thursday 12 September at 3pm.", "dentist appointment",
     "12 September 2024"),
    ("Party on the 28th!", "party", "28 September 2024"),
    ("Leaving Globex on Friday", "Globex", "6 September 2024"),
    ("The dentist rescheduled me to Thursday.", "dentist", "5 September 2024"),
    ("can't do lunch on Thursday", "lunch", "5 September 2024"),
    ("I'm off Thursday next week", "off", "12 September 2024"),
    ("They pushed the meeting to the 20th.", "meeting", "20 September 2024"),
]  # fmt: skip
TUE_3_SEP = datetime(2024, 9, 3, 10, tzinfo=UTC)


@pytest.mark.parametrize(("said", "about", "label"), NEW_USER, ids=[c[1] for c in NEW_USER])
def test_a_new_users_dates_reach_the_system_message(
    tmp_path: Path, said: str, about: str, label: str
) -> None:
    """Through the agent path (RaMemStore, RaMemMiddleware saving the user's turns), the date
    a chat message means is the memory's event time and what the model is shown."""
    now = [TUE_3_SEP]
    store = RaMemStore(
        RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder()), clock=lambda: now[0]
    )
    agent, model = _agent(store, k=3, save="user")
    agent.invoke({"messages": [HumanMessage(said)]}, context={"user_id": "new"})
    units = [u for u in store.memory.memories("memories.new") if u.content == said]
    assert units  # the user's turn, and what save_memory saved
    assert {u.context.event_time.label() if u.context.event_time else None for u in units} == {
        label
    }
    now[0] = TUE_3_SEP + timedelta(hours=2)
    agent.invoke(
        {"messages": [HumanMessage(f"What about the {about}?")]}, context={"user_id": "new"}
    )
    system = model.inputs[-1][0].text
    block = next(b for b in system.split("\n\n") if said in b)
    assert f"; happened {label}" in block


#: (question, when it is asked, the day its time condition names)
NEW_USER_QUESTIONS = [
    ("What is on 12 September?", datetime(2024, 9, 10, 9, tzinfo=UTC), "12 September 2024"),
    ("What plans do I have on Thursday?", TUE_3_SEP, "5 September 2024"),
]


@pytest.mark.parametrize(("question", "asked", "label"), NEW_USER_QUESTIONS)
def test_a_new_users_questions_point_ahead(
    tmp_path: Path, question: str, asked: datetime, label: str
) -> None:
    store = RaMemStore(
        RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder()), clock=lambda: asked
    )
    store.put(
        ("memories", "new"), "m1", {"text": "Party on the 28th!", "time": TUE_3_SEP.isoformat()}
    )
    frame = store.memory.frame(question, "memories.new", reference=asked)
    assert [c.span.label() for c in frame.conditions if c.kind == "time" and c.span] == [label]
