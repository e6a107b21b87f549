"""Times carried from earlier in a chat: a reply that names an event another message dated.

"dinner sat?", then from the other speaker "yesss 8ish?": the reply is about Saturday at
20:00. "quiz at the Anchor is tues at 8", then "I'm in for the quiz": the quiz's Tuesday.
"check in fri 8 aug ...", then "I'll take the friday off": that Friday. Only a day still to
come is carried (a plan under discussion), only from the last few utterances of the session,
and only into a short message: a message that gives its own day keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import lru_cache

from ramem_integrations.core.grouping import is_filler
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.types import MemoryUnit, TimeSpan

#: How many utterances back in its session a carried time may come from.
CARRY_REACH = 3
#: The most words a message that takes a carried time has: a reply, not a story.
CARRY_WORDS = 12
#: The most words a plan whose event a reply names by a shared word has.
PLAN_WORDS = 20
#: How long after the plan a reply that names its event by a shared word may come.
CARRY_GAP = timedelta(hours=3)

_WORD = re.compile(r"[a-z][a-z']{3,}")


@dataclass(frozen=True)
class _Words:
    """A lexicon's words as this reader reads them."""

    #: Words of time, which are no event's name ("good morning" after "tomorrow morning").
    time: frozenset[str]
    stop: frozenset[str]
    weekdays: dict[str, int]
    #: "the friday": a weekday named as one already said.
    the_weekday: re.Pattern[str]


@lru_cache(maxsize=8)
def _words(lexicon: Lexicon) -> _Words:
    time = lexicon.time
    weekdays = dict(time.weekdays)
    day_words = {*dict(time.day_words), *dict(time.day_word_spellings)}  # 'tmrw'
    return _Words(
        time=frozenset(
            {*dict(time.day_parts), *day_words, *weekdays, *dict(time.months), "tonight", "week"}
            | {"weekend", "morning", "evening", "afternoon", "night", "today", "tomorrow"}
        ),
        stop=frozenset(lexicon.text.stop_words),
        weekdays=weekdays,
        the_weekday=re.compile(rf"\bthe\s+({'|'.join(weekdays)})\b", re.IGNORECASE),
    )


def carried(units: Sequence[MemoryUnit], lexicon: Lexicon = ENGLISH) -> list[MemoryUnit]:
    """``units`` (one conversation, in the order said) with carried times as event times, read
    by the words of ``lexicon``."""
    out = list(units)
    for at, unit in enumerate(out):
        if len(unit.content.split()) > CARRY_WORDS or len(unit.content.splitlines()) > 1:
            continue
        plans = [u for u in _recent(out, at) if _ahead(u)]
        span = _carried_span(unit, plans, lexicon)
        if span is not None:
            out[at] = replace(unit, context=replace(unit.context, event_time=span))
    return out


def _recent(units: list[MemoryUnit], at: int) -> list[MemoryUnit]:
    """The utterances of the same session before ``at``, nearest first, within reach."""
    session = units[at].context.session_id
    earlier = units[max(0, at - CARRY_REACH) : at][::-1]
    return [u for u in earlier if u.context.session_id == session]


def _ahead(unit: MemoryUnit) -> bool:
    """Whether a unit dates a day (or a few) still to come when said."""
    span, said = unit.context.event_time, unit.context.said_at
    if span is None or said is None:
        return False
    return timedelta(days=1) <= span.duration <= timedelta(days=14) and span.end > said.end


def _carried_span(unit: MemoryUnit, plans: list[MemoryUnit], lexicon: Lexicon) -> TimeSpan | None:
    own = unit.context.event_time
    day = plans[0].context.event_time if plans else None
    if day is None:
        return None
    if own is not None and own.duration < timedelta(days=1) and _clock_only(unit):
        start = day.start.replace(hour=own.start.hour, minute=own.start.minute)  # 'yesss 8ish?'
        return TimeSpan(start, start + own.duration)
    words = _words(lexicon)
    named = words.the_weekday.search(unit.content)
    weekday = words.weekdays[named.group(1).lower()] if named else None
    if own is not None and own.duration == timedelta(days=1) and own.start.weekday() == weekday:
        for plan in plans:  # 'the friday': the one the plan holds
            span = plan.context.event_time or day
            days = (span.start + timedelta(days=i) for i in range((span.end - span.start).days))
            for start in days:
                if start.weekday() == weekday:
                    return TimeSpan(start, start + timedelta(days=1))
        return None
    if own is None and _names_the_event(unit, plans[0], lexicon):
        return day
    return None


def _names_the_event(unit: MemoryUnit, plan: MemoryUnit, lexicon: Lexicon) -> bool:
    """Whether a reply that says no time names a short plan's event ("I'm in for the quiz"):
    another speaker's statement (no reaction), soon after, sharing a word with the plan's time
    clause."""
    said, planned = unit.context.said_at, plan.context.said_at
    if (
        said is None
        or planned is None
        or said.start - planned.start > CARRY_GAP
        or unit.context.speaker == plan.context.speaker
        or unit.content.rstrip().endswith("?")
        or is_filler(unit.content, lexicon)  # 'good morning 🌞', 'ok cool'
        or len(plan.content.split()) > PLAN_WORDS
    ):
        return False
    read = _words(lexicon)
    words = set(_WORD.findall(unit.content.lower())) - read.stop - read.time
    return bool(words & _time_clause_words(plan))


def _time_clause_words(plan: MemoryUnit) -> set[str]:
    """The words of the plan's clauses that hold one of its times ("quiz at the Anchor is
    tues at 8"), not of the rest ("we need 6 for a team")."""
    clauses = re.split(r"[,;:!?.]|\s[-–]\s", plan.content)
    said = [m.text for m in plan.context.mention_times]
    timed = [c for c in clauses if any(t in c for t in said)]
    return {w for c in timed for w in _WORD.findall(c.lower())}


def _clock_only(unit: MemoryUnit) -> bool:
    """Whether every time the unit says is a clock time (an hour, no day of its own)."""
    return all(m.span.duration <= timedelta(hours=1) for m in unit.context.mention_times)
