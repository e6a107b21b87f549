"""Selective reinstatement (:class:`ContextualRetriever`) over content retrieval.

With no grounded condition the answer is content retrieval (dense and BM25 fused). With
grounded conditions, ``C_ctx`` (memories that meet them, ranked by content relevance) comes
first, then ``C_content``; the union is de-duplicated and cut to ``k``. Strict mode keeps that
order exactly (the paper's reference behaviour) when the conditions are sure; soft mode, and
strict mode for an open range ("before 23 December") or a relation to an anchor event, adds a
bonus for meeting the conditions to the content score, so a very relevant memory can still
lead. Each hit brings the turns around it in its episode. Each of these is a ranking step
(:mod:`.steps`), run in the order of :data:`~.steps.DEFAULT_STEPS` after the content search.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import ClassVar

from ramem_integrations.core.aliases import named_query
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.prompts import PACK_DEPTH
from ramem_integrations.core.retrieval.content import HybridSearch
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.optional import added
from ramem_integrations.core.retrieval.ordering import recency_subject
from ramem_integrations.core.retrieval.source import EVERYTHING, EpisodeSource, Scope
from ramem_integrations.core.retrieval.steps import (
    DEFAULT_STEPS,
    EPISODE_AFTER,
    EPISODE_BEFORE,
    EPISODE_DECAY,
    EPISODE_EVIDENCE,
    EPISODE_HITS_FIRST,
    EPISODE_LEADING,
    KEEP_FIRST,
    REPLY_DEPTH,
    SPEAKER_BONUS,
    Neighbours,
    Ranking,
    Replies,
    Spread,
    Step,
    lifted_by_episode,
    on_scale_of,
    run,
)
from ramem_integrations.core.text import tokenize, word_set
from ramem_integrations.core.time.tables import report_lag
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory, TimeSpan

__all__ = [
    "EPISODE_AFTER",
    "EPISODE_BEFORE",
    "EPISODE_DECAY",
    "EPISODE_EVIDENCE",
    "EPISODE_HITS_FIRST",
    "EPISODE_LEADING",
    "REPLY_DEPTH",
    "SPEAKER_BONUS",
    "ContextualRetriever",
    "lifted_by_episode",
    "on_scale_of",
]

_DAWN = datetime(1, 1, 2, tzinfo=UTC)
_DUSK = datetime(9999, 12, 30, tzinfo=UTC)


@dataclass(frozen=True)
class ContextualRetriever:
    """Selective reinstatement over a :class:`HybridSearch`.

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
        steps: the ranking steps run after the content search, in order
            (:data:`~.steps.DEFAULT_STEPS`); the options above are their constants
            (:meth:`pipeline`). A step off by default is turned on by name with
            :func:`~.optional.added` (``steps=added(DEFAULT_STEPS, "replies")``).
        reply_depth, spread_margin: deprecated: they turn the ``replies`` and ``spread``
            steps on (a value above 0, as that step's constant) or off (0), with a
            ``DeprecationWarning``; the steps then hold the value.
        lexicon: the words the steps read (fillers, the kinds of state "now" asks about).

    A memory meeting the conditions must share a word with the question to gain from it
    (:func:`~.steps.merge`). Subclasses may change three hooks: :meth:`search_query` (what content
    retrieval searches for), :attr:`filter_type` (the filter a frame's conditions become) and
    :meth:`named_too` (which content candidates meet the conditions by their words).
    """

    #: The filter a frame's grounded conditions become.
    filter_type: ClassVar[type[ContextFilter]] = ContextFilter

    content: HybridSearch
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
    keep_first: bool = KEEP_FIRST
    reply_depth: int | None = None
    spread_margin: float | None = None
    steps: tuple[Step, ...] = DEFAULT_STEPS
    lexicon: Lexicon = ENGLISH

    def __post_init__(self) -> None:
        for option, value, step in (
            ("reply_depth", self.reply_depth, Replies(depth=self.reply_depth or 0)),
            ("spread_margin", self.spread_margin, Spread(margin=self.spread_margin or 0.0)),
        ):
            if value is None:
                continue
            warnings.warn(
                f"ContextualRetriever({option}=...) is deprecated: turn the {step.name!r} step on "
                f"with steps=added(DEFAULT_STEPS, {step.name!r}) (core/retrieval/optional.py), "
                f"or leave it out of steps to turn it off.",
                DeprecationWarning,
                stacklevel=3,
            )
            steps = tuple(s for s in self.steps if s.name != step.name)
            object.__setattr__(self, "steps", added(steps, step) if value else steps)
            object.__setattr__(self, option, None)  # the steps hold it now

    def retrieve(
        self, frame: RecallFrame, namespace: str, k: int, scope: Scope = EVERYTHING
    ) -> list[ScoredMemory]:
        """The ``k`` memories of ``namespace`` that best serve ``frame``, searched in ``scope``
        (the episodes around hits are read whole): the content candidates, then
        :meth:`pipeline`'s steps."""
        if (fitted := self.fitted(frame)) is not self:
            return fitted.retrieve(frame, namespace, k, scope)
        query = self.search_query(frame)
        if recency_subject(frame) and frame.need.strip():
            # "Where does Alice work now?" searches for its topic: "now" in the question must
            # not favour a message that says "still" or "now" (it was true when it was said).
            query = named_query(replace(frame, query=frame.need))
        depth = max(k, self.candidates)
        searched = self.content.retrieve(query, namespace, depth, None, scope)  # before steps
        where = self.resolve(frame, namespace, scope)
        share = self.content.source.share(namespace, where, scope) if where else 0.0
        at = Ranking(
            frame,
            namespace,
            k,
            depth,
            scope,
            self,
            self.pipeline(),
            where,
            share,
            query,
            self.episodes,
            searched,
            frozenset(frame.values("participant")),
        )
        return run(list(searched), at)

    def pipeline(self) -> tuple[Step, ...]:
        """:attr:`steps` with this retriever's options as their constants (``speaker_bonus``
        is :class:`~.steps.SpeakerPreference`'s ``bonus``, ...: each step's ``OPTIONS``)."""
        return tuple(
            replace(step, **{f: getattr(self, o) for f, o in step.OPTIONS.items()})  # type: ignore[type-var]
            for step in self.steps
        )

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

    def reinstate(
        self,
        ranked: Sequence[ScoredMemory],
        namespace: str,
        k: int,
        *,
        named: frozenset[str] = frozenset(),
    ) -> list[ScoredMemory]:
        """Each hit with the turns around it in its episode, de-duplicated, cut to ``k``.

        With the ``replies`` step on (:mod:`.optional`), a hit among its ``depth`` best that
        asks a person in ``named`` (the question's participants) something brings their reply
        (:func:`~.replies.reply_to`) just before it, with its score (reason ``"reply"``, the
        hit's id in ``matched``): what Melanie answered tells what she did better than the
        question put to her.

        Only the ``leading`` best hits bring their episode. A neighbour ``d`` turns from its
        hit scores the hit's score times ``decay ** d`` (reason ``"episode"``, the hit's id in
        ``matched``) and takes the place after its hit plus one for each later hit that scores
        at least as much: relevance decides whether the next hits or the episode's far turns
        come first. No neighbour comes before the ``hits_first`` best hits. At an equal place
        the nearer neighbour comes first.
        """
        at = Ranking(
            RecallFrame("", ""),
            namespace,
            k,
            len(ranked),
            EVERYTHING,
            self,
            tuple(s for s in self.pipeline() if isinstance(s, Replies | Neighbours)),
            self.filter_type(),
            episodes=self.episodes,
            named=named,
        )
        return run(list(ranked), at)

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
        met = sum(1 for h in hits if where.met_by(h.memory) is not None) if where else 0
        at = Ranking(
            frame,
            "",
            k,
            len(hits),
            EVERYTHING,
            self,
            self.pipeline(),
            where,
            met / len(hits) if hits else 0.0,  # conditions every candidate meets lift none
            named=frozenset(frame.values("participant")),
        )
        return run(list(hits), at)

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
