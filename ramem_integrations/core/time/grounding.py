"""Temporal expressions: find them in text and ground them to :class:`TimeSpan` s.

Grounding is always against a given ``reference`` moment (the session date, or the question's
date), never the wall clock. Spans are half-open and at the expression's own granularity:
"May 2023" is the whole month, "yesterday" the whole day, "last week" the previous
Monday-to-Monday week. Words live in the lexicon's time section
(:class:`~ramem_integrations.core.lexicon.time.TimeWords`), handed down with the conventions
(week start, seasons, numeric dates, which occurrence a bare month names) in a
:class:`.Conventions` value; this module holds the patterns, written once with slots for the
words and compiled once per words (:func:`_grammar`), and the arithmetic
(``dateutil.relativedelta``).

>>> from datetime import UTC, datetime
>>> ref = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
>>> ground_time("last August", ref).label()
'August 2022'
>>> [(f.text, f.span.label()) for f in find_times("Two weeks ago, in March, I met May.", ref)]
[('Two weeks ago', '24 April 2023 to 30 April 2023'), ('March', 'March 2023')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import date, datetime, timedelta, tzinfo
from functools import cache, cached_property, lru_cache
from typing import NamedTuple, cast

from dateutil.relativedelta import relativedelta

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import Holiday, TenseCue, TimeWords
from ramem_integrations.core.text import STOP_WORDS
from ramem_integrations.core.time import tables
from ramem_integrations.core.time.clauses import background, inside
from ramem_integrations.core.time.conventions import DATE_ORDERS, DEFAULT, HEMISPHERES, Conventions
from ramem_integrations.core.time.holidays import holiday_span, nth_weekday
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import InvalidTimeError

__all__ = [
    "DATE_ORDERS",
    "HEMISPHERES",
    "Conventions",
    "FoundTime",
    "conventions_for",
    "find_times",
    "ground_time",
    "names_a_holiday",
    "operative",
    "tense_of",
]


@dataclass(frozen=True, slots=True)
class FoundTime:
    """A time expression found in a text: its words, character offsets and grounded span.

    ``relative`` is True when the span depends on the reference moment ("yesterday",
    "last August", "in May"), False for absolute expressions ("8 May 2023").
    """

    text: str
    start: int
    end: int
    span: TimeSpan
    relative: bool


class _Hit(NamedTuple):
    span: TimeSpan
    relative: bool
    bare: bool = False  # a yearless calendar name, re-anchored at the end of a range
    clock: bool = False  # a time of day alone ("at 7"): kept only where no date is said


Handler = Callable[[re.Match[str], datetime, Conventions], "_Hit | None"]


class _NotHereError(Exception):
    """Raised by a handler when its words are not the expression it reads ("until March 2020",
    already past, is left to the shorter match "March 2020")."""


# ---------------------------------------------------------------- regex fragments from the tables


def _alt(words: object) -> str:
    """A non-capturing alternation of words, longest first, spaces matching any whitespace."""
    items = sorted(cast("dict[str, object]", words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items) + ")"


def _cased(word: str, capitalised_only: frozenset[str]) -> str:
    return f"(?-i:{word.title()})" if word in capitalised_only else re.escape(word)


def _slot(name: str) -> str:
    """A place in a rule's pattern for words: ``{months}`` is filled with the alternation of the
    month names of the :class:`TimeWords` the rule is compiled for (:func:`_grammar`)."""
    return "{" + name + "}"


# A dot ends an abbreviation ("Sept. 9"), never a full name: "on 10 March." keeps its full stop.
_MONTH = _slot("month")
_MONTH_CASED = _slot("month_cased")
_WEEKDAY = _slot("weekdays")
_WEEKDAY_ANY = _slot("weekday_any")
_WEEKDAY_SHORT = _slot("short_weekday")
_WEEKDAY_WORD = _slot("weekday_words")
_WEEKDAY_UNAMBIGUOUS = _slot("weekday_unambiguous")
_NOT_SUBJECT = _slot("not_subject")  # not 'I sat 3rd'
_SEASON = _slot("seasons")
_YEAR = r"(?:1[89]|20)\d\d(?!\d)"
_DAY = r"(?:(?:3[01]|[12]\d|0?[1-9])(?!\d)(?:st|nd|rd|th)?|" + _slot("ordinal_words") + ")"
_COUNT = _slot("count")
_UNIT = _slot("units")
_MOD = _slot("modifiers")
_PERIOD_UNIT = rf"(?:week|weekend|month|quarter|year|decade|{_slot('unit_spellings')})"
_HOLIDAY = _slot("holidays")
_PERIOD = _slot("period_nouns")
_LEAD_WEEKDAY = rf"(?:(?:(?P<lmod>{_MOD})\s+)?(?P<lw>{_WEEKDAY_ANY}),?\s+)?"

# ------------------------------------------------------------------------- date arithmetic


def _ref_day(ref: datetime) -> date:
    return ref.date()


def _span(start: date, end: date, tz: tzinfo | None) -> TimeSpan:
    return TimeSpan(_at(start, tz), _at(end, tz))


def _at(day: date, tz: tzinfo | None, hour: int = 0) -> datetime:
    day = day + timedelta(days=hour // 24)
    return datetime(day.year, day.month, day.day, hour % 24, tzinfo=tz)


def _floor(day: date, unit: str, conv: Conventions) -> date:
    if unit == "weeks":
        return day - timedelta(days=(day.weekday() - conv.week_start) % 7)
    if unit == "months":
        return day.replace(day=1)
    if unit == "quarters":
        return date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
    if unit == "years":
        return date(day.year, 1, 1)
    if unit == "decades":
        return date(day.year // 10 * 10, 1, 1)
    return day


def _add(day: date, unit: str, n: int) -> date:
    moved: date = day + unit_delta(unit, n)
    return moved


def unit_delta(unit: str, n: int) -> relativedelta:
    """``n`` of a calendar unit ("weeks", "quarters", ...), as ``TimeWords.units`` names it."""
    if unit == "decades":
        return relativedelta(years=10 * n)
    if unit == "quarters":
        return relativedelta(months=3 * n)
    if unit == "fortnights":
        return relativedelta(weeks=2 * n)
    return relativedelta(**{unit: n})


def _unit_window(ref: datetime, unit: str, lo: int, hi: int, conv: Conventions) -> _Hit:
    """Whole calendar units from ``lo`` to ``hi`` units away from the reference (inclusive)."""
    day = _ref_day(ref)
    start = _floor(_add(day, unit, lo), unit, conv)
    end = _add(_floor(_add(day, unit, hi), unit, conv), unit, 1)
    return _Hit(_span(start, end, ref.tzinfo), relative=True)


Occurrence = Callable[[int], "tuple[date, date] | None"]


_Span = tuple[date, date]
# How each strategy named in the conventions table picks among occurrences (k, span).
_STRATEGIES: dict[str, Callable[[list[_Span], date], _Span | None]] = {
    "latest_not_after": lambda spans, today: max((s for s in spans if s[0] <= today), default=None),
    "latest_ended": lambda spans, today: max((s for s in spans if s[1] <= today), default=None),
    "earliest_after": lambda spans, today: min((s for s in spans if s[0] > today), default=None),
    "current_cycle": lambda spans, today: next((s for s in spans if s[0] <= today < s[1]), None),
    "earliest_not_ended": lambda spans, today: min(
        (s for s in spans if s[1] > today), default=None
    ),
}


def _pick(
    occ: Occurrence, k0: int, mode: str, ref: datetime, conv: Conventions, shift: int = 0
) -> _Span | None:
    """Choose one occurrence of a recurring period (a month, season, weekday) by ``mode``,
    following the strategy the conventions table names for it; ``shift`` then steps that
    many occurrences later (earlier when negative): 'the Tuesday before last' is -1."""
    today = _ref_day(ref)
    reach = 6 + abs(shift)
    spans = [s for k in range(k0 - reach, k0 + reach + 1) if (s := occ(k)) is not None]
    strategy = conv.named_period(mode)
    chosen = _STRATEGIES[strategy](spans, today)
    if chosen is None and strategy == "current_cycle":
        chosen = occ(k0)  # "this Friday" said on Monday: the Friday of this week
    if chosen is None or not shift or chosen not in spans:
        return chosen if not shift else None
    at = spans.index(chosen) + shift
    return spans[at] if 0 <= at < len(spans) else None


def _recurring(
    occ: Occurrence, k0: int, mode: str | None, ref: datetime, conv: Conventions, shift: int = 0
) -> _Hit | None:
    bare = "ahead" if conv.direction == "forward" and not shift else "bare"
    chosen = _pick(occ, k0, _t(conv).modifiers[_norm(mode)] if mode else bare, ref, conv, shift)
    if chosen is None:
        return None
    return _Hit(_span(*chosen, ref.tzinfo), relative=True, bare=mode is None and not shift)


def _part(span: TimeSpan, part: str, conv: Conventions) -> TimeSpan:
    """Keep a fraction of a span: whole months when the span is months, else whole days."""
    lo, hi = _t(conv).parts[" ".join(part.lower().split())]
    start, end = span.start.date(), span.end.date()
    delta = relativedelta(end, start)
    months = delta.years * 12 + delta.months
    tz = span.start.tzinfo
    if start.day == 1 and delta.days == 0 and months >= 3:
        a, b = round(months * lo), round(months * hi)
        return _span(start + relativedelta(months=a), start + relativedelta(months=b), tz)
    days = (end - start).days
    a, b = round(days * lo), max(round(days * hi), round(days * lo) + 1)
    return _span(start + timedelta(days=a), start + timedelta(days=b), tz)


# ------------------------------------------------------------------------- word parsing


def _g(m: re.Match[str], name: str) -> str | None:
    """A named group's text, or None when the group is absent or did not take part."""
    return m.groupdict().get(name)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def _month(text: str, conv: Conventions) -> int:
    return _t(conv).months[text.lower().rstrip(".")]


def _day_number(text: str, conv: Conventions) -> int:
    digits = re.match(r"\d+", text)
    if digits:
        return int(digits.group())
    words = " ".join(text.lower().split())
    ordinals = _t(conv).ordinal_words
    return ordinals.get(words) or ordinals[words.replace(" ", "-")]


def _count(text: str, conv: Conventions) -> tuple[int, int]:
    words = _norm(text)
    if words.isdigit():
        return int(words), int(words)
    grammar = _t(conv)
    if words in grammar.vague_counts:
        return grammar.vague_counts[words]
    return grammar.number_words[words], grammar.number_words[words]


def _weekday_number(text: str, conv: Conventions) -> int:
    return _t(conv).weekday_numbers[text.lower()]


def _unit(text: str, conv: Conventions) -> str:
    return _t(conv).units[text.lower()]


def _counted(unit: str, lo: int, hi: int, conv: Conventions) -> tuple[str, int, int]:
    """Counts in a unit measured by another ('a fortnight' is two weeks)."""
    if unit in _t(conv).unit_multiples:
        unit, times = _t(conv).unit_multiples[unit]
        return unit, lo * times, hi * times
    return unit, lo, hi


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


# ------------------------------------------------------------------------- handlers


def _h_date(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    month, day = _month(m["m"], conv), _day_number(m["d"], conv)
    if year := _g(m, "y"):
        found = _safe_date(int(year), month, day)
        if found is None:
            return None
        return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False)
    occ = _date_occ(month, day)
    if weekday := _g(m, "lw"):  # "Friday, 14 March": the year within reach whose 14th is one
        pin = _weekday_number(weekday, conv)
        if hit := _pinned(occ, pin, _g(m, "lmod"), ref, conv, ref.year, reach=366):
            return hit
    return _recurring(occ, ref.year, None, ref, conv)


def _pinned(
    occ: Occurrence,
    weekday: int,
    mod: str | None,
    ref: datetime,
    conv: Conventions,
    k0: int,
    reach: int,
) -> _Hit | None:
    """The occurrence (of a yearless date, of a day of the month) within ``reach`` days that
    falls on ``weekday``: the first after the reference day with 'next' or when pointing
    forward, the first not before it with 'this', the latest before it with 'last', the latest
    not after it when pointing back, else the nearest. None when no occurrence within reach
    does (a wrong weekday)."""
    today = _ref_day(ref)
    days = [
        s[0]
        for k in range(k0 - 13, k0 + 14)
        if (s := occ(k)) and s[0].weekday() == weekday and abs((s[0] - today).days) <= reach
    ]
    mode = _t(conv).modifiers[_norm(mod)] if mod else None
    if mode == "next" or (mode is None and conv.direction == "forward"):
        chosen = min((d for d in days if d > today), default=None)
    elif mode == "this":
        chosen = min((d for d in days if d >= today), default=None)
    elif mode == "last":
        chosen = max((d for d in days if d < today), default=None)
    elif mode is None and conv.direction == "back":
        chosen = max((d for d in days if d <= today), default=None)
    else:  # the weekday and the day say which: the nearest, the earlier of two as near
        chosen = min(days, key=lambda d: (abs((d - today).days), d), default=None)
    return _Hit(TimeSpan.day(chosen, ref.tzinfo), relative=True) if chosen else None


def _h_iso(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    found = _safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
    return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False) if found else None


def _h_numeric(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    if m["s"] == "-" and m["s2"] != "-":  # '4-8/10': days 4 to 8 of a month, read as a range
        raise _NotHereError
    if m["s"] != m["s2"]:  # 10.01-2024 is no date
        return None
    a, b, year = int(m["a"]), int(m["b"]), int(m["y"])
    if year < 100:
        year += conv.two_digit_year_base
    month_first = (
        a <= 12 if conv.month_first(m["s"]) else b > 12
    )  # 25/08/2023 can only be day first
    month, day = (a, b) if month_first else (b, a)
    found = _safe_date(year, month, day)
    return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False) if found else None


def _month_occ(month: int) -> Callable[[int], tuple[date, date]]:
    return _months_occ(month, 1)


def _h_month(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    month = _month(m["m"], conv)
    if year := _g(m, "y"):
        return _Hit(_span(*_month_occ(month)(int(year)), ref.tzinfo), relative=False)
    return _recurring(_month_occ(month), ref.year, _g(m, "mod"), ref, conv)


def _season_occ(season: str, conv: Conventions) -> Callable[[int], tuple[date, date]]:
    return _months_occ(conv.season_starts[_t(conv).seasons[season.lower()]], 3)


def _h_season(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    occ = _season_occ(m["s"], conv)
    if year := _g(m, "y"):
        return _Hit(_span(*occ(int(year)), ref.tzinfo), relative=False)
    return _recurring(occ, ref.year, _g(m, "mod"), ref, conv)


def _h_weekday(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'Friday', 'last sat', 'next fri'. 'next X' a day or two ahead in this week is the X of
    the week after: of a day that near, a chat says 'tomorrow' or 'fri' ('next sat' said on
    Friday is a week on; 'next tues' said on Sunday is in two days, the next week's)."""
    mod = _g(m, "mod")
    hit = _weekday_pick(_weekday_number(m["w"], conv), mod, ref, conv)
    if hit is None or (mod or "").lower() != "next":
        return hit
    day, today = hit.span.start.date(), _ref_day(ref)
    if day - today > tables.NEXT_IS_NEAR or _floor(day, "weeks", conv) != _floor(
        today, "weeks", conv
    ):
        return hit
    week = timedelta(days=7)
    return hit._replace(span=TimeSpan(hit.span.start + week, hit.span.end + week))


_WORD = re.compile(r"[\w']+")


def _asks_of_an_object(text: str, end: int, before: str, conv: Conventions) -> bool:
    """Whether a weekday that is also a word closes a question after the object of a
    preposition pointing ahead ('coming to the match sat?', 'free for the quiz wed?'): no
    subject's verb ('where the cat sat?') nor a noun ('lying in the warm sun?'). ``before``
    is the word before the object's determiner."""
    return text[end:].lstrip().startswith("?") and before in conv.words.ahead_prepositions


def _h_weekday_word_end(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'dinner sat?', "i'm working sat", 'push to sun': a weekday that is also a word, ending
    its clause (or before a clock time: 'bbq sat from 3'); not the verb or noun after a subject
    or a determiner ('I sat.', 'the sun!', 'the cat sat.', 'enjoying the warm sun'). After a
    verb's object that a possessive opens the word is a day ('missed ur call sun')."""
    clause = max(m.string.rfind(p, 0, m.start("core")) for p in ",;:!?.") + 1  # 'sat no, sun'
    before = [w.lower() for w in _WORD.findall(m.string, clause, m.start("core"))][-3:]
    grammar = _t(conv)
    if before and before[-1] in grammar.copulas:  # "now it's sat", 'the do is sun'
        return _h_weekday(m, ref, conv)
    if before and (before[-1] in grammar.subject_words or before[-1] in grammar.determiners):
        raise _NotHereError
    verb = before[-3] if len(before) > 2 else ""  # what the determiner's noun follows
    if (
        len(before) > 1
        and before[-2] in grammar.determiners
        and (not verb or verb in STOP_WORDS or before[-2] not in grammar.possessives)
        and not _asks_of_an_object(m.string, m.end("core"), verb, conv)
    ):  # a subject ('the cat sat.'), after a preposition ('in my sun lounger'), 'the warm sun'
        raise _NotHereError
    return _h_weekday(m, ref, conv)


def _h_year(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    year = int(m["y"])
    return _Hit(_span(date(year, 1, 1), date(year + 1, 1, 1), ref.tzinfo), relative=False)


def _h_decade(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    text = m["dec"].lower().strip("'").replace("'", "")
    decades = _t(conv).decade_words
    if text in decades or len(text) == 3:  # "nineties", "90s": nearest past century
        tens = decades.get(text) or int(text[:2])
        first = max(c + tens for c in (1900, 2000, 2100) if c + tens <= ref.year)
        relative = True
    else:
        first, relative = int(text[:4]), False
    span = _span(date(first, 1, 1), date(first + 10, 1, 1), ref.tzinfo)
    part = _g(m, "part")
    return _Hit(_part(span, part, conv) if part else span, relative)


def _h_unit(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    unit, mod = _period_unit(m["u"], conv), _g(m, "mod")
    grammar = _t(conv)
    offset = (
        grammar.unit_offsets[grammar.modifiers[_norm(mod)]]
        if mod
        else (-2 if _g(m, "before") else 2)
    )
    if unit == "weekend" and offset == 2:  # 'the weekend after next': the coming one's next,
        offset = 1  # as 'the Sunday after next' is the coming Sunday's next
    return _unit_offset(unit, offset, ref, conv)


def _period_unit(text: str, conv: Conventions) -> str:
    """A calendar unit's name as the code reads it ("wknd" is "weekend", "yr" "year")."""
    word = text.lower()
    return _t(conv).unit_spellings.get(word, word)


def _unit_offset(unit: str, offset: int, ref: datetime, conv: Conventions) -> _Hit:
    """The calendar unit (or weekend) ``offset`` units from the one holding the reference."""
    if unit != "weekend":
        return _unit_window(ref, unit + "s", offset, offset, conv)
    start = _floor(_ref_day(ref), "weeks", conv) + timedelta(weeks=offset)
    first, last = conv.weekend_days
    return _Hit(_span(start + timedelta(first), start + timedelta(last), ref.tzinfo), True)


def _weekend_occ(ref: datetime, conv: Conventions) -> Occurrence:
    monday = _floor(_ref_day(ref), "weeks", conv)
    first, last = conv.weekend_days

    def occ(k: int) -> tuple[date, date]:
        start = monday + timedelta(weeks=k)
        return start + timedelta(first), start + timedelta(last)

    return occ


def _h_weekend(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    return _recurring(_weekend_occ(ref, conv), 0, None, ref, conv)


def _counted_window(m: re.Match[str], ref: datetime, conv: Conventions, sign: int) -> _Hit:
    """'two weeks ago' (sign -1), 'in 2 weeks' (+1): whole calendar units, or with
    :attr:`Conventions.weeks_as_days` an exact count of weeks as the one day that far away."""
    unit, lo, hi = _counted(_unit(m["u"], conv), *_count(m["n"], conv), conv)
    if conv.weeks_as_days and unit == "weeks" and lo == hi:
        return _Hit(TimeSpan.day(_ref_day(ref) + timedelta(weeks=sign * lo), ref.tzinfo), True)
    low, high = sorted((sign * lo, sign * hi))
    return _unit_window(ref, unit, low, high, conv)


def _h_ago(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    return _counted_window(m, ref, conv, -1)


def _h_in(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    return _counted_window(m, ref, conv, 1)


def _h_rolling(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    if _period_unit(m["u"], conv) == "weekend":  # "the past weekend": a weekend has no rolling form
        return _unit_offset("weekend", -1, ref, conv)
    _, hi = _count(_g(m, "n") or "1", conv)
    day = _ref_day(ref)
    start = _add(day, _unit(_period_unit(m["u"], conv), conv), -hi)
    return _Hit(_span(start, day + timedelta(days=1), ref.tzinfo), relative=True)


def _h_day_word(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    words = _norm(m["dw"])
    part: str | None = _g(m, "dp")
    grammar = _t(conv)
    if words in grammar.day_part_phrases:
        offset, part = grammar.day_part_phrases[words]
    else:
        offset = 0 if words == "this" else grammar.day_words[words]
    if (offset >= 1 or words == "tonight") and _small_hours(ref, conv):
        offset -= 1  # said at 1am: tomorrow is the coming daytime, tonight the night begun
    day = _ref_day(ref) + timedelta(days=offset)
    if not part:
        return _Hit(TimeSpan.day(day, ref.tzinfo), relative=True)
    first, last = grammar.day_parts[part.lower()]
    return _Hit(TimeSpan(_at(day, ref.tzinfo, first), _at(day, ref.tzinfo, last)), True)


def _h_small_hours(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'later', 'in the morning', said after midnight by someone not yet asleep: that date's
    daytime (its morning). Not a time at any other hour, nor a story's 'Later, ...'."""
    if not _small_hours(ref, conv) or m["core"].startswith("Later"):
        raise _NotHereError
    day = _ref_day(ref)
    if m["core"].lower().startswith("later"):
        return _Hit(TimeSpan.day(day, ref.tzinfo), relative=True)
    return _Hit(TimeSpan(_at(day, ref.tzinfo, 6), _at(day, ref.tzinfo, 12)), relative=True)


def _small_hours(ref: datetime, conv: Conventions) -> bool:
    """Whether ``ref`` falls after midnight but before :attr:`Conventions.night_owl_hour`."""
    return (ref.hour, ref.minute) != (0, 0) and ref.hour < conv.night_owl_hour


def _h_vague(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    window = _t(conv).vague_windows[_norm(m["v"])]
    if window is None:
        return None
    back, until = window
    day = _ref_day(ref)
    span = _span(day - timedelta(days=back), day - timedelta(days=until - 1), ref.tzinfo)
    return _Hit(span, relative=True)


def _h_so_far(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    day = _ref_day(ref)
    if part := _g(m, "dp"):  # "earlier this morning": the part of today, cut at the moment
        first, last = _t(conv).day_parts[part.lower()]
        whole = TimeSpan(_at(day, ref.tzinfo, first), _at(day, ref.tzinfo, last))
    elif _g(m, "today"):
        whole = TimeSpan.day(day, ref.tzinfo)
    else:
        whole = _unit_window(ref, m["u"].lower() + "s", 0, 0, conv).span
        if m["el"].lower() == "earlier":
            return _Hit(TimeSpan(whole.start, _at(day + timedelta(days=1), ref.tzinfo)), True)
        return _Hit(TimeSpan(_at(day, ref.tzinfo), whole.end), True)
    start, end = whole.start, whole.end
    if m["el"].lower() == "earlier":
        end = min(end, ref)
    else:
        start = max(start, ref)
    return _Hit(TimeSpan(start, end), True) if start < end else None


def _h_part(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'the end of May 2023', 'early last year'; 'the end of the month' is this month's."""
    if unit := _g(m, "tu"):
        inner: _Hit | None = _unit_offset(unit.lower(), 0, ref, conv)
    else:
        inner = _ground_atom(m["x"], ref, _PART_INNER, conv)
    return inner._replace(span=_part(inner.span, m["part"], conv)) if inner else None


def _not_moved(m: re.Match[str], conv: Conventions) -> None:
    """A range after a reschedule verb is two times, the old and the new ("postponed from 3
    march to 17 may"), not a range."""
    if _t(conv).rescheduled_before.search(m.string[: m.start("core")]):
        raise _NotHereError


def _h_range(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    _not_moved(m, conv)
    last = _ground_atom(m["b"], ref, _RANGE_ATOMS, conv)
    first = _ground_atom(m["a"], ref, _RANGE_ATOMS, conv)
    if last is None or first is None:
        return None
    if first.bare:  # "between May and July 2023": May of the year the range ends in
        first = _ground_atom(m["a"], last.span.start, _RANGE_ATOMS, conv) or first
    if not first.span.start < last.span.end:
        return None
    span = TimeSpan(first.span.start, last.span.end)
    return _Hit(span, relative=first.relative or last.relative)


def _h_stay(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'check in fri 8 aug, check out mon 11 aug', 'check in 20/1 check out 23/1': the stay,
    from the first day to the end of the second."""
    last, first = _stay_end(m["b"], ref, conv), _stay_end(m["a"], ref, conv)
    if last is None or first is None or not first.span.start < last.span.end:
        return None
    return _Hit(TimeSpan(first.span.start, last.span.end), relative=True)


def _h_day_pair(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'mon and tues', 'sat & sun': two days side by side are one time, the first to the end
    of the second; days apart ('mon and wed') are each read alone."""
    first, second = _weekday_number(m["w"], conv), _weekday_number(m["w2"], conv)
    if (second - first) % 7 != 1:
        raise _NotHereError
    hit = _weekday_pick(first, _g(m, "mod"), ref, conv)
    if hit is None:
        return None
    return hit._replace(span=TimeSpan(hit.span.start, hit.span.end + timedelta(days=1)))


def _stay_end(text: str, ref: datetime, conv: Conventions) -> _Hit | None:
    numeric = _DAY_MONTH_FULL.match(text.split()[-1])  # 'fri 13/9': its date
    found = _day_month_date(numeric, conv) if numeric else None
    if found is not None:
        return _recurring(_date_occ(*found), ref.year, None, ref, conv)
    return _ground_atom(text, ref, _STAY_ATOMS, conv)


# ------------------------------------------------------------------------- holidays, counts


def _holiday_occ(text: str, over: bool, conv: Conventions) -> Occurrence:
    holiday = _t(conv).holidays[" ".join(text.lower().split())]
    return lambda k: holiday_span(holiday, k, over=over)


def _eve(occ: Occurrence) -> Occurrence:
    """The day before each occurrence: 'xmas eve eve' is the eve of Christmas Eve."""

    def day_before(k: int) -> tuple[date, date] | None:
        found = occ(k)
        return (found[0] - timedelta(days=1), found[0]) if found else None

    return day_before


def _h_holiday(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    occ = _holiday_occ(m["h"], over=bool(_g(m, "over")), conv=conv)
    if _g(m, "eve"):
        occ = _eve(occ)
    if year := _g(m, "y"):
        found = occ(int(year))
        return _Hit(_span(*found, ref.tzinfo), relative=False) if found else None
    return _recurring(occ, ref.year, _g(m, "mod"), ref, conv)


def _h_holidays_ago(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'two Christmases ago', 'three summers ago': the second (third) latest Christmas
    (summer) that has ended."""
    occ: Occurrence
    if season := _g(m, "sp"):
        occ = _season_occ(_t(conv).season_plurals[season.lower()], conv)
    else:
        occ = _holiday_occ(_t(conv).holiday_plurals[m["hp"].lower()], over=False, conv=conv)
    lo, hi = _count(m["n"], conv)
    first, last = (
        _recurring(occ, ref.year, "last", ref, conv, 1 - hi),
        _recurring(occ, ref.year, "last", ref, conv, 1 - lo),
    )
    if first is None or last is None:
        return None
    return _Hit(TimeSpan(first.span.start, last.span.end), relative=True)


def _h_named_before_last(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'the Tuesday before last', 'the Christmas after next', 'the summer before last'."""
    mode, shift = ("last", -1) if _g(m, "before") else ("next", 1)
    if weekday := _g(m, "w"):
        return _weekday_pick(_weekday_number(weekday, conv), mode, ref, conv, shift)
    if season := _g(m, "s"):
        return _recurring(_season_occ(season, conv), ref.year, mode, ref, conv, shift)
    if month := _g(m, "m"):
        return _recurring(_month_occ(_month(month, conv)), ref.year, mode, ref, conv, shift)
    return _recurring(_holiday_occ(m["h"], over=False, conv=conv), ref.year, mode, ref, conv, shift)


def _h_weekdays_ago(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'two Fridays ago': the second latest Friday before the reference day."""
    weekday, (lo, hi) = _weekday_number(m["w"], conv), _count(m["n"], conv)
    first = _weekday_pick(weekday, "last", ref, conv, 1 - hi)
    last = _weekday_pick(weekday, "last", ref, conv, 1 - lo)
    if first is None or last is None:
        return None
    return _Hit(TimeSpan(first.span.start, last.span.end), relative=True)


def _h_weekday_pinned(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'next Friday, the 14th': the Friday that falls on a 14th (see :func:`_pinned`)."""
    weekday = _weekday_number(m["w"], conv)
    number = _day_number(_g(m, "d") or m["dw"], conv)

    def occ(k: int) -> tuple[date, date] | None:
        year, month = divmod(k, 12)
        found = _safe_date(year, month + 1, number)
        return (found, found + timedelta(days=1)) if found else None

    k0 = ref.year * 12 + ref.month - 1
    return _pinned(occ, weekday, _g(m, "mod"), ref, conv, k0, reach=366)


def _h_not_a_time(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'his man Friday': words that hold a time word but name no time."""
    return None


def _weekday_pick(
    weekday: int, mode: str | None, ref: datetime, conv: Conventions, shift: int = 0
) -> _Hit | None:
    if mode is None and not shift and conv.direction == "forward":
        ahead = _weekday_pick(weekday, "next", ref, conv)  # the next one after the reference day
        return ahead._replace(bare=True) if ahead else None
    monday = _floor(_ref_day(ref), "weeks", conv)
    offset = (weekday - conv.week_start) % 7

    def occ(k: int) -> tuple[date, date]:
        day = monday + timedelta(days=7 * k + offset)
        return day, day + timedelta(days=1)

    return _recurring(occ, 0, mode, ref, conv, shift)


def _h_weekends_ago(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    lo, hi = _count(m["n"], conv)
    first, last = _unit_offset("weekend", -hi, ref, conv), _unit_offset("weekend", -lo, ref, conv)
    return _Hit(TimeSpan(first.span.start, last.span.end), relative=True)


def _h_half_ago(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'a year and a half ago' is 18 months ago; 'half a year ago' 6 months ago."""
    smaller, per = _t(conv).half_units[_unit(_g(m, "u") or _g(m, "u2") or m["u3"], conv)]
    lo, hi = _count(n, conv) if (n := _g(m, "n") or _g(m, "n2")) else (0, 0)
    unit, lo, hi = _counted(smaller, lo * per + per // 2, hi * per + per // 2, conv)
    return _unit_window(ref, unit, -hi, -lo, conv)


# ------------------------------------------------------------------------- quarters, weeks of


def _quarter_occ(quarter: int) -> Callable[[int], tuple[date, date]]:
    return _months_occ(3 * quarter - 2, 3)


def _months_occ(first: int, months: int) -> Callable[[int], tuple[date, date]]:
    """``months`` whole months from month ``first`` of year k (a month, a quarter, a season)."""
    return lambda k: (date(k, first, 1), date(k, first, 1) + relativedelta(months=months))


def _year_of(text: str, ref: datetime, conv: Conventions) -> int | None:
    """The year a phrase names: '2021', 'last year', 'this year', 'next year'."""
    words = _norm(text)
    if words.isdigit():
        return int(words)
    offsets = {"last year": -1, "this year": 0, "next year": 1, "the year before last": -2}
    if words in offsets:
        return ref.year + offsets[words]
    ago = re.fullmatch(_t(conv).fill(rf"(?P<n>{_COUNT})\s+years?\s+ago"), words, re.IGNORECASE)
    if ago:
        lo, hi = _count(ago["n"], conv)
        return ref.year - lo if lo == hi else None
    return None


def _h_quarter(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    ordinal = _g(m, "qo")
    quarter = int(m["q"]) if _g(m, "q") else _t(conv).quarter_ordinals[(ordinal or "").lower()]
    year_words = _g(m, "y") or _g(m, "x")
    if year_words is None and ordinal and ordinal.lower() in ("last", "final"):
        return _unit_offset("quarter", -1, ref, conv)  # "the last quarter": the one before this
    if year_words is None:
        return _recurring(_quarter_occ(quarter), ref.year, None, ref, conv)
    year = _year_of(year_words, ref, conv)
    if year is None:
        return None
    return _Hit(_span(*_quarter_occ(quarter)(year), ref.tzinfo), relative=not _g(m, "y"))


def _month_of(text: str, ref: datetime, conv: Conventions) -> _Hit | None:
    """The month a phrase names ('June', 'June 2022', 'last month', 'the month')."""
    if _norm(text) == "the month":
        return _unit_offset("month", 0, ref, conv)
    return _ground_atom(text, ref, _MONTH_ATOMS, conv)


def _h_position_in_month(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'the third week of June', 'the first weekend of May', 'the last Friday of the month'."""
    month = _month_of(m["x"], ref, conv)
    if month is None:
        return None
    first = month.span.start.date()
    n = _t(conv).position_ordinals[m["po"].lower()]
    what = m["what"].lower()
    if what == "week":
        following = first + relativedelta(months=1)
        start = following - timedelta(days=7) if n == -1 else first + timedelta(days=7 * (n - 1))
        end = start + timedelta(days=7)
        if end > following:
            return None
    else:
        weekday, length = _day_and_length(what, conv)
        found = nth_weekday(first.year, first.month, weekday, n)
        if found is None:
            return None
        start, end = found, found + timedelta(days=length)
    return month._replace(span=_span(start, end, ref.tzinfo), bare=False)


def _day_and_length(what: str, conv: Conventions) -> tuple[int, int]:
    """A weekday's number and length 1, or the weekend's first day and length."""
    if what != "weekend":
        return _t(conv).weekdays[what], 1
    first, last = conv.weekend_days
    return (first + conv.week_start) % 7, last - first


def _h_weekend_of(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    day = _ground_atom(m["x"], ref, _DAY_ATOMS, conv)
    if day is None:
        return None
    monday = _floor(day.span.start.date(), "weeks", conv)
    first, last = conv.weekend_days
    span = _span(monday + timedelta(first), monday + timedelta(last), ref.tzinfo)
    return day._replace(span=span, bare=False)


def _h_day_of_month(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'on the 12th': the 12th of the latest month whose 12th is not after the reference."""
    number = _day_number(m["d"], conv)

    def occ(k: int) -> tuple[date, date] | None:
        year, month = divmod(k, 12)
        found = _safe_date(year, month + 1, number)
        return (found, found + timedelta(days=1)) if found else None

    return _recurring(occ, ref.year * 12 + ref.month - 1, None, ref, conv)


def _h_day_range(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'3-5 May', 'May 3rd to 5th, 2023': days within one month."""
    month, first, last = (
        _month(m["m"], conv),
        _day_number(m["d1"], conv),
        _day_number(m["d2"], conv),
    )
    if year := _g(m, "y"):
        end = _safe_date(int(year), month, last)
        relative = False
    else:
        hit = _recurring(_date_occ(month, last), ref.year, None, ref, conv)
        end = hit.span.start.date() if hit else None
        relative = True
    start = _safe_date(end.year, month, first) if end else None
    if end is None or start is None or not start < end:
        return None
    return _Hit(_span(start, end + timedelta(days=1), ref.tzinfo), relative)


def _date_occ(month: int, day: int) -> Occurrence:
    def occ(k: int) -> tuple[date, date] | None:
        found = _safe_date(k, month, day)
        return (found, found + timedelta(days=1)) if found else None

    return occ


# ------------------------------------------------------------------------- open and adjacent


def _end_of_day(ref: datetime) -> datetime:
    return _at(_ref_day(ref) + timedelta(days=1), ref.tzinfo)


def _h_since(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'since March': from the start of March to the end of the reference day."""
    inner = _ground_atom(m["x"], ref, _OPEN_ATOMS, conv)
    if inner is None:
        return None
    if not inner.span.start < _end_of_day(ref):
        raise _NotHereError
    # As relative as its start: "since 2019" stays a condition when the day asked is unknown.
    return _Hit(TimeSpan(inner.span.start, _end_of_day(ref)), relative=inner.relative)


def _h_until(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'until Friday': from the reference day to the end of the coming (or current) Friday."""
    before = m.string[: m.start("core")]
    if _t(conv).rescheduled_before.search(before):
        raise _NotHereError  # "postponed until Friday": Friday, the new time
    today = _at(_ref_day(ref), ref.tzinfo)
    inner = _ground_atom(m["x"], ref, _OPEN_ATOMS, conv)
    if inner is not None and inner.bare and inner.span.end <= today:
        inner = _coming(m["x"], ref, today, conv)
    if inner is None or inner.span.end <= today:
        raise _NotHereError
    return _Hit(TimeSpan(today, inner.span.end), relative=True)


def _coming(text: str, ref: datetime, today: datetime, conv: Conventions) -> _Hit | None:
    """The current or next occurrence of a named period or a yearless date."""
    for prefix in ("this", "next"):
        hit = _ground_atom(f"{prefix} {text}", ref, _OPEN_ATOMS, conv)
        if hit is not None and hit.span.end > today:
            return hit
    return _ground_atom(text, ref + relativedelta(years=1), _OPEN_ATOMS, conv)


def _h_named_in_year(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'October last year', 'Christmas two years ago': X in the year the words name."""
    year = _year_of(m["yr"], ref, conv)
    if year is None or not REFERENCE_YEARS[0] <= year <= REFERENCE_YEARS[1]:
        return None
    end_of_year = datetime(year, 12, 31, 23, 59, tzinfo=ref.tzinfo)
    inner = _ground_atom(m["x"], end_of_year, _IN_YEAR_ATOMS, conv)
    if inner is None or inner.span.start.year != year:
        return None
    return _Hit(inner.span, relative=True)


def _h_adjacent(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'the day / night / week / weekend / Friday before (after) X'."""
    anchor = _ground_atom(m["x"], ref, _DAY_ATOMS, conv)
    if anchor is None:
        return None
    before, which, tz = m["rel"].lower() == "before", m["which"].lower(), ref.tzinfo
    start, end = anchor.span.start.date(), anchor.span.end.date()
    if which == "night":
        if not before:
            return None
        return anchor._replace(span=TimeSpan(_at(start, tz, -6), _at(start, tz, 6)), bare=False)
    if which in ("day", "week"):
        days = timedelta(days=1 if which == "day" else 7)
        span = _span(start - days, start, tz) if before else _span(end, end + days, tz)
        return anchor._replace(span=span, bare=False)
    weekday, length = _day_and_length(which, conv)
    if before:
        day = start - timedelta(days=(start.weekday() - weekday - 1) % 7 + 1)
        if which == "weekend" and day + timedelta(days=length) > start:
            day -= timedelta(days=7)
    else:
        day = end + timedelta(days=(weekday - end.weekday()) % 7)
    return anchor._replace(span=_span(day, day + timedelta(days=length), tz), bare=False)


# ------------------------------------------------------------------------- the grammar


_CLOCK = (
    r"(?:(?P<ch>1[0-2]|0?[1-9])(?::(?P<cm>[0-5]\d))?\s*(?P<ap>[ap]\.?m\.?)(?!\w)"
    r"|(?P<h24>[01]?\d|2[0-3])[:h](?P<m24>[0-5]\d)(?!\d)"
    r"|half\s+(?P<half>1[0-2]|0?[1-9])(?!\d)"
    r"|(?P<noon>noon|midday|midnight))"
)
_CLOCK_FULL = re.compile(_CLOCK + "$", re.IGNORECASE)
_DAY_MONTH = r"(?P<da>\d{1,2})(?P<ds>[/.])(?P<db>\d{1,2})(?![\d/]|\.\d)"
_DAY_MONTH_FULL = re.compile(_DAY_MONTH + "$")


def _clock_times(text: str) -> list[tuple[int, int]]:
    """The (hour, minute) readings of a clock time: one when it says am, pm or a 24-hour
    hour, else both the morning's and the evening's ("at 7", "half 11", "12:30")."""
    words = " ".join(text.lower().split())
    m = _CLOCK_FULL.match(words)
    if m is None:  # a bare hour
        hour = int(words)
        return [(hour % 12, 0), (hour % 12 + 12, 0)]
    if m["noon"]:
        return [(0 if m["noon"] == "midnight" else 12, 0)]
    if m["ap"]:
        hour = int(m["ch"]) % 12 + (12 if m["ap"].startswith("p") else 0)
        return [(hour, int(m["cm"] or 0))]
    hour, minute = (int(m["half"]), 30) if m["half"] else (int(m["h24"]), int(m["m24"]))
    if hour > 12 or hour == 0:
        return [(hour, minute)]
    return [(hour % 12, minute), (hour % 12 + 12, minute)]


def _clock_span(moment: datetime) -> TimeSpan:
    return TimeSpan(moment, moment + timedelta(hours=1))


def _h_clock(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'at 1am', 'home by 1?', 'half 11': the nearest such moment ahead of the reference, or
    the latest before it when the sentence points back. Kept only where no date is said."""
    day = _ref_day(ref)
    moments = sorted(
        _at(day + timedelta(days=shift), ref.tzinfo) + timedelta(hours=h, minutes=mi)
        for shift in (-1, 0, 1)
        for h, mi in _clock_times(m["core"] if _g(m, "c") is None else m["c"])
    )
    if conv.direction == "back":
        chosen = max((t for t in moments if t <= ref), default=None)
    else:
        chosen = min((t for t in moments if t > ref), default=None)
    return _Hit(_clock_span(chosen), relative=True, clock=True) if chosen else None


def _h_clock_tonight(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'7 tonight', '12:30 tonight', 'tonight at 2am': that time in tonight's night, from
    16:00 to 06:00 (the small hours are the next day's)."""
    day = _ref_day(ref) - timedelta(days=1 if _small_hours(ref, conv) else 0)
    start, end = _at(day, ref.tzinfo, 16), _at(day, ref.tzinfo, 30)
    moments = [
        _at(day + timedelta(days=shift), ref.tzinfo) + timedelta(hours=h, minutes=mi)
        for shift in (0, 1)
        for h, mi in _clock_times(_g(m, "c") or m["c2"])
    ]
    chosen = min((t for t in moments if start <= t < end), default=None)
    return _Hit(_clock_span(chosen), relative=True) if chosen else None


def _weeks_counted(count: str | None, unit: str, conv: Conventions) -> int:
    """How many weeks 'a week', 'two weeks', 'a fortnight' count."""
    n = _count(count or "a", conv)[1]
    return n * (2 if unit.lower().startswith("fortnight") else 1)


def _h_weekday_week(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'thursday week', 'a week on thursday', 'wednesday fortnight', 'this sat, the one after':
    weeks after the coming Thursday (Wednesday, Saturday)."""
    weekday = _weekday_number(_g(m, "w") or _g(m, "w2") or m["w3"], conv)
    coming = _weekday_pick(weekday, "next", ref, conv)
    if coming is None:
        return None
    week = timedelta(weeks=_weeks_counted(_g(m, "n"), _g(m, "u") or _g(m, "u2") or "week", conv))
    return _Hit(TimeSpan(coming.span.start + week, coming.span.end + week), relative=True)


def _h_weeks_from_day(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'a week today', 'a fortnight tomorrow', 'a week yesterday': weeks on from that day (back
    from yesterday)."""
    offset = _t(conv).day_words[_norm(m["dw"])]
    weeks = _weeks_counted(m["n"], m["u"], conv) * (-1 if offset < 0 else 1)
    day = _ref_day(ref) + timedelta(days=offset, weeks=weeks)
    return _Hit(TimeSpan.day(day, ref.tzinfo), relative=True)


def _h_days_of_month(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'from the 17th to the 19th': the end read as 'the 19th' is, the start in its month (or
    the month before, 'the 30th to the 2nd')."""
    _not_moved(m, conv)
    end = _h_day_of_month(m, ref, conv)
    if end is None:
        return None
    last, first = end.span.start.date(), _day_number(m["d1"], conv)
    start = _safe_date(last.year, last.month, first) if first <= last.day else None
    if first > last.day:
        before = last.replace(day=1) - timedelta(days=1)
        start = _safe_date(before.year, before.month, first)
    if start is None:
        return None
    return _Hit(TimeSpan(_at(start, ref.tzinfo), end.span.end), relative=True)


def _h_weekday_of_week(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'thursday next week', 'next week on friday', 'monday to wednesday next week': that
    weekday (those days) in the week named."""
    mod = (_g(m, "mod") or m["mod2"]).lower()
    week = _unit_offset("week", _t(conv).unit_offsets[mod], ref, conv).span.start.date()
    last = week + timedelta(
        days=(_weekday_number(_g(m, "w") or m["w2"], conv) - conv.week_start) % 7
    )
    first = last
    if _g(m, "w0"):
        first = week + timedelta(days=(_weekday_number(m["w0"], conv) - conv.week_start) % 7)
    if first > last:
        return None
    return _Hit(_span(first, last + timedelta(days=1), ref.tzinfo), relative=True)


def _day_month_date(m: re.Match[str], conv: Conventions) -> tuple[int, int] | None:
    """(month, day) of a yearless numeric date, read in the conventions' order."""
    a, b = int(m["da"]), int(m["db"])
    month_first = a <= 12 if conv.month_first(m["ds"]) else b > 12
    month, day = (a, b) if month_first else (b, a)
    return (month, day) if 1 <= month <= 12 and _safe_date(2000, month, day) else None


_CLAUSE_END = re.compile(r"\s*(?:$|[?!,;:)]|\.(?!\d)|[^\w\s])")
_COUNTED_BEFORE = re.compile(
    r"(?:\d|\b(?:of|out|rated|scored|scores?|rate|got|give|gave)(?:\s+[\w']+)?)\W*$", re.I
)


#: One numeric date set against another ("4/5 instead of 11/5"): both are dates.
_SWAPPED = r"(?:instead\s+of|rather\s+than|or|not)"
_SWAPPED_BEFORE = re.compile(rf"\b{_SWAPPED}\W*$", re.I)
_SCORED_BEFORE = re.compile(
    r"(?:\d|\b(?:of|out|rated|scored|scores?|rate|give|gave)(?:\s+[\w']+)?|\bgot)\W*$", re.I
)
_SWAPPED_AFTER = re.compile(rf"\s+{_SWAPPED}\s+(?:on\s+)?", re.I)


def _set_against_a_time(text: str, end: int, conv: Conventions) -> bool:
    """Whether ``text[:end]`` is followed by "instead of", "rather than", "or" or "not" and a
    time expression ("1/3 instead of the 28th", "4/5 or 11/5", "2/3 not friday")."""
    swap = _SWAPPED_AFTER.match(text, end)
    if swap is None:
        return False
    return any(start == 0 for start, *_ in _matches(text[swap.end() :], _t(conv)))


_EVENT_IS = re.compile(r"(\w+)(?:\s+is|['’]s)\s+$", re.IGNORECASE)


def _past_particles(text: str, end: int, conv: Conventions) -> int:
    """Where the words after ``text[:end]`` that a chat adds to a time end ("15.10 apparently",
    "22/6 lol"): chat particles and adverbs in -ly."""
    particles = _t(conv).chat_particles
    while (word := _NEXT_WORD["lower"].match(text, end)) and (
        word[1].lower() in particles or word[1].lower().endswith("ly")
    ):
        end = word.end(1)
    return end


_CURRENCY_BEFORE = re.compile(r"[£$€¥]\s*$")


def _decimal(text: str, start: int, end: int, conv: Conventions) -> bool:
    """Whether the number at ``text[start:end]`` is written as a decimal: after a currency
    sign ("£15.10"), or before a sign, a word of three letters or fewer ("14.10 km") or one
    of ``TimeWords.decimal_units`` ("20.12 secs")."""
    return bool(_CURRENCY_BEFORE.search(text, 0, start) or _t(conv).unit_after.match(text, end))


def _looks_like_a_date(m: re.Match[str], conv: Conventions) -> bool:
    """'on 4/5', 'due 1/4', '14/06', '7/5 at 2pm', 'back 2/7', 'deadline 31.10', not '2/3 of
    us', '24/7' or a score ('rated it 4/5'). A date ends its clause or has a cue word before
    it; a fraction or a score qualifies a noun, is counted ('2/3 of') or out of 5 or 10. A
    first part above the second ('22/6', '13/10') is no fraction or score: a date, as is one
    written with a dot after the month ('9.8.')."""
    text, start, end = m.string, m.start("da"), m.end("core")
    after = text[end:].lower()
    if m["core"] in ("24/7", "50/50") or re.match(r"\s*(?:of|%)(?!\w)", after):
        return False
    padded = len(m["da"]) == len(m["db"]) == 2 and "0" in (m["da"][0], m["db"][0])
    if padded or re.match(r"\s+(?:at\s+)?\d", after):
        return True
    before = _WORD_BEFORE.search(text, 0, start)
    words = conv.words
    cues = words.numeric_date_cues if m["ds"] == "/" else words.dotted_date_cues
    if before is not None and before.group(1).lower() in cues:
        return m["ds"] == "/" or not _qualifies_noun(text, end, "lower", conv)
    event = _EVENT_IS.search(text, 0, start)  # "party's 5.11", not 'score is 7.5' or "it's 2.5"
    grammar = _t(conv)
    if event and event[1].lower() in grammar.time_followers - grammar.subject_words:
        return not _qualifies_noun(text, end, "lower", conv)
    a, b = int(m["da"]), int(m["db"])
    counted = _SCORED_BEFORE if a > b else _COUNTED_BEFORE  # 'got there 28/12' is a date
    if counted.search(text, 0, start) and not _SWAPPED_BEFORE.search(text, 0, start):
        return False  # 'got 3/4', 'rated it 4/5'
    if m["ds"] == "/" and (a > b or _set_against_a_time(text, end, conv)):
        return True  # '22/6', '13/10': no fraction or score; '4/5 instead of 11/5'
    if m["ds"] == "." and re.match(r"\.(?![\w.])", after):
        return True  # '9.8.', 'for 3.11.': day and month each closed by a dot
    if m["ds"] == "." and a > 12 and len(m["db"]) == 2 and not _decimal(text, start, end, conv):
        return True  # '20.12 thank god': a day above 12 and a month of two digits
    if (a <= b and b in (5, 10)) or (m["ds"] == "." and a <= 12):
        return False  # '4/5', '2.5 hours': a dotted date names a day above 12
    return _CLAUSE_END.match(text, _past_particles(text, end, conv)) is not None


def _h_day_month(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'party is on 4/5', 'rent due 1/4': a yearless numeric date, day first unless the
    conventions say month first; it points the way its sentence does. After a weekday ('fri
    13/9') it is the one that falls on that weekday; 'sun 11.30' is no date."""
    found = _day_month_date(m, conv)
    weekday = _g(m, "lw")  # 'fri 13/9': the 13 September that is a Friday
    if found is None or not (weekday or _looks_like_a_date(m, conv)):
        return None
    if weekday:
        pin = _weekday_number(weekday, conv)
        hit = _pinned(_date_occ(*found), pin, _g(m, "lmod"), ref, conv, ref.year, reach=366)
        if hit is None:  # 'sun 11.30': no 30 November near is a Sunday; a day, then a clock
            raise _NotHereError
        return hit
    return _recurring(_date_occ(*found), ref.year, None, ref, conv)


def _h_weekend_after(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'the weekend after' said alone (after 'this weekend'): the coming weekend's next."""
    coming = _pick(_weekend_occ(ref, conv), 0, "ahead", ref, conv)
    if coming is None:
        return None
    week = timedelta(days=7)
    return _Hit(_span(coming[0] + week, coming[1] + week, ref.tzinfo), relative=True)


def _h_day_month_range(m: re.Match[str], ref: datetime, conv: Conventions) -> _Hit | None:
    """'20/1-23/1', '20-23/1': yearless numeric dates; the range ends where the second does."""
    last = _DAY_MONTH_FULL.match(" ".join(m["b"].split()))
    first = _DAY_MONTH_FULL.match(" ".join(m["a"].split()))
    if last is None:
        return None
    b = _day_month_date(last, conv)
    if first is None:  # "20-23/1": the first day in the second's month
        a = (b[0], int(m["a"])) if b and _safe_date(2000, b[0], int(m["a"])) else None
    else:
        a = _day_month_date(first, conv)
    end = _recurring(_date_occ(*b), ref.year, None, ref, conv) if a and b else None
    if a is None or end is None:
        return None
    start = _safe_date(end.span.start.year, *a)
    if start is not None and start > end.span.start.date():  # '24/12-2/1': over new year
        start = _safe_date(start.year - 1, *a)
    if start is None:
        return None
    return _Hit(TimeSpan(_at(start, ref.tzinfo), end.span.end), relative=True)


class _Rule(NamedTuple):
    name: str
    pattern: str
    handler: Handler
    cue: str = ""  # words that must come before a bare form ("in May"); not part of the match
    # A bare form that qualifies a noun is not a time ("a winter coat"): "lower" checks a
    # lower-case word after it, "any" a capitalised one too ("Easter Island").
    attributive: str = ""
    # For speed: the rule is tried only when the text holds one of these (any case; _DIGIT
    # stands for any digit, a slot for words of its table, :func:`_grammar`). Every match holds one,
    # so a text without any cannot match.
    needs: tuple[str, ...] = ()


_CUE = _slot("cues")
_RESCHEDULED = _slot("rescheduled_forms")  # a verb of ``rescheduled``, in any form
_DIGIT = "0-9"


def _firsts(*groups: Iterable[str]) -> tuple[str, ...]:
    """The first word of each key: a text holds it whenever it holds the key."""
    return tuple(sorted({key.casefold().split()[0] for group in groups for key in group}))


def _longest_words(names: Iterable[str]) -> tuple[str, ...]:
    """The longest word of each name, which a text holds whenever it holds the name: rarer
    than the first ("the", "new", "st"), so the names' rule runs on fewer texts."""
    return tuple(sorted({max(name.casefold().split(), key=len) for name in names}))


_MONTHS = (_slot("months"),)
_SEASONS = (_SEASON,)
_WEEKDAYS = (_WEEKDAY,)
_PERIODS = ("week", "month", "quarter", "year", "decade", _slot("unit_spellings"))
_AROUND = ("before", "after")
_PAST = ("past", "last")
_MOD_UNIT = rf"(?P<mod>{_MOD})\s+(?P<u>{_PERIOD_UNIT})"
_BEFORE_LAST = rf"the\s+(?P<u>{_PERIOD_UNIT})\s+(?:(?P<before>before\s+last)|after\s+next)"

_ATOMS: dict[str, _Rule] = {
    rule.name: rule
    for rule in (
        _Rule(
            "iso",
            rf"(?P<y>{_YEAR})[-/.](?P<m>\d{{1,2}})[-/.](?P<d>\d{{1,2}})",
            _h_iso,
            needs=(_DIGIT,),
        ),
        _Rule(
            "numeric",
            r"(?P<a>\d{1,2})(?P<s>[/.-])(?P<b>\d{1,2})(?P<s2>[/.-])(?P<y>\d{4}|\d\d)(?!\.\d)",
            _h_numeric,
            needs=(_DIGIT,),
        ),
        _Rule(
            "dmy",
            rf"{_LEAD_WEEKDAY}(?:the\s+)?(?P<d>{_DAY})(?:\s+of)?\s+(?P<m>{_MONTH})"
            rf"(?:,?\s+(?P<y>{_YEAR}))?",
            _h_date,
            needs=_MONTHS,
        ),
        _Rule(
            "mdy",
            rf"{_LEAD_WEEKDAY}(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>{_DAY})(?:,?\s+(?P<y>{_YEAR}))?",
            _h_date,
            needs=_MONTHS,
        ),
        _Rule(
            "month_year",
            rf"(?P<m>{_MONTH}),?\s+(?:of\s+)?(?P<y>{_YEAR})",
            _h_month,
            needs=_MONTHS,
        ),
        _Rule(
            "season_year",
            rf"(?:the\s+)?(?P<s>{_SEASON})(?:\s+{_PERIOD})?\s+(?:of\s+)?(?P<y>{_YEAR})",
            _h_season,
            needs=_SEASONS,
        ),
        _Rule("month_mod", rf"(?P<mod>{_MOD})\s+(?P<m>{_MONTH_CASED})", _h_month, needs=_MONTHS),
        _Rule("season_mod", rf"(?P<mod>{_MOD})\s+(?P<s>{_SEASON})", _h_season, needs=_SEASONS),
        _Rule(
            "weekday_mod",
            rf"(?P<mod>{_MOD})\s+(?P<w>{_WEEKDAY_ANY})(?!s)",
            _h_weekday,
            needs=(_WEEKDAY_ANY,),
        ),
        _Rule(
            "month",
            rf"(?:the\s+month\s+of\s+)?(?P<m>{_MONTH})",
            _h_month,
            _CUE,
            "lower",
            needs=_MONTHS,
        ),
        # 'thinking november for the big trip': a month said for an event, as its time; not a
        # month that is a word too ('March for the climate')
        _Rule(
            "month_for",
            rf"(?!{_slot('capitalised_only')}(?![\w']))(?P<m>{_MONTH})"
            r"(?=\s+for\s+(?:the|a|an|our|my|your|his|her|their|ur)\s)",
            _h_month,
            needs=_MONTHS,
        ),
        _Rule("season", rf"(?:the\s+)?(?P<s>{_SEASON})", _h_season, _CUE, "lower", needs=_SEASONS),
        # 'pushed the trip back to october': a month a reschedule moves something to
        _Rule(
            "month_moved",
            rf"(?P<m>{_MONTH})",
            _h_month,
            rf"{_RESCHEDULED}(?:\s+[\w']+){{0,4}}?\s+(?:to|until|till|til)",
            "lower",
            needs=_MONTHS,
        ),
        _Rule("the_year", rf"the\s+year\s+(?P<y>{_YEAR})", _h_year, needs=(_DIGIT,)),
        _Rule("year", rf"(?P<y>{_YEAR})", _h_year, _CUE, needs=(_DIGIT,)),
        _Rule(
            "weekday",
            rf"(?P<w>{_WEEKDAY})(?!s)",
            _h_weekday,
            attributive="lower",
            needs=_WEEKDAYS,
        ),
        _Rule(
            "weekday_short",
            rf"(?P<w>{_WEEKDAY_SHORT})",
            _h_weekday,
            attributive="lower",
            needs=(_slot("weekday_short"),),
        ),
        _Rule(
            "weekday_word",
            rf"(?P<w>{_WEEKDAY_WORD})",
            _h_weekday,
            _slot("weekday_word_cues"),
            needs=(_WEEKDAY_WORD,),
        ),
        _Rule(
            "weekday_word_at",
            rf"(?P<w>{_WEEKDAY_WORD})(?=\s+(?:at\s+\d|\d{{1,2}}(?::[0-5]\d|\s*[ap]\.?m\.?)(?!\w)"
            rf"|(?:{_slot('day_parts')}|eve|arvo)(?!\w)))",
            _h_weekday,
            needs=(_WEEKDAY_WORD,),
        ),
        # 'bbq sat from 3', 'footy wed half 6', 'sun 11.30': before a clock time; not the verb
        # of a subject ('I sat from 2 till 5')
        _Rule(
            "weekday_word_clock",
            rf"(?P<w>{_WEEKDAY_WORD})(?=\s+(?:(?:from|half|by|till|til|until)\s+\d"
            r"|\d{1,2}\.[0-5]\d(?![\d.])))",
            _h_weekday_word_end,
            needs=(_WEEKDAY_WORD,),
        ),
        _Rule(
            "weekday_word_end",
            rf"(?P<w>{_WEEKDAY_WORD})(?=(?:\s+(?:{_slot('chat_particles')}|[a-z]+ly))*"
            r"\s*(?:$|[?!,;:)]|\.(?!\d)|[^\w\s]))",
            _h_weekday_word_end,
            needs=(_WEEKDAY_WORD,),
        ),
        # 'wed w/ the girls', 'sun brunch 11.30': a message or a clause after 'but' opening
        # on the day ('no good for thurs but sat works'); not the noun of 'sun is out' or 'sat
        # nav'
        _Rule(
            "weekday_word_open",
            rf"(?:(?<![^\n])|(?<=\bbut ))(?P<w>{_WEEKDAY_WORD})"
            rf"(?=\s+(?!{_slot('short_day_not_before')}(?![\w']))[a-z/@])",
            _h_weekday,
            needs=(_WEEKDAY_WORD,),
        ),
        _Rule("day_month", _LEAD_WEEKDAY + _DAY_MONTH, _h_day_month, needs=(_DIGIT,)),
        _Rule("clock", _CLOCK, _h_clock, needs=(_DIGIT, "half", "noon", "midday", "midnight")),
        _Rule(
            "clock_bare",
            r"(?P<c>1[0-2]|0?[1-9])(?=\s*(?:$|[?!.,)]|\s(?:"
            + _slot("clock_followers")
            + r")(?!\w)))",
            _h_clock,
            _alt(("at", "by", "till", "until", "around", "@")),
            needs=(_DIGIT,),
        ),
        # '8ish', 'half 7ish': an hour said loosely is a clock time
        _Rule("clock_ish", r"(?P<c>1[0-2]|0?[1-9])(?::[0-5]\d)?-?ish", _h_clock, needs=("ish",)),
        _Rule("unit", _MOD_UNIT, _h_unit, needs=_PERIODS),
        _Rule(
            "holiday",
            rf"(?P<over>over\s+(?:the\s+)?)?(?:(?P<mod>{_MOD})\s+)?(?P<h>{_HOLIDAY})"
            rf"(?P<eve>\s+eve(?!\w))?(?:(?:\s+{_PERIOD})?,?\s+(?:of\s+)?(?P<y>{_YEAR}))?",
            _h_holiday,
            attributive="things",
            needs=(_HOLIDAY,),
        ),
        _Rule(
            "quarter",
            rf"(?-i:Q|q)(?P<q>[1-4])(?:\s*(?:of\s+|/|-)?\s*(?P<y>{_YEAR})"
            rf"|\s+(?P<x>(?:last|this|next)\s+year))?",
            _h_quarter,
            needs=(_DIGIT,),
        ),
        _Rule(
            "quarter_words",
            rf"the\s+(?P<qo>{_slot('quarter_ordinals')})\s+quarter(?:\s+of\s+"
            rf"(?:(?P<y>{_YEAR})|(?P<x>(?:last|this|next)\s+year|the\s+year\s+before\s+last))"
            r"|(?!\s+of\b))",
            _h_quarter,
            needs=("quarter",),
        ),
    )
}

_PART_INNER: tuple[str, ...] = ("month_year", "season_year", "month_mod", "season_mod")
_PART_INNER += ("month", "season", "the_year", "year", "unit")
_RANGE_ATOMS: tuple[str, ...] = (
    "iso",
    "numeric",
    "dmy",
    "mdy",
    "month_year",
    "season_year",
    "month_mod",
)
_RANGE_ATOMS += ("season_mod", "month", "season", "year", "weekday_mod", "weekday")
_STAY_ATOMS: tuple[str, ...] = ("dmy", "mdy", "weekday", "weekday_short", "holiday")
_MONTH_ATOMS: tuple[str, ...] = ("month_year", "month_mod", "month", "unit")
_DAY_ATOMS: tuple[str, ...] = ("iso", "numeric", "dmy", "mdy", "holiday", "weekday_mod", "weekday")
_OPEN_ATOMS: tuple[str, ...] = (
    *_RANGE_ATOMS,
    "weekday_short",
    "the_year",
    "unit",
    "holiday",
    "quarter",
)
_IN_YEAR_ATOMS: tuple[str, ...] = ("dmy", "mdy", "month", "season", "holiday")


def _plain(pattern: str) -> str:
    """A pattern with its named groups made anonymous, for embedding in a composite."""
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


def _union(names: tuple[str, ...]) -> str:
    return "(?:" + "|".join(_plain(_ATOMS[n].pattern) for n in names) + ")"


_STAY_END = rf"{_union(_STAY_ATOMS)}|(?:{_WEEKDAY_ANY},?\s+)?{_plain(_DAY_MONTH)}"
_DAY_WORD = _slot("day_word")
_AGO = ("ago", "back", "before")
_DAY_PART = _slot("day_part")
_JOIN = r"\s*(?:-|–|to|until|till|through|and)\s*(?:the\s+)?"
_YEAR_WORDS = rf"(?:(?:last|this|next)\s+year|the\s+year\s+before\s+last|{_COUNT}\s+years?\s+ago)"
_COMPOSITES: tuple[_Rule, ...] = (
    _Rule(
        "weekday_week",
        rf"(?P<w>{_WEEKDAY_ANY})\s+(?P<u>week|fortnight)(?![\w'])"
        r"(?!\s+(?:ago|back|before|after|later))"
        rf"|(?P<n>{_COUNT})\s+(?P<u2>weeks?|fortnights?)\s+on\s+(?P<w2>{_WEEKDAY_ANY})(?![\w'])"
        # 'not this sat, the one after': the week after the day just named
        rf"|(?:this\s+)?(?P<w3>{_WEEKDAY_ANY}),?\s+the\s+one\s+after(?![\w'])(?!\s+next)",
        _h_weekday_week,
        needs=("week", "fortnight", "after"),
    ),
    _Rule(
        "weeks_from_day",
        rf"(?P<n>{_COUNT})\s+(?P<u>weeks?|fortnights?)\s+"
        r"(?P<dw>today|tomorrow|yesterday|tmrw|tmr|2moro|2moz|tomoz)(?![\w'])",
        _h_weeks_from_day,
        needs=("week", "fortnight"),
    ),
    _Rule(
        "days_of_month",
        r"(?:(?:from|between)\s+)?(?:the\s+)?(?P<d1>(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))"
        r"\s*(?:-|–|to|until|till|til|through|and)\s*"
        r"the\s+(?P<d>(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))(?!\s+(?:of\s+)?[A-Za-z]{3})",
        _h_days_of_month,
        needs=(_DIGIT,),
    ),
    _Rule(
        "weekday_of_week",
        rf"(?:(?:from\s+)?(?P<w0>{_WEEKDAY_ANY})\s*(?:-|–|to|till|until|through|thru)\s*)?"
        rf"(?P<w>{_WEEKDAY_ANY})\s+(?:of\s+)?(?P<mod>last|this|next)\s+week(?![\w'])"
        rf"|(?P<mod2>last|this|next)\s+week\s+(?:on\s+)?(?P<w2>{_WEEKDAY_ANY})(?![\w'])",
        _h_weekday_of_week,
        needs=("week",),
    ),
    _Rule(
        "clock_tonight",
        rf"(?:(?:at|for|by)\s+)?(?P<c>{_plain(_CLOCK)}|1[0-2]|0?[1-9])\s+(?:tonight|tonite)"
        rf"|(?:tonight|tonite)\s+(?:at|by|around)\s+(?P<c2>{_plain(_CLOCK)}|1[0-2]|0?[1-9])",
        _h_clock_tonight,
        needs=("tonight", "tonite"),
    ),
    _Rule(
        "weekend_after",
        r"the\s+(?:weekend|wknd)\s+after(?=\s*(?:$|[?!.,;]|then|instead|maybe|works))",
        _h_weekend_after,
        needs=("after",),
    ),
    _Rule(
        "day_month_range",
        rf"(?P<a>{_plain(_DAY_MONTH)}|(?:3[01]|[12]\d|0?[1-9])(?=\s*[-–]))\s*(?:-|–|to|until|till|til)\s*(?P<b>{_plain(_DAY_MONTH)})",
        _h_day_month_range,
        needs=(_DIGIT,),
    ),
    _Rule(
        "day_pair",
        rf"(?:(?P<mod>{_MOD})\s+)?{_NOT_SUBJECT}(?P<w>{_WEEKDAY_ANY})\s*(?:and|&|\+|n|-|–)\s*"
        rf"(?P<w2>{_WEEKDAY_ANY})(?!s)",
        _h_day_pair,
        attributive="lower",
        needs=(_WEEKDAY_ANY,),
    ),
    _Rule(
        "stay",
        rf"{_slot('stay_openers')}\s+(?:on\s+)?(?P<a>{_STAY_END})[\s,;]*(?:and\s+)?"
        rf"{_slot('stay_closers')}\s+(?:on\s+)?(?P<b>{_STAY_END})",
        _h_stay,
        needs=(_slot("stay_openers"),),
    ),
    _Rule(  # 'out 14/8 back 21/8', "xmas eve we're at the in-laws, back boxing day"
        "away_back",
        rf"(?P<a>{_STAY_END})(?:[^\d.!?\n]{{0,40}}?[\s,;])??\s*(?:and\s+)?"
        rf"(?:{_slot('return_words')}\s+)+(?:on\s+)?(?P<b>{_STAY_END})",
        _h_stay,
        needs=(_slot("return_words"),),
    ),
    _Rule(
        "range",
        rf"{_slot('range_openers')}\s+(?P<a>{_union(_RANGE_ATOMS)})\s*{_slot('range_joiners')}"
        rf"\s*(?P<b>{_union(_RANGE_ATOMS)})",
        _h_range,
        needs=(_slot("range_openers"),),
    ),
    _Rule(
        "part",
        rf"(?P<part>{_slot('parts')})[\s-]*"
        rf"(?:(?P<x>{_union(_PART_INNER)})|the\s+(?P<tu>week|month|year)(?!\s+(?:before|after)))",
        _h_part,
        needs=(_slot("parts"),),
    ),
    _Rule("before_last", _BEFORE_LAST, _h_unit, needs=_AROUND),
    _Rule(
        "decade",
        r"the\s+(?:(?P<part>early|mid|late)[\s-]+)?"
        rf"(?P<dec>(?:1[89]|20)\d0'?s|'?\d0'?s|{_slot('decade_words')})",
        _h_decade,
        needs=(_DIGIT, _slot("decade_words")),
    ),
    _Rule(
        "ago", rf"(?P<n>{_COUNT})\s+(?P<u>{_UNIT})\s+(?:ago|back|before\s+now)", _h_ago, needs=_AGO
    ),
    _Rule("in", rf"in\s+(?P<n>{_COUNT})\s+(?P<u>{_UNIT})(?:'?s?\s+time)?", _h_in, needs=("in",)),
    _Rule("from_now", rf"(?P<n>{_COUNT})\s+(?P<u>{_UNIT})\s+from\s+now", _h_in, needs=("now",)),
    _Rule(
        "rolling",
        rf"(?:the\s+)?(?:past|last)\s+(?P<n>{_COUNT})\s+(?P<u>{_UNIT})",
        _h_rolling,
        needs=_PAST,
    ),
    _Rule("rolling_one", rf"the\s+(?:past|last)\s+(?P<u>{_PERIOD_UNIT})", _h_rolling, needs=_PAST),
    _Rule(
        "day_word",
        rf"(?P<dw>{_DAY_WORD}|this(?=\s+{_DAY_PART}))"
        rf"(?:\s+(?P<dp>{_slot('day_parts')}))?",
        _h_day_word,
        needs=(_DAY_WORD,),
    ),
    _Rule(
        "vague",
        rf"(?P<v>{_slot('vague_windows')})",
        _h_vague,
        needs=(_slot("vague_windows"),),
    ),
    _Rule(
        "so_far",
        r"(?P<el>earlier|later)\s+(?:this\s+(?P<u>week|month|year)|(?P<today>today)"
        rf"|this\s+(?P<dp>{_DAY_PART}))",
        _h_so_far,
        needs=("earlier", "later"),
    ),
    _Rule(
        "weekend",
        r"the\s+(?:weekend|wknd|wkend)",
        _h_weekend,
        _slot("weekend_cues"),
        needs=("weekend",),
    ),
    _Rule("weekend_chat", r"wknd|wkend", _h_weekend, needs=("wknd", "wkend")),  # 'wknd?'
    _Rule(  # 'see u later', 'see u in the morning', said at 1am: the coming daytime
        "small_hours",
        r"later(?!\s+(?:this|that|today|tonight|on|in|than|at)\b)|in\s+the\s+morning",
        _h_small_hours,
        needs=("later", "morning"),
    ),
    _Rule(  # 'how was ur weekend?', 'enjoy your weekend': the one its sentence points to
        "weekend_own",
        rf"(?:{_slot('possessives')})\s+(?:weekend|wknd|wkend)",
        _h_weekend,
        needs=("weekend", "wknd", "wkend"),
    ),
    _Rule(
        "holidays_ago",
        rf"(?P<n>{_COUNT})\s+(?:(?P<hp>{_slot('holiday_plurals')})"
        rf"|(?P<sp>{_slot('season_plurals')}))\s+(?:ago|back)",
        _h_holidays_ago,
        needs=_AGO,
    ),
    _Rule(
        "named_before_last",
        rf"(?:the\s+)?(?:(?P<w>{_WEEKDAY_ANY})|(?P<h>{_HOLIDAY})|(?P<s>{_SEASON})"
        rf"|(?P<m>{_MONTH_CASED}))"
        r"\s+(?:(?P<before>before\s+last)"
        r"|after\s+next)",
        _h_named_before_last,
        needs=_AROUND,
    ),
    _Rule(
        "weekdays_ago",
        rf"(?P<n>{_COUNT})\s+(?P<w>{_WEEKDAY})s\s+(?:ago|back)",
        _h_weekdays_ago,
        needs=_AGO,
    ),
    _Rule(
        "weekday_pinned",
        rf"(?:(?P<mod>{_MOD})\s+)?(?P<w>{_WEEKDAY_UNAMBIGUOUS}|{_NOT_SUBJECT}{_WEEKDAY_WORD}(?=,?\s+\d)),?\s+"
        rf"(?:(?:the\s+)?(?P<d>(?:3[01]|[12]\d|0?[1-9])"
        rf"(?:st|nd|rd|th))|the\s+(?P<dw>{_slot('ordinal_words')}))(?!\s+(?:of\s+)?{_MONTH})",
        _h_weekday_pinned,
        needs=(_WEEKDAY_ANY,),
    ),
    _Rule(
        "not_a_time",
        _slot("not_times"),
        _h_not_a_time,
        needs=(_slot("not_times"),),
    ),
    # a habit names no one day: 'pottery every tuesday', 'each christmas'
    _Rule(
        "habitual",
        rf"(?:every|each)\s+(?:other\s+|single\s+)?"
        rf"(?:{_WEEKDAY_ANY}|weekend|{_HOLIDAY}|{_MONTH})(?!\w)",
        _h_not_a_time,
        needs=("every", "each"),
    ),
    _Rule(
        "weekends_ago",
        rf"(?P<n>{_COUNT})\s+weekends?\s+(?:ago|back)",
        _h_weekends_ago,
        needs=_AGO,
    ),
    _Rule(
        "half_ago",
        rf"(?:(?P<n>{_COUNT})\s+(?P<u>{_UNIT})\s+and\s+a\s+half|half\s+an?\s+(?P<u2>{_UNIT})"
        rf"|(?P<n2>{_COUNT})\s+and\s+a\s+half\s+(?P<u3>{_UNIT}))\s+(?:ago|back)",
        _h_half_ago,
        needs=("half",),
    ),
    _Rule(
        "position_in_month",
        rf"the\s+(?P<po>{_slot('position_ordinals')})\s+(?P<what>week|weekend|{_WEEKDAY})"
        rf"\s+(?:of|in)\s+(?P<x>{_union(_MONTH_ATOMS)}|the\s+month)",
        _h_position_in_month,
        needs=(_slot("position_ordinals"),),
    ),
    _Rule(
        "weekend_of",
        rf"the\s+weekend\s+of\s+(?P<x>{_union(_DAY_ATOMS[:4])})",
        _h_weekend_of,
        needs=("weekend",),
    ),
    _Rule(
        "day_of_month",
        r"the\s+(?P<d>(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))(?!\s+(?:time|round|try|attempt)s?\b)",
        _h_day_of_month,
        attributive="lower",
        needs=(_DIGIT,),
    ),
    _Rule(
        "day_range",
        rf"(?:(?:from|between)\s+)?(?:the\s+)?(?P<d1>{_DAY}){_JOIN}(?P<d2>{_DAY})(?:\s+of)?\s+"
        rf"(?P<m>{_MONTH})(?:,?\s+(?P<y>{_YEAR}))?",
        _h_day_range,
        needs=_MONTHS,
    ),
    _Rule(
        "month_day_range",
        rf"(?:(?:from|between)\s+)?(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d1>{_DAY}){_JOIN}"
        rf"(?P<d2>{_DAY})(?!\s+{_MONTH})(?:,?\s+(?P<y>{_YEAR}))?",
        _h_day_range,
        needs=_MONTHS,
    ),
    _Rule(
        "since", rf"(?:ever\s+)?since\s+(?P<x>{_union(_OPEN_ATOMS)})", _h_since, needs=("since",)
    ),
    _Rule(
        "until",
        rf"(?:until|till)\s+(?P<x>{_union(_OPEN_ATOMS)})",
        _h_until,
        needs=("until", "till"),
    ),
    _Rule(
        "named_in_year",
        rf"(?P<x>{_union(_IN_YEAR_ATOMS)}),?\s+(?:of\s+)?(?P<yr>{_YEAR_WORDS})",
        _h_named_in_year,
        needs=("year",),
    ),
    _Rule(
        "adjacent",
        rf"the\s+(?P<which>day|night|week|weekend|{_WEEKDAY})\s+(?P<rel>before|after)\s+"
        rf"(?P<x>{_union(_DAY_ATOMS)})",
        _h_adjacent,
        needs=_AROUND,
    ),
)


_RULES = (*_ATOMS.values(), *_COMPOSITES)
_ANY_DIGIT = re.compile(r"\d")
_NEXT_WORD = {
    "lower": re.compile(r"[ \t]+([a-z][\w'’-]*)"),
    "any": re.compile(r"[ \t]+([A-Za-z][\w'’-]*)"),
    "things": re.compile(r"[ \t]+([A-Za-z][\w'’-]*)"),
}
_SLOT = re.compile(r"\{([a-z_]+)\}")


def _phrases(rows: tuple[object, ...]) -> dict[str, object]:
    """A table's rows by phrase (its first item), in order."""
    return {
        row if isinstance(row, str) else cast("tuple[str, object]", row)[0]: row for row in rows
    }


@dataclass(frozen=True, eq=False)
class _Grammar:
    """The rules' words as one :class:`TimeWords` gives them: each slot's regex, each table as
    the mapping (or set) the handlers read, and the tense and holiday patterns."""

    slots: Mapping[str, str]
    needs: Mapping[str, tuple[str, ...]]
    months: Mapping[str, int]
    weekdays: Mapping[str, int]
    weekday_numbers: Mapping[str, int]
    seasons: Mapping[str, str]
    number_words: Mapping[str, int]
    vague_counts: Mapping[str, tuple[int, int]]
    ordinal_words: Mapping[str, int]
    units: Mapping[str, str]
    unit_multiples: Mapping[str, tuple[str, int]]
    half_units: Mapping[str, tuple[str, int]]
    decade_words: Mapping[str, int]
    modifiers: Mapping[str, str]
    unit_spellings: Mapping[str, str]
    unit_offsets: Mapping[str, int]
    parts: Mapping[str, tuple[float, float]]
    day_words: Mapping[str, int]
    day_parts: Mapping[str, tuple[int, int]]
    day_part_phrases: Mapping[str, tuple[int, str]]
    vague_windows: Mapping[str, tuple[int, int] | None]
    holidays: Mapping[str, Holiday]
    holiday_plurals: Mapping[str, str]
    season_plurals: Mapping[str, str]
    quarter_ordinals: Mapping[str, int]
    position_ordinals: Mapping[str, int]
    subject_words: frozenset[str]
    determiners: frozenset[str]
    copulas: frozenset[str]
    possessives: frozenset[str]
    chat_particles: frozenset[str]
    holiday_things: frozenset[str]
    time_followers: frozenset[str]
    rescheduled_before: re.Pattern[str]
    new_time: re.Pattern[str]  # 'moved from tues to § ': § is the new time
    taken: re.Pattern[str]  # '§ instead': § is taken in place of another time
    unit_after: re.Pattern[str]  # ' secs', ' km', '%': a decimal's unit or sign after it
    greeting: re.Pattern[str]  # 'happy ' before a holiday: a wish
    tense_cues: tuple[tuple[re.Pattern[str], TenseCue], ...]
    replaced: tuple[re.Pattern[str], ...]
    holiday_words: re.Pattern[str]

    def fill(self, pattern: str) -> str:
        """``pattern`` with each slot (``{months}``) filled with these words' regex."""
        return _SLOT.sub(lambda m: self.slots[m[1]], pattern)

    def needs_of(self, rule: _Rule) -> tuple[str, ...]:
        """The words a text must hold for ``rule`` to be tried (a slot: the words it names)."""
        return tuple(
            word
            for need in rule.needs
            for word in (self.needs[need[1:-1]] if need.startswith("{") else (need,))
        )

    @cached_property
    def search(self) -> tuple[tuple[frozenset[str], bool, _Rule], ...]:
        """Each rule with the words that make a text worth trying it on, and whether a digit
        does."""
        return tuple(
            (frozenset(w for w in self.needs_of(r) if w != _DIGIT), _DIGIT in r.needs, r)
            for r in _RULES
        )

    @cached_property
    def needed_words(self) -> frozenset[str]:
        """Every word some rule needs before it is tried (a rule is tried when the text holds
        one)."""
        return frozenset(w for words, _, _ in self.search for w in words)


def _t(conv: Conventions) -> _Grammar:
    """The grammar of the words ``conv`` reads by."""
    return _grammar(conv.words)


@lru_cache(maxsize=8)
def _grammar(words: TimeWords) -> _Grammar:
    """The rules' words from ``words``, built once per words (the rules' patterns are compiled
    when a text first needs them, :func:`_searcher`)."""
    phrased = {f.name: _phrases(getattr(words, f.name)) for f in fields(words)}
    slots = {name: _alt(phrases) for name, phrases in phrased.items() if name != "tense_cues"}
    needs = {name: _firsts(phrases) for name, phrases in phrased.items()}
    months: dict[str, int] = dict(words.months)
    weekdays: dict[str, int] = dict(words.weekdays)
    short: dict[str, int] = dict(words.weekday_short)
    weekday_words = frozenset(words.weekday_words)
    numbers = {**weekdays, **short}
    full = {m: n for m, n in months.items() if len(m) > 4 or m in ("may", "june", "july")}
    capitalised = frozenset(words.capitalised_only)
    tens = slots["tens"]
    whole = {  # compounds ("twenty-one") are matched as tens plus ones, which is faster
        w: n for w, n in words.number_words if not re.fullmatch(rf"{tens}[-\s]\w+", w)
    }
    day_words = _day_words(words)
    parts_of_day = dict(words.day_parts)
    slots |= {
        "month": f"(?:{_alt(full)}|{_alt(set(months) - set(full))}" + r"\.?)",  # "Sept."
        "month_cased": "(?:"
        + "|".join(_cased(w, capitalised) for w in sorted(months, key=len, reverse=True))
        + ")",
        "weekday_any": _alt(numbers),
        "short_weekday": _alt(set(short) - weekday_words),
        "weekday_unambiguous": _alt(set(numbers) - weekday_words),
        "count": rf"(?:\d{{1,3}}|{tens}(?:[-\s]+{slots['ones']})?"
        rf"|{_alt({**dict(words.vague_counts), **whole})})",
        "day_word": _alt({**day_words, **dict(words.day_part_phrases)}),
        "day_part": _alt({p: 0 for p in parts_of_day if p != "night"}),
        "not_subject": "".join(rf"(?<!\b{w} )" for w in sorted(words.subject_words)),
    }
    needs |= {
        "weekday_any": _firsts(numbers),
        "holidays": _longest_words(phrased["holidays"]),
        "not_times": _longest_words(words.not_times),
        "day_word": _firsts(day_words, dict(words.day_part_phrases), ("this",)),
    }
    tense = _tense_slots(words)
    slots["rescheduled_forms"] = tense["rescheduled"]
    holidays = dict(words.holidays)
    return _Grammar(
        slots=slots,
        needs=needs,
        months=months,
        weekdays=weekdays,
        weekday_numbers=numbers,
        seasons=dict(words.seasons),
        number_words=dict(words.number_words),
        vague_counts=dict(words.vague_counts),
        ordinal_words=dict(words.ordinal_words),
        units=dict(words.units),
        unit_multiples=dict(words.unit_multiples),
        half_units=dict(words.half_units),
        decade_words=dict(words.decade_words),
        modifiers=dict(words.modifiers),
        unit_spellings=dict(words.unit_spellings),
        unit_offsets=dict(words.unit_offsets),
        parts=dict(words.parts),
        day_words=day_words,
        day_parts=parts_of_day,
        day_part_phrases=dict(words.day_part_phrases),
        vague_windows=dict(words.vague_windows),
        holidays=holidays,
        holiday_plurals=dict(words.holiday_plurals),
        season_plurals=dict(words.season_plurals),
        quarter_ordinals=dict(words.quarter_ordinals),
        position_ordinals=dict(words.position_ordinals),
        subject_words=frozenset(words.subject_words),
        determiners=frozenset(words.determiners),
        copulas=frozenset(words.copulas),
        possessives=frozenset(words.possessives),
        chat_particles=frozenset(words.chat_particles),
        holiday_things=frozenset(words.holiday_things),
        time_followers=frozenset(words.time_followers),
        new_time=re.compile(
            rf"(?<![\w'])(?:{tense['rescheduled']})(?: [\w']+){{0,4}}? (?:to|for|until|till|til) §",
            re.IGNORECASE,
        ),
        taken=re.compile(rf"\s+(?:{_alt(words.taken_cues)})(?![\w'])(?! of\b)", re.I),
        unit_after=re.compile(
            rf"\s*(?:[^\s\w]|[a-z]{{1,3}}\b|(?:{_alt(words.decimal_units)})\w*)", re.I
        ),
        greeting=re.compile(
            rf"\b(?:{_alt(words.holiday_greetings)})\s+(?:[\w']+\s+)?$", re.IGNORECASE
        ),
        rescheduled_before=re.compile(
            rf"{tense['rescheduled']}(?:\s+[\w']+){{0,3}}?\s*$", re.IGNORECASE
        ),
        tense_cues=tuple(
            (re.compile(rf"(?<![\w'])(?:{_filled(cue.pattern, tense)})(?![\w'])", re.I), cue)
            for cue in sorted(words.tense_cues, key=lambda cue: -cue.rank)
        ),
        replaced=tuple(
            re.compile(rf"(?<![\w'])(?:{_filled(cue, tense)})(?![\w'])", re.IGNORECASE)
            for cue in words.replaced_cues
        ),
        holiday_words=re.compile(
            rf"(?<!\w)(?:{_alt(holidays)}|{slots['holiday_plurals']})(?!\w)", re.I
        ),
    )


def _filled(pattern: str, slots: Mapping[str, str]) -> str:
    return _SLOT.sub(lambda m: slots[m[1]], pattern)


def _day_words(words: TimeWords) -> dict[str, int]:
    """The whole-day words, each also without "the " and in each chat spelling ("tmrw")."""
    day_words = dict(words.day_words)
    day_words.update(
        {p.removeprefix("the "): n for p, n in day_words.items() if p.startswith("the ")}
    )
    day_words.update(
        {
            phrase.replace(full, short): day_words[phrase]
            for short, full in words.day_word_spellings
            for phrase in list(day_words)
            if full in phrase
        }
    )
    return day_words


@cache
def _searcher(rule: _Rule, grammar: _Grammar) -> re.Pattern[str]:
    """The rule's pattern as searched for, compiled when first tried: a text tries only the
    rules whose words it holds, so a process that reads one question compiles few."""
    cue = rf"{grammar.fill(rule.cue)}\s+" if rule.cue else ""
    pattern = grammar.fill(rule.pattern)
    return re.compile(rf"(?<!\w){cue}(?P<core>{pattern})(?!\w)", re.IGNORECASE)


def _qualifies_noun(text: str, end: int, which: str, conv: Conventions) -> bool:
    """True when the word right after ``end`` is a noun the time word qualifies ("Sunday
    best", "winter coat", "Easter Island"): neither a function word nor in TIME_FOLLOWERS."""
    follower = _NEXT_WORD[which].match(text, end)
    if follower is None:
        return False
    word = follower.group(1).lower()
    grammar = _t(conv)
    if which == "things":  # a holiday names its day before most nouns ("boxing day walk")
        if word in grammar.holiday_things:
            return True
        if not follower.group(1)[0].isupper():
            return False
    if word.endswith("ly") or word in grammar.chat_particles:  # 'the 29th actually', '20th ugh'
        return False
    return word not in STOP_WORDS and word not in grammar.time_followers


@cache
def _full(name: str, grammar: _Grammar) -> re.Pattern[str]:
    """The atom ``name``'s pattern, to match a whole piece (compiled when first used)."""
    return re.compile(grammar.fill(_ATOMS[name].pattern), re.IGNORECASE)


def _ground_atom(
    text: str, ref: datetime, names: tuple[str, ...], conv: Conventions
) -> _Hit | None:
    """Ground a piece of a composite (a range end, the period of 'early ...') on its own."""
    for name in names:
        m = _full(name, _t(conv)).fullmatch(text)
        if m and (hit := _ATOMS[name].handler(m, ref, conv)):
            return hit
    return None


# ------------------------------------------------------------------------- public API


def names_a_holiday(expression: str, words: TimeWords = ENGLISH.time) -> bool:
    """True when a time expression names a holiday ("last Christmas", "over Easter"): its
    words say more than its date does, so a restatement should keep them."""
    return bool(_grammar(words).holiday_words.search(expression))


#: Years a reference may fall in: spans around it (a decade, margins of years) stay inside
#: the calendar Python can represent (years 1 to 9999).
REFERENCE_YEARS = (100, 9900)


def check_reference(reference: datetime) -> None:
    """Raise :class:`InvalidTimeError` unless ``reference`` is an aware datetime in range."""
    _check_reference(reference)


def _check_reference(reference: datetime) -> None:
    if not isinstance(reference, datetime):
        raise InvalidTimeError(
            f"reference must be a datetime, got {type(reference).__name__}; pass the "
            "session or question date, e.g. datetime(2023, 5, 8, tzinfo=timezone.utc)."
        )
    if reference.tzinfo is None or reference.utcoffset() is None:
        raise InvalidTimeError(
            f"reference {reference.isoformat()} has no timezone; pass an aware datetime, "
            "e.g. datetime(2023, 5, 8, tzinfo=timezone.utc)."
        )
    low, high = REFERENCE_YEARS
    if not low <= reference.year <= high:
        raise InvalidTimeError(
            f"reference {reference.isoformat()} is outside the years {low}-{high} that times "
            "can be grounded in; pass the real date of the session or question."
        )


def _matches(text: str, grammar: _Grammar) -> list[tuple[int, int, re.Match[str], _Rule]]:
    """Every match of every rule, as ``(start, end, match, rule)``, not yet read."""
    found = []
    folded, digits = text.casefold(), _ANY_DIGIT.search(text) is not None
    present = {w for w in grammar.needed_words if w in folded}  # each word looked for once
    for words, digit, rule in grammar.search:
        if rule.needs and not ((digit and digits) or not present.isdisjoint(words)):
            continue
        for m in _searcher(rule, grammar).finditer(text):
            start, end = m.span("core")
            found.append((start, end, m, rule))
    return found


def _read(
    text: str, m: re.Match[str], rule: _Rule, reference: datetime, conv: Conventions
) -> _Hit | None:
    """What one match grounds to: None when it does not ground ("31 February 2023", "a while
    ago"); :class:`_NotHereError` when its words are not the expression it reads."""
    try:
        hit = rule.handler(m, reference, conv)
    except (OverflowError, ValueError):  # a date past the calendar's ends: 12/31/9999
        return None
    if (
        rule.attributive
        and hit
        and hit.bare
        and _qualifies_noun(text, m.end("core"), rule.attributive, conv)
        and not (rule.name in _EVENT_DAY_RULES and _THE_BEFORE.search(text, 0, m.start("core")))
    ):
        return None
    return hit


#: A weekday after "the" that qualifies a noun names the event's day ("doing the fri class
#: instead", "the saturday match"); without it, a kind of thing ("a Sunday roast").
_EVENT_DAY_RULES = frozenset(("weekday", "weekday_short"))
_THE_BEFORE = re.compile(r"(?<![\w'])the\s+$", re.IGNORECASE)


def _taken(
    text: str, reference: datetime, conv: Conventions, tense: bool = False
) -> list[tuple[int, int, str, _Hit | None]]:
    """The matches that do not overlap a longer one (the earlier of two as long), read.

    Longest first, so a match inside one already taken is never read ("July" in "July 2023").
    A match that does not ground is taken too, so that it blocks its shorter parts; one whose
    words are not its expression (:class:`_NotHereError`) blocks nothing. With ``tense``, a
    bare named period is read the way its sentence points (:func:`tense_of`)."""
    taken: list[tuple[int, int, str, _Hit | None]] = []
    matches = sorted(_matches(text, _t(conv)), key=lambda c: (c[0] - c[1], c[0]))
    for start, end, m, rule in matches:
        if any(start < t_end and t_start < end for t_start, t_end, _, _ in taken):
            continue
        direction = (
            _direction_of(_masked(text, matches, start, end), start, end, rule.name, conv.words)
            if tense
            else conv.direction
        )
        if tense and direction is None and rule.name in tables.DIRECTED_RULES:
            direction = conv.undirected
        try:
            hit = _read(text, m, rule, reference, _pointing(conv, direction))
        except _NotHereError:
            continue
        taken.append((start, end, m["core"], hit))
    return taken


# ------------------------------------------------------------------------- tense


def _masked(
    text: str, matches: list[tuple[int, int, re.Match[str], _Rule]], start: int, end: int
) -> str:
    """``text`` with the other time expressions blanked: their words ("yesterday", "ago") tell
    of their own time, not of the tense of the one at ``start:end`` ("the plumber who came
    yesterday said the part will arrive on monday")."""
    chars = list(text)
    for s, e, _, rule in matches:
        if (e <= start or s >= end) and rule.name not in tables.CUE_TIMES:
            chars[s:e] = _OTHER_TIME * (e - s)
    return "".join(chars)


#: What :func:`_masked` writes over another time: :func:`tense_of` knows its clause by it.
_OTHER_TIME = "\x00"


_SPLIT_OFF = re.compile(r"(?<=\w)(n't|'(?:m|re|s|ve|ll|d))(?![\w'])", re.IGNORECASE)
_PREFIX = "(?:re|un|over|mis|out|under)?"
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|\n")
_WORD_BEFORE = re.compile(r"(\w+)\s*$")


def _forms(words: Iterable[str]) -> str:
    return "|".join(sorted(set(words), key=len, reverse=True))


def _third_person(verb: str) -> str:
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if verb == "have":
        return "has"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s")


def _tense_slots(words: TimeWords) -> dict[str, str]:
    """The slots of the tense cues (``{past_ed}``, ...), filled from ``words``."""
    past_ed = rf"(?!(?:{_forms(words.not_past_ed)})(?![\w']))\w{{2,}}ed"
    return {
        "prefix": _PREFIX,
        "past_ed": past_ed,
        "participle": rf"(?:{past_ed}|{_PREFIX}(?:{_forms(words.participles)}))",
        "be_now": rf"(?:am|is|are|'m|'re|(?:{_forms(words.s_is_after)})(?: 's|s))(?: n't)?",
        "third": _forms(_third_person(v) for v in words.schedule_verbs),
        "past_verbs": _forms(words.past_verbs),
        "schedule_verbs": _forms(words.schedule_verbs),
        "rescheduled": rf"(?:{'|'.join(words.rescheduled)})\w*",
    }


def _cue_direction(words: str, grammar: _Grammar) -> str | None:
    """Which way the cues in some words point: the highest rank found, 'back' on a tie."""
    words = " ".join(_SPLIT_OFF.sub(r" \1", words.replace("’", "'")).replace("?", " ? ").split())
    rank, found = -1, set()
    for pattern, cue in grammar.tense_cues:
        if cue.rank < rank:
            break
        if pattern.search(words):
            rank = cue.rank
            found.add(cue.direction)
    return None if not found else "back" if "back" in found else "forward"


def _clause(
    text: str, start: int, end: int, first: int, last: int, breaks: tuple[str, ...]
) -> tuple[int, int]:
    """The clause of the sentence ``text[first:last]`` that holds ``text[start:end]``."""
    befores = [text.rfind(b, first, start) + len(b) for b in breaks]
    lefts = [at for at, b in zip(befores, breaks, strict=True) if at >= len(b)]
    afters = [text.find(b, end, last) for b in breaks]
    return max([first, *lefts]), min([last, *(at for at in afters if at != -1)])


def tense_of(text: str, start: int, end: int, words: TimeWords = ENGLISH.time) -> str | None:
    """Which way the sentence around ``text[start:end]`` points: "back", "forward" or None.

    The tense cues of ``words`` (``TimeWords.tense_cues``) in the expression's clause decide,
    else those of its sentence; the expression's own words are not read (they stand as "§").

    >>> tense_of("We're flying to Porto on Friday.", 25, 31)
    'forward'
    >>> tense_of("On Friday, we flew to Porto.", 3, 9)
    'back'
    """
    first = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after = _SENTENCE_END.search(text, end)
    last = after.end() if after else len(text)
    grammar, breaks = _grammar(words), words.clause_breaks
    times = [m.span() for m in re.finditer(f"{_OTHER_TIME}+", text)] + [(start, end)]
    spans = background(text, times, words)
    own = inside(spans, start)
    text = _blanked(text, [span for span in spans if span != own])
    lo, hi = _clause(text, start, end, first, last, breaks)
    lo = max(lo, own[0]) if own else lo
    said = f"{text[lo:start]} § {text[end:hi]}".replace(_OTHER_TIME, " ")
    direction = _cue_direction(said, grammar)
    if direction:
        return direction
    return _cue_direction(_own_clauses(text, first, last, start, end, breaks), grammar)


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` written over in spaces: a background clause's verbs tell of
    its own time ("on monday I signed the lease for the flat I'm moving into next month")."""
    chars = list(text)
    for lo, hi in spans:
        chars[lo:hi] = " " * (hi - lo)
    return "".join(chars)


def _own_clauses(
    text: str, first: int, last: int, start: int, end: int, breaks: tuple[str, ...]
) -> str:
    """The sentence ``text[first:last]`` around ``text[start:end]`` (written "§") without the
    clauses that hold another time: their cues tell of that time ("we only saw each other on
    sunday but fancy dinner weds?")."""
    chars = list(text)
    for other in re.finditer(f"{_OTHER_TIME}+", text[:last]):
        if other.start() >= first:
            lo, hi = _clause(text, other.start(), other.end(), first, last, breaks)
            if not lo <= start < hi:
                chars[lo:hi] = " " * (hi - lo)
    own = f"{''.join(chars[first:start])} § {''.join(chars[end:last])}"
    return own.replace(_OTHER_TIME, " ")


def replaced(text: str, start: int, end: int, words: TimeWords = ENGLISH.time) -> bool:
    """Whether the time at ``text[start:end]`` is one a message replaces ("physio cancelled
    tmrw, rebooked for fri"; "7 instead of 8"): a ``TimeWords.replaced_cues`` row in its
    clause, the time itself written "§"."""
    first = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after = _SENTENCE_END.search(text, end)
    end_at = after.end() if after else len(text)
    lo, hi = _clause(text, start, end, first, end_at, words.clause_breaks)
    said = f"{text[lo:start]} § {text[end:hi]}".replace("’", "'")
    said = " ".join(_SPLIT_OFF.sub(r" \1", said).split())
    grammar = _grammar(words)
    if grammar.new_time.search(said):  # 'got moved from tues to thurs': thurs is the new time
        return False
    return any(cue.search(said) for cue in grammar.replaced)


def put(text: str, start: int, end: int, words: TimeWords = ENGLISH.time) -> int:
    """How plainly the time at ``text[start:end]`` is the one a message puts to its reader: 2
    when it is taken in place of another ("he's doing fri instead", a ``TimeWords.taken_cues``
    word right after it), 1 when its clause asks something ("thursday's a no-go now, can we do
    monday?"), else 0."""
    if _grammar(words).taken.match(text, end):
        return 2
    first = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after = _SENTENCE_END.search(text, end)
    end_at = after.end() if after else len(text)
    _, hi = _clause(text, start, end, first, end_at, words.clause_breaks)
    return int("?" in text[end:hi])


def _sentence_words(text: str, at: int) -> int:
    """How many words the sentence holding ``text[at]`` has."""
    first = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    after = _SENTENCE_END.search(text, at)
    return len(text[first : after.start() if after else len(text)].split())


def operative(
    text: str,
    found: list[FoundTime],
    said: datetime | None = None,
    words: TimeWords = ENGLISH.time,
) -> list[FoundTime]:
    """``found`` (times said in ``text``) with the times the message replaces moved last: the
    first is the time that holds ("it was supposed to be today but now it's next week"). With
    ``said`` (when the message was sent), a message that tells of a day already come and names
    one ahead is about the one ahead ("the hospital rang this morning, my op is on 6 november"),
    when both are in one short sentence, or in a short message with the one ahead no vaguer (a
    long one tells a story), and the one ahead is no aside in brackets. A holiday that names
    the event ("xmas party fri 15th") or is wished ("happy new year!") gives way to the other
    time said."""

    spans = background(text, [(f.start, f.end) for f in found], words)
    told = [f for f in found if not replaced(text, f.start, f.end, words)]
    looked = [f for f in told if not inside(spans, f.start)] or told  # the main clauses' times
    days = [f for f in looked if f.span.duration > timedelta(hours=1)]  # not a clock time
    first = looked[0] if looked and said is not None else None

    def ahead(f: FoundTime) -> bool:  # a day still to come, in the sentence of the first
        return (
            first is not None
            and f in days
            and said is not None
            and (  # tomorrow or later, or a part of today not yet begun ('tonight')
                f.span.start >= _at(_ref_day(said), said.tzinfo, 24)
                or (f.span.duration < timedelta(days=1) and f.span.start >= said)
            )
            and text.rfind("(", 0, f.start) <= text.rfind(")", 0, f.start)
            and (
                # a short message has one point: a day ahead no vaguer than the day come
                (
                    len(text.split()) <= tables.PLAN_SENTENCE_WORDS
                    and f.span.duration <= max(first.span.duration, timedelta(days=1))
                )
                or (
                    not _SENTENCE_END.search(text, *sorted((first.start, f.start)))
                    and _sentence_words(text, first.start) <= tables.PLAN_SENTENCE_WORDS
                )
            )
        )

    plan = first is not None and not ahead(first) and any(ahead(f) for f in days)

    def names_the_event(f: FoundTime) -> bool:  # 'xmas party fri 15th': the party's name
        noun = _NEXT_WORD["lower"].match(text, f.end)
        return names_a_holiday(f.text, words) and (
            (
                noun is not None
                and noun.group(1).lower() not in STOP_WORDS
                and not any(g.start == noun.start(1) for g in found)
            )
            or _grammar(words).greeting.search(text, 0, f.start) is not None  # 'happy new year!'
        )

    named = len(looked) > 1 and not all(names_the_event(f) for f in looked)
    return sorted(
        found,
        key=lambda f: (
            f not in told,
            f not in looked,
            -put(text, f.start, f.end, words) if said is None or f.span.end > said else 0,
            named and names_the_event(f),
            plan and not ahead(f),
        ),
    )


def _direction_of(text: str, start: int, end: int, rule: str, words: TimeWords) -> str | None:
    """The direction a match of ``rule`` is read in: its sentence's, else forward for a
    yearless date after a word of AHEAD_PREPOSITIONS ('party on 12 March'), else None."""
    if rule not in tables.DIRECTED_RULES:
        return None
    direction = tense_of(text, start, end, words)
    if direction is None and rule in tables.AHEAD_RULES:
        before = _WORD_BEFORE.search(text.replace(_OTHER_TIME, " "), 0, start)
        first = text[start:end].split(maxsplit=1)[0].lower()
        if first in words.ahead_prepositions or (
            before and before.group(1).lower() in words.ahead_prepositions
        ):
            return "forward"
    return direction


def _pointing(conv: Conventions, direction: str | None) -> Conventions:
    """``conv`` reading one match the way ``direction`` says."""
    return conv if conv.direction == direction else replace(conv, direction=direction)


def conventions_for(
    conventions: Conventions | None, hemisphere: str = "northern", date_order: str | None = None
) -> Conventions:
    """The conventions a call reads by: ``conventions`` when given, else the defaults with
    ``hemisphere`` and ``date_order`` (the shorthand options of :func:`find_times`).

    Raises:
        InvalidTimeError: an option is not one of :data:`HEMISPHERES` / :data:`DATE_ORDERS`,
            or ``conventions`` is given beside a ``hemisphere`` or ``date_order`` of its own.
    """
    if conventions is None:
        if hemisphere == DEFAULT.hemisphere and date_order is None:
            return DEFAULT
        return Conventions(hemisphere=hemisphere, date_order=date_order)
    if hemisphere != DEFAULT.hemisphere or date_order is not None:
        raise InvalidTimeError(
            "pass hemisphere and date_order inside conventions, not beside it: "
            f"Conventions(hemisphere={hemisphere!r}, date_order={date_order!r})."
        )
    return conventions


def find_times(
    text: str,
    reference: datetime,
    *,
    within: TimeSpan | None = None,
    hemisphere: str = "northern",
    date_order: str | None = None,
    tense: bool = False,
    conventions: Conventions | None = None,
) -> list[FoundTime]:
    """Every time expression in ``text``, grounded against ``reference``, in text order.

    Matches do not overlap; where two overlap the longer wins ("8 May 2023" over "May 2023").
    Plain prepositions are not part of a match ("in 2022" gives "2022"), modifiers are
    ("last August"). ``within``, when given, is the conversation's global date range: an
    expression whose span does not overlap it is left out, as an implausible reading.
    ``hemisphere`` ("northern" or "southern") says which months the season words name;
    ``date_order`` ("DMY", "MDY", or None to go by the separator) how 10/01/2024 is read.
    With ``tense``, a bare weekday, month, season or yearless date points the way its
    sentence does (:func:`tense_of`): "We're flying to Porto on Friday" is the next Friday.
    ``conventions``, when given, holds all of these conventions at once (then leave
    ``hemisphere`` and ``date_order`` out).

    Raises:
        InvalidTimeError: ``reference`` is not a timezone-aware datetime, or ``hemisphere`` /
            ``date_order`` is not one of :data:`HEMISPHERES` / :data:`DATE_ORDERS`.
    """
    _check_reference(reference)
    conv = conventions_for(conventions, hemisphere, date_order)
    hits = [(s, e, t, hit) for s, e, t, hit in _taken(text, reference, conv, tense) if hit]
    if not tense or any(not hit.clock for *_, hit in hits):  # a clock time alone, in a message
        hits = [item for item in hits if not item[3].clock]
    found = [FoundTime(t, s, e, hit.span, hit.relative) for s, e, t, hit in hits]
    if within is not None:
        found = [f for f in found if f.span.overlaps(within)]
    return sorted(found, key=lambda f: f.start)


def ground_time(
    expression: str,
    reference: datetime,
    *,
    within: TimeSpan | None = None,
    hemisphere: str = "northern",
    date_order: str | None = None,
    conventions: Conventions | None = None,
) -> TimeSpan | None:
    """Ground one time expression ("last August", "8 May 2023") to a span, or None.

    The expression must hold exactly one time expression; words around it are allowed
    ("in", "on", "during ..."). A bare month or season ("May") is accepted here without the
    preposition that :func:`find_times` needs. None when nothing grounds, when the
    expression is ambiguous (two times), or when the span does not overlap ``within``.
    ``hemisphere``, ``date_order`` and ``conventions`` are as for :func:`find_times`.

    Raises:
        InvalidTimeError: ``reference`` is not a timezone-aware datetime, or ``hemisphere`` /
            ``date_order`` is not one of :data:`HEMISPHERES` / :data:`DATE_ORDERS`.
    """
    conv = conventions_for(conventions, hemisphere, date_order)
    found = find_times(expression, reference, conventions=conv)
    if not found:
        found = find_times(f"in {expression}", reference, conventions=conv)
        found = [f for f in found if f.start == 3]
        found = [f for f in found if f.end == len(expression) + 3]
    if len(found) != 1:
        return None
    span = found[0].span
    return None if within is not None and not span.overlaps(within) else span
