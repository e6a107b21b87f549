"""Order words: which memories "the last time", "the first time" and "now" reorder by time,
and the subject an order word governs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.text import stem, tokenize, word_set
from ramem_integrations.core.types import RecallFrame, ScoredMemory


def relations(frame: RecallFrame) -> tuple[str, ...]:
    """The ordering relations of a frame ('first', 'last'), grounded or not: they only reorder."""
    return tuple(
        c.value for c in frame.conditions if c.kind == "relation" and c.value in ("first", "last")
    )


def order_subject(frame: RecallFrame) -> str | None:
    """What an order word of the frame governs ("dentist"), if the frame says."""
    ordering = [
        c for c in frame.conditions if c.value in ("first", "last") and c.kind == "relation"
    ]
    return next((c.anchor for c in ordering if c.anchor), None)


def recency_subject(frame: RecallFrame) -> str | None:
    """What a recency word governs: it only picks among the most relevant memories (searching
    for it lowered recall on locomo-dev, see docs/frames.md)."""
    return next((c.anchor for c in frame.grounded if c.kind == "recency" and c.anchor), None)


def about_subject(subject: str, hits: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    """The hits that share a word with ``subject`` (a word of four letters or more also
    matches its longer forms: 'work' matches 'working')."""
    return _about_words(set(tokenize(subject)), hits)


def _about_words(wanted: set[str], hits: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    def shares(word: str) -> bool:
        return any(word == w or (len(w) >= 4 and word.startswith(w)) for w in wanted)

    return [h for h in hits if any(shares(word) for word in word_set(h.memory.search_text))]


def said_by_named(frame: RecallFrame, hits: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    """The hits spoken by a person the question names, when there are any, else all: "the
    last time Elise saw her ex" is Elise's report, not the other's "since seeing your ex" a
    day later."""
    names = set(frame.values("participant"))
    spoken = [h for h in hits if h.memory.context.speaker in names]
    return spoken or list(hits)


def most_relevant(hits: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    """The hits scoring at least :data:`RELEVANT_FRACTION` of the best: what an order word
    ("the first time I mentioned ...") may reorder by time. A hit that shares one stray word
    with the subject ("working") is not about it."""
    if not hits:
        return []
    cut = max(h.score for h in hits) * RELEVANT_FRACTION
    return [h for h in hits if h.score >= cut]


def state_words(subject: str, lexicon: Lexicon = ENGLISH) -> set[str] | None:
    """The words of ``subject`` and of each kind of state it names (the lexicon's
    :attr:`~.lexicon.FrameWords.state_topics`: for "work", "job" too), stemmed; None when it
    names none."""
    wanted = set(tokenize(subject))
    families = lexicon.frames.state_topics
    related = {stem(w) for family in families if wanted & _stems(family) for w in family}
    return wanted | related if related else None


@lru_cache(maxsize=64)
def _stems(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def latest_first(
    ranked: list[ScoredMemory],
    k: int,
    subject: str | None = None,
    searched: Sequence[ScoredMemory] = (),
    lexicon: Lexicon = ENGLISH,
) -> list[ScoredMemory]:
    """Recency: among the most relevant memories (those about ``subject`` when some are; for a
    kind of state, among the first of ``searched`` too, whatever their score), the latest
    episode leads."""
    return _by_time(ranked, k, latest=True, subject=subject, searched=searched, lexicon=lexicon)


def earliest_first(ranked: list[ScoredMemory], k: int) -> list[ScoredMemory]:
    """'The first time': among the most relevant memories, the earliest episode leads."""
    return _by_time(ranked, k, latest=False)


def _by_time(
    ranked: list[ScoredMemory],
    k: int,
    *,
    latest: bool,
    subject: str | None = None,
    searched: Sequence[ScoredMemory] = (),
    lexicon: Lexicon = ENGLISH,
) -> list[ScoredMemory]:
    if not ranked:
        return ranked
    window = ranked[:TIME_ORDER_WINDOW]
    state = state_words(subject, lexicon) if subject else None
    close: list[ScoredMemory] = []
    if state:
        # A kind of state the table knows changes in other words ("a new job at Northwind"
        # after "I still work at Contoso Coffee"), scoring far below the old one: its memories
        # are picked among the first of both rankings, however their scores compare.
        ids = {h.memory.id for h in searched[:TIME_ORDER_WINDOW]} - {h.memory.id for h in window}
        close = _about_words(state, window + [h for h in ranked if h.memory.id in ids])
    if not close:
        cut = ranked[0].score * RELEVANT_FRACTION
        close = [h for h in window if h.score >= cut]
        close = (about_subject(subject, close) if subject else []) or close
    rest = [h for h in ranked if h not in close]
    close.sort(key=_when, reverse=latest)
    placed = LATEST if latest else EARLIEST
    return ([replace(h, placed=placed) for h in close] + rest)[:k]


def _when(hit: ScoredMemory) -> datetime:
    return (hit.memory.context.event_time or hit.memory.context.session_span).start


#: Recency and "the first time" reorder by time the memories among the first
#: ``TIME_ORDER_WINDOW`` that score at least ``RELEVANT_FRACTION`` of the best (with either
#: fusion, a memory found by only one of dense and BM25 scores at most about half the best and
#: stays put).
TIME_ORDER_WINDOW = 5
RELEVANT_FRACTION = 0.75

#: Why a memory reordered by time stands where it does.
LATEST = "latest first among the most relevant: the question asks for the latest"
EARLIEST = "earliest first among the most relevant: the question asks for the first time"
