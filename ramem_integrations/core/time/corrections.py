"""Corrections: a message that corrects the time its speaker gave a moment before.

"I saw Jo last week at the market btw", then "wait no, that was two weeks ago": the first
memory's event time becomes two weeks ago. Both keep their words as said; the corrected time,
a note in the restatement, and the links between the two (``corrected_by`` on the corrected
memory, ``corrects`` on the correcting one) live on the derived side. Rules are data: the cue
tables of the lexicon's time section (``TimeWords.strong_cues``, ``soft_cues``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.core.text import STOP_WORDS
from ramem_integrations.core.time.conventions import Conventions
from ramem_integrations.core.time.grounding import ground_time
from ramem_integrations.core.types import MemoryUnit, ScoredMemory, TimeMention, TimeSpan

#: How many utterances back in its session the corrected one may be.
CORRECTION_REACH = 3
#: The most words (beside its times) a restating message has: a correction restates, it does
#: not tell a story.
RESTATE_WORDS = 12

_WORD = re.compile(r"[a-z][a-z']+")
_CLOCK_ONLY = re.compile(
    r"(?:at\s+|by\s+)?(?:\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?|half\s+\d{1,2})", re.I
)
_NUMERIC = re.compile(r"\d[/.]\d")


def corrected(units: Sequence[MemoryUnit], words: TimeWords = ENGLISH.time) -> list[MemoryUnit]:
    """``units`` (one conversation, in the order said) with each time correction applied: to
    an earlier memory (linked both ways), or within a memory of several messages ("I saw Jo
    last week" and "wait no, two weeks ago" sent together); ``words`` holds the cues."""
    out = [_corrected_within(unit, words) for unit in units]
    for at, unit in enumerate(out):
        new, target = _replaced(out, at, words)
        if new is not None and target is not None:
            out[at] = unit = _retold(unit, new)
        else:
            new, target = _cued_or_restated(out, at, words)
            if new is not None and target is not None:
                new = _pointing_as(new, out[target], unit, words)
                if unit.context.event_time is not None:
                    out[at] = replace(unit, context=replace(unit.context, event_time=new.span))
            else:
                new, target = _short_restated(out, at, words)
                if new is None or target is None:
                    continue
                out[at] = unit = _retold(unit, new)
        before = out[target]
        out[target] = replace(
            _retimed(before, new),
            corrected_by=(*before.corrected_by, unit.id),
        )
        out[at] = replace(out[at], corrects=(*unit.corrects, before.id))
    return out


def _cued_or_restated(
    units: list[MemoryUnit], at: int, words: TimeWords
) -> tuple[TimeMention | None, int | None]:
    """A correction by its cue words, or by a short restatement of its speaker's latest
    event: (the new time as said, the index of the corrected utterance)."""
    unit = units[at]
    new, old, cued = correction_times(unit.content, unit.context.mention_times, words)
    target = None if new is None else _corrected_one(units, at, old, cued)
    if target is None:
        new, target = _restated(units, at, words)
    if new is None or target is None:
        new, target = _clock_restated(units, at, words)
        if new is not None and target is not None:
            units[at] = replace(unit, context=replace(unit.context, event_time=new.span))
    return new, target


def _retold(unit: MemoryUnit, new: TimeMention) -> MemoryUnit:
    """``unit`` with ``new`` as its event time, and in place of the mention it was read from
    ("7.30" read as a date where it is an hour)."""
    mentions = tuple(
        new if m.text.lower() == new.text.lower() else m for m in unit.context.mention_times
    )
    return replace(unit, context=replace(unit.context, event_time=new.span, mention_times=mentions))


def _replaced(
    units: list[MemoryUnit], at: int, words: TimeWords
) -> tuple[TimeMention | None, int | None]:
    """A new time in place of the one its speaker gave just before (others' replies may come
    between), by the shape of a clause: "wed not fri" or "from 7.30 not 8" where fri or 8 is
    that time, "make that mon". An hour-like "7.30" after a clock time is an hour, read
    nearest the old one on the old day; a day is read the way the old time points, keeping
    its hour when sure. Returns (the new time, the index of the corrected utterance)."""
    target = _just_before(units, at)
    if target is None:
        return None, None
    unit, before = units[at], units[target]
    patterns = _patterns(words)
    for clause in _TIME_CLAUSES.split(unit.content.lower()):
        shape = patterns.denial.search(clause)
        if shape is not None and _is_old_time(shape["old"], before, unit, words):
            new = _new_time(shape["new"], before, unit, words)
        else:
            shape = patterns.replacing.search(clause)
            new = None if shape is None else _new_time(shape["new"], before, unit, words)
        if new is not None and shape is not None:
            subject = patterns.subject.search(clause[: shape.start()])
            own = set(_WORD.findall(before.content.lower())) | STOP_WORDS
            return (None, None) if subject and subject["subject"] not in own else (new, target)
    return None, None


def _short_restated(
    units: list[MemoryUnit], at: int, words: TimeWords
) -> tuple[TimeMention | None, int | None]:
    """A new time for the plan its speaker gave just before, by the shape of a clause: the
    clause holding the time says only that time and at most :data:`SHORT_WORDS` other words
    ("erm no 6.30, just found the email", "nope 16th", "tues 4pm*"), is no question and
    joins no other event ("and footy sat at 10am"). The new time is of the plan's kind: an
    hour on the plan's day, or a day keeping its sure hour. Returns (the new time, the index
    of the corrected utterance)."""
    target = _just_before(units, at)
    if target is None:
        return None, None
    unit, before = units[at], units[target]
    old, said = before.context.event_time, before.context.said_at
    if old is None or said is None or old.end <= said.end:
        return None, None  # a plan points ahead
    text = unit.content.lower()
    held = [(c, t) for c in _TIME_CLAUSES.split(text) if (t := _clause_time(c, unit)) is not None]
    if len(held) != 1 or len(text.splitlines()) > 1:
        return None, None
    (clause, time), patterns = held[0], _patterns(words)
    rest = patterns.replacing.sub(" ", clause.replace(time, " "), count=1)
    end = text.find(clause) + len(clause)
    if (
        len(_WORD.findall(rest)) > SHORT_WORDS
        or text[end : end + 1] == "?"
        or patterns.joining.match(clause)
        or patterns.adding.search(clause)
    ):
        return None, None
    written = _ORDINAL.sub(r"the \1", _HALF_HOUR.sub(r"\1:30", time))
    mention = next((m for m in unit.context.mention_times if m.text.lower() == time), None)
    if mention is not None and _hour(written) is None:  # read as said: "6/8" day first
        new: TimeMention | None = _pointing_as(mention, before, unit, words)
    else:
        new = _new_time(written, before, unit, words)
    if new is None or new.span == old or not _same_kind(new.span):
        return None, None
    return TimeMention(time, new.span), target


#: The most words beside its time a clause restating a plan's time has.
SHORT_WORDS = 2
#: "half 1": half past the hour.
_HALF_HOUR = re.compile(r"^half\s+(?:past\s+)?(\d{1,2})$")
#: "16th" alone: the 16th.
_ORDINAL = re.compile(r"^([0-3]?\d(?:st|nd|rd|th))$")
#: A time written as one the anchorer may not read alone: "6.30", "4pm", "half 1", "16th".
_TIME_WRITTEN = re.compile(
    r"(?<![\w/.:])(?:half\s+(?:past\s+)?(?:1[0-2]|0?[1-9])|(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)|"
    r"(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*[ap]\.?m\.?)?|(?:1[0-2]|0?[1-9])\s*[ap]\.?m\.?)(?![\w/.:])"
)


def _clause_time(clause: str, unit: MemoryUnit) -> str | None:
    """The time ``clause`` holds, as written: a mention read in it, else one written as a time."""
    for mention in unit.context.mention_times:
        if mention.text.lower() in clause:
            return mention.text.lower()
    found = _TIME_WRITTEN.search(clause)
    return None if found is None else found.group(0)


def _same_kind(span: TimeSpan) -> bool:
    """Whether ``span`` is an hour or a whole day, the kinds of time a plan is given."""
    return span.duration in (timedelta(hours=1), timedelta(days=1))


#: Clause breaks that leave an hour ("7.30", "14:05") whole.
_TIME_CLAUSES = re.compile(r"[,;!?]|(?<!\d)[.:]|[.:](?!\d)|\s[-–]\s")
#: What a restated time is written as: an hour ("7.30", "8pm"), "the 22nd", or a word.
_TIME_TOKEN = (
    r"the\s+\d{1,2}(?:st|nd|rd|th)|\d{1,2}(?:st|nd|rd|th)|"
    r"\d{1,2}(?:[:.][0-5]\d)?(?:\s*[ap]\.?m\.?)?|[a-z]+"
)


def _just_before(units: list[MemoryUnit], at: int) -> int | None:
    """The index of its speaker's utterance just before the one at ``at`` in its session
    (within :data:`CORRECTION_REACH`), when that one gave a time."""
    ctx = units[at].context
    for i in range(at - 1, max(-1, at - 1 - CORRECTION_REACH), -1):
        other = units[i].context
        if other.session_id == ctx.session_id and other.speaker == ctx.speaker:
            return i if other.event_time is not None else None
    return None


def _plan_clock(before: MemoryUnit) -> datetime | None:
    """The clock time ``before`` gave its event, if any."""
    old = before.context.event_time
    if old is None:
        return None
    return _old_clock(before.content, old) if old.duration >= timedelta(days=1) else old.start


def _hour(text: str) -> re.Match[str] | None:
    return _BARE_HOUR.fullmatch(text.strip())


def _is_old_time(text: str, before: MemoryUnit, unit: MemoryUnit, words: TimeWords) -> bool:
    """Whether ``text`` names the time ``before`` gave: its clock hour, or its day."""
    hour, old = _hour(text), before.context.event_time
    if hour is not None:
        was = _plan_clock(before)
        return (
            was is not None
            and was.hour in _hours(hour.group(1), hour.group(3))
            and was.minute == int(hour.group(2) or 0)
        )
    span = _grounded(text, before, unit, words)
    return span is not None and old is not None and span.overlaps(old)


def _new_time(
    text: str, before: MemoryUnit, unit: MemoryUnit, words: TimeWords
) -> TimeMention | None:
    """The time ``text`` gives in place of ``before``'s: an hour on its day, or a day."""
    text = text.strip()
    hour = _hour(text)
    if hour is not None:
        was = _plan_clock(before)
        if was is None:
            return None
        start = min(
            (was.replace(hour=h, minute=int(hour.group(2) or 0)) for h in _hours(hour[1], hour[3])),
            key=lambda t: abs(t - was),
        )
        return TimeMention(text, TimeSpan(start, start + timedelta(hours=1)))
    span = _grounded(text, before, unit, words)
    if span is None:
        return None
    return _pointing_as(TimeMention(text, span), before, unit, words)


def _grounded(text: str, before: MemoryUnit, unit: MemoryUnit, words: TimeWords) -> TimeSpan | None:
    """``text`` read as a time, the way ``before``'s time points from when ``unit`` was said."""
    old, said = before.context.event_time, (unit.context.said_at or unit.context.session_span)
    if old is None:
        return None
    direction = "back" if old.end <= said.start else "forward"
    return ground_time(text, said.start, conventions=Conventions(direction=direction, words=words))


def _pointing_as(
    new: TimeMention, before: MemoryUnit, unit: MemoryUnit, words: TimeWords
) -> TimeMention:
    """The new time read the way the corrected one points ("We met Lea on Friday", then "I
    mean Thursday": the Thursday before), on the corrected one's day when it gives only a
    clock time ("meeting thurs 2pm", then "sorry make that 3pm": Thursday at 15:00)."""
    old, said = before.context.event_time, (unit.context.said_at or unit.context.session_span)
    if old is None:
        return new
    if _CLOCK_ONLY.fullmatch(new.text.strip()):
        moment = old.start.replace(hour=new.span.start.hour, minute=new.span.start.minute)
        return TimeMention(new.text, TimeSpan(moment, moment + (new.span.end - new.span.start)))
    if _NUMERIC.search(new.text):  # a numeric date reads the same either way
        return _hour_carried(new, before.content, unit.content)
    direction = "back" if old.end <= said.start else "forward"
    conventions = Conventions(direction=direction, words=words)
    span = ground_time(new.text, said.start, conventions=conventions)
    found = TimeMention(new.text, span) if span is not None else new
    return _hour_carried(found, before.content, unit.content)


def _hour_carried(new: TimeMention, old_text: str, new_text: str) -> TimeMention:
    """A new day keeps the hour the corrected message gave ("dinner mon at 6:45?", then
    "sorry i meant fri!!": Friday at 18:45), when the correction gives none itself and the
    hour is sure: with am or pm, or 12 to 6 (read after noon)."""
    if new.span.duration != timedelta(days=1) or _CLOCK_SAID.search(new_text):
        return new
    said = _CLOCK_SAID.search(old_text)
    moment = None if said is None else _old_clock(said.group(0), new.span)
    if (
        said is None
        or moment is None
        or not (said["half"] or said["pm"] or 12 <= moment.hour <= 18)
    ):
        return new  # "at 9.15" may be morning or evening: the day alone
    return TimeMention(new.text, TimeSpan(moment, moment + timedelta(hours=1)))


#: A clock time said as one: "at 7", "6:45", "8pm", "9.15" (not a bare number: "for 4").
_CLOCK_SAID = re.compile(
    r"(?<![\w/.:])(?:at\s+(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?(?:\s*(?P<half>[ap])\.?m\.?)?|"
    r"(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s*(?P<pm>[ap])\.?m\.?|"
    r"(?:1[0-2]|0?[1-9])[:.][0-5]\d)(?![\w/.:])",
    re.IGNORECASE,
)


def _retimed(unit: MemoryUnit, new: TimeMention) -> MemoryUnit:
    """``unit`` with the corrected time as its event time, and a note in its restatement."""
    note = f"(corrected later: {new.span.label()})"
    return replace(
        unit,
        context=replace(unit.context, event_time=new.span),
        restatement=f"{unit.search_text}\n{note}",
    )


def _corrected_within(unit: MemoryUnit, words: TimeWords) -> MemoryUnit:
    """A memory of several messages whose later message corrects the time of an earlier one."""
    lines = unit.content.splitlines()
    if len(lines) < 2 or unit.context.event_time is None:
        return unit
    for line in lines[1:]:
        mentions = tuple(m for m in unit.context.mention_times if m.text in line)
        new, _, cued = correction_times(line, mentions, words)
        if new is not None and cued:
            return _retimed(unit, new)
    return unit


def correction_times(
    text: str, mentions: Sequence[TimeMention], words: TimeWords = ENGLISH.time
) -> tuple[TimeMention | None, TimeMention | None, bool]:
    """The time a correcting message gives, the one it denies ("Tuesday, not Monday"), and
    whether a cue opens it; (None, None, False) when the message is no correction of a time."""
    if not mentions:
        return None, None, False
    denied = [
        m
        for m in mentions
        if re.search(rf"\bnot\s+(?:on\s+|in\s+)?{re.escape(m.text)}", text, re.I)
    ]
    given = [m for m in mentions if m not in denied]
    if not given:
        return None, None, False
    patterns = _patterns(words)
    cued = bool(patterns.strong.match(text)) or _opens_soft(text, given[0].text, patterns)
    if not (denied or cued):
        return None, None, False
    return given[0], (denied[0] if denied else None), cued


def _opens_soft(text: str, time: str, patterns: _Patterns) -> bool:
    """A soft cue followed at once by a time or by a reference back."""
    opening = patterns.soft.match(text)
    if opening is None:
        return False
    rest = text[opening.end() :]
    return rest.lower().startswith(time.lower()) or patterns.back.match(rest) is not None


def _corrected_one(
    units: list[MemoryUnit], at: int, denied: TimeMention | None, cued: bool
) -> int | None:
    """The index of the utterance the one at ``at`` corrects: the nearest earlier one of its
    speaker and session, within :data:`CORRECTION_REACH`, that gave a time; the one that said
    the denied time when the correction names it (without a cue, only that one: "Friday, not
    Saturday" alone is a plain statement unless Saturday was said)."""
    unit = units[at]
    ctx = unit.context
    candidates = [
        i
        for i in range(at - 1, max(-1, at - 1 - CORRECTION_REACH), -1)
        if units[i].context.session_id == ctx.session_id
        and units[i].context.speaker == ctx.speaker
        and units[i].context.event_time is not None
    ]
    if denied is not None:
        named = [i for i in candidates if _says(units[i], denied)]
        candidates = named if named or not cued else candidates
    return candidates[0] if candidates else None


def _restated(
    units: list[MemoryUnit], at: int, cues: TimeWords
) -> tuple[TimeMention | None, int | None]:
    """A correction by its shape: a short message that gives its speaker's latest event (in
    :data:`CORRECTION_REACH`) a new time, the same event shown by a word the two share, a
    reference back or a ``restate_cues`` word (on the same day, a new clock time), and nothing
    ``adding_words`` says, in its time's clause, is another one. Returns (the new time, the
    index of the corrected utterance)."""
    unit = units[at]
    mentions = unit.context.mention_times
    text = unit.content
    patterns = _patterns(cues)
    if not mentions or len(text.splitlines()) > 1 or _adds(text, mentions[0].text, patterns):
        return None, None
    rest = text
    for mention in mentions:
        rest = rest.replace(mention.text, " ")
    words = _WORD.findall(rest.lower())
    if len(words) > RESTATE_WORDS:
        return None, None
    target = _corrected_one(units, at, None, False)
    if target is None:
        return None, None
    before = units[target]
    new = mentions[0]
    old = before.context.event_time
    if old is None or (old.overlaps(new.span) and not _new_hour(before.content, text, old)):
        return None, None
    shared = set(words) & set(_WORD.findall(before.content.lower())) - STOP_WORDS
    if not (
        shared or patterns.restate.search(text) or _only_new_time(text, mentions, before, patterns)
    ):
        return None, None
    return new, target


def _only_new_time(
    text: str, mentions: Sequence[TimeMention], before: MemoryUnit, patterns: _Patterns
) -> bool:
    """Whether ``text`` gives the plan ``before`` only a new time: ``before`` points ahead of
    when it was said, and the clauses of ``text`` that hold its times say nothing but them,
    hesitation or preference (``restate_hedges``) and ``before``'s own words ("quiz tue 8?",
    then "ah wait hang on, friday better for me"; not "gym sat morning")."""
    old, said = before.context.event_time, before.context.said_at
    if old is None or said is None or old.end <= said.end:
        return False
    held = [c for c in _CLAUSES.split(text) if any(m.text in c for m in mentions)]
    rest = " ".join(held)
    for mention in mentions:
        rest = rest.replace(mention.text, " ")
    rest = patterns.hedges.sub(" ", rest.lower())
    own = set(_WORD.findall(before.content.lower()))
    return bool(held) and not (set(_WORD.findall(rest)) - STOP_WORDS - own)


_CLAUSES = re.compile(r"[,;:!?.]|\s[-–]\s")


def _adds(text: str, time: str, patterns: _Patterns) -> bool:
    """Whether an ``adding_words`` word is in the clause of ``time``: "I'm going again on
    Saturday too" adds an event; "actually it lands 18:50, checked again" does not."""
    clauses = re.split(r"[,;:!?]|\s[-–]\s", text)
    return any(patterns.adding.search(c) for c in clauses if time in c) or time not in text


_BARE_HOUR = re.compile(
    r"(?<![\w/.:])(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?(?:\s*([ap])\.?m\.?)?(?![\w/.:])"
)


@dataclass(frozen=True, eq=False)
class _Patterns:
    """The cue tables of a :class:`TimeWords`, compiled."""

    strong: re.Pattern[str]
    soft: re.Pattern[str]
    back: re.Pattern[str]
    restate: re.Pattern[str]
    joining: re.Pattern[str]
    adding: re.Pattern[str]
    hedges: re.Pattern[str]
    hour_shape: re.Pattern[str]
    denial: re.Pattern[str]
    replacing: re.Pattern[str]
    subject: re.Pattern[str]


@lru_cache(maxsize=8)
def _patterns(words: TimeWords) -> _Patterns:
    strong_cues = "|".join(words.strong_cues)
    opening = rf"^\W*(?:(?:{'|'.join(words.correction_fillers)})\W+)*"
    prep = rf"(?:{'|'.join(words.restated_prepositions)})\s+"
    return _Patterns(
        strong=re.compile(rf"{opening}(?:{strong_cues})(?!\w)", re.IGNORECASE),
        soft=re.compile(rf"{opening}(?:{'|'.join(words.soft_cues)})(?!\w)[\s,:;-]*", re.IGNORECASE),
        back=re.compile(rf"(?:{'|'.join(words.back_references)})(?!\w)", re.IGNORECASE),
        restate=re.compile(
            rf"(?<![\w'])(?:{'|'.join(words.restate_cues)})(?![\w'])", re.IGNORECASE
        ),
        joining=re.compile(rf"^\W*(?:{'|'.join(words.joining_words)})(?![\w'])", re.IGNORECASE),
        adding=re.compile(rf"(?<![\w'])(?:{'|'.join(words.adding_words)})(?![\w'])", re.IGNORECASE),
        hedges=re.compile(
            rf"(?<![\w'])(?:{'|'.join(words.restate_hedges)})(?![\w'])", re.IGNORECASE
        ),
        denial=re.compile(
            rf"(?<![\w.:])(?:{prep})?(?P<new>{_TIME_TOKEN})\s*,?\s+(?:{'|'.join(words.denials)})"
            rf"\s+(?:{prep})?(?P<old>{_TIME_TOKEN})(?![\w.:])",
            re.IGNORECASE,
        ),
        replacing=re.compile(
            rf"(?<![\w'])(?:{'|'.join(words.replacing_phrases)})\s+(?:{prep})?(?P<new>[^,;!?]+?)"
            r"\W*$",
            re.IGNORECASE,
        ),
        subject=re.compile(
            rf"(?P<subject>[a-z]+)(?:{'|'.join(words.subject_copulas)})\s*(?:{prep})?$",
            re.IGNORECASE,
        ),
        hour_shape=re.compile(
            rf"^\W*(?:\w+\W+){{0,3}}?(?P<new>{_BARE_HOUR.pattern})\s*,?\s+not\s+(?:at\s+)?"
            rf"{_BARE_HOUR.pattern}\W*$|{opening}(?:(?:{strong_cues})\W+)?(?:make\s+(?:it|that)|"
            rf"(?:{strong_cues}))[\s,:;-]+(?:at\s+)?(?P<cued>{_BARE_HOUR.pattern})\W*$",
            re.IGNORECASE,
        ),
    )


def _clock_restated(
    units: list[MemoryUnit], at: int, words: TimeWords
) -> tuple[TimeMention | None, int | None]:
    """A new hour for its speaker's latest timed event, said by shape alone: "dinner's 8 not
    7", "oops 12 not 11", "make that 7". The hour is read nearest the old one (8 after 19:00 is
    20:00; 7 after 06:30 is 07:00) on the old day. Returns (the new time, the corrected index)."""
    unit = units[at]
    shape = _patterns(words).hour_shape.match(unit.content.strip())
    target = None if shape is None else _corrected_one(units, at, None, False)
    if shape is None or target is None:
        return None, None
    old = units[target].context.event_time
    if old is None:
        return None, None
    was = _old_clock(units[target].content, old) if old.duration >= timedelta(days=1) else old.start
    if was is None:
        return None, None
    hour, minute, half = (shape.group(i) for i in ((2, 3, 4) if shape["new"] else (9, 10, 11)))
    hours = _hours(hour, half)
    start = min(
        (was.replace(hour=h, minute=int(minute or 0)) for h in hours),
        key=lambda t: abs(t - was),
    )
    text = shape["new"] or shape["cued"]
    return TimeMention(text, TimeSpan(start, start + timedelta(hours=1))), target


def _new_hour(old_text: str, new_text: str, day: TimeSpan) -> bool:
    """Whether two messages about one day give it different clock times ('boat trip sat 10am',
    then 'boat trip sat 11am')."""
    was, now = _old_clock(old_text, day), _old_clock(new_text, day)
    return was is not None and now is not None and was != now


def _hours(hour: str, half: str | None) -> list[int]:
    """The readings of an hour: its am or pm one, else both."""
    if half:
        return [int(hour) % 12 + (12 if half.lower() == "p" else 0)]
    return [int(hour) % 12, int(hour) % 12 + 12]


def _old_clock(content: str, day: TimeSpan) -> datetime | None:
    """The clock time a message gave beside its day ("dinner sat at 7?": 19:00, an hour
    without am or pm read in the afternoon or evening), on that day."""
    said = _BARE_HOUR.search(re.sub(r"\d+(?:st|nd|rd|th)\b|\d+/\d+", " ", content))
    if said is None:
        return None
    hour = _hours(said.group(1), said.group(3))[-1]
    return day.start.replace(hour=hour, minute=int(said.group(2) or 0))


def _says(unit: MemoryUnit, time: TimeMention) -> bool:
    return any(
        m.text.lower() == time.text.lower() or m.span.overlaps(time.span)
        for m in unit.context.mention_times
    )


def with_corrections(
    hits: Sequence[ScoredMemory], memories: Mapping[str, MemoryUnit], k: int
) -> list[ScoredMemory]:
    """``hits`` with each corrected memory's correction right after it (moved up, or brought
    in with reason ``"episode"`` and the corrected memory's id in ``matched``), cut to ``k``."""
    out: list[ScoredMemory] = []
    placed: set[str] = set()
    by_id = {h.memory.id: h for h in hits}
    for hit in hits:
        if hit.memory.id in placed:
            continue
        out.append(hit)
        placed.add(hit.memory.id)
        for later in hit.memory.corrected_by:
            unit = memories.get(later)
            if later in placed or unit is None:
                continue
            out.append(
                by_id.get(later) or ScoredMemory(unit, hit.score, "episode", (hit.memory.id,))
            )
            placed.add(later)
    return out[:k]
