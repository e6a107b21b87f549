"""RaMemMemoryBlock in a real LlamaIndex ``Memory``, and the agent example."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import Memory

from ramem_integrations.adapters_common.context import HEADER
from ramem_integrations.llama_index import RaMemMemoryBlock
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

MARCH = datetime(2024, 3, 12, 18, tzinfo=UTC)
JULY = datetime(2024, 7, 8, 10, tzinfo=UTC)
ASKED = datetime(2024, 9, 2, 9, tzinfo=UTC)
MARCH_SAID = "I saw the dentist today, she said the wisdom tooth must come out."
JULY_SAID = "Routine check-up at the dentist today, she said everything looks fine."


@pytest.fixture
def mem(tmp_path: Path) -> RaMem:
    return RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())


def _message(role: str, text: str, when: datetime | None = None) -> ChatMessage:
    extra = {"timestamp": when.isoformat()} if when else {}
    return ChatMessage(role=role, content=text, additional_kwargs=extra)


def _first_group(text: str) -> str:
    """The first group of memories the model is shown (its coordinates line and turns)."""
    return text.split("\n[1] said ")[-1].split("\n[2] said ")[0]


def _memories(text: str) -> int:
    """How many memories the model is shown: the quoted turn lines."""
    return sum(line.startswith(('user: "', 'assistant: "')) for line in text.splitlines())


def _block(mem: RaMem, **options: Any) -> RaMemMemoryBlock:
    return RaMemMemoryBlock(memory=mem, namespace="alice", clock=lambda: ASKED, **options)


def test_flushed_messages_are_turns_at_their_time(mem: RaMem) -> None:
    block = _block(mem, speakers={"user": "Alice"})
    messages = [
        _message("user", MARCH_SAID, MARCH),
        _message("assistant", "Sorry to hear that."),  # no timestamp: the one before it
        _message("system", "You are helpful."),  # not a memory
        _message("user", JULY_SAID, JULY),
    ]
    asyncio.run(block.aput(messages))
    units = sorted(mem.memories("alice"), key=lambda u: u.context.session_span.start)
    said = [(u.context.speaker, u.context.session_span.start) for u in units]
    assert said == [("Alice", MARCH), ("assistant", MARCH), ("Alice", JULY)]
    asyncio.run(block.aput(messages))  # the same messages again
    assert mem.count("alice") == 3


def test_a_message_without_any_time_is_said_now(mem: RaMem) -> None:
    asyncio.run(_block(mem).aput([_message("user", "No timestamp here.")]))
    (unit,) = mem.memories("alice")
    assert unit.context.session_span.start == ASKED


def test_roles_choose_what_is_remembered(mem: RaMem) -> None:
    block = _block(mem, roles=("user",))
    asyncio.run(block.aput([_message("user", MARCH_SAID, MARCH), _message("assistant", "Ok.")]))
    assert [u.context.speaker for u in mem.memories("alice")] == ["user"]


def test_aget_renders_the_memories_for_the_latest_user_message(mem: RaMem) -> None:
    block = _block(mem)
    assert asyncio.run(block.aget([_message("user", "What did the dentist say in March?")])) == ""
    asyncio.run(
        block.aput([_message("user", JULY_SAID, JULY), _message("user", MARCH_SAID, MARCH)])
    )
    question = [
        _message("user", "Hi"),
        _message("assistant", "Hello"),
        _message("user", "What did the dentist say in March?"),
    ]
    text = asyncio.run(block.aget(question))
    assert text.startswith(HEADER + "\n\n[1] said 12 March 2024")
    assert "wisdom tooth" in _first_group(text)
    assert _memories(asyncio.run(_block(mem, k=1).aget(question))) == 1


def _dentist_talk(mem: RaMem) -> list[ChatMessage]:
    """A real LlamaIndex Memory over the block: two statements about the dentist, each
    acknowledged with "Noted." and flushed into RaMem, then a question about March."""
    memory = Memory.from_defaults(
        session_id="alice", token_limit=60, token_flush_size=20, memory_blocks=[_block(mem)]
    )

    async def talk() -> list[ChatMessage]:
        for when, text in [(MARCH, MARCH_SAID), (JULY, JULY_SAID)]:
            await memory.aput(_message("user", text, when))
            await memory.aput(_message("assistant", "Noted."))
        await memory.aput(_message("user", "What did the dentist say in March?", ASKED))
        return await memory.aget()

    return asyncio.run(talk())


def test_in_a_real_memory_the_block_reaches_the_prompt(mem: RaMem) -> None:
    messages = _dentist_talk(mem)
    assert mem.count("alice") >= 2  # flushed into RaMem
    system = messages[0]
    assert system.role.value == "system"
    assert "\n[1] said 12 March 2024" in str(system.content)


def test_memory_shrinks_the_block_by_dropping_its_lowest_ranked_memories(mem: RaMem) -> None:
    block = _block(mem, k=4, priority=1)  # priority > 0: Memory may truncate it
    texts = [
        MARCH_SAID,
        JULY_SAID,
        "The dentist bill came today, 200 dollars.",
        "My dentist retires next year, she said.",
    ]
    said = [MARCH.replace(day=day) for day in (1, 5, 9, 13)]
    asyncio.run(block.aput([_message("user", t, w) for t, w in zip(texts, said, strict=True)]))
    whole = asyncio.run(block.aget([_message("user", "What did the dentist say?")]))
    assert _memories(whole) == 4

    def shown(token_limit: int) -> str:
        memory = Memory.from_defaults(
            session_id="alice", token_limit=token_limit, memory_blocks=[block]
        )

        async def ask() -> list[ChatMessage]:
            await memory.aput(_message("user", "What did the dentist say?", ASKED))
            return await memory.aget()

        first = asyncio.run(ask())[0]
        return str(first.content) if first.role.value == "system" else ""

    cut = shown(200)  # room for some of the memories, not all
    assert 0 < _memories(cut) < 4
    assert whole.startswith(cut.split("</ramem>")[0].split("<ramem>")[-1].strip()[:200])
    assert asyncio.run(block.atruncate(whole, 10**6)) is None  # nothing left: no block


# -- what the block stores: no assistant fillers -------------------------------------------

#: (role, message, stored): an assistant's acknowledgements tell nothing; the user's words and
#: an assistant's substantive replies are kept.
FILLER_CASES: list[tuple[str, str, bool]] = [
    ("assistant", "Noted.", False),
    ("assistant", "Got it!", False),
    ("assistant", "Sure.", False),
    ("assistant", "Okay, noted.", False),
    ("assistant", "Got it, I'll remember that.", False),
    ("assistant", "Happy to help! 😊", False),
    ("assistant", "I booked the dentist for Tuesday at 9.", True),
    ("assistant", "She said the wisdom tooth must come out.", True),
    ("user", "ok", True),  # the user's words are theirs to keep ("ok" to a question matters)
    ("user", "Noted.", True),
]


@pytest.mark.parametrize(("role", "text", "stored"), FILLER_CASES, ids=[c[1] for c in FILLER_CASES])
def test_assistant_fillers_are_not_stored(mem: RaMem, role: str, text: str, stored: bool) -> None:
    asyncio.run(_block(mem).aput([_message("user", MARCH_SAID, MARCH), _message(role, text)]))
    said = [u.content for u in mem.memories("alice")]  # a user's burst is one memory
    assert "\n".join(said).endswith(text) is stored
    assert "wisdom tooth" in said[0]


def test_skip_fillers_may_keep_them(mem: RaMem) -> None:
    block = _block(mem, skip_fillers=())
    asyncio.run(block.aput([_message("user", MARCH_SAID, MARCH), _message("assistant", "Noted.")]))
    assert mem.count("alice") == 2


def test_in_a_real_memory_no_noted_comes_back_for_the_dentist(mem: RaMem) -> None:
    """The issue's run: statements acknowledged with "Noted." flushed into the block, then a
    question about the dentist. Before, "Noted." came back as memory 2."""
    system = str(_dentist_talk(mem)[0].content)
    flushed = [u.content for u in mem.memories("alice")]
    assert MARCH_SAID in flushed and not any("Noted" in text for text in flushed)
    assert "Noted" not in system
    assert "\n[1] said 12 March 2024" in system


# -- what the block reads: the question, and the messages before it ------------------------

PLUMBER_SAID = "The plumber came today, she said the pipes must be replaced."


def _ask_after_talking_of_the_dentist(mem: RaMem, **options: Any) -> str:
    """A real Memory: the dentist twice and the plumber, then the user turns to the dentist
    and asks "What did she say must be done?". The first memory's text."""
    block = _block(mem, **options)
    said = [MARCH_SAID, PLUMBER_SAID, JULY_SAID]
    days = [MARCH.replace(day=day) for day in (5, 12, 19)]
    asyncio.run(block.aput([_message("user", t, w) for t, w in zip(said, days, strict=True)]))
    memory = Memory.from_defaults(session_id="alice", memory_blocks=[block])

    async def ask() -> str:
        await memory.aput(_message("user", "I want to talk about my dentist."))
        await memory.aput(_message("assistant", "Of course, what about her?"))
        messages = await memory.aget(input="What did she say must be done?")
        return str(messages[0].content)

    system = asyncio.run(ask())
    return _first_group(system)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "first"),
    [({}, "wisdom tooth"), ({"retrieval_context_window": 1}, "pipes")],
    ids=["default window", "the question alone"],
)
def test_the_window_leans_the_search_toward_the_subject(
    tmp_path: Path, options: dict[str, Any], first: str
) -> None:
    """With the packaged model: the question alone reads best as the plumber's; the messages
    before it (the default window of 5) say it is about the dentist."""
    assert first in _ask_after_talking_of_the_dentist(RaMem.from_path(tmp_path / "s"), **options)


def test_the_window_is_a_positive_number(mem: RaMem) -> None:
    with pytest.raises(ValueError, match="retrieval_context_window"):
        _block(mem, retrieval_context_window=0)


def test_conditions_come_from_the_question_only(mem: RaMem) -> None:
    """The messages before the question say July; the question asks about March. The
    condition is March: the July memory meets none and comes after both March ones."""
    block = _block(mem)
    said = [(MARCH, MARCH_SAID), (JULY, JULY_SAID)]
    asyncio.run(block.aput([_message("user", text, when) for when, text in said]))
    messages = [
        _message("user", "In July I had a check-up at the dentist too."),
        _message("assistant", "Yes, I remember."),
        _message("user", "What did the dentist say in March?"),
    ]
    hits = asyncio.run(
        mem.aretrieve(
            "What did the dentist say in March?",
            "alice",
            reference=ASKED,
            context=block._context(messages, messages[-1], 0),
        )
    )
    assert [h.memory.content for h in hits] == [MARCH_SAID, JULY_SAID]
    assert (hits[0].reason, hits[0].matched) == ("context", ("time March 2024",))
    assert hits[1].reason == "content"
    text = asyncio.run(block.aget(messages))
    assert "wisdom tooth" in _first_group(text)
