"""Retrieval (stage 3): content retrieval, and selective reinstatement over it.

Framework-free: the store, the embedder and the lexical index stand behind
:class:`MemorySource`, so the ranking logic here can be tested with any source.

Selective reinstatement: with no grounded condition the answer is content retrieval (dense and
BM25 fused). With grounded conditions, ``C_ctx`` (memories that meet them, ranked by content
relevance) comes first, then ``C_content``; the union is de-duplicated and cut to ``k``. Strict
mode keeps that order exactly (the paper's reference behaviour); soft mode adds a bonus for
meeting the conditions to the content score, so a very relevant memory can still lead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from ramem_integrations.core.aliases import named_query
from ramem_integrations.core.fusion import reciprocal_rank_fusion
from ramem_integrations.core.text import tokenize
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory, TimeSpan

Hits = list[tuple[MemoryUnit, float]]

#: Measured on locomo-dev (docs/evaluation.md): who said a memory is a coordinate too.
SPEAKER_BONUS = 0.6

_DAWN = datetime(1, 1, 2, tzinfo=UTC)
_DUSK = datetime(9999, 12, 30, tzinfo=UTC)


@dataclass(frozen=True)
class ContextFilter:
    """The conditions of a frame that a store can check: all must hold.

    ``time``: the session span overlaps it (unless ``match_session`` is off), or the event
    time does. ``people``: each is a
    participant or a named entity. ``places``: the location (or an entity) is one of them.
    ``entities``: each is among the entities.
    """

    time: TimeSpan | None = None
    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    match_session: bool = True

    def __bool__(self) -> bool:
        return bool(self.time or self.people or self.places or self.entities)

    def met_by(self, unit: MemoryUnit) -> tuple[str, ...] | None:
        """The conditions ``unit`` meets, or None when it misses any of them."""
        ctx, met = unit.context, []
        if self.time is not None:
            event_in = ctx.event_time is not None and ctx.event_time.overlaps(self.time)
            session_in = self.match_session and ctx.session_span.overlaps(self.time)
            if not (session_in or event_in):
                return None
            met.append(f"time {self.time.label()}")
        names = {n.lower() for n in (*ctx.participants, *ctx.entities)}
        for person in self.people:
            if person.lower() not in names:
                return None
            met.append(f"participant {person}")
        if self.places:
            here = {p.lower() for p in (ctx.location or "", *ctx.entities) if p}
            if not here & {p.lower() for p in self.places}:
                return None
            met.append(f"place {' or '.join(self.places)}")
        for entity in self.entities:
            if entity.lower() not in {e.lower() for e in ctx.entities}:
                return None
            met.append(f"entity {entity}")
        return tuple(met)


class MemorySource(Protocol):
    """What retrieval needs from storage: dense and lexical search within a namespace,
    optionally limited to the memories that meet a :class:`ContextFilter`."""

    def dense(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits: ...

    def lexical(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits: ...


@dataclass(frozen=True)
class ContentRetriever:
    """Content-only retrieval: dense and BM25 rankings fused by reciprocal rank fusion.

    ``depth`` is how many candidates each ranking contributes before fusion.
    """

    source: MemorySource
    depth: int = 50
    weights: tuple[float, float] = (1.0, 1.0)

    def retrieve(
        self, query: str, namespace: str, k: int, where: ContextFilter | None = None
    ) -> list[ScoredMemory]:
        depth = max(self.depth, k)
        rankings = [
            self.source.dense(namespace, query, depth, where),
            self.source.lexical(namespace, query, depth, where),
        ]
        return fuse(rankings, k, self.weights)


@dataclass(frozen=True)
class ContextualRetriever:
    """Selective reinstatement over a :class:`ContentRetriever`.

    Args:
        content: the content retriever (also the fallback).
        strict: keep every context-valid memory ahead of every fallback one.
        bonus: in soft mode, the score added for meeting the conditions, in units of the
            best content score.
        candidates: how many content candidates recency and relation ordering look at.
        use_need: search with the frame's information need (the question without its
            condition words) instead of the whole question.
        match_session: a time condition is met by the session span as well as the event
            time (``False`` is the "no session span" ablation).
        speaker_bonus: the lift, in units of the best score, for a memory spoken by a person
            the question names (0 turns it off).
    """

    content: ContentRetriever
    strict: bool = True
    bonus: float = 0.5
    candidates: int = 30
    use_need: bool = False
    match_session: bool = True
    speaker_bonus: float = SPEAKER_BONUS

    def retrieve(self, frame: RecallFrame, namespace: str, k: int) -> list[ScoredMemory]:
        query = frame.need if self.use_need and frame.need.strip() else named_query(frame)
        depth = max(k, self.candidates)
        ranked = self.content.retrieve(query, namespace, depth)
        where = self.resolve(frame, namespace)
        if where:
            valid = self._context(query, namespace, where, depth)
            ranked = self._merge(valid, ranked, depth)
        return self._order(frame, self._prefer_speakers(frame, ranked), k)

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

        return sorted(ranked, key=key)

    @staticmethod
    def _order(frame: RecallFrame, ranked: list[ScoredMemory], k: int) -> list[ScoredMemory]:
        """Recency and 'the first time' reorder the most relevant memories by time."""
        order = _relations(frame)
        if frame.values("recency") or "last" in order:
            ranked = latest_first(ranked, k)
        elif "first" in order:
            ranked = earliest_first(ranked, k)
        return ranked[:k]

    def resolve(self, frame: RecallFrame, namespace: str) -> ContextFilter:
        """The frame's grounded conditions as a filter.

        A relation to an event ("after the appointment") is grounded here: the anchor event is
        the best content match for its phrase, and the relation becomes the time after (or
        before) it.
        """
        return self._filter(
            frame, lambda rel, anchor: self._relative_to_anchor(rel, anchor, namespace)
        )

    def _filter(
        self, frame: RecallFrame, find_anchor: Callable[[str, str], TimeSpan | None]
    ) -> ContextFilter:
        time = frame.time_range
        for cond in frame.conditions:
            if cond.kind == "relation" and cond.anchor and cond.value in ("before", "after"):
                time = time or find_anchor(cond.value, cond.anchor)
        return ContextFilter(
            time=time,
            people=frame.values("participant"),
            places=frame.values("location"),
            entities=frame.values("entity"),
            match_session=self.match_session,
        )

    def rerank(
        self, frame: RecallFrame, hits: Sequence[ScoredMemory], k: int
    ) -> list[ScoredMemory]:
        """Re-rank candidates found by another retriever by validity against ``frame``.

        The drop-in path (a node postprocessor): nothing new is searched. Candidates meeting the
        grounded conditions come first in their given order (strict) or gain the bonus (soft);
        a relation's anchor event is looked for among the candidates themselves.
        """
        where = self._filter(frame, self._anchor_among(hits))
        ranked = list(hits)
        if where:
            valid = [
                replace(h, reason="context", matched=met)
                for h in hits
                if (met := where.met_by(h.memory)) is not None
            ]
            ranked = self._merge(valid, ranked, len(ranked))
        return self._order(frame, self._prefer_speakers(frame, ranked), k)

    def _anchor_among(self, hits: Sequence[ScoredMemory]) -> Callable[[str, str], TimeSpan | None]:
        def find(relation: str, anchor: str) -> TimeSpan | None:
            words = set(tokenize(anchor))
            best = max(
                hits, key=lambda h: len(words & set(tokenize(h.memory.content))), default=None
            )
            if best is None or not words & set(tokenize(best.memory.content)):
                return None
            return _around(relation, best.memory)

        return find

    def _relative_to_anchor(self, relation: str, anchor: str, namespace: str) -> TimeSpan | None:
        """'after the appointment': find the anchor event and take the time after (or before) it."""
        found = self.content.retrieve(anchor, namespace, 1)
        return _around(relation, found[0].memory) if found else None

    def _context(
        self, query: str, namespace: str, where: ContextFilter, k: int
    ) -> list[ScoredMemory]:
        hits = self.content.retrieve(query, namespace, k, where)
        return [replace(h, reason="context", matched=where.met_by(h.memory) or ()) for h in hits]

    def _merge(
        self, valid: list[ScoredMemory], base: list[ScoredMemory], k: int
    ) -> list[ScoredMemory]:
        seen = {h.memory.id for h in valid}
        fallback = [h for h in base if h.memory.id not in seen]
        if self.strict:
            return (valid + fallback)[:k]
        # Soft: content relevance on one scale (the unfiltered ranking), plus a bonus.
        content_score = {h.memory.id: h.score for h in base}
        floor = min(content_score.values(), default=0.0)
        top = max(content_score.values(), default=1.0) or 1.0
        lifted = [
            replace(h, score=content_score.get(h.memory.id, floor) + self.bonus * top)
            for h in valid
        ]
        return sorted(lifted + fallback, key=lambda h: -h.score)[:k]


def _around(relation: str, anchor: MemoryUnit) -> TimeSpan:
    """The time after (or before) an anchor memory's event, else its session."""
    ctx = anchor.context
    moment = (ctx.event_time or ctx.session_span).start
    return TimeSpan(moment, _DUSK) if relation == "after" else TimeSpan(_DAWN, moment)


def _relations(frame: RecallFrame) -> tuple[str, ...]:
    """The ordering relations of a frame ('first', 'last'), grounded or not: they only reorder."""
    return tuple(c.value for c in frame.conditions if c.kind == "relation" and not c.anchor)


def latest_first(ranked: list[ScoredMemory], k: int) -> list[ScoredMemory]:
    """Recency: among the most relevant memories, the latest episode leads."""
    return _by_time(ranked, k, latest=True)


def earliest_first(ranked: list[ScoredMemory], k: int) -> list[ScoredMemory]:
    """'The first time': among the most relevant memories, the earliest episode leads."""
    return _by_time(ranked, k, latest=False)


def _by_time(ranked: list[ScoredMemory], k: int, *, latest: bool) -> list[ScoredMemory]:
    if not ranked:
        return ranked
    cut = ranked[0].score * RELEVANT_FRACTION
    window = ranked[:TIME_ORDER_WINDOW]
    close = [h for h in window if h.score >= cut]
    rest = [h for h in ranked if h not in close]
    when = lambda h: (h.memory.context.event_time or h.memory.context.session_span).start  # noqa: E731
    close.sort(key=when, reverse=latest)
    return (close + rest)[:k]


#: Recency and "the first time" reorder by time the memories among the first
#: ``TIME_ORDER_WINDOW`` that score at least ``RELEVANT_FRACTION`` of the best (with RRF, a
#: memory found by only one of dense and BM25 scores about half the best and stays put).
TIME_ORDER_WINDOW = 5
RELEVANT_FRACTION = 0.75


def fuse(
    rankings: Sequence[Hits], k: int, weights: Sequence[float] = (1.0, 1.0)
) -> list[ScoredMemory]:
    """Fuse ranked hit lists by RRF and keep the best ``k`` as content-chosen memories."""
    by_id = {unit.id: unit for hits in rankings for unit, _ in hits}
    fused = reciprocal_rank_fusion(
        [[unit.id for unit, _ in hits] for hits in rankings], weights=weights
    )
    return [ScoredMemory(by_id[i], score, "content") for i, score in fused[:k]]


def single(hits: Hits, k: int) -> list[ScoredMemory]:
    """One ranking as scored memories (the dense-only and BM25-only baselines)."""
    return [ScoredMemory(unit, score, "content") for unit, score in hits[:k]]
