"""``RaMemMemory``: an agent's episodic long-term memory for LangChain.

Each exchange is written into the store as episodic memory, with the time it happened; for a
new input, the memories valid for it come back as a prompt variable, each with its coordinates.
Three ways in:

- the classic memory contract (``memory_variables``, ``load_memory_variables``,
  ``save_context``, ``clear``); with ``langchain-classic`` installed it *is* a
  ``langchain_classic`` ``BaseMemory``, so it drops into legacy chains;
- :meth:`RaMemMemory.as_runnable`: an LCEL step that adds the evidence to a chain's inputs;
- :meth:`RaMemMemory.as_tool`: a tool a modern agent calls to search its memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import ConfigDict, Field

from ramem_integrations.adapters_common.messages import Side, message_text
from ramem_integrations.core.prompts import render_memories, within_budget
from ramem_integrations.core.types import ScoredMemory, utc_now
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.langchain.retrievers import RaMemRetriever, to_document
from ramem_integrations.memory.ramem import RaMem

if TYPE_CHECKING:
    from pydantic import BaseModel as _MemoryBase
else:
    try:
        from langchain_classic.base_memory import BaseMemory as _MemoryBase
    except ImportError:  # the plain contract without langchain-classic
        from pydantic import BaseModel as _MemoryBase

#: True when RaMemMemory subclasses langchain_classic's BaseMemory.
CLASSIC = _MemoryBase.__module__.startswith("langchain_classic")

TOOL_DESCRIPTION = (
    "Search your long-term memory of past conversations with the user. Give a question in "
    "words, with any time, person or place it is about. Returns the memories that fit, each "
    "with when it was said, when it happened, who took part and where."
)


class RaMemMemory(_MemoryBase):
    """Episodic long-term memory for a LangChain chain or agent.

    Setup:
        .. code-block:: bash

            pip install 'ramem-integrations[langchain]'          # LCEL and agents
            pip install 'ramem-integrations[langchain-classic]'  # also classic chains

    Key init args:
        memory: a :class:`~ramem_integrations.RaMem`.
        namespace: whose memory this is (a user, an agent).
        k: how many memories to load per input (default 5).
        budget: and at most this many tokens of rendered memories (optional; packed as every
            budget is, :func:`~ramem_integrations.core.prompts.pack`).
        memory_key: the prompt variable the evidence fills (default ``"history"``).
        input_key / output_key: which input and output to store; the only one when unset.
        human_name / ai_name: the speakers the exchanges are stored under.
        clock: a callable giving "now"; the wall clock by default. Each exchange is stored at,
            and each question grounded against, the time it gives (or ``now=`` per call).
        session_id: the session exchanges are stored in; by default one per day.

    Instantiate:
        .. code-block:: python

            from ramem_integrations import RaMem
            from ramem_integrations.langchain import RaMemMemory

            memory = RaMemMemory(memory=RaMem.from_path("./memory"), namespace="alice",
                                 human_name="Alice")

    Usage:
        .. code-block:: python

            memory.save_context({"input": "The dentist said I need a filling."},
                                {"output": "Sorry to hear that."})
            memory.load_memory_variables({"input": "What did the dentist say?"})["history"]
            # '[1] said 12 March 2024; with Alice, Assistant\\nAlice: "The dentist said I ...'

            chain = memory.as_runnable() | prompt | model   # prompt uses {history}
            agent_tools = [memory.as_tool()]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: RaMem
    namespace: str
    k: int = 5
    budget: int | None = Field(default=None, ge=1)
    memory_key: str = "history"
    input_key: str | None = None
    output_key: str | None = None
    human_name: str = "User"
    ai_name: str = "Assistant"
    conversation_id: str = "chat"
    session_id: str | None = None
    mode: str = "ramem"
    clock: Callable[[], datetime] = utc_now

    # -- the classic contract --------------------------------------------------------------
    @property
    def memory_variables(self) -> list[str]:
        return [self.memory_key]

    def load_memory_variables(
        self, inputs: dict[str, Any], *, now: datetime | None = None
    ) -> dict[str, Any]:
        """The evidence for the new input: memory blocks with their coordinates."""
        query = self._text(inputs, self.input_key, "input")
        return {self.memory_key: self.evidence(query, now=now)}

    def save_context(
        self, inputs: dict[str, Any], outputs: dict[str, Any], *, now: datetime | None = None
    ) -> None:
        """Store one exchange as episodic memory, at ``now`` (default: the clock).

        Its turns' ids are the session, the time and a digest of the exchange's words: two
        exchanges saved in the same instant (threads, a clock that stands still) are two
        memories, and the same exchange saved again is stored once."""
        when = now or self.clock()
        said = self._text(inputs, self.input_key, "input")
        answered = self._text(outputs, self.output_key, "output", required=False)
        session = self.session_id or f"{self.conversation_id}-{when:%Y-%m-%d}"
        words = hashlib.sha256(f"{said}\x1f{answered}".encode()).hexdigest()[:12]
        stamp = f"{when.isoformat()}:{words}"
        turns: list[dict[str, Any]] = [
            {
                "id": f"{session}:{stamp}:in",
                "speaker": self.human_name,
                "text": said,
                "time": when,
                "asks_memory": said.rstrip().endswith("?"),  # ranked after statements of fact
            }
        ]
        if answered.strip():
            turns.append(
                {
                    "id": f"{session}:{stamp}:out",
                    "speaker": self.ai_name,
                    "text": answered,
                    "time": when + timedelta(seconds=1),
                }
            )
        self.memory.add_turns(
            turns,
            self.namespace,
            session_time=when,
            session_id=session,
            conversation_id=self.conversation_id,
        )

    def clear(self) -> None:
        """Forget every exchange this memory stored (its ``conversation_id``) in the namespace.

        Memories ingested otherwise (``RaMem.add_conversation``) stay.
        """
        self.memory.forget(self.namespace, conversation_id=self.conversation_id)

    # -- evidence --------------------------------------------------------------------------
    def evidence(self, query: str, *, now: datetime | None = None) -> str:
        """The memories valid for ``query`` as context-preserving blocks."""
        if not query.strip() or self.memory.count(self.namespace) == 0:
            return render_memories([])
        hits = self.memory.retrieve(
            query, self.namespace, self.k, mode=self.mode, reference=now or self.clock()
        )
        return render_memories(self._kept(hits))

    def retriever(self) -> RaMemRetriever:
        """A retriever over this memory, grounding questions against the clock."""
        return RaMemRetriever(
            memory=self.memory,
            namespace=self.namespace,
            k=self.k,
            mode=self.mode,
            reference=self.clock,
        )

    def as_runnable(self) -> Runnable[dict[str, Any], dict[str, Any]]:
        """An LCEL step that adds ``memory_key`` (the evidence) to a chain's input dict."""

        def load(inputs: dict[str, Any]) -> str:
            return str(self.load_memory_variables(inputs)[self.memory_key])

        return RunnablePassthrough.assign(**{self.memory_key: RunnableLambda(load)})

    def as_tool(self, name: str = "search_memory", description: str = TOOL_DESCRIPTION) -> BaseTool:
        """A tool for a modern agent: its content is the memory blocks, its artifact the
        Documents (with their metadata)."""

        def search(query: str) -> tuple[str, list[Document]]:
            if self.memory.count(self.namespace) == 0:
                return render_memories([]), []
            hits = self.memory.retrieve(
                query, self.namespace, self.k, mode=self.mode, reference=self.clock()
            )
            kept = self._kept(hits)
            return render_memories(kept), [to_document(h) for h in kept]

        return StructuredTool.from_function(
            func=search,
            name=name,
            description=description,
            response_format="content_and_artifact",
        )

    # -- helpers ---------------------------------------------------------------------------
    def _kept(self, hits: list[ScoredMemory]) -> list[ScoredMemory]:
        """The hits within ``budget`` (all of them without one), in the order shown."""
        if self.budget is None:
            return hits
        return within_budget(hits, self.budget, self.memory.count_tokens)

    def _text(
        self, values: dict[str, Any], key: str | None, kind: str, *, required: bool = True
    ) -> str:
        if not isinstance(values, dict):
            raise InvalidInputError(
                f"The {kind}s must be a dict (e.g. {{'{kind}': text}}), "
                f"got {type(values).__name__}."
            )
        if key is None:
            candidates = [k for k in values if k != self.memory_key]
            if len(candidates) != 1:
                if not required and not candidates:
                    return ""
                raise InvalidInputError(
                    f"RaMemMemory cannot tell which {kind} to use among {sorted(candidates)}; "
                    f"set {kind}_key=."
                )
            key = candidates[0]
        if key not in values:
            raise InvalidInputError(f"The {kind}s have no {key!r}; they have {sorted(values)}.")
        side: Side = "user" if kind == "input" else "assistant"
        return message_text(values[key], side, f"the {kind} {key!r}")
