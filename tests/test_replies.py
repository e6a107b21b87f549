"""The reply answers the question: a named person's reply to the other's question comes
before that question (core/retrieval/replies.py, ContextualRetriever.reinstate)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from ramem_integrations.core.retrieval.content import HybridSearch
from ramem_integrations.core.retrieval.optional import added
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.replies import reply_to
from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS, Replies
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    ScoredMemory,
    TimeSpan,
)
from ramem_integrations.memory.ramem import RaMem

SAID = datetime(2023, 8, 14, 18, tzinfo=UTC)


def _turns(*said: tuple[str, str]) -> list[MemoryUnit]:
    """One episode's turns, ``(speaker, words)`` in order, with ids t0, t1, ..."""
    span = TimeSpan.day(SAID.date(), UTC)
    return [
        MemoryUnit(
            f"t{i}",
            words,
            EpisodicContext("s", span, speaker=speaker, episode=Episode("e", i)),
            "ns",
        )
        for i, (speaker, words) in enumerate(said)
    ]


ASK = ("Caroline", "Love the tattoo, did you just get it?")
ANSWER = ("Melanie", "Yes, last Friday, a sunflower on my arm!")


@pytest.mark.parametrize(
    ("said", "named", "reply"),
    [
        # the other's question to the named person: her next turn is the reply
        ((ASK, ANSWER), {"Melanie"}, "t1"),
        # trailing spaces after the question mark still ask
        ((("Caroline", "Did you just get it?  "), ANSWER), {"Melanie"}, "t1"),
        # reactions between the question and the reply are passed over
        ((ASK, ("Caroline", "lol"), ("Melanie", "🎉"), ANSWER), {"Melanie"}, "t3"),
        # the asker is named: her own question is about what she asks, not what she did
        ((ASK, ANSWER), {"Caroline"}, None),
        ((ASK, ANSWER), {"Caroline", "Melanie"}, None),
        # no one named: no one the question is about
        ((ASK, ANSWER), set(), None),
        # not a question
        ((("Caroline", "Love the tattoo."), ANSWER), {"Melanie"}, None),
        # the next turn is the asker's own (or a third person's), not the named person's
        ((ASK, ("Caroline", "It looks great."), ANSWER), {"Melanie"}, None),
        ((ASK, ("Jon", "Mine too!"), ANSWER), {"Melanie"}, None),
        # the question is the episode's last turn
        ((ANSWER, ASK), {"Melanie"}, None),
    ],
)
def test_the_reply_is_the_named_persons_next_turn_after_a_question_put_to_them(
    said: tuple[tuple[str, str], ...], named: set[str], reply: str | None
) -> None:
    turns = _turns(*said)
    asked = next(t for t in turns if t.content.endswith(("?", "?  ", "tattoo.")))
    found = reply_to(asked, turns, frozenset(named))
    assert (found.id if found else None) == reply


def test_a_question_outside_the_episode_turns_has_no_reply() -> None:
    turns = _turns(ASK, ANSWER)
    assert reply_to(turns[0], turns[1:], {"Melanie"}) is None


class _Episode:
    def __init__(self, turns: list[MemoryUnit]) -> None:
        self.turns = turns

    def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
        return self.turns


@pytest.mark.parametrize(
    ("depth", "named", "order"),
    [
        # the question (ranked second) brings the reply just before it, with its score
        (10, {"Melanie"}, ["t2", "t1", "t0"]),
        # only the best `depth` hits bring a reply
        (1, {"Melanie"}, ["t2", "t0", "t1"]),
        (0, {"Melanie"}, ["t2", "t0", "t1"]),
        # no names: nothing moves
        (10, set(), ["t2", "t0", "t1"]),
    ],
)
def test_reinstate_places_the_reply_before_the_question_it_answers(
    depth: int, named: set[str], order: list[str]
) -> None:
    turns = _turns(ASK, ANSWER, ("Caroline", "Sunflowers are my favourite"))
    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        episodes=_Episode(turns),
        leading=0,  # no neighbours: the reply alone moves
        steps=added(DEFAULT_STEPS, Replies(depth=depth)),
    )
    ranked = [ScoredMemory(turns[2], 1.0), ScoredMemory(turns[0], 0.9), ScoredMemory(turns[1], 0.1)]
    hits = retriever.reinstate(ranked, "ns", 3, named=frozenset(named))
    assert [h.memory.id for h in hits] == order
    by_id = {h.memory.id: h for h in hits}
    moved = depth > 1 and named
    assert by_id["t1"].score == (0.9 if moved else 0.1)
    assert (by_id["t1"].reason, by_id["t1"].matched) == (
        ("reply", ("t0",)) if moved else ("content", ())
    )
    assert replace(retriever, episodes=None).reinstate(ranked, "ns", 3, named=frozenset(named)) == (
        ranked
    )


def test_a_question_that_ends_its_episode_takes_the_reply_that_opens_the_next() -> None:
    """The segmenter cut between "When do you start?" and the answer: the reply is the first
    turn of the next episode of the session."""

    def into(unit: MemoryUnit, episode: Episode) -> MemoryUnit:
        return replace(unit, context=replace(unit.context, episode=episode))

    asked, answer, later = _turns(("Marisol", "When do you start?"), ANSWER, ANSWER)
    asked = into(asked, Episode("e1", 0, next_id="e2"))
    answer, later = into(answer, Episode("e2", 0)), into(later, Episode("e2", 1))
    episodes = {"e1": [asked], "e2": [answer, later]}

    class _Episodes:
        def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
            return episodes[episode_id]

    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        episodes=_Episodes(),
        leading=0,
        steps=added(DEFAULT_STEPS, "replies"),
    )
    ranked = [ScoredMemory(asked, 0.9), ScoredMemory(later, 0.5)]
    hits = retriever.reinstate(ranked, "ns", 3, named=frozenset({"Melanie"}))
    assert [(h.memory.id, h.reason) for h in hits] == [
        ("t1", "reply"),
        ("t0", "content"),
        ("t2", "content"),
    ]
    # the last episode of its session has no next one: nothing moves
    alone = into(asked, Episode("e1", 0))
    episodes["e1"] = [alone]
    hits = retriever.reinstate([ScoredMemory(alone, 0.9)], "ns", 3, named=frozenset({"Melanie"}))
    assert [h.memory.id for h in hits] == ["t0"]


CHAT = [
    {"speaker": "Caroline", "text": "Hey Mel! Love the new tattoo, did you just get the tattoo?"},
    {"speaker": "Melanie", "text": "Yes, last Friday! A sunflower on my arm."},
    {"speaker": "Caroline", "text": "It suits you so well."},
    {"speaker": "Melanie", "text": "Thanks, the kids helped me pick the design."},
]


def test_the_named_persons_reply_comes_first_from_real_chroma(fake_mem: RaMem) -> None:
    """Content retrieval ranks Caroline's question first (it says "tattoo"); RaMem with
    replies on brings Melanie's reply, which tells when, just before it."""
    fake_mem.reinstatement = replace(fake_mem.reinstatement, steps=added(DEFAULT_STEPS, "replies"))
    fake_mem.add_turns(CHAT, "n", session_time=SAID, session_id="s1", conversation_id="c")
    question = "When did Melanie get her tattoo?"
    content = fake_mem.retrieve(question, "n", 2, mode="content", reference=SAID)
    assert content[0].memory.content.endswith(CHAT[0]["text"])
    hits = fake_mem.retrieve(question, "n", 2, reference=SAID)
    assert [h.memory.content.split(": ", 1)[-1] for h in hits[:2]] == [
        CHAT[1]["text"],
        CHAT[0]["text"],
    ]
    assert hits[0].reason == "reply" and hits[0].matched == (hits[1].memory.id,)
    # asked about Caroline, her own question stays where content put it
    about_caroline = fake_mem.retrieve("When did Caroline ask about the tattoo?", "n", 1)
    assert about_caroline[0].memory.content.endswith(CHAT[0]["text"])


def test_a_reply_across_an_episode_cut_comes_first_from_real_chroma(fake_mem: RaMem) -> None:
    """With every turn its own episode, the reply is always in the next one."""
    fake_mem.reinstatement = replace(fake_mem.reinstatement, steps=added(DEFAULT_STEPS, "replies"))
    fake_mem.segmenter = Segmenter(min_turns=1, max_turns=1)
    fake_mem.add_turns(CHAT, "n", session_time=SAID, session_id="s1", conversation_id="c")
    hits = fake_mem.retrieve("When did Melanie get her tattoo?", "n", 2, reference=SAID)
    assert [h.memory.content.split(": ", 1)[-1] for h in hits] == [CHAT[1]["text"], CHAT[0]["text"]]
    assert hits[0].reason == "reply"
    reply, question = (h.memory.context.episode for h in hits)
    assert reply is not None and question is not None
    assert question.next_id == reply.id != question.id


def test_the_cli_says_which_question_a_reply_answers() -> None:
    from ramem_integrations.app.cli import why_line

    turns = _turns(ASK, ANSWER)
    reply = ScoredMemory(turns[1], 0.9, "reply", ("t0",))
    assert why_line(reply, {"t0": 2}).startswith("a named person's reply to #2, a question put")


def test_replies_are_off_by_default_and_the_with_replies_system_turns_them_on(
    fake_mem: RaMem,
) -> None:
    from ramem_integrations.evaluation.datasets import Asked
    from ramem_integrations.evaluation.systems import SYSTEMS

    fake_mem.add_turns(CHAT, "n", session_time=SAID, session_id="s1", conversation_id="c")
    asked = Asked("When did Melanie get her tattoo?", "n")
    with_rule = SYSTEMS["with-replies"](fake_mem, asked, 1)
    without = SYSTEMS["ramem"](fake_mem, asked, 1)
    assert with_rule[0].memory.content.endswith(CHAT[1]["text"])
    assert without[0].memory.content.endswith(CHAT[0]["text"])
