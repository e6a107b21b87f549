"""The lexicon: one value holding the word tables, given to the readers; a user may replace a
table and the readers then read by it. Reactions are phrases: a word found only inside one is no
reaction by itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ramem_integrations import RaMem
from ramem_integrations.core.anchoring import RuleAnchorer, find_place, proper_names
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.entity_typing import place_evidence
from ramem_integrations.core.frames import (
    UNDATED_REASON,
    KnownContext,
    RuleFrameInducer,
    asks_for_time,
)
from ramem_integrations.core.grouping import group_turns, is_filler
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.lexicon.time import Holiday
from ramem_integrations.core.retrieval.ordering import state_words
from ramem_integrations.core.time.conventions import Conventions
from ramem_integrations.core.time.corrections import correction_times
from ramem_integrations.core.time.grounding import find_times, names_a_holiday
from ramem_integrations.core.time.zones import zone
from ramem_integrations.core.types import TimeMention, TimeSpan
from ramem_integrations.errors import InvalidInputError, InvalidTimeError
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing.embedders import HashingEmbedder

AT = datetime(2024, 3, 9, 8, 0, tzinfo=UTC)


def _with(section: str, table: str, *rows: object) -> Lexicon:
    """English with ``rows`` added to one table."""
    words = getattr(ENGLISH, section)
    return replace(ENGLISH, **{section: replace(words, **{table: (*getattr(words, table), *rows)})})


def _times(text: str, lexicon: Lexicon) -> list[str]:
    """The times a message says, read as a chat message is (pointing the way it points)."""
    conventions = Conventions(words=lexicon.time)
    return [f.span.label() for f in find_times(text, AT, tense=True, conventions=conventions)]


def _corrects(lexicon: Lexicon) -> bool:
    friday = TimeMention("friday", TimeSpan.day(AT.date(), AT.tzinfo))
    return correction_times("erm hang on, friday", [friday], lexicon.time)[2]


def _zone(lexicon: Lexicon) -> str | None:
    try:
        return str(zone("WIT", None, lexicon.time))
    except InvalidTimeError:
        return None


def _recency(lexicon: Lexicon) -> list[str]:
    frame = RuleFrameInducer(lexicon=lexicon).induce(
        "Where does Alice work as things stand?", reference=AT, known=KnownContext(("Alice",))
    )
    return [c.evidence for c in frame.conditions if c.kind == "recency"]


#: (what is replaced, the lexicon with the new row, what the reader reads; English first).
REPLACED: list[tuple[str, Lexicon, Callable[[Lexicon], object], object, object]] = [
    (
        "a reaction",
        _with("chat", "reactions", "meh"),
        lambda lx: is_filler("meh!", lx),
        False,
        True,
    ),
    (
        "a recency phrase",
        _with("frames", "recency", "as things stand"),
        _recency,
        [],
        ["as things stand"],
    ),
    (
        "a question opening that asks for a time",
        _with("frames", "asks_time", "at what age"),
        lambda lx: asks_for_time("At what age did Sam learn to swim?", lx),
        False,
        True,
    ),
    (
        "a gazetteer entry",
        _with("places", "gazetteer", "Lyon"),
        lambda lx: place_evidence("at", "Lyon", lx),
        None,
        "gazetteer",
    ),
    (
        "a place cue the anchorer reads",
        _with("places", "place_cues", "beside"),
        lambda lx: find_place("we camped beside Lake Tahoe", (), lx),
        None,
        "Lake Tahoe",
    ),
    (
        "a capitalised word that is no name",
        _with("text", "not_names", "Bestie"),
        lambda lx: proper_names("see you soon Bestie and Sam", (), lx),
        ["Bestie", "Sam"],
        ["Sam"],
    ),
    (
        "a weekday spelling",
        _with("time", "weekday_short", ("thurz", 3)),
        lambda lx: _times("gym on thurz?", lx),
        [],
        ["14 March 2024"],
    ),
    (
        "a month name",
        _with("time", "months", ("januar", 1)),
        lambda lx: _times("we met in Januar 2023", lx),
        [],
        ["January 2023"],
    ),
    (
        "a reschedule verb (a tense cue's slot)",
        _with("time", "rescheduled", "slid"),
        lambda lx: _times("the dentist slid to friday", lx),
        ["8 March 2024"],
        ["15 March 2024"],
    ),
    (
        "a holiday",
        _with("time", "holidays", ("diwali", Holiday("fixed", (11, 1)))),
        lambda lx: (names_a_holiday("diwali", lx.time), _times("home for diwali 2024", lx)),
        (False, []),
        (True, ["1 November 2024"]),
    ),
    (
        "a correction's opening",
        _with("time", "strong_cues", r"erm\s+hang on"),
        _corrects,
        False,
        True,
    ),
    (
        "a zone abbreviation",
        _with("time", "zone_offsets", ("WIT", 9)),
        _zone,
        None,
        "WIT",
    ),
    (
        "a kind of state",
        _with("frames", "state_topics", ("band", "gig", "bassist")),
        lambda lx: state_words("band", lx) is not None and "gig" in (state_words("band", lx) or ()),
        False,
        True,
    ),
]


@pytest.mark.parametrize(
    ("changed", "lexicon", "read", "english", "replaced"), REPLACED, ids=[r[0] for r in REPLACED]
)
def test_a_replaced_table_changes_what_is_read(
    changed: str,
    lexicon: Lexicon,
    read: Callable[[Lexicon], object],
    english: object,
    replaced: object,
) -> None:
    assert read(ENGLISH) == english
    assert read(lexicon) == replaced


def test_a_new_reaction_keeps_a_burst_whole_in_the_anchorer() -> None:
    """The anchorer groups by the lexicon it is given: the other speaker's "meh" inside a
    burst is a reaction, and the burst goes on after it."""
    turns = [
        Turn("1", "Marcus", "the van guy cancelled", AT),
        Turn("2", "Bea", "meh", AT + timedelta(minutes=1)),
        Turn("3", "Marcus", "so i have a free day", AT + timedelta(minutes=2)),
    ]
    gap = timedelta(minutes=5)
    assert [[t.id for t in g] for g in group_turns(turns, gap)] == [["1"], ["2"], ["3"]]
    mine = _with("chat", "reactions", "meh")
    assert [[t.id for t in g] for g in group_turns(turns, gap, lexicon=mine)] == [
        ["1", "3"],
        ["2"],
    ]


def test_ramem_passes_its_lexicon_to_the_readers_it_builds(tmp_path: Path) -> None:
    mine = _with("frames", "recency", "as things stand")
    mem = RaMem(
        ChromaEpisodicStore.from_path(tmp_path / "s"), embedder=HashingEmbedder(), lexicon=mine
    )
    assert mem.lexicon is mine
    assert isinstance(mem.anchorer, RuleAnchorer) and mem.anchorer.lexicon is mine
    assert mem.reinstatement.lexicon is mine
    mem.add_turns(
        [
            {"speaker": "Alice", "text": "I work at Northwind now."},
            {"speaker": "Sam", "text": "nice"},
        ],
        "n",
        session_time=AT,
    )
    frame = mem.frame("Where does Alice work as things stand?", "n", reference=AT)
    assert [c.evidence for c in frame.conditions if c.kind == "recency"] == ["as things stand"]


def test_the_time_readers_read_the_time_words_they_are_given() -> None:
    """The anchorer and the frame inducer read their lexicon's time section ("thurz" a
    Thursday); English does not."""
    mine = _with("time", "weekday_short", ("thurz", 3))
    said = Session("s", AT, (Turn("1", "Bea", "gym on thurz?", AT),))
    conversation = Conversation("c", (said,))

    def event(lexicon: Lexicon) -> str | None:
        (unit,) = RuleAnchorer(lexicon=lexicon).anchor(conversation, "n")
        return unit.context.event_time.label() if unit.context.event_time else None

    def asked(inducer: RuleFrameInducer) -> list[str]:
        frame = inducer.induce("Who went to the gym on thurz?", reference=AT, known=KnownContext())
        return [c.value for c in frame.conditions if c.kind == "time"]

    assert (event(ENGLISH), asked(RuleFrameInducer())) == (None, [])
    assert (event(mine), asked(RuleFrameInducer(lexicon=mine))) == (
        "14 March 2024",
        ["7 March 2024"],
    )


def test_ramem_reads_corrections_by_its_time_words(tmp_path: Path) -> None:
    """A new correction opening in RaMem's lexicon corrects the time just given; English reads
    the second message as no correction."""
    said = (Turn("1", "Bea", "dinner on friday", AT), Turn("2", "Bea", "erm hang on, saturday", AT))
    conversation = Conversation("c", (Session("s", AT, said),))
    mine = _with("time", "strong_cues", r"erm\s+hang on")

    def first_time(lexicon: Lexicon, path: Path) -> str | None:
        store = ChromaEpisodicStore.from_path(path)
        mem = RaMem(store, embedder=HashingEmbedder(), lexicon=lexicon)
        unit = mem.anchor(conversation, "n")[0]
        return unit.context.event_time.label() if unit.context.event_time else None

    assert first_time(ENGLISH, tmp_path / "english") == "15 March 2024"
    assert first_time(mine, tmp_path / "mine") == "16 March 2024"


def test_an_undated_question_drops_a_relative_time_in_its_own_words(tmp_path: Path) -> None:
    """Without the question's date, "last thurz" (a time only in RaMem's lexicon) is relative
    and left ungrounded, as "last Thursday" is in English, with a warning naming it."""
    mine = _with("time", "weekday_short", ("thurz", 3))
    mem = RaMem(
        ChromaEpisodicStore.from_path(tmp_path / "s"), embedder=HashingEmbedder(), lexicon=mine
    )
    mem.add_turns([{"speaker": "Bea", "text": "gym was great"}], "n", session_time=AT)
    with pytest.warns(UngroundedTimeWarning, match="last thurz"):
        frame = mem.frame("What did Bea do last thurz?", "n")
    (time,) = [c for c in frame.conditions if c.kind == "time"]
    assert (time.evidence, time.grounded, time.reason) == ("last thurz", False, UNDATED_REASON)


def test_equal_lexicons_are_one_value() -> None:
    """A lexicon is a value: equal tables make equal (and equally hashed) lexicons, so the
    patterns built from one serve the other."""
    assert Lexicon() == ENGLISH and hash(Lexicon()) == hash(ENGLISH)
    assert _with("chat", "reactions", "meh") != ENGLISH


#: (message, a reaction): a word that is only part of a phrase ("you" of "thank you", "it" of
#: "love it", "up" of "shut up") is no reaction alone, nor with another reaction.
PHRASES = [
    ("you", False),
    ("it", False),
    ("that", False),
    ("up", False),
    ("thank", False),
    ("love you", False),
    ("you ok?", False),
    ("shut it", False),
    ("thank you", True),
    ("Thank you!!", True),
    ("love it", True),
    ("shut up lol", True),
    ("oh no", True),
    ("omg yes", True),
    ("no way", True),
    ("lol thank you", True),
]


@pytest.mark.parametrize(("text", "reaction"), PHRASES)
def test_reactions_are_phrases(text: str, reaction: bool) -> None:
    assert is_filler(text) is reaction


#: (an assistant's message, only an acknowledgement).
ACKNOWLEDGED = [
    ("Noted.", True),
    ("Got it, I'll remember that.", True),
    ("Happy to help! 😊", True),
    ("Of course.", True),
    ("I see.", False),
    ("That's the plan.", False),
    ("My dentist is on Tuesday.", False),
]


@pytest.mark.parametrize(("text", "acknowledgement"), ACKNOWLEDGED)
def test_acknowledgements_are_phrases(text: str, acknowledgement: bool) -> None:
    assert is_filler(text, assistant=True) is acknowledgement


#: (a table as a user might write it, what the error names).
NOT_TUPLES = [
    (["lol", "oh no"], "chat.reactions is a list"),
    ({"lol"}, "chat.reactions is a set"),
    ("lol", "chat.reactions is a str"),
    (("lol", 3), "chat.reactions holds 3"),
]


@pytest.mark.parametrize(("table", "named"), NOT_TUPLES)
def test_a_table_that_is_no_tuple_is_refused(table: object, named: str) -> None:
    chat = replace(ENGLISH.chat, reactions=table)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=named) as error:
        replace(ENGLISH, chat=chat)
    assert "tuple of phrases" in str(error.value)


def test_a_time_table_that_is_no_tuple_is_refused() -> None:
    """The time words are checked as the other sections are: a dict is no table."""
    time = replace(ENGLISH.time, months={"jan": 1})  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"time\.months is a dict"):
        replace(ENGLISH, time=time)
