"""``RaMemMemoryBlock``: RaMem as a long-term memory block of LlamaIndex's ``Memory``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory.memory import BaseMemoryBlock
from pydantic import Field, SkipValidation, model_validator

from ramem_integrations.adapters_common.context import memory_context, renamed_budget, shrink
from ramem_integrations.adapters_common.records import Record, record_time
from ramem_integrations.core.grouping import is_filler
from ramem_integrations.core.ids import digest
from ramem_integrations.core.limits import check_unicode
from ramem_integrations.core.types import utc_now
from ramem_integrations.memory.ramem import RaMem

#: Messages a retrieval reads by default, the question among them, as LlamaIndex's
#: ``VectorMemoryBlock`` (docs/llama_index.md: what reading them costs and brings).
WINDOW = 5


class RaMemMemoryBlock(BaseMemoryBlock[str]):
    """A ``Memory`` block whose long-term memory is RaMem.

    Messages flushed from the short-term memory are written as turns, each at its timestamp
    (``additional_kwargs`` ``timestamp``, ``time``, ``date`` or ``created_at``); a message
    without one takes the time of the message before it (an answer follows its question), the
    first one ``clock()``. The messages of one day are one session. Writing the same messages
    again changes nothing. An acknowledgement of a role in ``skip_fillers`` ("Noted.", "Got
    it!", "Sure.": :func:`~ramem_integrations.core.grouping.is_filler`) is not stored: it tells
    nothing, and would come back beside the memory it acknowledged.

    ``aget`` retrieves for the latest user message, grounded at ``clock()``: its times, people
    and places are the conditions. As in LlamaIndex's ``VectorMemoryBlock``, the last
    ``retrieval_context_window`` messages (5) are read too: the dense search leans toward the
    messages before the question ("What did she say?" after talking of the dentist;
    :meth:`RaMem.retrieve <ramem_integrations.RaMem.retrieve>` ``context``). The memories are
    rendered with their coordinates.

    Key init args:
        memory: the :class:`~ramem_integrations.RaMem`; namespace: whose memory.
        k: memories per retrieval; budget: at most this many tokens of rendered memories
            (optional; packed as every budget is, :func:`~ramem_integrations.core.prompts.pack`;
            ``max_tokens`` is its old, deprecated name).
        retrieval_context_window: how many of the latest messages a retrieval reads, the
            question among them (1: the question alone).
        roles: the roles whose messages are memories (``("user", "assistant")``).
        skip_fillers: the roles whose fillers are not stored (``("assistant",)``).
        speakers: the speaker name stored for each role (``{"user": "Alice"}``).
        clock: "now"; the wall clock by default.

    Usage:
        .. code-block:: python

            from llama_index.core.memory import Memory

            memory = Memory.from_defaults(
                session_id="alice",
                memory_blocks=[RaMemMemoryBlock(memory=RaMem.from_path("./memory"),
                                                namespace="alice")],
            )
    """

    name: str = "ramem"
    description: str | None = "Long-term memories, each with when it was said and who took part."
    memory: SkipValidation[RaMem]
    namespace: str
    k: int = Field(default=5, ge=1)
    budget: int | None = Field(default=None, ge=1)
    retrieval_context_window: int = Field(default=WINDOW, ge=1)
    roles: tuple[str, ...] = ("user", "assistant")
    skip_fillers: tuple[str, ...] = ("assistant",)
    speakers: dict[str, str] = Field(default_factory=dict)
    conversation_id: str = "llama-index-memory"
    clock: SkipValidation[Callable[[], datetime]] = utc_now

    @model_validator(mode="before")
    @classmethod
    def _old_budget_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and "max_tokens" in data:
            data = dict(data)
            old = data.pop("max_tokens")
            data["budget"] = renamed_budget(data.get("budget"), old, "RaMemMemoryBlock")
        return data

    async def _aget(self, messages: list[ChatMessage] | None = None, **kwargs: Any) -> str:
        messages = messages or []
        asked = next(
            (m for m in reversed(messages) if m.role == MessageRole.USER and _text(m).strip()),
            None,
        )
        if asked is None or self.memory.count(self.namespace) == 0:
            return ""
        question = _text(asked)
        hits = await self.memory.aretrieve(
            question,
            self.namespace,
            self.k,
            reference=self.clock(),
            context=self._context(messages, asked, len(question)),
        )
        return memory_context(hits, budget=self.budget)

    def _context(self, messages: list[ChatMessage], asked: ChatMessage, used: int) -> str | None:
        """The other messages of the window (of ``roles``, oldest first), as much of their
        latest text as a query may hold beside the question."""
        window = messages[-self.retrieval_context_window :]
        said = [
            _text(m)
            for m in window
            if m is not asked and m.role.value in self.roles and _text(m).strip()
        ]
        room = self.memory.limits.query_chars - used - 1
        text = "\n".join(said)[-room:] if room > 0 else ""
        return text or None

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """What ``Memory`` keeps when it must shrink this block (blocks of ``priority`` > 0,
        lowest priority first): the memories in rank order, the lowest-ranked dropped until
        about ``tokens_to_truncate`` tokens are saved; None when none is left."""
        return shrink(content, tokens_to_truncate) or None

    async def _aput(self, messages: list[ChatMessage]) -> None:
        turns: list[dict[str, Any]] = []
        said: datetime | None = None  # the time of the message before
        for message in messages:
            said = record_time(_record(message), said or self.clock(), "A message")
            if self._remembered(message):
                turns.append(self._turn(message, said))
        if not turns:
            return
        by_day: dict[str, list[dict[str, Any]]] = {}
        for turn in turns:
            by_day.setdefault(f"{turn['time']:%Y-%m-%d}", []).append(turn)
        chat = str(messages[0].additional_kwargs.get("session_id") or "chat")
        for day, group in by_day.items():
            await asyncio.to_thread(
                self.memory.add_turns,
                group,
                self.namespace,
                session_time=min(t["time"] for t in group),
                session_id=f"{chat}-{day}",
                conversation_id=self.conversation_id,
            )

    def _remembered(self, message: ChatMessage) -> bool:
        """Whether a message is a memory: of ``roles``, with words, and not a filler of a role
        in ``skip_fillers``."""
        role, text = message.role.value, _text(message)
        if role not in self.roles or not text.strip():
            return False
        lexicon = self.memory.lexicon
        return role not in self.skip_fillers or not is_filler(text, lexicon, assistant=True)

    def _turn(self, message: ChatMessage, when: datetime) -> dict[str, Any]:
        text = check_unicode(str(message.content), f"A {message.role.value} message")
        role = message.role.value
        speaker = check_unicode(self.speakers.get(role, role), f"The speaker of {role!r}")
        turn_id = digest(role, when.isoformat(), text, size=24)
        return {"id": turn_id, "speaker": speaker, "text": text, "time": when}


def _record(message: ChatMessage) -> Record:
    return Record(_text(message), message.additional_kwargs)


def _text(message: ChatMessage) -> str:
    return str(message.content or "")
