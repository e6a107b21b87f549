"""Temporal expressions: find them in text and ground them to :class:`TimeSpan` s.

Grounding is always against a given ``reference`` moment (the session date, or the question's
date), never the wall clock. Spans are half-open and at the expression's own granularity:
"May 2023" is the whole month, "yesterday" the whole day, "last week" the previous
Monday-to-Monday week. Words and conventions live in :mod:`.temporal_tables`; this module holds
the patterns built from them and the arithmetic (``dateutil.relativedelta``).

>>> from datetime import UTC, datetime
>>> ref = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
>>> ground_time("last August", ref).label()
'August 2022'
>>> [(f.text, f.span.label()) for f in find_times("Two weeks ago, in March, I met May.", ref)]
[('Two weeks ago', '24 April 2023 to 30 April 2023'), ('March', 'March 2023')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import NamedTuple, cast

from dateutil.relativedelta import relativedelta

from ramem_integrations.core import temporal_tables as tables
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import InvalidTimeError

__all__ = ["FoundTime", "find_times", "ground_time"]


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


Handler = Callable[[re.Match[str], datetime], "_Hit | None"]

# ---------------------------------------------------------------- regex fragments from the tables


def _alt(words: object) -> str:
    """A non-capturing alternation of words, longest first, spaces matching any whitespace."""
    items = sorted(cast("dict[str, object]", words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items) + ")"


def _cased(word: str) -> str:
    return f"(?-i:{word.title()})" if word in tables.CAPITALISED_ONLY else re.escape(word)


_MONTH = _alt(tables.MONTHS) + r"\.?"
_MONTH_CASED = (
    "(?:" + "|".join(_cased(w) for w in sorted(tables.MONTHS, key=len, reverse=True)) + ")"
)
_WEEKDAY = _alt(tables.WEEKDAYS)
_SEASON = _alt(tables.SEASONS)
_YEAR = r"(?:1[89]|20)\d\d(?!\d)"
_DAY = r"(?:(?:3[01]|[12]\d|0?[1-9])(?!\d)(?:st|nd|rd|th)?|" + _alt(tables.ORDINAL_WORDS) + ")"
_COUNT = r"(?:\d{1,3}|" + _alt({**tables.VAGUE_COUNTS, **tables.NUMBER_WORDS}) + ")"
_UNIT = _alt(tables.UNITS)
_MOD = _alt(tables.MODIFIERS)
_PERIOD_UNIT = r"(?:week|weekend|month|year|decade)"
_LEAD_WEEKDAY = rf"(?:{_WEEKDAY},?\s+)?"

# ------------------------------------------------------------------------- date arithmetic


def _ref_day(ref: datetime) -> date:
    return ref.date()


def _span(start: date, end: date, tz: tzinfo | None) -> TimeSpan:
    return TimeSpan(_at(start, tz), _at(end, tz))


def _at(day: date, tz: tzinfo | None, hour: int = 0) -> datetime:
    day = day + timedelta(days=hour // 24)
    return datetime(day.year, day.month, day.day, hour % 24, tzinfo=tz)


def _floor(day: date, unit: str) -> date:
    if unit == "weeks":
        return day - timedelta(days=(day.weekday() - _week_start()) % 7)
    if unit == "months":
        return day.replace(day=1)
    if unit == "years":
        return date(day.year, 1, 1)
    if unit == "decades":
        return date(day.year // 10 * 10, 1, 1)
    return day


def _add(day: date, unit: str, n: int) -> date:
    step = relativedelta(years=10 * n) if unit == "decades" else relativedelta(**{unit: n})
    moved: date = day + step
    return moved


def _week_start() -> int:
    return cast(int, tables.CONVENTION["week_start"])


def _unit_window(ref: datetime, unit: str, lo: int, hi: int) -> _Hit:
    """Whole calendar units from ``lo`` to ``hi`` units away from the reference (inclusive)."""
    day = _ref_day(ref)
    start = _floor(_add(day, unit, lo), unit)
    end = _add(_floor(_add(day, unit, hi), unit), unit, 1)
    return _Hit(_span(start, end, ref.tzinfo), relative=True)


Occurrence = Callable[[int], "tuple[date, date] | None"]


_Span = tuple[date, date]
# How each strategy named in the conventions table picks among occurrences (k, span).
_STRATEGIES: dict[str, Callable[[list[_Span], date], _Span | None]] = {
    "latest_not_after": lambda spans, today: max((s for s in spans if s[0] <= today), default=None),
    "latest_ended": lambda spans, today: max((s for s in spans if s[1] <= today), default=None),
    "earliest_after": lambda spans, today: min((s for s in spans if s[0] > today), default=None),
    "current_cycle": lambda spans, today: next((s for s in spans if s[0] <= today < s[1]), None),
}
_MODE_CONVENTION = {
    "bare": "bare_named_period",
    "last": "last_named_period",
    "next": "next_named_period",
    "this": "this_named_period",
}


def _pick(occ: Occurrence, k0: int, mode: str, ref: datetime) -> _Span | None:
    """Choose one occurrence of a recurring period (a month, season, weekday) by ``mode``,
    following the strategy the conventions table names for it."""
    today = _ref_day(ref)
    spans = [s for k in range(k0 - 5, k0 + 6) if (s := occ(k)) is not None]
    strategy = cast(str, tables.CONVENTION[_MODE_CONVENTION[mode]])
    chosen = _STRATEGIES[strategy](spans, today)
    if chosen is None and strategy == "current_cycle":
        return occ(k0)  # "this Friday" said on Monday: the Friday of this week
    return chosen


def _recurring(occ: Occurrence, k0: int, mode: str | None, ref: datetime) -> _Hit | None:
    chosen = _pick(occ, k0, tables.MODIFIERS[_norm(mode)] if mode else "bare", ref)
    if chosen is None:
        return None
    return _Hit(_span(*chosen, ref.tzinfo), relative=True, bare=mode is None)


def _part(span: TimeSpan, part: str) -> TimeSpan:
    """Keep a fraction of a span: whole months when the span is months, else whole days."""
    lo, hi = tables.PARTS[" ".join(part.lower().split())]
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


def _month(text: str) -> int:
    return tables.MONTHS[text.lower().rstrip(".")]


def _day_number(text: str) -> int:
    digits = re.match(r"\d+", text)
    if digits:
        return int(digits.group())
    words = " ".join(text.lower().split())
    return tables.ORDINAL_WORDS.get(words) or tables.ORDINAL_WORDS[words.replace(" ", "-")]


def _count(text: str) -> tuple[int, int]:
    words = _norm(text)
    if words.isdigit():
        return int(words), int(words)
    if words in tables.VAGUE_COUNTS:
        return tables.VAGUE_COUNTS[words]
    return tables.NUMBER_WORDS[words], tables.NUMBER_WORDS[words]


def _unit(text: str) -> str:
    return tables.UNITS[text.lower()]


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


# ------------------------------------------------------------------------- handlers


def _h_date(m: re.Match[str], ref: datetime) -> _Hit | None:
    month, day = _month(m["m"]), _day_number(m["d"])
    if year := _g(m, "y"):
        found = _safe_date(int(year), month, day)
        if found is None:
            return None
        return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False)

    def occ(k: int) -> tuple[date, date] | None:
        found = _safe_date(k, month, day)
        return (found, found + timedelta(days=1)) if found else None

    return _recurring(occ, ref.year, None, ref)


def _h_iso(m: re.Match[str], ref: datetime) -> _Hit | None:
    found = _safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
    return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False) if found else None


def _h_numeric(m: re.Match[str], ref: datetime) -> _Hit | None:
    a, b, year = int(m["a"]), int(m["b"]), int(m["y"])
    if year < 100:
        year += cast(int, tables.CONVENTION["two_digit_year_base"])
    us_order = tables.CONVENTION["numeric_date_order"] == "MDY"
    month_first = a <= 12 if us_order else b > 12  # 25/08/2023 can only be day first
    month, day = (a, b) if month_first else (b, a)
    found = _safe_date(year, month, day)
    return _Hit(TimeSpan.day(found, ref.tzinfo), relative=False) if found else None


def _month_occ(month: int) -> Callable[[int], tuple[date, date]]:
    return lambda k: (date(k, month, 1), date(k, month, 1) + relativedelta(months=1))


def _h_month(m: re.Match[str], ref: datetime) -> _Hit | None:
    month = _month(m["m"])
    if year := _g(m, "y"):
        return _Hit(_span(*_month_occ(month)(int(year)), ref.tzinfo), relative=False)
    return _recurring(_month_occ(month), ref.year, _g(m, "mod"), ref)


def _season_occ(season: str) -> Callable[[int], tuple[date, date]]:
    start_months = cast("dict[str, int]", tables.CONVENTION["season_start_months"])
    first = start_months[tables.SEASONS[season.lower()]]
    return lambda k: (date(k, first, 1), date(k, first, 1) + relativedelta(months=3))


def _h_season(m: re.Match[str], ref: datetime) -> _Hit | None:
    occ = _season_occ(m["s"])
    if year := _g(m, "y"):
        return _Hit(_span(*occ(int(year)), ref.tzinfo), relative=False)
    return _recurring(occ, ref.year, _g(m, "mod"), ref)


def _h_weekday(m: re.Match[str], ref: datetime) -> _Hit | None:
    weekday = tables.WEEKDAYS[m["w"].lower()]
    monday = _floor(_ref_day(ref), "weeks")
    offset = (weekday - _week_start()) % 7

    def occ(k: int) -> tuple[date, date]:
        day = monday + timedelta(days=7 * k + offset)
        return day, day + timedelta(days=1)

    return _recurring(occ, 0, _g(m, "mod"), ref)


def _h_year(m: re.Match[str], ref: datetime) -> _Hit | None:
    year = int(m["y"])
    return _Hit(_span(date(year, 1, 1), date(year + 1, 1, 1), ref.tzinfo), relative=False)


def _h_decade(m: re.Match[str], ref: datetime) -> _Hit | None:
    text = m["dec"].lower().strip("'").replace("'", "")
    if text in tables.DECADE_WORDS or len(text) == 3:  # "nineties", "90s": nearest past century
        tens = tables.DECADE_WORDS.get(text) or int(text[:2])
        first = max(c + tens for c in (1900, 2000, 2100) if c + tens <= ref.year)
        relative = True
    else:
        first, relative = int(text[:4]), False
    span = _span(date(first, 1, 1), date(first + 10, 1, 1), ref.tzinfo)
    part = _g(m, "part")
    return _Hit(_part(span, part) if part else span, relative)


def _h_unit(m: re.Match[str], ref: datetime) -> _Hit | None:
    unit, mod = m["u"].lower(), _g(m, "mod")
    offset = (
        tables.UNIT_OFFSETS[tables.MODIFIERS[_norm(mod)]] if mod else (-2 if _g(m, "before") else 2)
    )
    if unit != "weekend":
        return _unit_window(ref, unit + "s", offset, offset)
    start = _floor(_ref_day(ref), "weeks") + timedelta(weeks=offset)
    first, last = cast("tuple[int, int]", tables.CONVENTION["weekend_days"])
    return _Hit(_span(start + timedelta(first), start + timedelta(last), ref.tzinfo), True)


def _h_weekend(m: re.Match[str], ref: datetime) -> _Hit | None:
    monday = _floor(_ref_day(ref), "weeks")
    first, last = cast("tuple[int, int]", tables.CONVENTION["weekend_days"])

    def occ(k: int) -> tuple[date, date]:
        start = monday + timedelta(weeks=k)
        return start + timedelta(first), start + timedelta(last)

    return _recurring(occ, 0, None, ref)


def _h_ago(m: re.Match[str], ref: datetime) -> _Hit | None:
    lo, hi = _count(m["n"])
    return _unit_window(ref, _unit(m["u"]), -hi, -lo)


def _h_in(m: re.Match[str], ref: datetime) -> _Hit | None:
    lo, hi = _count(m["n"])
    return _unit_window(ref, _unit(m["u"]), lo, hi)


def _h_rolling(m: re.Match[str], ref: datetime) -> _Hit | None:
    _, hi = _count(_g(m, "n") or "1")
    day = _ref_day(ref)
    start = _add(day, _unit(m["u"]), -hi)
    return _Hit(_span(start, day + timedelta(days=1), ref.tzinfo), relative=True)


def _h_day_word(m: re.Match[str], ref: datetime) -> _Hit | None:
    words = _norm(m["dw"])
    part: str | None = _g(m, "dp")
    if words in tables.DAY_PART_PHRASES:
        offset, part = tables.DAY_PART_PHRASES[words]
    else:
        offset = 0 if words == "this" else tables.DAY_WORDS[words]
    day = _ref_day(ref) + timedelta(days=offset)
    if not part:
        return _Hit(TimeSpan.day(day, ref.tzinfo), relative=True)
    first, last = tables.DAY_PARTS[part.lower()]
    return _Hit(TimeSpan(_at(day, ref.tzinfo, first), _at(day, ref.tzinfo, last)), True)


def _h_vague(m: re.Match[str], ref: datetime) -> _Hit | None:
    window = tables.VAGUE_WINDOWS[_norm(m["v"])]
    if window is None:
        return None
    back, until = window
    day = _ref_day(ref)
    span = _span(day - timedelta(days=back), day - timedelta(days=until - 1), ref.tzinfo)
    return _Hit(span, relative=True)


def _h_so_far(m: re.Match[str], ref: datetime) -> _Hit | None:
    unit = m["u"].lower() + "s"
    day = _ref_day(ref)
    whole = _unit_window(ref, unit, 0, 0).span
    if m["el"].lower() == "earlier":
        return _Hit(TimeSpan(whole.start, _at(day + timedelta(days=1), ref.tzinfo)), True)
    return _Hit(TimeSpan(_at(day, ref.tzinfo), whole.end), True)


def _h_part(m: re.Match[str], ref: datetime) -> _Hit | None:
    inner = _ground_atom(m["x"], ref, _PART_INNER)
    return inner._replace(span=_part(inner.span, m["part"])) if inner else None


def _h_range(m: re.Match[str], ref: datetime) -> _Hit | None:
    last = _ground_atom(m["b"], ref, _RANGE_ATOMS)
    first = _ground_atom(m["a"], ref, _RANGE_ATOMS)
    if last is None or first is None:
        return None
    if first.bare:  # "between May and July 2023": May of the year the range ends in
        first = _ground_atom(m["a"], last.span.start, _RANGE_ATOMS) or first
    if not first.span.start < last.span.end:
        return None
    span = TimeSpan(first.span.start, last.span.end)
    return _Hit(span, relative=first.relative or last.relative)


# ------------------------------------------------------------------------- the grammar


class _Rule(NamedTuple):
    name: str
    pattern: str
    handler: Handler
    cue: str = ""  # words that must come before a bare form ("in May"); not part of the match


_CUE = _alt(tables.CUES)
_MOD_UNIT = rf"(?P<mod>{_MOD})\s+(?P<u>{_PERIOD_UNIT})"
_BEFORE_LAST = rf"the\s+(?P<u>{_PERIOD_UNIT})\s+(?:(?P<before>before\s+last)|after\s+next)"

_ATOMS: dict[str, _Rule] = {
    rule.name: rule
    for rule in (
        _Rule("iso", rf"(?P<y>{_YEAR})[-/.](?P<m>\d{{1,2}})[-/.](?P<d>\d{{1,2}})", _h_iso),
        _Rule("numeric", r"(?P<a>\d{1,2})[/-](?P<b>\d{1,2})[/-](?P<y>\d{4}|\d\d)", _h_numeric),
        _Rule(
            "dmy",
            rf"{_LEAD_WEEKDAY}(?:the\s+)?(?P<d>{_DAY})(?:\s+of)?\s+(?P<m>{_MONTH})"
            rf"(?:,?\s+(?P<y>{_YEAR}))?",
            _h_date,
        ),
        _Rule(
            "mdy",
            rf"{_LEAD_WEEKDAY}(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>{_DAY})(?:,?\s+(?P<y>{_YEAR}))?",
            _h_date,
        ),
        _Rule("month_year", rf"(?P<m>{_MONTH}),?\s+(?:of\s+)?(?P<y>{_YEAR})", _h_month),
        _Rule("season_year", rf"(?:the\s+)?(?P<s>{_SEASON})\s+(?:of\s+)?(?P<y>{_YEAR})", _h_season),
        _Rule("month_mod", rf"(?P<mod>{_MOD})\s+(?P<m>{_MONTH_CASED})", _h_month),
        _Rule("season_mod", rf"(?P<mod>{_MOD})\s+(?P<s>{_SEASON})", _h_season),
        _Rule("weekday_mod", rf"(?P<mod>{_MOD})\s+(?P<w>{_WEEKDAY})(?!s)", _h_weekday),
        _Rule("month", rf"(?:the\s+month\s+of\s+)?(?P<m>{_MONTH_CASED})", _h_month, _CUE),
        _Rule("season", rf"(?:the\s+)?(?P<s>{_SEASON})", _h_season, _CUE),
        _Rule("the_year", rf"the\s+year\s+(?P<y>{_YEAR})", _h_year),
        _Rule("year", rf"(?P<y>{_YEAR})", _h_year, _CUE),
        _Rule("weekday", rf"(?P<w>{_WEEKDAY})(?!s)", _h_weekday),
        _Rule("unit", _MOD_UNIT, _h_unit),
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


def _plain(pattern: str) -> str:
    """A pattern with its named groups made anonymous, for embedding in a composite."""
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


def _union(names: tuple[str, ...]) -> str:
    return "(?:" + "|".join(_plain(_ATOMS[n].pattern) for n in names) + ")"


_DAY_WORD = _alt({**tables.DAY_WORDS, **tables.DAY_PART_PHRASES})
_COMPOSITES: tuple[_Rule, ...] = (
    _Rule(
        "range",
        rf"{_alt(tables.RANGE_OPENERS)}\s+(?P<a>{_union(_RANGE_ATOMS)})\s*{_alt(tables.RANGE_JOINERS)}"
        rf"\s*(?P<b>{_union(_RANGE_ATOMS)})",
        _h_range,
    ),
    _Rule("part", rf"(?P<part>{_alt(tables.PARTS)})[\s-]*(?P<x>{_union(_PART_INNER)})", _h_part),
    _Rule("before_last", _BEFORE_LAST, _h_unit),
    _Rule(
        "decade",
        r"the\s+(?:(?P<part>early|mid|late)[\s-]+)?"
        rf"(?P<dec>(?:1[89]|20)\d0'?s|'?\d0'?s|{_alt(tables.DECADE_WORDS)})",
        _h_decade,
    ),
    _Rule("ago", rf"(?P<n>{_COUNT})\s+(?P<u>{_UNIT})\s+(?:ago|back|before\s+now)", _h_ago),
    _Rule("in", rf"in\s+(?P<n>{_COUNT})\s+(?P<u>{_UNIT})(?:'?s?\s+time)?", _h_in),
    _Rule("from_now", rf"(?P<n>{_COUNT})\s+(?P<u>{_UNIT})\s+from\s+now", _h_in),
    _Rule("rolling", rf"(?:the\s+)?(?:past|last)\s+(?P<n>{_COUNT})\s+(?P<u>{_UNIT})", _h_rolling),
    _Rule("rolling_one", rf"the\s+(?:past|last)\s+(?P<u>{_PERIOD_UNIT})", _h_rolling),
    _Rule(
        "day_word",
        rf"(?P<dw>{_DAY_WORD}|this(?=\s+(?:morning|afternoon|evening)))"
        rf"(?:\s+(?P<dp>{_alt(tables.DAY_PARTS)}))?",
        _h_day_word,
    ),
    _Rule("vague", rf"(?P<v>{_alt(tables.VAGUE_WINDOWS)})", _h_vague),
    _Rule("so_far", r"(?P<el>earlier|later)\s+this\s+(?P<u>week|month|year)", _h_so_far),
    _Rule("weekend", r"the\s+weekend", _h_weekend, _alt(tables.WEEKEND_CUES)),
)


def _compile(rule: _Rule) -> re.Pattern[str]:
    cue = rf"{rule.cue}\s+" if rule.cue else ""
    return re.compile(rf"(?<!\w){cue}(?P<core>{rule.pattern})(?!\w)", re.IGNORECASE)


_RULES = (*_ATOMS.values(), *_COMPOSITES)
_SEARCH = tuple((_compile(rule), rule.handler) for rule in _RULES)
_FULL = {name: re.compile(rule.pattern, re.IGNORECASE) for name, rule in _ATOMS.items()}


def _ground_atom(text: str, ref: datetime, names: tuple[str, ...]) -> _Hit | None:
    """Ground a piece of a composite (a range end, the period of 'early ...') on its own."""
    for name in names:
        m = _FULL[name].fullmatch(text)
        if m and (hit := _ATOMS[name].handler(m, ref)):
            return hit
    return None


# ------------------------------------------------------------------------- public API


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


def _candidates(text: str, reference: datetime) -> list[tuple[int, int, str, _Hit | None]]:
    """Every match of every rule. A match that does not ground ("31 February 2023", "a while
    ago") stays a candidate too, so that it blocks its shorter parts ("February 2023")."""
    found = []
    for pattern, handler in _SEARCH:
        for m in pattern.finditer(text):
            start, end = m.span("core")
            try:
                hit = handler(m, reference)
            except (OverflowError, ValueError):  # a date past the calendar's ends: 12/31/9999
                hit = None
            found.append((start, end, m["core"], hit))
    return found


def find_times(
    text: str, reference: datetime, *, within: TimeSpan | None = None
) -> list[FoundTime]:
    """Every time expression in ``text``, grounded against ``reference``, in text order.

    Matches do not overlap; where two overlap the longer wins ("8 May 2023" over "May 2023").
    Plain prepositions are not part of a match ("in 2022" gives "2022"), modifiers are
    ("last August"). ``within``, when given, is the conversation's global date range: an
    expression whose span does not overlap it is left out, as an implausible reading.

    Raises:
        InvalidTimeError: ``reference`` is not a timezone-aware datetime.
    """
    _check_reference(reference)
    taken: list[tuple[int, int, str, _Hit | None]] = []
    for cand in sorted(_candidates(text, reference), key=lambda c: (c[0] - c[1], c[0])):
        if all(cand[1] <= t[0] or t[1] <= cand[0] for t in taken):
            taken.append(cand)
    found = [FoundTime(t, s, e, hit.span, hit.relative) for s, e, t, hit in taken if hit]
    if within is not None:
        found = [f for f in found if f.span.overlaps(within)]
    return sorted(found, key=lambda f: f.start)


def ground_time(
    expression: str, reference: datetime, *, within: TimeSpan | None = None
) -> TimeSpan | None:
    """Ground one time expression ("last August", "8 May 2023") to a span, or None.

    The expression must hold exactly one time expression; words around it are allowed
    ("in", "on", "during ..."). A bare month or season ("May") is accepted here without the
    preposition that :func:`find_times` needs. None when nothing grounds, when the
    expression is ambiguous (two times), or when the span does not overlap ``within``.

    Raises:
        InvalidTimeError: ``reference`` is not a timezone-aware datetime.
    """
    found = find_times(expression, reference)
    if not found:
        found = [f for f in find_times(f"in {expression}", reference) if f.start == 3]
        found = [f for f in found if f.end == len(expression) + 3]
    if len(found) != 1:
        return None
    span = found[0].span
    return None if within is not None and not span.overlaps(within) else span
