"""``RaMemMemoryBlock``: RaMem as a long-term memory block of LlamaIndex's ``Memory``."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory.memory import BaseMemoryBlock
from pydantic import Field, SkipValidation

from ramem_integrations.episodes import Record, record_time
from ramem_integrations.memory import RaMem
from ramem_integrations.memory_context import memory_context, shrink


def utc_now() -> datetime:
    """The default clock: the wall clock, in UTC."""
    return datetime.now(UTC)


class RaMemMemoryBlock(BaseMemoryBlock[str]):
    """A ``Memory`` block whose long-term memory is RaMem.

    Messages flushed from the short-term memory are written as turns, each at its timestamp
    (``additional_kwargs`` ``timestamp``, ``time``, ``date`` or ``created_at``); a message
    without one takes the time of the message before it (an answer follows its question), the
    first one ``clock()``. The messages of one day are one session. Writing the same messages
    again changes nothing. ``aget``
    retrieves for the latest user message, grounded at ``clock()``, and renders the memories
    with their coordinates.

    Key init args:
        memory: the :class:`~ramem_integrations.RaMem`; namespace: whose memory.
        k: memories per retrieval; max_tokens: a token budget for them (optional).
        roles: the roles whose messages are memories (``("user", "assistant")``).
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
    max_tokens: int | None = Field(default=None, ge=1)
    roles: tuple[str, ...] = ("user", "assistant")
    speakers: dict[str, str] = Field(default_factory=dict)
    conversation_id: str = "llama-index-memory"
    clock: SkipValidation[Callable[[], datetime]] = utc_now

    async def _aget(self, messages: list[ChatMessage] | None = None, **kwargs: Any) -> str:
        question = next(
            (
                m.content
                for m in reversed(messages or [])
                if m.role == MessageRole.USER and m.content
            ),
            None,
        )
        if not question or not question.strip() or self.memory.count(self.namespace) == 0:
            return ""
        hits = await self.memory.aretrieve(question, self.namespace, self.k, reference=self.clock())
        return memory_context(hits, max_tokens=self.max_tokens)

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
            if message.role.value in self.roles and (message.content or "").strip():
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

    def _turn(self, message: ChatMessage, when: datetime) -> dict[str, Any]:
        text = str(message.content)
        role = message.role.value
        speaker = self.speakers.get(role, role)
        digest = hashlib.sha1(f"{role}\x1f{when.isoformat()}\x1f{text}".encode()).hexdigest()
        return {"id": digest[:24], "speaker": speaker, "text": text, "time": when}


def _record(message: ChatMessage) -> Record:
    return Record(str(message.content or ""), message.additional_kwargs)
