"""Excerpts on by default: a long hit too big for what is left of a budget is shown by its best
passage, verbatim, marked, under its coordinates; the stored memory stays whole. In a
user-assistant chat (told from its structure) the assistant's turns are never excerpted.
Through RaMem, a LangChain chain and the LlamaIndex memory block, over real Chroma and the
packaged model."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.passages import Span
from ramem_integrations.core.prompts import EXCERPT_MARK, PACK_DEPTH, Excerpt, within_budget
from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS
from ramem_integrations.core.serialise import quote
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.memory.ramem import RaMem

DAY = datetime(2024, 3, 12, 18, tzinfo=UTC)
ASKED = datetime(2024, 6, 1, tzinfo=UTC)
NEWS = "The saxophone lessons start next Monday at the old church hall."
QUESTION = "When do the saxophone lessons start?"
BUDGET = 90  # tokens: the long message (about 300) does not fit, its excerpt does


def _filler(start: int, n: int) -> str:
    words = ("garden", "budget", "weather", "kitchen", "travel", "office", "music", "train")
    return " ".join(words[i % len(words)] for i in range(start, start + n))


LONG = f"{_filler(0, 72)} {NEWS} {_filler(72, 100)}"  # NEWS inside the passage of words 60-99


def _people(mem: RaMem) -> None:
    turns = [
        {"speaker": "Ann", "text": "Hi Bo, how was your week?"},
        {"speaker": "Bo", "text": LONG},
        {"speaker": "Ann", "text": "That sounds like a lot, good luck with it all."},
        {"speaker": "Bo", "text": "Thanks, I will tell you how it goes."},
    ]
    mem.add_turns(turns, "people", session_time=DAY, session_id="s1")


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    memory = RaMem.from_path(tmp_path_factory.mktemp("excerpts") / "store")
    _people(memory)
    return memory


def _excerpt_line() -> str:
    return f"Bo {EXCERPT_MARK}: "


def test_a_long_message_too_big_for_the_budget_is_shown_by_its_best_passage(mem: RaMem) -> None:
    hits = mem.retrieve(QUESTION, "people", budget=BUDGET, reference=ASKED)
    shown = [h.memory for h in hits if isinstance(h.memory, Excerpt)]
    assert len(shown) == 1
    excerpt = shown[0]
    assert NEWS in excerpt.shown and excerpt.shown in LONG  # verbatim, a span of the words
    assert excerpt.content == LONG  # the memory itself is whole
    stored = [m.content for m in mem.memories("people")]
    assert LONG in stored  # and so is what is stored
    prompt = mem.render(QUESTION, hits)
    line = next(x for x in prompt.splitlines() if x.startswith(_excerpt_line()))
    assert line == f"{_excerpt_line()}{quote(excerpt.shown)}"
    header = prompt.splitlines()[prompt.splitlines().index(line) - 1]
    assert header.startswith("[") and "said 12 March 2024" in header
    # without the step (the ablation ``without-excerpts``) the long message is skipped whole
    steps = tuple(s for s in DEFAULT_STEPS if s.name != "excerpts")
    plain = replace(mem.reinstatement, steps=steps)
    frame = mem.frame(QUESTION, "people", reference=ASKED)
    hits = within_budget(plain.retrieve(frame, "people", PACK_DEPTH), BUDGET, mem.count_tokens)
    assert all(not isinstance(h.memory, Excerpt) for h in hits)
    assert NEWS not in mem.render(QUESTION, hits)


def _assistant_chat(memory: RaMem, last_user_turn: str, last_reply: str) -> None:
    advice = " ".join(["here are some general ideas you may want to consider"] * 8)
    turns = []
    for topic in ("garden", "budget", "travel", "music"):
        turns.append({"speaker": "User", "text": f"Help me with my {topic} please."})
        turns.append({"speaker": "Assistant", "text": f"Sure, about your {topic}: {advice}."})
    turns.append({"speaker": "User", "text": last_user_turn})
    turns.append({"speaker": "Assistant", "text": last_reply})
    memory.add_turns(turns, "chat", session_time=DAY, session_id="s1")
    assert memory.reinstatement.episodes.assistant("chat") == "Assistant"  # type: ignore[union-attr]


def test_in_a_user_assistant_chat_the_assistants_turns_are_not_excerpted(tmp_path: Path) -> None:
    """The assistant answers every user turn at length: its reply holding the answer does not
    fit, and is not cut (the user's own turns are the evidence there)."""
    memory = RaMem.from_path(tmp_path / "store")
    _assistant_chat(memory, "When do my saxophone lessons start?", LONG)
    hits = memory.retrieve(QUESTION, "chat", budget=BUDGET, reference=ASKED)
    assert hits and all(not isinstance(h.memory, Excerpt) for h in hits)
    assert NEWS not in memory.render(QUESTION, hits)


def test_in_a_user_assistant_chat_a_long_user_turn_is_excerpted(tmp_path: Path) -> None:
    """The user's own long turn holding the answer is cut to its best passage, as between
    people."""
    memory = RaMem.from_path(tmp_path / "store")
    _assistant_chat(memory, LONG, "Noted, good luck with the lessons.")
    # the reply ranks first here and takes some of the budget; the user's turn still does not fit
    hits = memory.retrieve(QUESTION, "chat", budget=BUDGET + 60, reference=ASKED)
    shown = [h.memory for h in hits if isinstance(h.memory, Excerpt)]
    assert [e.context.speaker for e in shown] == ["User"]
    assert NEWS in memory.render(QUESTION, hits)


def test_a_langchain_chain_shows_the_excerpt_under_its_coordinates(mem: RaMem) -> None:
    from langchain_core.prompts import ChatPromptTemplate

    from ramem_integrations.langchain import RaMemMemory

    memory = RaMemMemory(memory=mem, namespace="people", k=5, budget=BUDGET, clock=lambda: ASKED)
    prompt = ChatPromptTemplate.from_messages([("system", "{history}"), ("human", "{input}")])
    chain = memory.as_runnable() | prompt
    shown = chain.invoke({"input": QUESTION}).to_messages()[0].content
    lines = shown.splitlines()
    line = next(x for x in lines if x.startswith(_excerpt_line()))
    assert NEWS in line and LONG not in shown
    assert "said 12 March 2024" in lines[lines.index(line) - 1]


def test_the_llama_index_memory_block_shows_the_excerpt(mem: RaMem) -> None:
    import asyncio

    from llama_index.core.base.llms.types import ChatMessage

    from ramem_integrations.llama_index import RaMemMemoryBlock

    block = RaMemMemoryBlock(
        memory=mem, namespace="people", k=5, budget=BUDGET, clock=lambda: ASKED
    )
    shown = asyncio.run(block.aget([ChatMessage(role="user", content=QUESTION)]))
    lines = shown.splitlines()
    line = next(x for x in lines if x.startswith(_excerpt_line()))
    assert NEWS in line and LONG not in shown
    assert "said 12 March 2024" in lines[lines.index(line) - 1]


def test_a_llama_index_query_engine_shows_the_excerpt_under_its_coordinates(mem: RaMem) -> None:
    from llama_index.core.llms import CompletionResponse, MockLLM

    from ramem_integrations.llama_index import RaMemRetriever
    from ramem_integrations.llama_index.nodes import unit_of_node

    prompts: list[str] = []

    class Recording(MockLLM):
        def complete(self, prompt: str, formatted: bool = False, **kwargs: object) -> object:
            prompts.append(prompt)
            return CompletionResponse(text="next Monday")

    retriever = RaMemRetriever(mem, "people", budget=BUDGET, reference=ASKED)
    response = retriever.as_query_engine(llm=Recording()).query(QUESTION)
    nodes = [n.node for n in response.source_nodes]
    excerpts = [u for u in map(unit_of_node, nodes) if isinstance(u, Excerpt)]
    assert len(excerpts) == 1 and NEWS in excerpts[0].shown
    assert LONG in [n.get_content() for n in nodes]  # the node's text is the whole memory
    lines = prompts[-1].splitlines()
    line = next(x for x in lines if x.startswith(_excerpt_line()))
    assert line == f"{_excerpt_line()}{quote(excerpts[0].shown)}"
    assert "said 12 March 2024" in lines[lines.index(line) - 1]
    assert LONG not in prompts[-1]


def test_a_long_message_written_after_a_read_is_excerpted_at_the_next(tmp_path: Path) -> None:
    """Every read sees every write before it: the passage index is brought up to the write."""
    memory = RaMem.from_path(tmp_path / "store")
    _people(memory)
    first = memory.retrieve(QUESTION, "people", budget=BUDGET, reference=ASKED)
    assert any(isinstance(h.memory, Excerpt) for h in first)
    news = "The pottery class moved to Thursday evenings at the library."
    text = f"{_filler(0, 72)} {news} {_filler(72, 100)}"
    later = datetime(2024, 3, 20, 18, tzinfo=UTC)
    memory.add_turns([{"speaker": "Ann", "text": text}], "people", session_time=later)
    hits = memory.retrieve("When is the pottery class now?", "people", budget=BUDGET)
    shown = [h.memory for h in hits if isinstance(h.memory, Excerpt)]
    assert [e.content for e in shown] == [text] and news in shown[0].shown


class _Passages:
    """A source whose every memory's best passage is its first character."""

    def best_passage(self, namespace: str, query: str, memory_id: str, passages: object) -> Span:
        return (0, 1)


class _Chat:
    def __init__(self, assistant: str | None) -> None:
        self.answering = assistant

    def assistant(self, namespace: str) -> str | None:
        return self.answering

    def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
        return []


@pytest.mark.parametrize(
    ("assistant", "whole", "k", "query", "excerpted"),
    [
        (None, "chat", 3, "q", ["ann", "nobody", "assistant"]),  # between people: every hit
        (None, "chat", 2, "q", ["ann", "nobody"]),  # only the hits returned
        ("Assistant", "chat", 3, "q", []),  # a user-assistant chat: none
        ("Assistant", "assistant", 3, "q", ["ann", "nobody"]),  # all but the assistant's (default)
        (None, "chat", 3, None, []),  # re-ranking searches nothing: none
    ],
)
def test_the_step_names_excerpts_for_the_hits_returned_by_the_chats_structure(
    assistant: str | None, whole: str, k: int, query: str | None, excerpted: list[str]
) -> None:
    from ramem_integrations.core.retrieval.content import HybridSearch
    from ramem_integrations.core.retrieval.excerpts import Excerpts
    from ramem_integrations.core.retrieval.steps import run
    from tests.test_ranking_steps import at, unit

    ranked = [
        ScoredMemory(unit("ann", speaker="Ann"), 0.9),
        ScoredMemory(unit("nobody"), 0.8),  # a memory without a speaker
        ScoredMemory(unit("assistant", speaker="Assistant"), 0.7),
    ]
    step = Excerpts(whole=whole)
    ranking = at(step, episodes=_Chat(assistant))  # type: ignore[arg-type]
    source = replace(ranking.retriever, content=HybridSearch(source=_Passages()))  # type: ignore[arg-type]
    ranking = replace(ranking, retriever=source, k=k, query=query)
    out = run(ranked, ranking)
    assert [h.memory.id for h in out] == ["ann", "nobody", "assistant"][:k]  # nothing moves
    assert [h.memory.id for h in out if h.excerpt == (0, 1)] == excerpted
