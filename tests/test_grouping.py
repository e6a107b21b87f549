"""Message grouping: bursts of one speaker become one utterance; fillers are a table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.grouping import group_turns, is_filler

START = datetime(2024, 3, 9, 8, 12, tzinfo=UTC)


def at(seconds: int) -> datetime:
    return START + timedelta(seconds=seconds)


def turns(*rows: tuple[str, str, int | None]) -> list[Turn]:
    return [
        Turn(f"D1:{i}", speaker, text, None if s is None else at(s))
        for i, (speaker, text, s) in enumerate(rows, 1)
    ]


@pytest.mark.parametrize(
    ("text", "filler"),
    [
        ("lol", True),
        ("LOOOL", True),
        ("yes!!", True),
        ("omg omg", True),
        ("oh no", True),
        ("❤️", True),
        ("🙏🙏", True),
        ("[photo]", False),
        ("??", True),
        ("noooo", True),
        ("van guy cancelled", False),
        ("like 20 mins ago", False),
        ("yes bringing it tomorrow", False),
        ("Lisbon", False),
    ],
)
def test_fillers_are_a_table(text: str, filler: bool) -> None:
    assert is_filler(text) is filler


CASES = {
    "a burst of one speaker": (
        turns(("M", "trix", 0), ("M", "emergency", 13), ("M", "van guy cancelled", 60)),
        [["D1:1", "D1:2", "D1:3"]],
    ),
    "a pause longer than the gap cuts": (
        turns(("M", "van guy cancelled", 0), ("M", "ok so now i have a free day", 600)),
        [["D1:1"], ["D1:2"]],
    ),
    "the other speaker's reply cuts": (
        turns(
            ("M", "van guy cancelled", 0),
            ("B", "what r u going to do", 20),
            ("M", "jonah has a car", 40),
        ),
        [["D1:1"], ["D1:2"], ["D1:3"]],
    ),
    "the other speaker's reaction inside a burst does not cut it and stays its own": (
        turns(("M", "van guy cancelled", 0), ("B", "noooo", 20), ("M", "on the day", 40)),
        [["D1:1", "D1:3"], ["D1:2"]],
    ),
    "a reaction and what its speaker says next are one utterance": (
        turns(("M", "van guy cancelled", 0), ("B", "noooo", 20), ("B", "what now?", 40)),
        [["D1:1"], ["D1:2", "D1:3"]],
    ),
    "reactions in a row of one speaker are one": (
        turns(("M", "van guy", 0), ("B", "lol", 10), ("B", "😭", 15), ("M", "cancelled", 30)),
        [["D1:1", "D1:4"], ["D1:2", "D1:3"]],
    ),
    "reactions of two others are two": (
        turns(("M", "van guy", 0), ("B", "lol", 10), ("J", "🎉", 15), ("M", "cancelled", 30)),
        [["D1:1", "D1:4"], ["D1:2"], ["D1:3"]],
    ),
    "the gap runs on from the reaction": (
        turns(("M", "van guy cancelled", 0), ("B", "noooo", 150), ("M", "on the day", 300)),
        [["D1:1", "D1:3"], ["D1:2"]],
    ),
    "a reaction after the gap is no reaction to the burst": (
        turns(("M", "van guy cancelled", 0), ("B", "noooo", 600), ("M", "on the day", 620)),
        [["D1:1"], ["D1:2"], ["D1:3"]],
    ),
    "turns without a time stay alone": (
        turns(("M", "I moved", None), ("M", "to Leeds", None)),
        [["D1:1"], ["D1:2"]],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_group_turns(name: str) -> None:
    given, expected = CASES[name]
    groups = group_turns(given, timedelta(minutes=3))
    assert [[t.id for t in g] for g in groups] == expected


def test_reactions_cut_without_absorb() -> None:
    given = turns(("M", "van guy cancelled", 0), ("B", "noooo", 20), ("M", "on the day", 40))
    groups = group_turns(given, timedelta(minutes=3), absorb_reactions=False)
    assert [len(g) for g in groups] == [1, 1, 1]


def test_anchored_utterance_keeps_each_message_and_its_own_time() -> None:
    burst = turns(
        ("Marcus", "omg", 0),
        ("Marcus", "van guy cancelled", 20),
        ("Bea", "noooo", 30),
        ("Marcus", "the van broke down yesterday", 50),
        ("Bea", "what r u going to do", 900),
    )
    # The session started the evening before; the burst is after midnight.
    session = Session("session_1", START - timedelta(hours=10), tuple(burst))
    units = RuleAnchorer().anchor(Conversation("c", (session,)), "ns")
    first, reaction, second = units
    assert first.source_ids == ("D1:1", "D1:2", "D1:4")
    assert second.source_ids == ("D1:5",)
    assert first.context.speaker == "Marcus"
    # verbatim, one line a message; the restatement beside it names the speaker and dates
    lines = ["omg", "van guy cancelled", "the van broke down yesterday"]
    assert first.content.splitlines() == lines
    assert first.restatement is not None
    assert first.restatement.splitlines() == [
        "Marcus (to Bea): omg",
        "van guy cancelled",
        "the van broke down on 8 March 2024",
    ]
    # Bea's reaction inside Marcus's burst is Bea's own memory, not part of his
    assert (reaction.source_ids, reaction.content) == (("D1:3",), "noooo")
    assert (reaction.context.speaker, reaction.restatement) == ("Bea", "Bea (to Marcus): noooo")
    # 'yesterday' is grounded against its own message (9 March), not the session's date.
    assert first.context.event_time is not None
    assert first.context.event_time.start.date().isoformat() == "2024-03-08"
    # The span runs from the first message to a minute after the last.
    assert first.context.session_span.start == START
    assert first.context.session_span.end == at(900) + timedelta(minutes=1)


def test_without_gap_one_unit_per_turn() -> None:
    burst = turns(("M", "omg", 0), ("M", "van guy cancelled", 20))
    session = Session("s", START, tuple(burst))
    units = RuleAnchorer(group_gap=None).anchor(Conversation("c", (session,)), "ns")
    assert [u.source_ids for u in units] == [("D1:1",), ("D1:2",)]


def test_framework_records_stay_one_memory_each() -> None:
    from ramem_integrations.adapters_common.records import Record, anchor_records

    records = [
        Record("omg", {"speaker": "Marcus", "time": at(0).isoformat(), "session_id": "s"}),
        Record(
            "van cancelled", {"speaker": "Marcus", "time": at(20).isoformat(), "session_id": "s"}
        ),
    ]
    units = anchor_records(records, "ns")
    assert [len(u.source_ids) for u in units] == [1, 1]
