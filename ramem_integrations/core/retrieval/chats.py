"""User-assistant chats, told from their structure, and the user's own words put first.

In a chat with an assistant one speaker (the user) writes short messages and the other answers
each of them at length, restating what the user said. When both match a question, the user's
turn is the evidence for what they said, decided or prefer, and costs a tenth of the reply.
:func:`answering_speaker` decides from the turns alone (who speaks, who answers whom, how long
each writes), never from a speaker's name; :class:`UserFirst` is the ranking step built on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from statistics import median
from typing import TYPE_CHECKING, ClassVar

from ramem_integrations.core.types import MemoryUnit, ScoredMemory

if TYPE_CHECKING:
    from ramem_integrations.core.retrieval.steps import Ranking

#: The answering speaker's median message is at least this many times the other's. People
#: chatting write alike (LoCoMo and REALTALK development: at most 2 times); an assistant's
#: replies are long (BEAM development: 15 times).
LONG_RATIO = 4.0
#: Of the answering speaker's turns that follow another in their episode, at least this share
#: follow the other speaker's: they answer every turn of the other.
ANSWERS_SHARE = 0.8
#: Turns of each speaker needed before deciding.
MIN_TURNS = 4
#: The episodes of this many of the best candidates are read to decide.
SAMPLE = 10
#: A user's turn goes before the reply restating it when it scores at least this share of the
#: reply's score (0: whenever both are candidates). Chosen leave-one-conversation-out on the
#: BEAM development chats from 0, 0.5 and 0.75 (docs/rules.md).
USER_SHARE = 0.0

USER_FIRST = "the user's own words, before the reply that restates them"


def answering_speaker(episodes: Iterable[Sequence[MemoryUnit]]) -> str | None:
    """The speaker who answers the other at length in ``episodes`` (each an episode's turns in
    order): the assistant of a user-assistant chat, else None.

    Two speakers, each with at least :data:`MIN_TURNS` turns; one's median message at least
    :data:`LONG_RATIO` times the other's; and at least :data:`ANSWERS_SHARE` of that one's turns
    that follow another turn follow the other speaker's."""
    lengths: dict[str, list[int]] = {}
    follows: dict[str, list[str | None]] = {}
    for turns in episodes:
        before: str | None = None
        for position, turn in enumerate(turns):
            speaker = turn.context.speaker
            if speaker is None:
                return None
            lengths.setdefault(speaker, []).append(len(turn.content))
            if position:
                follows.setdefault(speaker, []).append(before)
            before = speaker
    if len(lengths) != 2 or min(len(v) for v in lengths.values()) < MIN_TURNS:
        return None
    short, long = sorted(lengths, key=lambda s: median(lengths[s]))
    if median(lengths[long]) < LONG_RATIO * max(median(lengths[short]), 1):
        return None
    after = follows.get(long, [])
    answered = sum(1 for speaker in after if speaker == short)
    return long if after and answered >= ANSWERS_SHARE * len(after) else None


def prompts(episodes: Iterable[Sequence[MemoryUnit]], assistant: str) -> dict[str, MemoryUnit]:
    """Each of ``assistant``'s turns, by id, to the other's turn it answers (the turn before it
    in its episode)."""
    out: dict[str, MemoryUnit] = {}
    for turns in episodes:
        for asked, reply in pairwise(turns):
            if reply.context.speaker == assistant and asked.context.speaker != assistant:
                out[reply.id] = asked
    return out


@dataclass(frozen=True)
class UserFirst:
    """In a user-assistant chat (:func:`answering_speaker`), a user's turn that scores at least
    ``share`` of the assistant reply answering it, and ranks after it, moves to just before it;
    with ``own_order`` the user's turns then take the places of user turns in the order the
    ranking gave them (:func:`in_user_places`): they come forward as a whole.

    Why: the assistant restates the user at length, so its reply often matches the question
    better than the user's own words; the user's turn is the evidence for what they said and
    costs a fraction of the reply. Within a small budget only user turns fit (a reply is longer
    than 250 tokens): moved one by one, a prompt whose reply matched would pass user turns that
    match by their own words. Decided from the chat's structure (who answers whom, at what
    length); in person-to-person chats it changes nothing. Off without episodes."""

    name: ClassVar[str] = "user-first"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False

    share: float = USER_SHARE
    sample: int = SAMPLE
    #: Whether the user's turns keep their order among themselves (False:
    #: :class:`UserFirstByTurn`).
    own_order: bool = True

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        found = chat_of(ranked, at, self.sample)
        if found is None:
            return ranked
        episodes, assistant = found
        asked = prompts(episodes, assistant)
        hit = {h.memory.id: h for h in ranked}
        order = [h.memory.id for h in ranked]
        for reply in [h for h in ranked if h.memory.id in asked]:
            user = hit.get(asked[reply.memory.id].id)
            if user is None or user.score < self.share * reply.score:
                continue
            if order.index(user.memory.id) > order.index(reply.memory.id):
                order.remove(user.memory.id)
                order.insert(order.index(reply.memory.id), user.memory.id)
                hit[user.memory.id] = replace(user, score=reply.score, placed=USER_FIRST)
        if self.own_order:
            users = [h.memory.id for h in ranked if h.memory.context.speaker != assistant]
            order = in_user_places(order, users)
        return [hit[i] for i in order]


def chat_of(
    ranked: Sequence[ScoredMemory], at: Ranking, sample: int
) -> tuple[list[list[MemoryUnit]], str] | None:
    """The episodes of the ``sample`` best of ``ranked`` and the chat's assistant
    (:func:`answering_speaker`), or None when it is no user-assistant chat or has no episodes."""
    if at.episodes is None or not ranked:
        return None
    ids = dict.fromkeys(
        h.memory.context.episode.id for h in ranked[:sample] if h.memory.context.episode
    )
    episodes = [list(at.episodes.episode(at.namespace, i)) for i in ids]
    assistant = answering_speaker(episodes)
    return None if assistant is None else (episodes, assistant)


def in_user_places(order: Sequence[str], users: Sequence[str]) -> list[str]:
    """``order`` (memory ids) with the places of ``users`` taken by them in the order given;
    every other memory keeps its place."""
    queue = iter(users)
    chosen = set(users)
    return [next(queue) if i in chosen else i for i in order]


@dataclass(frozen=True)
class UserFirstByTurn(UserFirst):
    """:class:`UserFirst` moving each user turn on its own, just before its reply, whatever
    user turns it passes (``own_order`` False); it takes that step's place.

    Why: kept to measure the default against: on the BEAM development chats it put the prompts
    of the best replies before the user's own matching turns, which cost recall within 250
    tokens (docs/rules.md)."""

    name: ClassVar[str] = "user-first-by-turn"
    #: The default step it takes the place of (:func:`~.optional.added`).
    replaces: ClassVar[str] = "user-first"

    own_order: bool = False


@dataclass(frozen=True)
class UserNeighboursLast:
    """In a user-assistant chat, the user's turns an episode neighbour brought
    (:class:`~.steps.Neighbours`, reason ``"episode"``) take the last of the places the user's
    turns hold; the others keep their order. Runs after ``neighbours``.

    Why: a neighbour sits beside a hit and was not found for the question; placed by its hit's
    score it passes the user's own matching turns, which are what a small budget holds."""

    name: ClassVar[str] = "user-neighbours-last"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False

    sample: int = SAMPLE

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        found = chat_of(ranked, at, self.sample)
        if found is None:
            return ranked
        assistant = found[1]
        users = [h for h in ranked if h.memory.context.speaker != assistant]
        kept = [h.memory.id for h in users if h.reason != "episode"]
        brought = [h.memory.id for h in users if h.reason == "episode"]
        hit = {h.memory.id: h for h in ranked}
        return [hit[i] for i in in_user_places([h.memory.id for h in ranked], kept + brought)]
