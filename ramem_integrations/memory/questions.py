"""What a read request must be, and when its question counts as asked.

:func:`check_request` refuses a request before any work is done; :func:`frame_question` holds
the one policy for the moment a question is asked (its *reference*), shared by
:class:`~ramem_integrations.memory.ramem.RaMem` and the LlamaIndex postprocessor (which moment
a framework surface passes is :mod:`ramem_integrations.adapters_common.asked`'s rule).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from datetime import datetime
from typing import Literal, get_args

from ramem_integrations.core.frames import (
    FrameInducer,
    KnownContext,
    without_relative_times,
)
from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.core.limits import DEFAULT_LIMITS, Limits
from ramem_integrations.core.types import RecallFrame, ScoredMemory
from ramem_integrations.errors import InvalidInputError

#: Retrieval modes: the full method, and the baselines that share its store.
Mode = Literal["ramem", "content", "dense", "bm25"]
MODES: tuple[Mode, ...] = get_args(Mode)


def check_request(query: object, k: object, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse an empty or overlong query or a k that is not a positive integer (RaMem checks
    the namespace)."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("The query is empty; ask a question in words.")
    check_query(query, limits)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InvalidInputError(f"k must be a positive integer, got {k!r}.")


def check_query(query: object, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a query over ``limits.query_chars`` or that is not valid Unicode (an empty one
    is left to the caller: :meth:`RaMem.frame` reads it as a frame without conditions)."""
    if isinstance(query, str):
        limits.check_text(query, "The query", "query_chars")


def check_mode(mode: object) -> Mode:
    """``mode`` if it is one of :data:`MODES`, else :class:`InvalidInputError`."""
    for known in MODES:
        if mode == known:
            return known
    raise InvalidInputError(f"Unknown mode {mode!r}; use one of: {', '.join(MODES)}.")


class UngroundedTimeWarning(UserWarning):
    """A relative time in a question ("last week") was not grounded: the question has no
    date (``reference``), so it selects nothing."""


#: What the warning says.
UNGROUNDED = (
    "The question {query!r} has no date, so {times} in it {verb} not grounded and selects "
    "nothing. Pass reference= (when the question is asked; the framework adapters use their "
    "clock unless given reference=UNDATED)."
)


def frame_question(
    query: str,
    inducer: FrameInducer,
    known: KnownContext,
    reference: datetime | None,
    words: TimeWords = ENGLISH.time,
) -> RecallFrame:
    """Read ``query`` into its recall frame, grounded against the moment it is asked.

    ``reference`` is that moment. Without it, absolute dates ("May 2023") still ground, against
    the end of the memories' date range (``known.date_range``), but relative ones ("last week")
    do not: that would be a guess, and an :class:`UngroundedTimeWarning` names them. Never
    against today's clock. With neither, the frame has no conditions.
    """
    estimated = reference is None
    if estimated and known.date_range is not None:
        reference = known.date_range.end
    if reference is None:
        return RecallFrame(query, query)
    frame = inducer.induce(query, reference=reference, known=known)
    if not estimated:
        return frame
    frame = without_relative_times(frame, words)
    dropped = [c.evidence for c in frame.conditions if c.undated]
    if dropped:
        times = ", ".join(repr(e) for e in dropped)
        verb = "is" if len(dropped) == 1 else "are"
        message = UNGROUNDED.format(query=query, times=times, verb=verb)
        warnings.warn(message, UngroundedTimeWarning, stacklevel=3)
    return frame


def read_frame(question: str, hits: Sequence[ScoredMemory]) -> RecallFrame | None:
    """The frame ``hits`` were retrieved for, when their retrieval read ``question``: what a
    prompt over them shows as the conditions read."""
    return next((h.frame for h in hits if h.frame is not None and h.frame.query == question), None)


def questions_last(hits: list[ScoredMemory]) -> list[ScoredMemory]:
    """The hits with questions put to the memory after the statements, each part in order:
    a question asked before is kept, but never stands as the evidence for its own answer."""
    return [h for h in hits if not h.memory.asks_memory] + [h for h in hits if h.memory.asks_memory]
