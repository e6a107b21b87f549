"""A user-assistant chat told from its structure and the user's own words put first
(chats.py, a default step); an episode turn that pays its token cost (costs.py, steps off by
default: core/retrieval/optional.py). Logic tests build the memories in place; the fixtures'
person-to-person chats are ingested into real Chroma to show user-first never fires on them."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.core.retrieval.chats import (
    UserFirst,
    UserFirstByTurn,
    UserNeighboursLast,
    answering_speaker,
    in_user_places,
)
from ramem_integrations.core.retrieval.costs import TokenCost
from ramem_integrations.core.retrieval.optional import OPTIONAL_STEPS, added
from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS, Neighbours, run
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.memory.ramem import RaMem
from tests.test_ranking_steps import ROOT, Episodes, at, ids

FIXTURES = Path(__file__).parent / "fixtures"
SHORT, LONG = 40, 600  # characters of a user's message and of an assistant's reply


def said(name: str, speaker: str, episode: str, position: int, length: int) -> MemoryUnit:
    """A memory of ``length`` characters said by ``speaker`` in ``episode`` at ``position``."""
    from tests.test_ranking_steps import unit

    made = unit(name, episode, position, speaker)
    return MemoryUnit(name, (name + " " + "x" * length)[:length], made.context, "ns")


def chat(
    pairs: int,
    first: str,
    second: str,
    lengths: tuple[int, int],
    *,
    alternate: bool = True,
    prefix: str = "e",
) -> list[list[MemoryUnit]]:
    """``pairs`` episodes of two turns: ``first`` then ``second`` (or ``first`` twice when not
    ``alternate``), of the given lengths."""
    episodes = []
    for e in range(pairs):
        answerer = second if alternate else first
        episodes.append(
            [
                said(f"q{prefix}{e}", first, f"{prefix}{e}", 0, lengths[0]),
                said(f"a{prefix}{e}", answerer, f"{prefix}{e}", 1, lengths[1]),
            ]
        )
    return episodes


@pytest.mark.parametrize(
    ("episodes", "answerer"),
    [
        # a user and an assistant answering each message at length: whatever they are called
        (chat(6, "User", "Assistant", (SHORT, LONG)), "Assistant"),
        (chat(6, "Priya", "Helper", (SHORT, LONG)), "Helper"),
        # two people writing alike: no assistant, whatever they are called
        (chat(6, "Ann", "Bob", (SHORT, SHORT + 20)), None),
        (chat(6, "User", "Assistant", (SHORT, SHORT)), None),
        # one speaker writes long but answers nobody (the long turn follows their own)
        (chat(6, "Ann", "Ann", (SHORT, LONG), alternate=False), None),
        # twice as long (a chatty friend) is not an assistant's reply
        (chat(6, "Ann", "Bob", (SHORT, 2 * SHORT)), None),
        # too few turns to decide
        (chat(3, "User", "Assistant", (SHORT, LONG)), None),
        # three speakers
        (
            [*chat(6, "User", "Assistant", (SHORT, LONG)), chat(1, "Cy", "Cy", (SHORT, SHORT))[0]],
            None,
        ),
    ],
)
def test_a_user_assistant_chat_is_told_from_who_answers_whom_at_what_length(
    episodes: list[list[MemoryUnit]], answerer: str | None
) -> None:
    assert answering_speaker(episodes) == answerer


def test_the_fixture_chats_between_people_are_not_user_assistant_chats(tmp_path: Path) -> None:
    """Every person-to-person conversation the tests carry (LoCoMo stand-in, chats, WhatsApp
    exports), ingested into real Chroma and read by episode: no answering speaker."""
    mem = RaMem.from_path(tmp_path / "store")
    files = ["locomo-dev-standin.json", "chat_own.json", "chat_small.json", "whatsapp_sam.txt"]
    checked = 0
    for name in files:
        for i, conversation in enumerate(load_conversations(FIXTURES / name)):
            namespace = f"{Path(name).stem.replace('_', '-')}-{i}"
            mem.add_conversation(conversation, namespace)
            episodes: dict[str, list[MemoryUnit]] = defaultdict(list)
            for memory in mem.memories(namespace):
                if memory.context.episode is not None:
                    episodes[memory.context.episode.id].append(memory)
            ordered = [
                sorted(turns, key=lambda u: u.context.episode.position)  # type: ignore[union-attr]
                for turns in episodes.values()
            ]
            assert answering_speaker(ordered) is None, namespace
            checked += 1
    assert checked >= 4


USER_ASKS = said("I'm vegetarian, plan my meals", "User", "e0", 0, SHORT)
REPLY = said("As a vegetarian you could ... (the meal plan)", "Assistant", "e0", 1, LONG)
OTHERS = [t for e in chat(4, "User", "Assistant", (SHORT, LONG), prefix="o") for t in e]


@pytest.mark.parametrize(
    ("user_score", "share", "first"),
    [
        (0.6, 0.5, USER_ASKS),  # both match: the user's own words go first
        (0.3, 0.5, REPLY),  # the user's turn hardly matches: the reply keeps its place
        (0.3, 0.0, USER_ASKS),
    ],
)
def test_user_first_puts_the_users_turn_before_the_reply_restating_it(
    user_score: float, share: float, first: MemoryUnit
) -> None:
    ranked = [
        ScoredMemory(REPLY, 1.0),
        ScoredMemory(OTHERS[0], 0.8),
        ScoredMemory(USER_ASKS, user_score),
        *(ScoredMemory(other, 0.2) for other in OTHERS[1:]),
    ]
    one_by_one = UserFirst(share, own_order=False)
    out = run(ranked, at(one_by_one, episodes=Episodes(USER_ASKS, REPLY, *OTHERS)))
    assert out[0].memory is first
    assert sorted(ids(out)) == sorted(ids(ranked))  # nothing brought, nothing lost
    if first is USER_ASKS:
        assert ids(out)[:2] == [USER_ASKS.id, REPLY.id]
        assert out[0].score == 1.0 and "user's own words" in out[0].placed


def test_user_first_changes_nothing_between_people_or_without_episodes() -> None:
    ann = said("Ann plans meals", "Ann", "e0", 0, SHORT)
    bob = said("Bob answers", "Bob", "e0", 1, SHORT + 10)
    people = [t for e in chat(5, "Ann", "Bob", (SHORT, SHORT + 10), prefix="o") for t in e]
    ranked = [ScoredMemory(bob, 1.0), ScoredMemory(ann, 0.9)]
    ranked += [ScoredMemory(p, 0.2) for p in people]
    assert run(ranked, at(UserFirst(), episodes=Episodes(ann, bob, *people))) == run(ranked, at())
    chat_ranked = [ScoredMemory(REPLY, 1.0), ScoredMemory(USER_ASKS, 0.9)]
    assert ids(run(chat_ranked, at(UserFirst()))) == [REPLY.id, USER_ASKS.id]


HIT = said("the hit", "User", "h", 0, SHORT)
NEAR_LONG = said("a long reply beside it", "Assistant", "h", 1, LONG)
NEXT = [said(f"next {i}", "User", f"n{i}", 0, SHORT) for i in range(4)]


@pytest.mark.parametrize(
    ("length", "next_score", "place"),
    [
        # a 600-character neighbour (score 0.8) is worth less per character than a 40-character
        # hit scoring 0.5: it goes after all four later hits
        (LONG, 0.5, 5),
        # as short as the hits: its score per character beats theirs, it keeps its place
        (SHORT, 0.5, 1),
        # long, but the later hits are worth next to nothing even per character
        (LONG, 0.01, 1),
    ],
)
def test_token_cost_moves_a_neighbour_after_the_hits_worth_more_per_token(
    length: int, next_score: float, place: int
) -> None:
    near = said("a reply beside it", "Assistant", "h", 1, length)
    ranked = [ScoredMemory(HIT, 1.0)] + [ScoredMemory(n, next_score) for n in NEXT]
    steps = (Neighbours(hits_first=1), TokenCost())
    out = run(ranked, at(*steps, episodes=Episodes(HIT, near, *NEXT)))
    assert ids(out).index(near.id) == place
    assert [h.memory.id for h in out if h.reason != "episode"] == ids(ranked)  # hits keep order
    without = run(ranked, at(Neighbours(hits_first=1), episodes=Episodes(HIT, near, *NEXT)))
    assert ids(without).index(near.id) == 1  # the neighbours step alone puts it after its hit


def test_token_cost_never_moves_a_neighbour_up() -> None:
    ranked = [ScoredMemory(HIT, 1.0)] + [ScoredMemory(n, 0.99) for n in NEXT]
    steps = (Neighbours(hits_first=5), TokenCost())  # held after the five hits
    out = run(ranked, at(*steps, episodes=Episodes(HIT, NEAR_LONG, *NEXT)))
    assert ids(out)[-1] == NEAR_LONG.id


BEFORE_NEIGHBOURS = ["episode-evidence", "context", "speaker-preference", "order"]
AFTER_NEIGHBOURS = ["user-neighbours-last", "excerpts"]
USER_FIRST = ["user-first", "neighbours", *AFTER_NEIGHBOURS]


@pytest.mark.parametrize(
    ("system", "names"),
    [
        ("ramem", [*BEFORE_NEIGHBOURS, *USER_FIRST]),
        ("with-replies", [*BEFORE_NEIGHBOURS, "replies", *USER_FIRST]),
        ("with-spread", [*BEFORE_NEIGHBOURS, *USER_FIRST[:-1], "spread", "excerpts"]),
        ("spread-0.2", [*BEFORE_NEIGHBOURS, *USER_FIRST[:-1], "spread", "excerpts"]),
        (
            "with-token-cost",
            [*BEFORE_NEIGHBOURS, "user-first", "neighbours", "token-cost", *AFTER_NEIGHBOURS],
        ),
        ("with-paid-lift", ["paid-lift", *BEFORE_NEIGHBOURS[1:], *USER_FIRST]),
        ("without-user-first", [*BEFORE_NEIGHBOURS, "neighbours", *AFTER_NEIGHBOURS]),
        (
            "with-user-first-by-turn",
            [*BEFORE_NEIGHBOURS, "user-first-by-turn", "neighbours", *AFTER_NEIGHBOURS],
        ),
        (
            "user-turns-by-turn",
            [*BEFORE_NEIGHBOURS, "user-first-by-turn", "neighbours", "excerpts"],
        ),
    ],
)
def test_user_first_is_on_by_default_and_each_optional_step_has_a_system_turning_it_on(
    fake_mem: RaMem, system: str, names: list[str]
) -> None:
    variant = SYSTEMS[system]
    assert isinstance(variant, Variant)
    assert [s.name for s in variant.retriever(fake_mem.reinstatement).steps] == names
    assert all(s not in DEFAULT_STEPS for s in OPTIONAL_STEPS.values())  # off by default


@pytest.mark.parametrize(
    ("lengths", "order"),
    [
        # a long reply lifted by its short prompt gains a fraction of the lift: the other
        # hit, as long as it and scoring a little more on its own, stays ahead of it
        ((SHORT, LONG, LONG), ["prompt", "other", "reply"]),
        # all of a length: the plain lift, the reply passes the other hit
        ((SHORT, SHORT, SHORT), ["prompt", "reply", "other"]),
    ],
)
def test_paid_lift_gives_a_long_turn_the_lift_of_a_short_mate_in_proportion(
    lengths: tuple[int, int, int], order: list[str]
) -> None:
    prompt = said("prompt", "User", "p", 0, lengths[0])
    reply = said("reply", "Assistant", "p", 1, lengths[1])
    other = said("other", "Assistant", "o", 1, lengths[2])
    ranked = [ScoredMemory(prompt, 1.0), ScoredMemory(other, 0.7), ScoredMemory(reply, 0.6)]
    source = Episodes(prompt, reply, other)
    out = run(ranked, at(OPTIONAL_STEPS["paid-lift"], episodes=source))
    assert ids(out) == order
    plain = run(ranked, at(*DEFAULT_STEPS[:1], episodes=source))
    assert ids(plain) == ["prompt", "reply", "other"]  # the plain lift, whatever the lengths


def test_paid_lift_takes_the_place_of_episode_evidence() -> None:
    names = [s.name for s in added(DEFAULT_STEPS, "paid-lift")]
    assert names == ["paid-lift", *[s.name for s in DEFAULT_STEPS[1:]]]


def test_an_unknown_optional_step_is_refused_when_the_system_is_made() -> None:
    with pytest.raises(
        InvalidInputError, match=r"Unknown optional step.*Known: replies, spread, token-cost"
    ):
        Variant(adding=("tokens",))
    with pytest.raises(InvalidInputError, match="Unknown optional step"):
        added(DEFAULT_STEPS, "user")


def test_every_optional_step_has_a_row_in_the_rules_doc() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "| `user-first` |" in text and "`without-user-first`" in text
    for name in OPTIONAL_STEPS:
        assert f"| `{name}` |" in text and f"`with-{name}`" in text
        assert "Why:" in (type(OPTIONAL_STEPS[name]).__doc__ or "")


def test_user_first_end_to_end_over_real_chroma(fake_mem: RaMem) -> None:
    """A user-assistant chat in real Chroma: the user's own message comes before the
    assistant's longer reply restating it (RaMem's default), after it without the step."""
    filler = " ".join(["here are some general ideas to consider"] * 12)
    turns = []
    for topic in ("garden", "budget", "travel", "music", "cooking"):
        turns.append({"speaker": "User", "text": f"Help me with my {topic} please."})
        turns.append({"speaker": "Assistant", "text": f"Sure, about your {topic}: {filler}."})
    turns.append(
        {"speaker": "User", "text": "I have a peanut allergy, so plan my week of dinners."}
    )
    reply = "Safe dinners for your allergy: safe dinners, safe recipes, dinners without peanut."
    turns.append({"speaker": "Assistant", "text": reply})
    fake_mem.add_turns(
        turns, "chat", session_time=datetime(2024, 3, 1, 12, tzinfo=UTC), session_id="s1"
    )
    asked = Asked(
        "Which dinners are safe with my allergy?", "chat", datetime(2024, 6, 1, tzinfo=UTC)
    )
    plain = [h.memory.content for h in SYSTEMS["without-user-first"](fake_mem, asked, 3)]
    first = [h.memory.content for h in SYSTEMS["ramem"](fake_mem, asked, 3)]
    assert plain[:2] == [reply, "I have a peanut allergy, so plan my week of dinners."]
    assert first[:2] == plain[1::-1]


@pytest.mark.parametrize(
    ("order", "users", "placed"),
    [
        (["a", "u1", "b", "u2"], ["u2", "u1"], ["a", "u2", "b", "u1"]),
        (["u1", "u2", "a"], ["u1", "u2"], ["u1", "u2", "a"]),  # already in that order
        (["a", "b"], [], ["a", "b"]),  # no user turn: nothing moves
        (["u3", "a", "u1", "u2"], ["u1", "u2", "u3"], ["u1", "a", "u2", "u3"]),
    ],
)
def test_the_user_turns_take_the_user_places_in_the_order_given(
    order: list[str], users: list[str], placed: list[str]
) -> None:
    assert in_user_places(order, users) == placed


OWN = said("I'm vegetarian and I cook on Sundays", "User", "v", 0, SHORT)  # matches by itself
OWN_REPLY = said("Cooking on Sundays ...", "Assistant", "v", 1, LONG)


def test_user_first_moves_the_user_turns_forward_in_their_own_order() -> None:
    """The reply ranks first; the user's own matching turn second; the prompt of the reply
    third. One by one, the prompt goes first; with their own order (the default) the user turn
    that matched by itself leads and the prompt takes the second user place, before the
    replies still."""
    ranked = [
        ScoredMemory(REPLY, 1.0),
        ScoredMemory(OWN, 0.9),
        ScoredMemory(OTHERS[1], 0.8),  # a reply of another episode
        ScoredMemory(USER_ASKS, 0.5),
        *(ScoredMemory(other, 0.2) for other in OTHERS[2:]),
    ]
    source = Episodes(USER_ASKS, REPLY, OWN, OWN_REPLY, *OTHERS)
    moved = run(ranked, at(UserFirstByTurn(), episodes=source))
    assert ids(moved)[:4] == [USER_ASKS.id, REPLY.id, OWN.id, OTHERS[1].id]
    own = run(ranked, at(UserFirst(), episodes=source))
    assert ids(own)[:4] == [OWN.id, REPLY.id, USER_ASKS.id, OTHERS[1].id]
    assert sorted(ids(own)) == sorted(ids(ranked))  # nothing brought, nothing lost


def test_user_order_changes_nothing_between_people() -> None:
    ann = said("Ann plans meals", "Ann", "e0", 0, SHORT)
    bob = said("Bob answers", "Bob", "e0", 1, SHORT + 10)
    people = [t for e in chat(5, "Ann", "Bob", (SHORT, SHORT + 10), prefix="o") for t in e]
    ranked = [ScoredMemory(bob, 1.0), ScoredMemory(ann, 0.9)]
    ranked += [ScoredMemory(p, 0.2) for p in people]
    source = Episodes(ann, bob, *people)
    steps = (UserFirst(), Neighbours(), UserNeighboursLast())
    assert run(ranked, at(*steps, episodes=source)) == run(
        ranked, at(Neighbours(), episodes=source)
    )


def test_user_turns_brought_as_neighbours_take_the_last_user_places() -> None:
    """The best hit (a reply) brings the user's next message as its neighbour, placed after
    the five best hits; with the step it goes after the user's own matching turns too."""
    asked = said("plan my meals", "User", "m", 0, SHORT)
    reply = said("Here is a meal plan ...", "Assistant", "m", 1, LONG)
    follow = said("thanks, and my budget is tight", "User", "m", 2, SHORT)
    hits = [reply, *OTHERS[1:8:2], *OTHERS[8:]]  # assistant replies first
    ranked = [ScoredMemory(h, 1.0 - i / 10) for i, h in enumerate(hits)]
    ranked += [ScoredMemory(OWN, 0.05), ScoredMemory(OTHERS[0], 0.04)]
    source = Episodes(asked, reply, follow, OWN, OWN_REPLY, *OTHERS)
    plain = run(ranked, at(Neighbours(before=0, leading=1), episodes=source))
    assert ids(plain).index(follow.id) < ids(plain).index(OWN.id)
    last = run(ranked, at(Neighbours(before=0, leading=1), UserNeighboursLast(), episodes=source))
    users = [i for i in ids(last) if i in {follow.id, OWN.id, OTHERS[0].id}]
    assert users == [OWN.id, OTHERS[0].id, follow.id]
    assert [i for i in ids(last) if i not in users] == [i for i in ids(plain) if i not in users]
