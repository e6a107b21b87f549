"""A LlamaIndex agent whose long-term memory is RaMem (``RaMemMemoryBlock`` in ``Memory``).

Alice talks to a ReAct agent in three sessions on simulated dates. Her short-term memory is small,
so older messages are flushed into the RaMem block, each written as a turn at its timestamp. In
September she asks about March: the block retrieves for her message and the memories, with their
coordinates, are put in the agent's system prompt.

The LLM is a mock (offline, deterministic): it answers with the first memory it was given.

    python examples/llama_index_agent_memory.py
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from datetime import UTC, datetime
from typing import Any

from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.base.llms.types import (
    ChatMessage,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.memory import Memory
from pydantic import Field

from ramem_integrations import RaMem
from ramem_integrations.llama_index import RaMemMemoryBlock

SESSIONS = [
    (
        datetime(2024, 3, 12, 18, 0, tzinfo=UTC),
        "I saw the dentist today, she said the wisdom tooth must come out.",
    ),
    (
        datetime(2024, 7, 8, 10, 0, tzinfo=UTC),
        "Routine check-up at the dentist today, she said everything looks fine.",
    ),
    (datetime(2024, 9, 2, 9, 0, tzinfo=UTC), "What did the dentist say in March?"),
]

#: The first turn of the first group of memories: ``[1] said ...``, then ``Speaker: "text"``.
_QUOTED = re.compile(r'^\[1\] said .*\n(?:(?:"(?:[^"\\]|\\.)*"|[^"\n]*): )?(".*")$', re.MULTILINE)


class MemoryEchoLLM(CustomLLM):
    """A mock LLM in ReAct format: it answers a question with the first memory in its prompt,
    and notes anything else. Records every prompt."""

    prompts: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="memory-echo", is_chat_model=False)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        found = _QUOTED.search(prompt)
        asked = prompt.rstrip().rsplit("user:", 1)[-1].split("</memory>")[-1]
        said = json.loads(found.group(1)) if found and "?" in asked else "Noted."
        return CompletionResponse(text=f"Thought: I can answer without any tools.\nAnswer: {said}")

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        response = self.complete(prompt)
        yield CompletionResponse(text=response.text, delta=response.text)


async def converse(mem: RaMem, clock: list[datetime]) -> tuple[MemoryEchoLLM, list[str]]:
    """Play the sessions; return the LLM (with its prompts) and the agent's replies."""
    block = RaMemMemoryBlock(
        memory=mem,
        namespace="alice",
        roles=("user",),  # a ReAct agent's own messages hold its reasoning: keep Alice's words
        speakers={"user": "Alice"},
        clock=lambda: clock[0],
    )
    memory = Memory.from_defaults(
        session_id="alice",
        token_limit=60,
        token_flush_size=20,
        memory_blocks=[block],
        insert_method="user",  # ReActAgent replaces the system message with its own prompt
    )
    llm = MemoryEchoLLM(prompts=[])
    agent = ReActAgent(tools=[], llm=llm)
    replies = []
    for when, text in SESSIONS:
        clock[0] = when
        said = ChatMessage(
            role="user", content=text, additional_kwargs={"timestamp": when.isoformat()}
        )
        replies.append(str(await agent.run(user_msg=said, memory=memory)))
    return llm, replies


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ramem-example-") as tmp:
        mem = RaMem.from_path(tmp)
        llm, replies = asyncio.run(converse(mem, [SESSIONS[0][0]]))
        for (when, text), reply in zip(SESSIONS, replies, strict=True):
            print(f"[{when:%d %b %Y}] Alice: {text}\n{'':14}Agent: {reply}")
        print("\nMemories RaMem holds for Alice:")
        for unit in mem.memories("alice"):
            print(f"  {unit.context.session_span.label():45} {unit.content}")
        prompt = llm.prompts[-1]
        start = prompt.find("[1] said ")
        print("\nThe agent's prompt for the last question holds:\n")
        print(prompt[start : prompt.find("\n\n", start)])


if __name__ == "__main__":
    main()
