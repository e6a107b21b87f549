"""A chat ingested again with a message more: the burst that grew replaces the shorter one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import MemoryConflictError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.memory.regrouping import regrouped
from ramem_integrations.stores import chroma

SAID = datetime(2024, 9, 18, 12, tzinfo=UTC)


def unit(uid: str, text: str, turns: tuple[str, ...], conversation: str = "c") -> MemoryUnit:
    context = EpisodicContext(
        session_id="s1", session_span=TimeSpan(SAID, SAID + timedelta(hours=1))
    )
    return MemoryUnit(uid, text, context, "ns", source_ids=turns, conversation_id=conversation)


@pytest.mark.parametrize(
    ("new", "stored", "kept", "changed", "held"),
    [
        # a burst that grew by a message: the short one is replaced
        ([unit("n", "no way\nwhen?", ("3", "4"))], [unit("o", "no way", ("3",))], ["o"], [], []),
        # a burst cut in two: both new memories together hold the old words, in order
        (
            [unit("a", "omg", ("1",)), unit("b", "got it", ("2",))],
            [unit("o", "omg\ngot it", ("1", "2"))],
            ["o"],
            [],
            [],
        ),
        # a burst stored with the other speaker's reaction inside it, now the burst and the
        # reaction apart: both together hold each turn's words
        (
            [unit("a", "omg\nvan guy cancelled", ("1", "3")), unit("b", "noooo", ("2",))],
            [unit("o", "omg\nnoooo\nvan guy cancelled", ("1", "2", "3"))],
            ["o"],
            [],
            [],
        ),
        # ... and a word of one of them changed is a change
        (
            [unit("a", "omg\nvan guy cancelled", ("1", "3")), unit("b", "nooo", ("2",))],
            [unit("o", "omg\nnoooo\nvan guy cancelled", ("1", "2", "3"))],
            [],
            ["o"],
            [],
        ),
        # the words of a turn changed: a conflict, not a silent replacement
        ([unit("n", "no way!!\nwhen?", ("3", "4"))], [unit("o", "no way", ("3",))], [], ["o"], []),
        # a stored memory with a turn the write does not hold is left alone, and a new memory
        # whose turn and words it holds is not written (a later export starting in a burst)
        ([unit("n", "when?", ("4",))], [unit("o", "no way\nwhen?", ("3", "4"))], [], [], ["n"]),
        # ... unless its words changed: then it is written beside the stored one, nothing lost
        ([unit("n", "when!", ("4",))], [unit("o", "no way\nwhen?", ("3", "4"))], [], [], []),
        # the same memory (same id) is not a regrouping
        ([unit("o", "no way", ("3",))], [unit("o", "no way", ("3",))], [], [], []),
        # the same turn ids in another conversation are other turns
        ([unit("n", "no way\nwhen?", ("3", "4"))], [unit("o", "no way", ("3",), "d")], [], [], []),
        # a memory without turns (added as a memory, not from a chat) is never regrouped
        ([unit("n", "no way", ())], [unit("o", "no way", ())], [], [], []),
    ],
)
def test_regrouped(
    new: list[MemoryUnit],
    stored: list[MemoryUnit],
    kept: list[str],
    changed: list[str],
    held: list[str],
) -> None:
    got_kept, got_changed, got_held = regrouped(new, stored)
    assert [u.id for u in got_kept] == kept
    assert [old.id for old, _ in got_changed] == changed
    assert [u.id for u in got_held] == held


def chat(count: int, *, last: str = "when do you start?") -> list[dict[str, str]]:
    messages = [
        ("Bea", "omg", 0),
        ("Bea", "I got the job at the bakery!", 20),
        ("Max", "no way, congrats", 120),
        ("Max", last, 150),
    ]
    return [
        {"speaker": who, "text": text, "time": (SAID + timedelta(seconds=s)).isoformat()}
        for who, text, s in messages[:count]
    ]


def contents(mem: RaMem) -> list[str]:
    return sorted(u.content for u in mem.memories("b"))


def add(mem: RaMem, count: int, **kwargs: object) -> None:
    mem.add_turns(
        chat(count), "b", session_time=SAID, session_id="s1", conversation_id="c", **kwargs
    )  # type: ignore[arg-type]


def test_a_chat_added_again_with_a_message_more_stores_no_words_twice(fake_mem: RaMem) -> None:
    add(fake_mem, 3)
    assert contents(fake_mem) == ["no way, congrats", "omg\nI got the job at the bakery!"]
    add(fake_mem, 4)
    want = ["no way, congrats\nwhen do you start?", "omg\nI got the job at the bakery!"]
    assert contents(fake_mem) == want
    add(fake_mem, 4)  # a re-run changes nothing
    assert contents(fake_mem) == want
    hits = fake_mem.retrieve("congrats", "b", 10, mode="bm25")
    assert [h.memory.content for h in hits].count(want[0]) == 1  # the cache dropped the old one


def test_a_changed_message_in_a_regrouped_burst_is_refused_before_anything_is_written(
    fake_mem: RaMem,
) -> None:
    add(fake_mem, 3)
    before = contents(fake_mem)
    edited = chat(4)
    edited[2]["text"] = "no way!! congrats"
    with pytest.raises(MemoryConflictError, match="replace=True"):
        fake_mem.add_turns(edited, "b", session_time=SAID, session_id="s1", conversation_id="c")
    assert contents(fake_mem) == before
    fake_mem.add_turns(
        edited, "b", session_time=SAID, session_id="s1", conversation_id="c", replace=True
    )
    assert contents(fake_mem) == [
        "no way!! congrats\nwhen do you start?",
        "omg\nI got the job at the bakery!",
    ]


def test_holding_reads_turns_in_pieces(fake_mem: RaMem, monkeypatch: pytest.MonkeyPatch) -> None:
    add(fake_mem, 4)
    monkeypatch.setattr(chroma, "_TURNS_PER_READ", 1)
    held = fake_mem.store.holding("b", ["c"], ["s1:1", "s1:3", "s1:4", "s1:9"])
    assert sorted(u.source_ids for u in held) == [("s1:1", "s1:2"), ("s1:3", "s1:4")]
    assert fake_mem.store.holding("b", ["other"], ["s1:1"]) == []
