"""Language and conventions for :mod:`ramem_integrations.core.temporal`, kept as data.

Everything a reader might want to change lives here, apart from the matching code: the
conventions (week start, seasons, how a bare month is read), month, weekday, number and season
words, part-of-period modifiers and vague windows. A new phrase is a new row. ``docs/temporal.md``
renders :data:`CONVENTIONS` as a table.
"""

from __future__ import annotations

from typing import NamedTuple


class Convention(NamedTuple):
    """One rule the grounding follows: a key the code reads, its value, and the rule in prose."""

    key: str
    value: object
    rule: str


CONVENTIONS: tuple[Convention, ...] = (
    Convention("week_start", 0, "Weeks start on Monday (0); 'last week' is Monday to Monday."),
    Convention("weekend_days", (5, 7), "The weekend is Saturday 00:00 to Monday 00:00."),
    Convention(
        "hemisphere",
        "northern",
        "Seasons are northern-hemisphere, meteorological (whole months).",
    ),
    Convention(
        "season_start_months",
        {"spring": 3, "summer": 6, "autumn": 9, "winter": 12},
        "Spring Mar-May, summer Jun-Aug, autumn Sep-Nov, winter Dec-Feb (three months each).",
    ),
    Convention(
        "season_year",
        "start",
        "A season of year Y starts in year Y: 'winter 2022' is Dec 2022 to Feb 2023.",
    ),
    Convention(
        "bare_named_period",
        "latest_not_after",
        "A month, season, weekday or yearless date with no modifier is its latest occurrence "
        "that starts not after the reference: 'in August' said in May 2023 is August 2022.",
    ),
    Convention(
        "last_named_period",
        "latest_ended",
        "'last X' (X a month, season or weekday) is the latest occurrence that has ended "
        "by the reference: 'last August' said on 2 Oct 2023 is August 2023.",
    ),
    Convention(
        "next_named_period",
        "earliest_after",
        "'next X' is the earliest occurrence that starts after the reference: 'next Friday' "
        "said on Monday 8 May 2023 is Friday 12 May.",
    ),
    Convention(
        "this_named_period",
        "current_cycle",
        "'this X' is the occurrence containing the reference, else the one in the current "
        "year (months, seasons) or Monday-to-Sunday week (weekdays).",
    ),
    Convention(
        "numeric_date_order",
        "MDY",
        "Numeric dates are month first (US): 05/08/2023 is 8 May 2023; if the first number is "
        "above 12 it is read day first (25/08/2023); ISO 2023-05-08 is always year-month-day.",
    ),
    Convention("two_digit_year_base", 2000, "A two-digit year in a numeric date is 20YY."),
    Convention(
        "two_digit_decade",
        "latest_not_after",
        "'the 90s' is the latest decade ending in 90 that starts not after the reference "
        "year (1990s); 'the 20s' said in 2023 is the 2020s.",
    ),
    Convention(
        "units_ago",
        "calendar_unit",
        "'N days/weeks/months/years ago' is the whole calendar unit (day, Monday week, month, "
        "year) containing the reference minus N units: 'two weeks ago' on Mon 8 May 2023 is "
        "the week of 24 Apr.",
    ),
    Convention(
        "rolling_past",
        "to_end_of_reference_day",
        "'the past N units' runs from the reference day minus N units to the end of the "
        "reference day.",
    ),
)

CONVENTION: dict[str, object] = {row.key: row.value for row in CONVENTIONS}

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9, "october": 10,
    "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip

# Month words that are also common English words: without a day or year next to them they
# count only when capitalised ("in May", never "this may be").
CAPITALISED_ONLY: frozenset[str] = frozenset({"may", "march", "mar", "jan", "dec"})

WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3,
    "friday": 4, "saturday": 5, "sunday": 6,
}  # fmt: skip

SEASONS: dict[str, str] = {
    "spring": "spring", "summer": "summer", "autumn": "autumn", "fall": "autumn",
    "winter": "winter", "springtime": "spring", "summertime": "summer", "wintertime": "winter",
}  # fmt: skip

NUMBER_WORDS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}  # fmt: skip

# Vague counts: (fewest, most) units. "a few days ago" covers 2 to 5 days back.
VAGUE_COUNTS: dict[str, tuple[int, int]] = {
    "a few": (2, 5), "few": (2, 5), "a couple of": (2, 3), "a couple": (2, 3),
    "couple of": (2, 3), "several": (3, 7),
}  # fmt: skip

_ORDINAL_ONES = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
)
ORDINAL_WORDS: dict[str, int] = {
    **{word: i for i, word in enumerate(_ORDINAL_ONES, start=1)},
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
    **{f"twenty{sep}{word}": 20 + i for sep in ("-", " ") for i, word in
       enumerate(_ORDINAL_ONES, start=1)},
    **{f"thirty{sep}first": 31 for sep in ("-", " ")},
}  # fmt: skip

UNITS: dict[str, str] = {
    "day": "days", "days": "days", "week": "weeks", "weeks": "weeks",
    "month": "months", "months": "months", "year": "years", "years": "years",
    "decade": "decades", "decades": "decades",
}  # fmt: skip

DECADE_WORDS: dict[str, int] = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
    "seventies": 70, "eighties": 80, "nineties": 90,
}  # fmt: skip

# Modifiers of a named period (month, season, weekday) and of a calendar unit.
MODIFIERS: dict[str, str] = {
    "last": "last", "past": "last", "previous": "last", "this": "this", "current": "this",
    "next": "next", "coming": "next", "this coming": "next", "following": "next",
}  # fmt: skip
UNIT_OFFSETS: dict[str, int] = {"last": -1, "this": 0, "next": 1}

# Part of a period: the fraction of it (start, end) a modifier keeps.
PARTS: dict[str, tuple[float, float]] = {
    "early": (0, 1 / 3), "the beginning of": (0, 1 / 3), "the start of": (0, 1 / 3),
    "beginning of": (0, 1 / 3), "start of": (0, 1 / 3), "mid": (1 / 3, 2 / 3),
    "the middle of": (1 / 3, 2 / 3), "middle of": (1 / 3, 2 / 3), "late": (2 / 3, 1),
    "the end of": (2 / 3, 1), "end of": (2 / 3, 1), "the first half of": (0, 1 / 2),
    "the second half of": (1 / 2, 1),
}  # fmt: skip

# Whole-day words: offset in days from the reference day.
DAY_WORDS: dict[str, int] = {
    "the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
    "today": 0, "tomorrow": 1,
}  # fmt: skip

# Parts of a day: (start hour, end hour) on that day; hours past 24 run into the next day.
DAY_PARTS: dict[str, tuple[int, int]] = {
    "morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30),
}  # fmt: skip
# Phrases that name a part of a day: (day offset, part).
DAY_PART_PHRASES: dict[str, tuple[int, str]] = {
    "last night": (-1, "night"), "tonight": (0, "night"),
}  # fmt: skip

# Vague windows: (days back at the start, days back at the end, inclusive) around the
# reference day; None means recognised but too vague to ground (never a false day).
VAGUE_WINDOWS: dict[str, tuple[int, int] | None] = {
    "recently": (30, 0), "lately": (30, 0), "the other day": (7, 1),
    "a while ago": None, "a long time ago": None, "some time ago": None,
}  # fmt: skip

# Words before a bare month, season or year that mark it as a time ("in May", "since 2019").
CUES: tuple[str, ...] = (
    "in", "since", "until", "till", "during", "by", "before", "after", "around", "of",
    "throughout", "through", "from", "back in", "over",
)  # fmt: skip

# Words joining the two ends of a range.
RANGE_OPENERS: tuple[str, ...] = ("between", "from")
RANGE_JOINERS: tuple[str, ...] = ("and", "to", "until", "till", "through", "-", "–")
WEEKEND_CUES: tuple[str, ...] = ("over", "on", "at", "during", "for")
