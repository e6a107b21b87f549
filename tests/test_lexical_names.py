"""A speaker's name is not a word of each of their messages in the lexical index: BM25 reads
the restatement without the names that frame it (core/anchoring.unframed, index/bm25.py);
who said it stays a coordinate (the speaker preference)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.anchoring import unframed
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.text import word_set
from ramem_integrations.evaluation.ablations import LexicalSource
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.index.bm25 import lexical_text
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.memory.source import CachedSource

START = datetime(2023, 5, 8, 18, tzinfo=UTC)
PEOPLE = ("Caroline", "Melanie")


@pytest.mark.parametrize(
    ("restatement", "speaker", "participants", "words"),
    [
        # the head: speaker and addressee
        ("Melanie (to Caroline): 🎉", "Melanie", PEOPLE, "🎉"),
        ("Melanie: the pottery class", "Melanie", ("Melanie", "Jo", "Sam"), "the pottery class"),
        # a name the speaker wrote stays
        ("Melanie (to Caroline): Caroline, look!", "Melanie", PEOPLE, "Caroline, look!"),
        # another speaker's line inside a burst: the sender's name goes, the words stay
        (
            "Melanie (to Caroline): hi\nCaroline: lol\nsaw Caroline",
            "Melanie",
            PEOPLE,
            "hi\nlol\nsaw Caroline",
        ),
        # a time written as a date, and a correction's note, stay
        (
            "Melanie (to Caroline): on 7 May 2023 we hiked\n(corrected later: 6 May 2023)",
            "Melanie",
            PEOPLE,
            "on 7 May 2023 we hiked\n(corrected later: 6 May 2023)",
        ),
        # text another anchorer wrote is left as it is
        ("Melanie said she went hiking.", "Melanie", PEOPLE, "Melanie said she went hiking."),
        ("Melanie (to Caroline): hi", None, (), "Melanie (to Caroline): hi"),
    ],
)
def test_the_framing_names_are_taken_off_and_the_words_stay(
    restatement: str, speaker: str | None, participants: tuple[str, ...], words: str
) -> None:
    assert unframed(restatement, speaker, participants) == words


def chat() -> Conversation:
    said = [
        ("Caroline", "I went to the museum with my kids today"),
        ("Melanie", "🎉"),
        ("Melanie", "I painted a lake at sunrise"),
        ("Caroline", "Melanie, your painting of the lake is lovely"),
        ("Melanie", "thanks!"),
        ("Caroline", "The museum had a pottery room I loved"),
        ("Melanie", "I loved the pottery room at the museum too"),
    ]
    turns = tuple(
        Turn(f"t{i}", who, words, time=START + timedelta(hours=i))
        for i, (who, words) in enumerate(said)
    )
    return Conversation("c", (Session("s1", START, turns),))


@pytest.fixture
def mem(fake_mem: RaMem) -> RaMem:
    fake_mem.add_conversation(chat(), "ns")
    return fake_mem


def test_the_lexical_text_names_a_person_only_where_the_words_do(mem: RaMem) -> None:
    names = {"carolin", "melani"}  # the tokens of the two names
    unframed_ = {
        u.content: names & word_set(lexical_text(u, framed=False)) for u in mem.memories("ns")
    }
    assert unframed_ == {
        "I went to the museum with my kids today": set(),
        "🎉": set(),
        "I painted a lake at sunrise": set(),
        "Melanie, your painting of the lake is lovely": {"melani"},
        "thanks!": set(),
        "The museum had a pottery room I loved": set(),
        "I loved the pottery room at the museum too": set(),
    }
    # the default: as the restatement writes it, "Melanie (to Caroline): 🎉"
    assert all(names <= word_set(lexical_text(u)) for u in mem.memories("ns"))


def test_a_name_searched_in_the_unframed_index_finds_the_messages_that_say_it(mem: RaMem) -> None:
    assert isinstance(mem.content.source, CachedSource)
    unframed_ = LexicalSource(mem.content.source, framed=False)
    found = [u.content for u, _ in unframed_.lexical("ns", "Melanie", 10)]
    assert found == ["Melanie, your painting of the lake is lovely"]
    framed = {h.memory.content for h in mem.retrieve("Melanie", "ns", 10, mode="bm25")}
    assert len(framed) == 7  # the store's default index: every message names both


def test_the_index_with_and_without_framing_are_evaluation_systems(mem: RaMem) -> None:
    asked = Asked("Melanie", "ns", None)
    framed = {h.memory.content for h in SYSTEMS["content-lexical-framed"](mem, asked, 10)}
    unframed_ = [h.memory.content for h in SYSTEMS["content-lexical-unframed"](mem, asked, 10)]
    assert {"🎉", "thanks!", "I painted a lake at sunrise"} <= framed  # every message of hers
    assert unframed_[0] == "Melanie, your painting of the lake is lovely"


@pytest.mark.parametrize("system", ["ramem", "lexical-unframed"])
def test_what_x_said_in_a_two_person_chat_is_their_own_words_first(mem: RaMem, system: str) -> None:
    """Both spoke of the museum's pottery room; the question names Melanie. Without her name
    in the index, who said it is the speaker preference's coordinate."""
    asked = Asked("What did Melanie say about the pottery room at the museum?", "ns", None)
    hits = SYSTEMS[system](mem, asked, 3)
    assert hits[0].memory.content == "I loved the pottery room at the museum too"
    assert hits[0].memory.context.speaker == "Melanie"
