"""Ranking as a list of named steps: a candidate search, then each step re-ranks what the one
before it left.

A step is a small frozen value: its constants are its fields, its docstring says what it does
and why (and which data chose the constants), and :meth:`Step.rank` takes the ranking and a
:class:`Ranking` (the question's frame, the namespace, the sources) and returns the new
ranking. :data:`DEFAULT_STEPS` is the order, in one place; an ablation is that list minus a
step (the evaluation's ``without-<name>`` systems). docs/rules.md has one row per step.

:meth:`ContextualRetriever.retrieve <.reinstatement.ContextualRetriever.retrieve>` runs the
list over the content candidates, :meth:`~.reinstatement.ContextualRetriever.rerank` over
candidates another retriever found. Re-ranking searches nothing and reads no episode: a step
that would search works over the given candidates, and the episode steps pass them through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Protocol

from ramem_integrations.core.grouping import is_filler
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.retrieval.chats import UserFirst, UserNeighboursLast
from ramem_integrations.core.retrieval.excerpts import Excerpts
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.ordering import (
    EARLIEST,
    LATEST,
    about_subject,
    earliest_first,
    latest_first,
    most_relevant,
    order_subject,
    recency_subject,
    relations,
    said_by_named,
)
from ramem_integrations.core.retrieval.replies import reply_to
from ramem_integrations.core.retrieval.source import EpisodeSource, Scope
from ramem_integrations.core.retrieval.spread import spread_out, spread_sessions
from ramem_integrations.core.text import tokenize, word_set
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import RamemError

if TYPE_CHECKING:
    from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever


#: Why a memory stands where it does (``ScoredMemory.placed``), by the step that placed it.
BY_RELEVANCE = "by relevance to the question"
MEETS = "meets the conditions: before every memory that does not, then by relevance"
AFTER_VALID = "meets no condition: after the memories that do, by relevance"
UNMATCHED = "meets the conditions but shares no word with the question: after the relevant ones"
LIFTED = "by relevance plus a bonus for meeting the conditions (not sure enough to rank first)"
SAID_BY = "lifted: said by {speaker}, whom the question names"
NEIGHBOUR = "a turn of the episode of the hit it follows, brought with it"
REPLY = "the named person's reply to the question it comes just before"

#: Who said a memory is a coordinate too. 0.6 was chosen on locomo-dev when the vector was the
#: restatement's; with the speaker line in every vector (memory/embedding.py) 0.1 measured as well
#: or better on every development set (docs/embeddings.md, "The speaker preference, re-checked").
SPEAKER_BONUS = 0.1
#: Turns of its episode before and after a hit that come back with it; chosen on the tune
#: split of LoCoMo and the episodes development set (docs/episodes.md).
EPISODE_BEFORE = 2
EPISODE_AFTER = 4
#: A neighbour scores its hit's score times this, per turn of distance (docs/episodes.md).
EPISODE_DECAY = 0.8
#: How many of the best hits bring their episode (docs/episodes.md).
EPISODE_LEADING = 2
#: How many hits come before any episode neighbour: a hit was found for the question, a
#: neighbour only sits beside one (docs/episodes.md, "Options and their defaults").
EPISODE_HITS_FIRST = 5
#: A memory gains this times the best content score of another candidate of its episode;
#: chosen on the development files (docs/episodes.md, "Options and their defaults").
EPISODE_EVIDENCE = 0.4
#: How many of the best hits bring a named person's reply when they are the other's question
#: to them (:func:`~.replies.reply_to`), when the ``replies`` step is on. Off by default: per
#: conversation the step helped LoCoMo and cost REALTALK (docs/rules.md); the eval system
#: ``with-replies`` turns it on (:mod:`.optional`).
REPLY_DEPTH = 10
#: Whether the best hit by its own words keeps first place against the episode lift: it helped
#: more conversations than it hurt in LoCoMo, REALTALK and BEAM and cost none (docs/rules.md);
#: eval system ``lift-passes-first`` turns it off.
KEEP_FIRST = True
#: Sessions whose best candidate scores within this share of the best spread the hits, when
#: the ``spread`` step is on; chosen leave-one-conversation-out. Off by default (docs/rules.md;
#: eval systems ``with-spread``, ``spread-0.1``, ``spread-0.2``).
SPREAD_MARGIN = 0.05


@dataclass(frozen=True)
class Ranking:
    """What a step may read besides the ranking: the question and where to look.

    ``retriever`` is the retriever running the steps (its content source and hooks: the
    searches a step makes go through it); ``episodes`` the episode source, None when the
    steps read no episode (the turn-level method, and re-ranking). ``query`` is what the
    candidates were searched for, None when they were given (re-ranking: nothing is
    searched). ``where`` is the frame's grounded conditions and ``share`` the share of the
    memories (of the given candidates, re-ranking) meeting them. ``searched`` is the candidate
    search as it came, before any step; ``named`` the people the question names. Steps keep
    ``depth`` candidates; the caller's ``k`` is cut at the end.
    """

    frame: RecallFrame
    namespace: str
    k: int
    depth: int
    scope: Scope
    retriever: ContextualRetriever
    steps: tuple[Step, ...]
    where: ContextFilter
    share: float = 0.0
    query: str | None = None
    episodes: EpisodeSource | None = None
    searched: Sequence[ScoredMemory] = ()
    named: frozenset[str] = frozenset()

    def search(self, query: str, where: ContextFilter | None = None) -> list[ScoredMemory]:
        """Content retrieval for ``query`` (under ``where``) to ``depth``, ranked as the
        candidates are by the steps that rank every search (:attr:`Step.on_searches`)."""
        if self.query is None:
            raise RamemError("Re-ranking searches nothing: a step searched while re-ranking.")
        hits = self.retriever.content.retrieve(query, self.namespace, self.depth, where, self.scope)
        for step in self.steps:
            if step.on_searches:
                hits = step.rank(hits, self)
        return hits

    def meeting(self, query: str, ranked: list[ScoredMemory] | None = None) -> list[ScoredMemory]:
        """The memories meeting ``where``, ranked by content for ``query``. When every memory
        meets it (``share`` 1.0: a participant of a two-person chat), that is the content
        ranking, ``ranked`` if given (searched for ``query``): no second search."""
        if self.share < 1.0:
            hits = self.search(query, self.where)
        else:
            hits = ranked if ranked is not None else self.search(query)
        # Every hit meets ``where`` (searched under it, or every memory does).
        return [
            ScoredMemory(h.memory, h.score, "context", self.where.labels_for(h.memory))
            for h in hits
        ]


class Step(Protocol):
    """One ranking step: a frozen value whose fields are its constants."""

    #: The step's name; its ablation is the ``without-<name>`` system.
    name: ClassVar[str]
    #: The :class:`ContextualRetriever` option each constant takes its value from.
    OPTIONS: ClassVar[dict[str, str]]
    #: Whether the step also ranks the searches other steps make (:meth:`Ranking.search`).
    on_searches: ClassVar[bool]

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        """The new ranking."""
        ...


@dataclass(frozen=True)
class EpisodeEvidence:
    """A candidate gains ``weight`` times the best score of another candidate of its episode
    (:func:`lifted_by_episode`); with ``keep_first`` the best by its own words stays first.

    Why: a turn whose episode holds other relevant turns is more likely the one asked about
    ("He found a small cavity" beside "I went to the dentist on 28 April"). It ranks every
    search the other steps make too. Off without episodes."""

    name: ClassVar[str] = "episode-evidence"
    OPTIONS: ClassVar[dict[str, str]] = {"weight": "episode_evidence", "keep_first": "keep_first"}
    on_searches: ClassVar[bool] = True

    weight: float = EPISODE_EVIDENCE
    keep_first: bool = KEEP_FIRST

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        if at.episodes is None or not self.weight:
            return ranked
        return lifted_by_episode(ranked, self.weight, keep_first=self.keep_first)


@dataclass(frozen=True)
class Context:
    """Memories meeting the question's grounded conditions first (``strict``), or lifted by
    ``bonus`` times how much the conditions select (soft; :func:`merge`).

    Why: selective reinstatement, the paper's method: evidence valid for the asked time, people
    and places ranks above what only shares words. Searching, the valid memories are searched
    for under the conditions, plus the candidates that say their names (the retriever's
    ``named_too``); re-ranking, they are the given candidates that meet them."""

    name: ClassVar[str] = "context"
    OPTIONS: ClassVar[dict[str, str]] = {"strict": "strict", "bonus": "bonus"}
    on_searches: ClassVar[bool] = False

    strict: bool = True
    bonus: float = 0.5

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        where = at.where
        if not where:
            return ranked
        if at.query is None:
            valid = [
                replace(h, reason="context", matched=met)
                for h in ranked
                if (met := where.met_by(h.memory)) is not None
            ]
        else:
            found = at.meeting(at.query, ranked)
            valid = at.retriever.named_too(where, on_scale_of(found, ranked), ranked)
        return merge(self, valid, ranked, at.depth, at.query, selectivity=1.0 - at.share)


@dataclass(frozen=True)
class SpeakerPreference:
    """A memory spoken by a person the question names gains ``bonus`` times the best score;
    with ``strict`` it never crosses the line between context-valid memories and the rest.

    Why: who said it is a coordinate ("What did Melanie paint?" is Melanie's report). 0.1 was
    re-checked on every development set with the speaker line in each vector
    (docs/embeddings.md)."""

    name: ClassVar[str] = "speaker-preference"
    OPTIONS: ClassVar[dict[str, str]] = {"bonus": "speaker_bonus", "strict": "strict"}
    on_searches: ClassVar[bool] = False

    bonus: float = SPEAKER_BONUS
    strict: bool = True

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        names = at.named
        if not names or not self.bonus or not ranked:
            return ranked
        lift = self.bonus * (max(h.score for h in ranked) or 1.0)

        def key(hit: ScoredMemory) -> tuple[bool, float]:
            spoken = hit.memory.context.speaker in names
            return (self.strict and hit.reason != "context", -(hit.score + lift * spoken))

        def noted(hit: ScoredMemory) -> ScoredMemory:
            if hit.memory.context.speaker not in names:
                return hit
            said = SAID_BY.format(speaker=hit.memory.context.speaker)
            return replace(hit, placed=f"{hit.placed}; {said}" if hit.placed else said)

        return [noted(h) for h in sorted(ranked, key=key)]


@dataclass(frozen=True)
class Order:
    """Order words: "the last time" and "now" put the latest of the most relevant memories
    first, "the first time" the earliest (:mod:`~.ordering`); when the word governs a subject
    ("the last time I mentioned the dentist"), the memories about it lead, by when each was
    said.

    Why: relevance cannot tell which of several matching memories is the latest. The subject's
    memories are searched for (under the conditions when there are some); re-ranking, they are
    looked for among the given candidates."""

    name: ClassVar[str] = "order"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        frame = at.frame
        about: list[ScoredMemory] = []
        if subject := order_subject(frame):
            if at.query is None:
                about = said_by_named(frame, about_subject(subject, ranked))
            else:
                found = at.meeting(subject) if at.where else None
                found = found or at.search(subject)
                about = most_relevant(said_by_named(frame, about_subject(subject, found)))
        return by_order_words(frame, ranked, at.depth, about, at.searched, at.retriever.lexicon)


@dataclass(frozen=True)
class Replies:
    """A hit among the ``depth`` best that asks a person the question names something brings
    their reply (:func:`~.replies.reply_to`) just before it, with its score (reason
    ``"reply"``, the hit's id in ``matched``).

    Why: what Melanie did is often told in her answer to the other's question, whose words do
    not match the question as the question's do (docs/episodes.md). Off without episodes, and
    off by default (:mod:`.optional`; docs/rules.md)."""

    name: ClassVar[str] = "replies"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False
    #: The step it runs after when turned on (:func:`~.optional.added`).
    after: ClassVar[str] = "order"

    depth: int = REPLY_DEPTH

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        if at.episodes is None or not at.named:
            return ranked
        out: list[ScoredMemory] = []
        for rank, hit in enumerate(ranked):
            if rank < self.depth and (reply := self._reply(hit, at)):
                out.append(reply)
            out.append(hit)
        return out

    @staticmethod
    def _reply(hit: ScoredMemory, at: Ranking) -> ScoredMemory | None:
        """A named person's reply to ``hit``, if ``hit`` is a question put to them."""
        episode = hit.memory.context.episode
        if episode is None or at.episodes is None:
            return None
        turns = list(at.episodes.episode(at.namespace, episode.id))
        if episode.next_id:  # the cut may fall between a question and its reply
            turns += at.episodes.episode(at.namespace, episode.next_id)
        reply = reply_to(hit.memory, turns, at.named, at.retriever.lexicon)
        return ScoredMemory(reply, hit.score, "reply", (hit.memory.id,), REPLY) if reply else None


@dataclass(frozen=True)
class Neighbours:
    """The ``leading`` best hits bring the turns of their episode within ``before`` and
    ``after`` of them (reason ``"episode"``, the hit's id in ``matched``).

    A neighbour ``d`` turns from its hit scores the hit's score times ``decay ** d`` and takes
    the place after its hit plus one for each later hit that scores at least as much; none
    comes before the ``hits_first`` best hits; at an equal place the nearer comes first. A
    reply (:class:`Replies`) keeps its place just before its question.

    Why: the answer often sits in the turns around the one that matches the question
    (docs/episodes.md; the constants were chosen on the tune split of LoCoMo and the episodes
    development set). Off without episodes."""

    name: ClassVar[str] = "neighbours"
    OPTIONS: ClassVar[dict[str, str]] = {
        "before": "before",
        "after": "after",
        "decay": "decay",
        "leading": "leading",
        "hits_first": "hits_first",
    }
    on_searches: ClassVar[bool] = False

    before: int = EPISODE_BEFORE
    after: int = EPISODE_AFTER
    decay: float = EPISODE_DECAY
    leading: int = EPISODE_LEADING
    hits_first: int = EPISODE_HITS_FIRST

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        if at.episodes is None:
            return ranked
        hits = [h for h in ranked if h.reason != "reply"]
        scores = [hit.score for hit in hits]
        placed: list[tuple[float, int, ScoredMemory]] = []
        replies: list[ScoredMemory] = []  # each rides just before the hit that follows it
        rank = -1
        for hit in ranked:
            if hit.reason == "reply":
                replies.append(hit)
                continue
            rank += 1
            placed.append((rank, 0, hit))
            placed += [(rank - 0.5, 0, reply) for reply in replies]
            replies = []
            if rank >= self.leading:
                continue
            for distance, unit in self._near(hit.memory, at):
                score = hit.score * self.decay**distance
                ahead = sum(1 for later in scores[rank + 1 :] if later >= score)
                near = ScoredMemory(unit, score, "episode", (hit.memory.id,), NEIGHBOUR)
                place = max(rank + ahead, self.hits_first - 1) + 0.5
                placed.append((place, distance, near))
        return distinct(hit for _, _, hit in sorted(placed, key=lambda p: (p[0], p[1])))

    def _near(self, unit: MemoryUnit, at: Ranking) -> list[tuple[int, MemoryUnit]]:
        """The turns of ``unit``'s episode within ``before``/``after`` of it, with their
        distance, nearest first (after before before). Reactions and fillers ("lol", "🎉":
        :func:`~.grouping.is_filler`) carry no facts and are passed over."""
        episode = unit.context.episode
        if episode is None or at.episodes is None:
            return []
        turns = [
            turn
            for turn in at.episodes.episode(at.namespace, episode.id)
            if turn.id == unit.id or not is_filler(turn.content, at.retriever.lexicon)
        ]
        ids = [t.id for t in turns]
        if unit.id not in ids:
            return []
        i = ids.index(unit.id)
        after = [(d, u) for d, u in enumerate(turns[i + 1 : i + 1 + self.after], 1)]
        before = [(d, u) for d, u in enumerate(turns[max(0, i - self.before) : i][::-1], 1)]
        return sorted([*after, *before], key=lambda pair: pair[0])


@dataclass(frozen=True)
class Spread:
    """When the best content candidates of several sessions score within ``margin`` of the
    best (:func:`~.spread.spread_sessions`), the first hit of each of those sessions comes
    right after the first hit and the episode neighbours after every hit
    (:func:`~.spread.spread_out`); when one session holds them, nothing moves.

    Why: a question whose evidence is spread over sessions ("Which cities has she been to?")
    needs a hit from each of them more than the turns around one; the scores tell, not the
    question's words. Off by default (:mod:`.optional`; docs/rules.md)."""

    name: ClassVar[str] = "spread"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False
    #: The step it runs after when turned on (:func:`~.optional.added`).
    after: ClassVar[str] = "user-neighbours-last"

    margin: float = SPREAD_MARGIN

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        if self.margin <= 0.0:
            return ranked
        sessions = spread_sessions(at.searched or ranked, self.margin)
        return spread_out(ranked, sessions) if len(sessions) > 1 else ranked


#: The ranking steps, in the order they run after the candidate search (the steps off by
#: default, :data:`~.optional.OPTIONAL_STEPS`, are not among them).
DEFAULT_STEPS: tuple[Step, ...] = (
    EpisodeEvidence(),
    Context(),
    SpeakerPreference(),
    Order(),
    UserFirst(),
    Neighbours(),
    UserNeighboursLast(),
    Excerpts(),
)


def run(ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
    """``ranked`` through ``at.steps`` in order, each memory once, cut to ``at.k``."""
    for step in at.steps:
        ranked = step.rank(ranked, at)
    hits = distinct(ranked)[: at.k]
    return [h if h.placed else replace(h, placed=BY_RELEVANCE) for h in hits]


def distinct(hits: Iterable[ScoredMemory]) -> list[ScoredMemory]:
    """Each memory at its first place."""
    out: dict[str, ScoredMemory] = {}
    for hit in hits:
        out.setdefault(hit.memory.id, hit)
    return list(out.values())


def merge(
    context: Context,
    valid: list[ScoredMemory],
    base: list[ScoredMemory],
    k: int,
    query: str | None,
    *,
    selectivity: float = 1.0,
) -> list[ScoredMemory]:
    """Context-valid memories first (strict) or lifted by the bonus (soft). A valid memory
    that shares no word with the question gains nothing from meeting the conditions: it
    keeps its content rank, after the relevant ones.
    ``query`` None: the candidates were already chosen for relevance (re-ranking).

    In soft mode the conditions act in proportion to how much they select (``selectivity``,
    the share of the namespace that does not meet them): the bonus is times it, and a
    valid memory's relevance is its score among the valid ones (their own search) times it
    plus its unfiltered score times the rest. Conditions every memory meets (a participant
    of a two-person chat) tell nothing and change nothing; "before 2024" in a chat of
    2024 and 2023 changes little."""
    words = set(tokenize(query or ""))
    unmatched: list[ScoredMemory] = []
    if query is not None:
        unmatched = [h for h in valid if not words & word_set(h.memory.search_text)]
        valid = [h for h in valid if h not in unmatched]
    seen = {h.memory.id for h in valid}
    fallback = [h for h in base if h.memory.id not in seen]
    seen |= {h.memory.id for h in fallback}
    unmatched = [h for h in unmatched if h.memory.id not in seen]
    unmatched = [replace(h, placed=UNMATCHED) for h in unmatched]
    if context.strict:
        valid = [replace(h, placed=MEETS) for h in valid]
        fallback = [replace(h, placed=AFTER_VALID if valid else BY_RELEVANCE) for h in fallback]
        return (valid + fallback + unmatched)[:k]
    # Soft: a valid memory's relevance is its relevance among the valid ones (on the scale
    # of the unfiltered ranking: on_scale_of) and in the unfiltered ranking, weighed by how
    # much the conditions select; plus the bonus.
    content_score = {h.memory.id: h.score for h in base}
    floor = min(content_score.values(), default=0.0)
    top = max(content_score.values(), default=1.0) or 1.0
    bonus = context.bonus * top * selectivity

    def relevance(hit: ScoredMemory) -> float:
        unfiltered = content_score.get(hit.memory.id, floor)
        return selectivity * hit.score + (1.0 - selectivity) * unfiltered

    lifted = [replace(h, score=relevance(h) + bonus, placed=LIFTED, lifted=True) for h in valid]
    fallback = [replace(h, placed=BY_RELEVANCE) for h in fallback]
    return (sorted(lifted + fallback, key=lambda h: -h.score) + unmatched)[:k]


def by_order_words(
    frame: RecallFrame,
    ranked: list[ScoredMemory],
    k: int,
    about: Sequence[ScoredMemory] = (),
    searched: Sequence[ScoredMemory] = (),
    lexicon: Lexicon = ENGLISH,
) -> list[ScoredMemory]:
    """Recency and 'the first time' reorder by time the memories about the subject the
    order word governs (``about``, by when each was said), else the most relevant memories.
    A "now" question about a kind of state (:func:`~.ordering.state_words`) looks among the
    best content matches too (``searched``, before the conditions and episodes): "Does Priya
    still live on Baker Street?" is answered by a later memory that no longer names it."""
    order = relations(frame)
    latest = bool(frame.values("recency")) or "last" in order
    if about and (latest or "first" in order):
        ids = {h.memory.id for h in about}
        timed = sorted(about, key=lambda h: h.memory.context.session_span.start, reverse=latest)
        placed = (LATEST if latest else EARLIEST).replace("the most relevant", "those about it")
        timed = [replace(h, placed=placed) for h in timed]
        return (timed + [h for h in ranked if h.memory.id not in ids])[:k]
    if latest:
        ranked = latest_first(ranked, k, recency_subject(frame), searched, lexicon)
    elif "first" in order:
        ranked = earliest_first(ranked, k)
    return ranked[:k]


def on_scale_of(hits: list[ScoredMemory], other: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    """``hits`` (ranked by a search under the conditions) with their scores scaled so the best
    equals the best of ``other`` (the unfiltered ranking): one scale for both, each keeping the
    order of its own search. A memory's relevance among those that meet the conditions is the
    better measure: on the unfiltered scale, words common among them but rare elsewhere
    (the names and topics of the asked day) would count for little."""
    best = max((h.score for h in hits), default=0.0)
    target = max((h.score for h in other), default=0.0)
    if best <= 0.0 or target <= 0.0:
        return hits
    return [replace(h, score=h.score * target / best) for h in hits]


def lifted_by_episode(
    hits: Sequence[ScoredMemory],
    weight: float,
    *,
    keep_first: bool = True,
    price: Callable[[MemoryUnit, MemoryUnit], float] | None = None,
) -> list[ScoredMemory]:
    """``hits`` re-ranked: each gains ``weight`` times the best score of another hit of its
    episode. A turn whose episode holds other relevant turns is more likely the one asked
    about: "He found a small cavity" gains from "I went to the dentist on 28 April" two turns
    earlier when the question names the dentist and April. With ``keep_first``, the best hit by
    its own words (the first of ``hits``) keeps first place: a lift is inferred, and a small
    budget should not go to one episode's turns alone. Ties keep their order; scores are
    divided by the best, so the first scores 1.0 as with content retrieval. ``price(hit,
    mate)``, if given, scales each lift (:class:`~.costs.PaidLift`)."""
    best: dict[str, list[ScoredMemory]] = {}  # each episode's two best hits
    for hit in hits:
        episode = hit.memory.context.episode
        if episode is not None:
            top = best.setdefault(episode.id, [])
            top.append(hit)
            top.sort(key=lambda h: -h.score)
            del top[2:]

    def lift(hit: ScoredMemory) -> float:
        episode = hit.memory.context.episode
        mates = [h for h in best.get(episode.id, []) if h is not hit] if episode else []
        if not mates:
            return 0.0
        paid = price(hit.memory, mates[0].memory) if price else 1.0
        return weight * mates[0].score * paid

    scores = [hit.score + lift(hit) for hit in hits]
    if keep_first and scores:  # hits come best first
        scores[0] = max(scores)
    first = max(scores, default=0.0) or 1.0
    lifted = [replace(hit, score=score / first) for hit, score in zip(hits, scores, strict=True)]
    return sorted(lifted, key=lambda h: -h.score)
