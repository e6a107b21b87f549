"""A LangChain 1.x agent (``create_agent``) with RaMem as its long-term memory.

Two users talk to one agent over several sessions on simulated dates. The agent saves what they
tell it with the ``save_memory`` tool; ``RaMemMiddleware`` puts the memories valid for each new
message at the start of the model's input; ``search_memory`` searches on demand. The store is
``RaMemStore``; the same scenario then runs on LangGraph's ``InMemoryStore`` with its own semantic
search over the same packaged embedder, and the first memory each question gets is compared.

The chat model is a scripted fake that calls tools (offline, deterministic): it saves every
statement, searches for every question and answers with the first memory it was given.

    python examples/langgraph_agent_memory.py
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypedDict

from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from pydantic import Field

from ramem_integrations.langchain import RaMemEmbeddings
from ramem_integrations.langgraph import RaMemMiddleware, RaMemStore, memory_tools
from ramem_integrations.memory.ramem import RaMem

MARCH_SAID = "I saw the dentist today, she said the wisdom tooth must come out."
AUGUST, SEPTEMBER = datetime(2024, 8, 2, 9, 0, tzinfo=UTC), datetime(2024, 9, 2, 9, 0, tzinfo=UTC)
QUESTIONS = [
    (AUGUST, "What did the dentist say last month?"),
    (SEPTEMBER, "What did the dentist say in March?"),
    (SEPTEMBER, "What did the dentist tell me in the spring?"),
]

#: (when, user, message): statements are saved, questions answered from memory.
SESSIONS = [
    (datetime(2024, 3, 12, 18, 0, tzinfo=UTC), "alice", MARCH_SAID),
    (datetime(2024, 3, 14, 9, 0, tzinfo=UTC), "bob", "My dentist said today my teeth are perfect."),
    (
        datetime(2024, 7, 8, 10, 0, tzinfo=UTC),
        "alice",
        "Routine check-up at the dentist today, she said everything looks fine.",
    ),
    (
        datetime(2024, 7, 9, 16, 0, tzinfo=UTC),
        "bob",
        "Routine check-up at the dentist today: he said to floss more.",
    ),
    *[(when, user, question) for when, question in QUESTIONS for user in ("alice", "bob")],
]


class UserContext(TypedDict):
    """The run's context: whose memory."""

    user_id: str


class ScriptedToolModel(BaseChatModel):
    """A fake chat model that calls tools: it saves statements, searches for questions, and
    answers with the first memory in the search result. Records every input it is given."""

    inputs: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-model"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.inputs.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1]
        step = sum(isinstance(m, ToolMessage) for m in messages)
        if isinstance(last, ToolMessage):
            if last.name == "save_memory":
                return AIMessage(content="Noted, I will remember that.")
            return AIMessage(content=f"From memory: {first_memory(last.text) or 'nothing found'}")
        question = last.text
        call = (
            {"name": "search_memory", "args": {"query": question}}
            if question.rstrip().endswith("?")
            else {"name": "save_memory", "args": {"text": question}}
        )
        return AIMessage(content="", tool_calls=[{**call, "id": f"call-{len(self.inputs)}-{step}"}])


#: The first turn of the first group: ``[1] said ...``, then ``Speaker: "quoted text"``.
_QUOTED = re.compile(r'^\[1\] said .*\n(?:(?:"(?:[^"\\]|\\.)*"|[^"\n]*): )?(".*")$', re.MULTILINE)


def first_memory(text: str) -> str | None:
    """The first memory's text in RaMem's memories (the first turn of the first group) or in
    JSON lines (other stores)."""
    quoted = _QUOTED.search(text)
    if quoted:
        return str(json.loads(quoted.group(1)))
    for line in text.splitlines():
        if line.startswith("{"):
            return str(json.loads(line).get("text"))
    return None


class Clock:
    """The simulated "now" of each session."""

    def __init__(self) -> None:
        self.now = SESSIONS[0][0]

    def __call__(self) -> datetime:
        return self.now


def run(
    store: BaseStore, clock: Clock, *, middleware: bool
) -> tuple[ScriptedToolModel, list[dict[str, Any]]]:
    """Play every session through one agent; return the model and a record per question."""
    model = ScriptedToolModel(inputs=[])
    agent = create_agent(
        model,
        tools=memory_tools(clock=clock),
        system_prompt="You are a helpful assistant with a long-term memory.",
        store=store,
        context_schema=UserContext,
        middleware=[RaMemMiddleware(k=3, clock=clock)] if middleware else [],
    )
    answers = []
    for when, user, text in SESSIONS:
        clock.now = when
        seen = len(model.inputs)
        state = agent.invoke({"messages": [HumanMessage(text)]}, context=UserContext(user_id=user))
        first_input = model.inputs[seen]
        tool_result = next(m for m in state["messages"] if isinstance(m, ToolMessage))
        answers.append(
            {
                "when": when,
                "user": user,
                "text": text,
                "model_input": first_input,
                "tool_result": tool_result.text,
                "reply": state["messages"][-1].text,
            }
        )
    return model, answers


def ramem_store(path: str, clock: Callable[[], datetime]) -> RaMemStore:
    return RaMemStore(RaMem.from_path(path), clock=clock)


def in_memory_store() -> InMemoryStore:
    """LangGraph's own store with its semantic search over RaMem's packaged embedder."""
    return InMemoryStore(index={"embed": RaMemEmbeddings(), "dims": 384, "fields": ["text"]})


def main() -> None:
    clock = Clock()
    with tempfile.TemporaryDirectory(prefix="ramem-example-") as tmp:
        _, with_ramem = run(ramem_store(tmp, clock), clock, middleware=True)
    _, with_langgraph = run(in_memory_store(), Clock(), middleware=False)

    print("RaMemStore + memory tools + RaMemMiddleware, ScriptedToolModel (offline)\n")
    for record in with_ramem:
        print(f"[{record['when']:%d %b %Y}] {record['user']}: {record['text']}")
        print(f"{'':14}assistant: {record['reply']}")
    alice_march = next(
        r for r in with_ramem if r["user"] == "alice" and r["text"] == QUESTIONS[1][1]
    )
    print("\nThe model's input for alice's 'What did the dentist say in March?' begins:\n")
    print(alice_march["model_input"][0].text.split("\n\n[2] said ")[0], "\n")

    print("First memory each question gets (search_memory / the model's input):\n")
    print(f"{'asked':11} {'user':6} {'question':44} {'RaMemStore':46} InMemoryStore")
    for ours, theirs in zip(with_ramem, with_langgraph, strict=True):
        if not ours["text"].endswith("?"):
            continue
        mine, langgraph = first_memory(ours["tool_result"]), first_memory(theirs["tool_result"])
        print(
            f"{ours['when']:%d %b %Y} {ours['user']:6} {ours['text']:44} "
            f"{mine!s:46.46} {langgraph!s:.46}"
        )


if __name__ == "__main__":
    main()
