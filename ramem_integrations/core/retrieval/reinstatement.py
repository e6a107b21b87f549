"""Selective reinstatement (:class:`ContextualRetriever`) over content retrieval.

With no grounded condition the answer is content retrieval (dense and BM25 fused). With
grounded conditions, ``C_ctx`` (memories that meet them, ranked by content relevance) comes
first, then ``C_content``; the union is de-duplicated and cut to ``k``. Strict mode keeps that
order exactly (the paper's reference behaviour) when the conditions are sure; soft mode, and
strict mode for an open range ("before 23 December") or a relation to an anchor event, adds a
bonus for meeting the conditions to the content score, so a very relevant memory can still
lead. Each hit brings the turns around it in its episode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import ClassVar

from ramem_integrations.core.aliases import named_query
from ramem_integrations.core.grouping import is_filler
from ramem_integrations.core.prompts import PACK_DEPTH
from ramem_integrations.core.retrieval.content import ContentRetriever
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
from ramem_integrations.core.retrieval.source import EVERYTHING, EpisodeSource, Scope
from ramem_integrations.core.text import tokenize, word_set
from ramem_integrations.core.time.tables import report_lag
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory, TimeSpan

#: Who said a memory is a coordinate too. 0.6 was chosen on locomo-dev when the vector was the
#: restatement's; with the speaker line in every vector (memory_vectors.py) 0.1 measured as well
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
#: to them (:func:`~.replies.reply_to`; docs/episodes.md, "Options and their defaults").
REPLY_DEPTH = 10

_DAWN = datetime(1, 1, 2, tzinfo=UTC)
_DUSK = datetime(9999, 12, 30, tzinfo=UTC)

#: Why a memory stands where it does (``ScoredMemory.placed``), by the step that placed it.
BY_RELEVANCE = "by relevance to the question"
MEETS = "meets the conditions: before every memory that does not, then by relevance"
AFTER_VALID = "meets no condition: after the memories that do, by relevance"
UNMATCHED = "meets the conditions but shares no word with the question: after the relevant ones"
LIFTED = "by relevance plus a bonus for meeting the conditions (not sure enough to rank first)"
SAID_BY = "lifted: said by {speaker}, whom the question names"
NEIGHBOUR = "a turn of the episode of the hit it follows, brought with it"
REPLY = "the named person's reply to the question it comes just before"


@dataclass(frozen=True)
class ContextualRetriever:
    """Selective reinstatement over a :class:`ContentRetriever`.

    Args:
        content: the content retriever (also the fallback).
        strict: keep every context-valid memory ahead of every fallback one (the paper's
            reference order, the default) when the frame's conditions are sure
            (:attr:`RecallFrame.is_sure`), else order softly; ``False`` (soft) always lifts
            them by ``bonus`` instead.
        bonus: in soft mode, the score added for meeting the conditions, in units of the
            best content score, times the share of the namespace they select out.
        candidates: how many content candidates are ranked (at least ``k``): as many as a
            budgeted retrieval searches (:data:`~.prompts.PACK_DEPTH`), so the first ``k``
            hits are the same whatever ``k`` asks, and the lifts, the soft order and recency
            see the same candidates for ``k=5`` as for a token budget.
        speaker_bonus: the lift, in units of the best score, for a memory spoken by a person
            the question names (0 turns it off).
        episodes: where a hit's episode is read from; None keeps turns alone (the
            ``no-episodes`` ablation).
        before, after: how many turns of its episode before and after a hit come with it.
        decay: a neighbour's score is its hit's times ``decay`` per turn of distance.
        leading: how many of the best hits bring their episode; the others come alone.
        hits_first: how many hits come before any neighbour (1: a neighbour may follow its
            hit at once).
        episode_evidence: a content candidate gains this times the best score of another
            candidate of its episode (with ``episodes`` only; 0 turns it off).
        keep_first: the best candidate by its own words keeps first place against that lift
            (``False``: the lift may pass it, as before session 20).
        reply_depth: how many of the best hits, when one is a question put to a person the
            question names, bring that person's reply just before it (with ``episodes``
            only; 0 turns it off).

    A memory meeting the conditions must share a word with the question to gain from it
    (:meth:`_merge`). Subclasses may change three hooks: :meth:`search_query` (what content
    retrieval searches for), :attr:`filter_type` (the filter a frame's conditions become) and
    :meth:`named_too` (which content candidates meet the conditions by their words).
    """

    #: The filter a frame's grounded conditions become.
    filter_type: ClassVar[type[ContextFilter]] = ContextFilter

    content: ContentRetriever
    strict: bool = True
    bonus: float = 0.5
    candidates: int = PACK_DEPTH
    speaker_bonus: float = SPEAKER_BONUS
    episodes: EpisodeSource | None = None
    before: int = EPISODE_BEFORE
    after: int = EPISODE_AFTER
    decay: float = EPISODE_DECAY
    leading: int = EPISODE_LEADING
    hits_first: int = EPISODE_HITS_FIRST
    episode_evidence: float = EPISODE_EVIDENCE
    keep_first: bool = True
    reply_depth: int = REPLY_DEPTH

    def retrieve(
        self, frame: RecallFrame, namespace: str, k: int, scope: Scope = EVERYTHING
    ) -> list[ScoredMemory]:
        """The ``k`` memories of ``namespace`` that best serve ``frame``, searched in ``scope``
        (the episodes around hits are read whole)."""
        if (fitted := self.fitted(frame)) is not self:
            return fitted.retrieve(frame, namespace, k, scope)
        query = self.search_query(frame)
        if recency_subject(frame) and frame.need.strip():
            # "Where does Alice work now?" searches for its topic: "now" in the question must
            # not favour a message that says "still" or "now" (it was true when it was said).
            query = named_query(replace(frame, query=frame.need))
        depth = max(k, self.candidates)
        searched = self.content.retrieve(query, namespace, depth, None, scope)  # before lifts
        ranked = self._lifted(searched)
        where = self.resolve(frame, namespace, scope)
        share = self.content.source.share(namespace, where, scope) if where else 0.0
        if where:
            valid = self._context(query, namespace, scope, where, depth, ranked, share)
            named = self.named_too(where, on_scale_of(valid, ranked), ranked)
            ranked = self._merge(named, ranked, depth, query, selectivity=1.0 - share)
        about = []
        if subject := order_subject(frame):  # "the last time I mentioned the dentist"
            found = (
                self._context(subject, namespace, scope, where, depth, None, share)
                if where
                else None
            )
            found = found or self._search(subject, namespace, scope, depth)
            about = most_relevant(said_by_named(frame, about_subject(subject, found)))
        ordered = self._order(frame, self._prefer_speakers(frame, ranked), depth, about, searched)
        hits = self.reinstate(ordered, namespace, k, named=frozenset(frame.values("participant")))
        return [h if h.placed else replace(h, placed=BY_RELEVANCE) for h in hits]

    def fitted(self, frame: RecallFrame) -> ContextualRetriever:
        """This retriever as ``frame`` needs it: strict order only where its conditions are
        sure (:attr:`RecallFrame.is_sure`); an open range or an anchor event orders softly. A
        question that asks for several things (:attr:`RecallFrame.asks_several`: "What films
        did Nebraas watch?") brings no episode: its evidence is spread over several, and the
        places go to more hits rather than one hit's turns."""
        fitted = replace(self, strict=False) if self.strict and not frame.is_sure else self
        if frame.asks_several and fitted.leading:
            fitted = replace(fitted, leading=0)
        return fitted

    def search_query(self, frame: RecallFrame) -> str:
        """What content retrieval searches for: the question, with the names it asks about
        (:func:`~.aliases.named_query`)."""
        return named_query(frame)

    def _search(
        self,
        query: str,
        namespace: str,
        scope: Scope,
        k: int,
        where: ContextFilter | None = None,
    ) -> list[ScoredMemory]:
        """Content retrieval; with episodes, each candidate lifted by its episode's relevance."""
        return self._lifted(self.content.retrieve(query, namespace, k, where, scope))

    def _lifted(self, hits: list[ScoredMemory]) -> list[ScoredMemory]:
        """With episodes, each candidate lifted by its episode's relevance."""
        if self.episodes is None or not self.episode_evidence:
            return hits
        return lifted_by_episode(hits, self.episode_evidence, keep_first=self.keep_first)

    def reinstate(
        self,
        ranked: Sequence[ScoredMemory],
        namespace: str,
        k: int,
        *,
        named: frozenset[str] = frozenset(),
    ) -> list[ScoredMemory]:
        """Each hit with the turns around it in its episode, de-duplicated, cut to ``k``.

        A hit among the ``reply_depth`` best that asks a person in ``named`` (the question's
        participants) something brings their reply (:func:`~.replies.reply_to`) just before
        it, with its score (reason ``"reply"``, the hit's id in ``matched``): what Melanie
        answered tells what she did better than the question put to her.

        Only the ``leading`` best hits bring their episode. A neighbour ``d`` turns from its
        hit scores the hit's score times ``decay ** d`` (reason ``"episode"``, the hit's id in
        ``matched``) and takes the place after its hit plus one for each later hit that scores
        at least as much: relevance decides whether the next hits or the episode's far turns
        come first. No neighbour comes before the ``hits_first`` best hits. At an equal place
        the nearer neighbour comes first.
        """
        if self.episodes is None:
            return list(ranked[:k])
        scores = [hit.score for hit in ranked]
        placed: list[tuple[float, int, ScoredMemory]] = []
        for rank, hit in enumerate(ranked):
            placed.append((rank, 0, hit))
            if rank < self.reply_depth and (reply := self._reply(hit, namespace, named)):
                placed.append((rank - 0.5, 0, reply))
            if rank >= self.leading:
                continue
            for distance, unit in self._neighbours(hit.memory, namespace):
                score = hit.score * self.decay**distance
                ahead = sum(1 for later in scores[rank + 1 :] if later >= score)
                near = ScoredMemory(unit, score, "episode", (hit.memory.id,), NEIGHBOUR)
                place = max(rank + ahead, self.hits_first - 1) + 0.5
                placed.append((place, distance, near))
        out: dict[str, ScoredMemory] = {}
        for _, _, hit in sorted(placed, key=lambda p: (p[0], p[1])):
            out.setdefault(hit.memory.id, hit)
            if len(out) == k:
                break
        return list(out.values())

    def _reply(
        self, hit: ScoredMemory, namespace: str, named: frozenset[str]
    ) -> ScoredMemory | None:
        """A named person's reply to ``hit``, if ``hit`` is a question put to them."""
        episode = hit.memory.context.episode
        if not named or episode is None or self.episodes is None:
            return None
        turns = list(self.episodes.episode(namespace, episode.id))
        if episode.next_id:  # the cut may fall between a question and its reply
            turns += self.episodes.episode(namespace, episode.next_id)
        reply = reply_to(hit.memory, turns, named)
        return ScoredMemory(reply, hit.score, "reply", (hit.memory.id,), REPLY) if reply else None

    def _neighbours(self, unit: MemoryUnit, namespace: str) -> list[tuple[int, MemoryUnit]]:
        """The turns of ``unit``'s episode within ``before``/``after`` of it, with their
        distance, nearest first (after before before). Reactions and fillers ("lol", "🎉":
        :func:`~.grouping.is_filler`) carry no facts and are passed over."""
        episode = unit.context.episode
        if episode is None or self.episodes is None:
            return []
        turns = [
            turn
            for turn in self.episodes.episode(namespace, episode.id)
            if turn.id == unit.id or not is_filler(turn.content)
        ]
        ids = [t.id for t in turns]
        if unit.id not in ids:
            return []
        at = ids.index(unit.id)
        after = [(d, u) for d, u in enumerate(turns[at + 1 : at + 1 + self.after], 1)]
        before = [(d, u) for d, u in enumerate(turns[max(0, at - self.before) : at][::-1], 1)]
        return sorted([*after, *before], key=lambda pair: pair[0])

    def _prefer_speakers(
        self, frame: RecallFrame, ranked: list[ScoredMemory]
    ) -> list[ScoredMemory]:
        """Who said it: a memory spoken by a person the question names gains ``speaker_bonus``
        (in units of the best score). In strict mode it never crosses the context/fallback line."""
        names = set(frame.values("participant"))
        if not names or not self.speaker_bonus or not ranked:
            return ranked
        lift = self.speaker_bonus * (max(h.score for h in ranked) or 1.0)

        def key(hit: ScoredMemory) -> tuple[bool, float]:
            spoken = hit.memory.context.speaker in names
            return (self.strict and hit.reason != "context", -(hit.score + lift * spoken))

        def noted(hit: ScoredMemory) -> ScoredMemory:
            if hit.memory.context.speaker not in names:
                return hit
            said = SAID_BY.format(speaker=hit.memory.context.speaker)
            return replace(hit, placed=f"{hit.placed}; {said}" if hit.placed else said)

        return [noted(h) for h in sorted(ranked, key=key)]

    @staticmethod
    def _order(
        frame: RecallFrame,
        ranked: list[ScoredMemory],
        k: int,
        about: Sequence[ScoredMemory] = (),
        searched: Sequence[ScoredMemory] = (),
    ) -> list[ScoredMemory]:
        """Recency and 'the first time' reorder by time the memories about the subject the
        order word governs (``about``, by when each was said), else the most relevant memories.
        A "now" question about a kind of state (:func:`state_words`) looks among the best
        content matches too (``searched``, before the conditions and episodes): "Does Priya
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
            ranked = latest_first(ranked, k, recency_subject(frame), searched)
        elif "first" in order:
            ranked = earliest_first(ranked, k)
        return ranked[:k]

    def resolve(
        self, frame: RecallFrame, namespace: str, scope: Scope = EVERYTHING
    ) -> ContextFilter:
        """The frame's grounded conditions as a filter.

        A relation to an event ("after the appointment") is grounded here: the anchor event is
        the best content match for its phrase, and the relation becomes the time after (or
        before) it.
        """
        return self._filter(
            frame, lambda rel, anchor: self._relative_to_anchor(rel, anchor, namespace, scope)
        )

    def _filter(
        self, frame: RecallFrame, find_anchor: Callable[[str, str], TimeSpan | None]
    ) -> ContextFilter:
        time = frame.time_range
        for cond in frame.conditions:
            if cond.times_by_anchor and cond.anchor:
                time = time or _until_asked(find_anchor(cond.value, cond.anchor), frame.reference)
        where = self.filter_type(
            time=time,
            people=frame.values("participant"),
            places=frame.values("location"),
            entities=frame.values("entity"),
        )
        return replace(where, said_after=report_lag(where.time, frame.reference))

    def rerank(
        self, frame: RecallFrame, hits: Sequence[ScoredMemory], k: int
    ) -> list[ScoredMemory]:
        """Re-rank candidates found by another retriever by validity against ``frame``.

        The drop-in path (a node postprocessor): nothing new is searched. Candidates meeting the
        grounded conditions come first in their given order (strict) or gain the bonus (soft);
        a relation's anchor event is looked for among the candidates themselves.
        """
        if (fitted := self.fitted(frame)) is not self:
            return fitted.rerank(frame, hits, k)
        where = self._filter(frame, self._anchor_among(hits))
        ranked = list(hits)
        if where:
            valid = [
                replace(h, reason="context", matched=met)
                for h in hits
                if (met := where.met_by(h.memory)) is not None
            ]
            selectivity = 1.0 - len(valid) / len(hits)  # conditions every candidate meets lift none
            ranked = self._merge(valid, ranked, len(ranked), None, selectivity=selectivity)
        subject = order_subject(frame)
        about = said_by_named(frame, about_subject(subject, ranked)) if subject else []
        return self._order(frame, self._prefer_speakers(frame, ranked), k, about)

    def _anchor_among(self, hits: Sequence[ScoredMemory]) -> Callable[[str, str], TimeSpan | None]:
        def find(relation: str, anchor: str) -> TimeSpan | None:
            words = set(tokenize(anchor))
            best = max(
                hits, key=lambda h: len(words & word_set(h.memory.search_text)), default=None
            )
            if best is None or not words & word_set(best.memory.search_text):
                return None
            return _around(relation, best.memory)

        return find

    def _relative_to_anchor(
        self, relation: str, anchor: str, namespace: str, scope: Scope
    ) -> TimeSpan | None:
        """'after the appointment': find the anchor event and take the time after (or before) it."""
        found = self.content.retrieve(anchor, namespace, 1, None, scope)
        return _around(relation, found[0].memory) if found else None

    def _context(
        self,
        query: str,
        namespace: str,
        scope: Scope,
        where: ContextFilter,
        k: int,
        ranked: list[ScoredMemory] | None = None,
        share: float = 0.0,
    ) -> list[ScoredMemory]:
        """The memories meeting ``where``, ranked by content. When every memory meets it
        (``share`` 1.0: a participant of a two-person chat), that is the content ranking,
        ``ranked`` if given (searched for ``query`` to ``k``): no second search."""
        if share < 1.0:
            hits = self._search(query, namespace, scope, k, where)
        else:
            hits = ranked if ranked is not None else self._search(query, namespace, scope, k)
        # Every hit meets ``where`` (searched under it, or every memory does).
        return [
            ScoredMemory(h.memory, h.score, "context", where.labels_for(h.memory)) for h in hits
        ]

    def named_too(
        self, where: ContextFilter, valid: list[ScoredMemory], ranked: list[ScoredMemory]
    ) -> list[ScoredMemory]:
        """``valid`` (found under the store's filter) and the content candidates that meet
        ``where`` by saying its names (:meth:`ContextFilter.said`), by score."""
        if not (where.people or where.places or where.entities):
            return valid
        seen = {h.memory.id for h in valid}
        named = [
            ScoredMemory(h.memory, h.score, "context", where.labels_for(h.memory))
            for h in ranked
            if h.memory.id not in seen and where.meets(h.memory)
        ]
        return sorted(valid + named, key=lambda h: -h.score) if named else valid

    def _merge(
        self,
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
        if self.strict:
            valid = [replace(h, placed=MEETS) for h in valid]
            fallback = [replace(h, placed=AFTER_VALID if valid else BY_RELEVANCE) for h in fallback]
            return (valid + fallback + unmatched)[:k]
        # Soft: a valid memory's relevance is its relevance among the valid ones (on the scale
        # of the unfiltered ranking: on_scale_of) and in the unfiltered ranking, weighed by how
        # much the conditions select; plus the bonus.
        content_score = {h.memory.id: h.score for h in base}
        floor = min(content_score.values(), default=0.0)
        top = max(content_score.values(), default=1.0) or 1.0
        bonus = self.bonus * top * selectivity

        def relevance(hit: ScoredMemory) -> float:
            unfiltered = content_score.get(hit.memory.id, floor)
            return selectivity * hit.score + (1.0 - selectivity) * unfiltered

        lifted = [replace(h, score=relevance(h) + bonus, placed=LIFTED) for h in valid]
        fallback = [replace(h, placed=BY_RELEVANCE) for h in fallback]
        return (sorted(lifted + fallback, key=lambda h: -h.score) + unmatched)[:k]


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


def _around(relation: str, anchor: MemoryUnit) -> TimeSpan:
    """The time after (or before) an anchor memory's event, else its session, that span
    included either way: the anchor's own words often state the relation ("trying to finish
    the series before the new one comes out")."""
    span = anchor.context.event_time or anchor.context.session_span
    return TimeSpan(span.start, _DUSK) if relation == "after" else TimeSpan(_DAWN, span.end)


def _until_asked(span: TimeSpan | None, reference: datetime | None) -> TimeSpan | None:
    """'since I moved' runs to the end of the day the question is asked, not to year 9999."""
    if span is None or reference is None:
        return span
    end = reference.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    return TimeSpan(span.start, end) if span.start < end < span.end else span


def lifted_by_episode(
    hits: Sequence[ScoredMemory], weight: float, *, keep_first: bool = True
) -> list[ScoredMemory]:
    """``hits`` re-ranked: each gains ``weight`` times the best score of another hit of its
    episode. A turn whose episode holds other relevant turns is more likely the one asked
    about: "He found a small cavity" gains from "I went to the dentist on 28 April" two turns
    earlier when the question names the dentist and April. With ``keep_first``, the best hit by
    its own words (the first of ``hits``) keeps first place: a lift is inferred, and a small
    budget should not go to one episode's turns alone. Ties keep their order; scores are
    divided by the best, so the first scores 1.0 as with content retrieval."""
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
        return weight * mates[0].score if mates else 0.0

    scores = [hit.score + lift(hit) for hit in hits]
    if keep_first and scores:  # hits come best first
        scores[0] = max(scores)
    first = max(scores, default=0.0) or 1.0
    lifted = [replace(hit, score=score / first) for hit, score in zip(hits, scores, strict=True)]
    return sorted(lifted, key=lambda h: -h.score)
