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
from ramem_integrations.core.conversation import Turn
from ramem_integrations.core.entity_typing import place_evidence
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer, asks_for_time
from ramem_integrations.core.grouping import group_turns, is_filler
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.retrieval.ordering import state_words
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing.embedders import HashingEmbedder

AT = datetime(2024, 3, 9, 8, 0, tzinfo=UTC)


def _with(section: str, table: str, *rows: object) -> Lexicon:
    """English with ``rows`` added to one table."""
    words = getattr(ENGLISH, section)
    return replace(ENGLISH, **{section: replace(words, **{table: (*getattr(words, table), *rows)})})


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
