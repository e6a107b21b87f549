"""Agent memory stores words, not reprs, and questions do not answer themselves (issue 13,
items 6 and 7), with real LangChain and LlamaIndex message objects."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from llama_index.core.llms import ChatMessage

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.langchain import RaMemMemory
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability

FIXTURES = Path(__file__).parent.parent / "fixtures"
SAID = "I adopted a parrot called Kiwi."
REPLY = "What a lovely name!"

INPUTS: list[tuple[str, Any, Any]] = [
    ("text", {"input": SAID}, {"output": REPLY}),
    ("LangChain messages", {"input": HumanMessage(SAID)}, {"output": AIMessage(REPLY)}),
    (
        "lists of messages",
        {"input": [SystemMessage("be brief"), HumanMessage(SAID)]},
        {"output": [HumanMessage(SAID), AIMessage(REPLY)]},
    ),
    (
        "LangGraph state",
        {"messages": [HumanMessage("hi"), AIMessage("hello"), HumanMessage(SAID)]},
        {"messages": [HumanMessage(SAID), AIMessage(REPLY)]},
    ),
    (
        "role/content dicts",
        {"input": {"role": "user", "content": SAID}},
        {"output": {"role": "assistant", "content": REPLY}},
    ),
    (
        "LlamaIndex ChatMessage",
        {"input": ChatMessage(role="user", content=SAID)},
        {"output": ChatMessage(role="assistant", content=REPLY)},
    ),
    (
        "content blocks",
        {"input": HumanMessage([{"type": "text", "text": SAID}])},
        {"output": AIMessage([{"type": "text", "text": REPLY}])},
    ),
]


def memory(tmp_path: Path, clock: dict[str, datetime]) -> RaMemMemory:
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    return RaMemMemory(memory=mem, namespace="maya", human_name="Maya", clock=lambda: clock["now"])


@pytest.mark.parametrize(("inputs", "outputs"), [c[1:] for c in INPUTS], ids=[c[0] for c in INPUTS])
def test_save_context_stores_the_words(tmp_path: Path, inputs: Any, outputs: Any) -> None:
    agent = memory(tmp_path, {"now": datetime(2025, 6, 2, 18, tzinfo=UTC)})
    agent.save_context(inputs, outputs)
    stored = sorted((m.context.speaker, m.content) for m in agent.memory.memories("maya"))
    assert stored == [("Assistant", REPLY), ("Maya", SAID)]


@pytest.mark.parametrize(
    "bad",
    [object(), 42, None, b"bytes", {"role": "user"}, {"content": 3}, [object()]],
    ids=["object", "int", "None", "bytes", "no content", "content not text", "list of objects"],
)
def test_save_context_refuses_what_it_cannot_read(tmp_path: Path, bad: Any) -> None:
    agent = memory(tmp_path, {"now": datetime(2025, 6, 2, 18, tzinfo=UTC)})
    with pytest.raises(InvalidInputError, match="LangChain message"):
        agent.save_context({"input": bad}, {"output": REPLY})
    assert agent.memory.count("maya") == 0  # nothing half-written


def test_a_question_put_to_the_memory_is_not_its_own_evidence(tmp_path: Path) -> None:
    clock = {"now": datetime(2025, 5, 10, 18, tzinfo=UTC)}
    agent = memory(tmp_path, clock)
    agent.save_context({"input": "My sister Ana got engaged in early May."}, {"output": "Lovely!"})
    clock["now"] = datetime(2025, 5, 20, 18, tzinfo=UTC)
    question = "Who did I say got engaged in early May?"
    agent.load_memory_variables({"input": question})
    agent.save_context({"input": question}, {"output": "Your sister Ana."})
    clock["now"] = datetime(2025, 5, 21, 18, tzinfo=UTC)

    hits = agent.memory.retrieve(
        "Who got engaged in early May?", "maya", k=5, reference=clock["now"]
    )
    texts = [h.memory.content for h in hits]
    # the assistant's "Lovely!", a reaction a second later, is the assistant's own memory
    assert texts[0] == "My sister Ana got engaged in early May."
    assert hits[0].memory.context.speaker != "assistant"
    assert all("Lovely!" not in t or t == "Lovely!" for t in texts)
    assert question in texts  # kept, ranked after the statements
    asked = texts.index(question)
    assert all(not h.memory.asks_memory for h in hits[:asked])
    history = agent.load_memory_variables({"input": "Who got engaged in early May?"})["history"]
    assert history.split("\n[2] said ")[0].count("Ana got engaged") == 1


def test_loaded_conversations_carry_no_question_marks(tmp_path: Path) -> None:
    """Only an agent's own questions to its memory are marked: conversation files never are,
    so LoCoMo's question turns rank exactly as before."""
    (conversation,) = load_conversations(FIXTURES / "chat_small.json")
    units = RuleAnchorer().anchor(conversation, "n")
    assert any(u.content.endswith("?") for u in units)
    assert not any(u.asks_memory for u in units)
