"""Language and conventions for :mod:`ramem_integrations.core.time.grounding`, kept as data.

Everything a reader might want to change lives here, apart from the matching code: the
conventions (week start, seasons, how a bare month is read), month, weekday, number and season
words, part-of-period modifiers and vague windows. A new phrase is a new row. ``docs/temporal.md``
renders :data:`CONVENTIONS` as a table. The values the code reads are the defaults of
:class:`~.conventions.Conventions`, which the grounding is handed; their rows here say the rule.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from ramem_integrations.core.time.conventions import DEFAULT

if TYPE_CHECKING:
    from ramem_integrations.core.types import TimeSpan


class Convention(NamedTuple):
    """One rule the grounding follows: a key the code reads, its value, and the rule in prose."""

    key: str
    value: object
    rule: str


CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "week_start",
        DEFAULT.week_start,
        "Weeks start on Monday (0); 'last week' is Monday to Monday.",
    ),
    Convention(
        "weekend_days", DEFAULT.weekend_days, "The weekend is Saturday 00:00 to Monday 00:00."
    ),
    Convention(
        "hemisphere",
        DEFAULT.hemisphere,
        "Seasons are northern-hemisphere by default, meteorological (whole months); "
        "hemisphere='southern' switches to the months below.",
    ),
    Convention(
        "season_start_months",
        DEFAULT.season_start_months,
        "Spring Mar-May, summer Jun-Aug, autumn Sep-Nov, winter Dec-Feb (three months each).",
    ),
    Convention(
        "season_year",
        "start",
        "A season of year Y starts in year Y: 'winter 2022' is Dec 2022 to Feb 2023.",
    ),
    Convention(
        "bare_named_period",
        DEFAULT.bare_named_period,
        "A month, season, weekday or yearless date with no modifier is its latest occurrence "
        "that starts not after the reference: 'in August' said in May 2023 is August 2022.",
    ),
    Convention(
        "last_named_period",
        DEFAULT.last_named_period,
        "'last X' (X a month, season or weekday) is the latest occurrence that has ended "
        "by the reference: 'last August' said on 2 Oct 2023 is August 2023.",
    ),
    Convention(
        "next_named_period",
        DEFAULT.next_named_period,
        "'next X' is the earliest occurrence that starts after the reference: 'next Friday' "
        "said on Monday 8 May 2023 is Friday 12 May.",
    ),
    Convention(
        "this_named_period",
        DEFAULT.this_named_period,
        "'this X' is the occurrence containing the reference, else the one in the current "
        "year (months, seasons) or Monday-to-Sunday week (weekdays).",
    ),
    Convention(
        "numeric_date_order",
        DEFAULT.numeric_date_order,
        "An ambiguous numeric date follows its separator unless date_order ('DMY' or 'MDY', an "
        "option of ground_time and find_times) says otherwise: 05/08/2023 and 05-08-2023 are "
        "month first (8 May 2023), 10.01.2024 is day first (10 January 2024). A part above 12 "
        "fixes the order (25/08/2023, 08.25.2023); ISO 2023-05-08 is always year-month-day.",
    ),
    Convention(
        "two_digit_year_base",
        DEFAULT.two_digit_year_base,
        "A two-digit year in a numeric date is 20YY.",
    ),
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
        "the week of 24 Apr; a decade is ten years ('a decade ago' said in 2025 is 2015), "
        "'a couple of' is two.",
    ),
    Convention(
        "rolling_past",
        "to_end_of_reference_day",
        "'the past N units' runs from the reference day minus N units to the end of the "
        "reference day.",
    ),
    Convention(
        "southern_season_start_months",
        DEFAULT.southern_season_start_months,
        "With hemisphere='southern' (an option of ground_time and find_times): spring Sep-Nov, "
        "summer Dec-Feb, autumn Mar-May, winter Jun-Aug; 'summer 2023' still starts in 2023.",
    ),
    Convention(
        "holidays",
        "computed",
        "Holidays are computed per year, never listed: fixed dates (Christmas 25 Dec), Easter by "
        "the Gregorian computus (Good Friday, Easter Monday by offsets), US holidays by weekday "
        "rules (Thanksgiving the 4th Thursday of November, Memorial Day the last Monday of May, "
        "Labor Day the 1st Monday of September). Each is a span (a day, or a weekend); with "
        "last / next / this / none it follows the rules for named periods above.",
    ),
    Convention(
        "over_holiday",
        "holiday_break",
        "'over X' is the break around X: over Christmas 24-26 Dec, over Easter Good Friday to "
        "Easter Monday, over Thanksgiving Thursday to Sunday, over Memorial / Labor Day Saturday "
        "to Monday, over New Year 31 Dec to 1 Jan.",
    ),
    Convention(
        "occurrences_ago",
        "nth_latest_ended",
        "'N Xs ago' (X a holiday or a season) is the Nth latest X that has ended: 'two "
        "Christmases ago' said in June 2024 is Christmas 2022, 'two summers ago' summer 2022; "
        "'the X before last' is the one before 'last X', 'the X after next' the one after "
        "'next X' (X a weekday, holiday, week, weekend, month, year, quarter).",
    ),
    Convention(
        "quarters",
        "calendar",
        "Quarters are calendar quarters: Q1 Jan-Mar ... Q4 Oct-Dec; 'the last quarter of 2021' "
        "is Q4 2021; 'last quarter' (no year) is the quarter before the reference's.",
    ),
    Convention(
        "week_of_month",
        "days_of_month",
        "'the Nth week of June' is days 7N-6 to 7N of June ('the last week' its last 7 days); "
        "'the Nth Tuesday / weekend of June' counts Tuesdays / Saturdays that fall in June.",
    ),
    Convention(
        "weekend_of_date",
        "same_week",
        "'the weekend of 3 March' is the weekend of the Monday-to-Sunday week holding 3 March.",
    ),
    Convention(
        "day_of_month",
        "latest_not_after",
        "'on the 12th' is the 12th of the latest month, the reference's included, that has a 12th "
        "not after the reference day.",
    ),
    Convention(
        "since",
        "to_end_of_reference_day",
        "'since X' runs from the start of X to the end of the reference day (the time asked), "
        "not X alone: 'since March' said on 12 June 2024 is 1 March to 12 June 2024.",
    ),
    Convention(
        "until",
        "from_reference_day",
        "'until X' with X still to come runs from the start of the reference day to the end of "
        "X, the current or next occurrence of a named X: 'until Friday' said on Wednesday is "
        "Wednesday to Friday. With X already past, only X is a time (frames make the open range).",
    ),
    Convention(
        "named_in_year",
        "occurrence_in_year",
        "'October last year', 'Christmas two years ago': the occurrence of X in the year the "
        "second part names (one condition, not two).",
    ),
    Convention(
        "half_units",
        "next_smaller_unit",
        "'a year and a half ago' is 18 months ago (a calendar month), 'a month and a half ago' "
        "6 weeks ago, 'half a year ago' 6 months ago; a fortnight is 2 weeks.",
    ),
    Convention(
        "relative_to_day",
        "adjacent",
        "'the day / night / week / weekend / Friday before (after) X' is the day, night "
        "(18:00 to 06:00), 7 days, weekend or weekday nearest before the start (after the end) "
        "of X; 'the night before' alone is the night before the reference day.",
    ),
    Convention(
        "parts_of_today",
        "clipped_at_reference",
        "'earlier today' runs from the start of the reference day to the reference moment, "
        "'later today' from the reference moment to the end of the day.",
    ),
    Convention(
        "tense",
        "cue_tables",
        "With tense=True (the rule anchorer's reading of a message), the words around a bare "
        "weekday, month, season, holiday, weekend, day of the month or yearless date decide "
        "which way it points: TENSE_CUES rows, read in its clause, else its sentence; the "
        "highest rank found wins, 'back' on a tie. No cue keeps the bare reading above.",
    ),
    Convention(
        "forward_named_period",
        DEFAULT.forward_named_period,
        "Pointing forward, a bare X is its earliest occurrence not over by the reference day "
        "('in March' said in March is this March, 'on 10 March' said on 5 March is 10 March), "
        "a weekday the next one after the reference day ('on Friday' said on a Friday is a week "
        "on); pointing back, the bare reading above.",
    ),
    Convention(
        "ahead_without_cue",
        "after_preposition",
        "With tense=True and no cue, a yearless date or run of days after a word of "
        "AHEAD_PREPOSITIONS ('party on 12 March', 'from 3 to 5 May') points forward.",
    ),
    Convention(
        "pinned_weekday",
        "weekday_and_day",
        "'next Friday, the 14th' and 'Friday, 14 March' are the Friday that falls on that "
        "day, within a year of the reference: the first after it with next (or pointing "
        "forward), the latest before it with last (or pointing back), else the nearest. With "
        "no such Friday (a wrong weekday) 'Friday, 15 March' is read as 15 March alone; "
        "'Friday the 15th' grounds to nothing.",
    ),
    Convention(
        "attributive_words",
        "not_a_time",
        "A bare month, season, weekday, holiday or day of the month that is followed by a "
        "lower-case word which is neither a function word nor in TIME_FOLLOWERS qualifies a "
        "noun and is not a time: 'her Sunday best', 'a winter coat', 'Christmas tree'.",
    ),
)


def render_conventions() -> str:
    """:data:`CONVENTIONS` as the Markdown table in docs/temporal.md (a test keeps them equal;
    docs/temporal.md says how to regenerate it)."""
    lines = ["| key | value | rule |", "|---|---|---|"]
    for row in CONVENTIONS:
        value = row.value
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| `{row.key}` | `{value}` | {row.rule} |")
    return "\n".join(lines) + "\n"


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

# Short forms of weekdays, as chats write them ("thurs", "weds"); those that are English words
# too ("sat", "sun", "wed", "mon") count only after a modifier or a word of WEEKDAY_WORD_CUES,
# or before a clock time ("mon at 9am").
WEEKDAY_SHORT: dict[str, int] = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip
WEEKDAY_WORDS: frozenset[str] = frozenset({"mon", "wed", "sat", "sun"})
WEEKDAY_WORD_CUES: tuple[str, ...] = (
    "on", "by", "till", "til", "until", "from", "before", "after", "cu", "see u", "see you",
    "do", "free", "or", "c u", "c ya", "see ya",
)  # fmt: skip

#: Words after which "sat", "sun", "wed" or "mon" ending a clause is the verb or noun: a
#: subject right before it ("I sat.", "they wed"), a determiner one or two words before ("the
#: sun!", "the cat sat.", "a bit of sun").
SUBJECT_WORDS: frozenset[str] = frozenset(
    {"i", "you", "u", "he", "she", "we", "they", "it", "who", "that", "which", "everyone",
     "everybody", "someone", "somebody", "nobody", "one", "then", "just", "finally", "got"}
)  # fmt: skip
DETERMINERS: frozenset[str] = frozenset(
    {"the", "a", "an", "my", "your", "ur", "his", "her", "our", "their", "its", "this", "of",
     "some", "no"}
)  # fmt: skip

#: Words a chat puts after a time that qualify no noun ("the 20th ugh", "on 10/9 remember");
#: an adverb in -ly ("the 29th actually") neither.
CHAT_PARTICLES: frozenset[str] = frozenset(
    {"lol", "lmao", "haha", "ugh", "tbh", "omg", "btw", "pls", "plz", "x", "xx", "ok", "yay",
     "fyi", "remember", "right", "innit", "mate", "babe", "hun", "then", "now", "instead",
     "tho", "though", "too", "yes", "yeah", "def", "defo"}
)  # fmt: skip

SEASONS: dict[str, str] = {
    "spring": "spring", "summer": "summer", "autumn": "autumn", "fall": "autumn",
    "winter": "winter", "springtime": "spring", "summertime": "summer", "wintertime": "winter",
}  # fmt: skip

# A break named by its season or holiday takes the year after it: "spring break 2022",
# "the summer holidays of 2021", "Christmas break 2022" (the season, or the holiday, of that year).
PERIOD_NOUNS: tuple[str, ...] = ("break", "holidays", "holiday", "vacation", "vacations")

NUMBER_WORDS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a dozen": 12, "dozen": 12,
}  # fmt: skip
TENS: tuple[str, ...] = (
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
)
ONES: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
NUMBER_WORDS.update(
    {f"{tens}{sep}{one}": NUMBER_WORDS[tens] + i for tens in TENS for sep in ("-", " ")
     for i, one in enumerate(ONES, start=1)}
)  # fmt: skip

# Vague counts: (fewest, most) units. "a few days ago" covers 2 to 5 days back.
VAGUE_COUNTS: dict[str, tuple[int, int]] = {
    "a few": (2, 5), "few": (2, 5), "a couple of": (2, 2), "a couple": (2, 2),
    "couple of": (2, 2), "several": (3, 7),
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
    "day": "days", "days": "days", "week": "weeks", "weeks": "weeks", "wk": "weeks",
    "wks": "weeks", "yr": "years", "yrs": "years", "mth": "months", "mths": "months",
    "month": "months", "months": "months", "year": "years", "years": "years",
    "decade": "decades", "decades": "decades", "quarter": "quarters", "quarters": "quarters",
    "fortnight": "fortnights", "fortnights": "fortnights",
}  # fmt: skip
# Units counted in another unit: a fortnight is two weeks.
UNIT_MULTIPLES: dict[str, tuple[str, int]] = {"fortnights": ("weeks", 2), "decades": ("years", 10)}
# "a year and a half": the half is counted in the next smaller unit (1 year = 12 months).
HALF_UNITS: dict[str, tuple[str, int]] = {
    "years": ("months", 12), "decades": ("years", 10), "months": ("weeks", 4),
    "weeks": ("days", 7), "fortnights": ("weeks", 2),
}  # fmt: skip

DECADE_WORDS: dict[str, int] = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
    "seventies": 70, "eighties": 80, "nineties": 90,
}  # fmt: skip

# Modifiers of a named period (month, season, weekday) and of a calendar unit.
MODIFIERS: dict[str, str] = {
    "last": "last", "past": "last", "previous": "last", "this": "this", "current": "this",
    "next": "next", "coming": "next", "this coming": "next", "following": "next",
    "this past": "last", "nxt": "next",
}  # fmt: skip
#: How chats spell calendar units ("this wknd", "next yr").
UNIT_SPELLINGS: dict[str, str] = {
    "wknd": "weekend", "wkend": "weekend", "yr": "year", "wk": "week",
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
#: How chats spell "tomorrow" and "yesterday".
DAY_WORD_SPELLINGS: dict[str, str] = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "tmoz": "tomorrow",
    "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "tomorow": "tomorrow",
    "tommorow": "tomorrow", "tommorrow": "tomorrow", "yday": "yesterday",
    "tday": "today", "2day": "today", "2moz": "tomorrow", "ytd": "yesterday", "tmw": "tomorrow",
    "2mrw": "tomorrow", "tmrow": "tomorrow",
}  # fmt: skip
DAY_WORDS.update({p.removeprefix("the "): n for p, n in DAY_WORDS.items() if p.startswith("the ")})
DAY_WORDS.update(
    {
        phrase.replace(full, short): DAY_WORDS[phrase]
        for short, full in DAY_WORD_SPELLINGS.items()
        for phrase in list(DAY_WORDS)
        if full in phrase
    }
)
#: The most words of a sentence whose day ahead is its point ("the hospital rang this
#: morning, my op is on 6 november"); a longer one tells a story its first time leads.
PLAN_SENTENCE_WORDS = 20
#: 'next Friday' said this close before the coming Friday is the Friday after it.
NEXT_IS_NEAR = timedelta(days=2)
#: Before this hour, a message's "tomorrow" is the coming daytime, the date it is sent on
#: ("see you tomorrow" at 1am has not slept yet); "tonight" is the night already begun.
NIGHT_OWL_HOUR = 4

# Parts of a day: (start hour, end hour) on that day; hours past 24 run into the next day.
DAY_PARTS: dict[str, tuple[int, int]] = {
    "morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30),
    "lunchtime": (12, 14), "morn": (6, 12), "nite": (18, 30),
}  # fmt: skip
# Phrases that name a part of a day: (day offset, part).
DAY_PART_PHRASES: dict[str, tuple[int, str]] = {
    "last night": (-1, "night"), "tonight": (0, "night"), "the night before": (-1, "night"),
    "the night before last": (-2, "night"), "tonite": (0, "night"), "2nite": (0, "night"),
    "last nite": (-1, "night"),
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
#: Whose weekend: "how was ur weekend?" names one as "the weekend" does.
POSSESSIVES: tuple[str, ...] = ("your", "ur", "yr", "my", "our", "his", "her", "their")


# ------------------------------------------------------------------ holidays, computed per year


class Holiday(NamedTuple):
    """How to find a holiday in a year. ``rule`` is ``fixed`` (``args`` month, day), ``easter``
    (Easter Sunday by the Gregorian computus) or ``weekday`` (``args`` month, weekday 0=Monday,
    n: the nth such weekday of the month, -1 the last). ``offset`` moves the first day, ``days``
    is the span's length, ``over`` is the break "over X": (days from the first day, length)."""

    rule: str
    args: tuple[int, ...] = ()
    offset: int = 0
    days: int = 1
    over: tuple[int, int] | None = None


_CHRISTMAS = Holiday("fixed", (12, 25), over=(-1, 3))
_EASTER = Holiday("easter", over=(-2, 4))
_THANKSGIVING = Holiday("weekday", (11, 3, 4), over=(0, 4))
_MEMORIAL = Holiday("weekday", (5, 0, -1), over=(-2, 3))
_LABOR = Holiday("weekday", (9, 0, 1), over=(-2, 3))
_VALENTINE = Holiday("fixed", (2, 14))
_PATRICK = Holiday("fixed", (3, 17))
HOLIDAYS: dict[str, Holiday] = {
    "christmas": _CHRISTMAS, "christmas day": _CHRISTMAS, "xmas": _CHRISTMAS,
    "christmas eve": Holiday("fixed", (12, 24)), "boxing day": Holiday("fixed", (12, 26)),
    "new year's eve": Holiday("fixed", (12, 31)), "new years eve": Holiday("fixed", (12, 31)),
    "new year's day": Holiday("fixed", (1, 1)), "new years day": Holiday("fixed", (1, 1)),
    "nye": Holiday("fixed", (12, 31)), "xmas eve": Holiday("fixed", (12, 24)),
    "xmas day": _CHRISTMAS, "christmas eve eve": Holiday("fixed", (12, 23)),
    "valentines": _VALENTINE, "mothering sunday": Holiday("easter", offset=-21),
    "bank holiday monday": Holiday("weekday", (8, 0, -1)),
    "august bank holiday": Holiday("weekday", (8, 0, -1)),
    "spring bank holiday": Holiday("weekday", (5, 0, -1)),
    "late may bank holiday": Holiday("weekday", (5, 0, -1)),
    "early may bank holiday": Holiday("weekday", (5, 0, 1)),
    "new year": Holiday("fixed", (1, 1), over=(-1, 2)),
    "new year's": Holiday("fixed", (1, 1), over=(-1, 2)),
    "halloween": Holiday("fixed", (10, 31)), "valentine's day": _VALENTINE,
    "valentines day": _VALENTINE, "valentine's": _VALENTINE,
    "st patrick's day": _PATRICK, "st. patrick's day": _PATRICK, "saint patrick's day": _PATRICK,
    "st paddy's day": _PATRICK, "april fools' day": Holiday("fixed", (4, 1)),
    "april fool's day": Holiday("fixed", (4, 1)), "independence day": Holiday("fixed", (7, 4)),
    "the fourth of july": Holiday("fixed", (7, 4)), "bonfire night": Holiday("fixed", (11, 5)),
    "guy fawkes night": Holiday("fixed", (11, 5)), "veterans day": Holiday("fixed", (11, 11)),
    "juneteenth": Holiday("fixed", (6, 19)),
    "easter": _EASTER, "easter sunday": _EASTER, "easter day": _EASTER,
    "good friday": Holiday("easter", offset=-2), "easter monday": Holiday("easter", offset=1),
    "easter weekend": Holiday("easter", offset=-2, days=4),
    "palm sunday": Holiday("easter", offset=-7), "holy week": Holiday("easter", offset=-6, days=7),
    "ash wednesday": Holiday("easter", offset=-46),
    "shrove tuesday": Holiday("easter", offset=-47), "pancake day": Holiday("easter", offset=-47),
    "mardi gras": Holiday("easter", offset=-47), "pentecost": Holiday("easter", offset=49),
    "thanksgiving": _THANKSGIVING, "thanksgiving day": _THANKSGIVING,
    "thanksgiving weekend": Holiday("weekday", (11, 3, 4), days=4),
    "black friday": Holiday("weekday", (11, 3, 4), offset=1),
    "memorial day": _MEMORIAL, "memorial day weekend": Holiday("weekday", (5, 0, -1), -2, 3),
    "labor day": _LABOR, "labour day": _LABOR,
    "labor day weekend": Holiday("weekday", (9, 0, 1), -2, 3),
    "martin luther king day": Holiday("weekday", (1, 0, 3)),
    "mlk day": Holiday("weekday", (1, 0, 3)), "presidents' day": Holiday("weekday", (2, 0, 3)),
    "presidents day": Holiday("weekday", (2, 0, 3)), "columbus day": Holiday("weekday", (10, 0, 2)),
    "mother's day": Holiday("weekday", (5, 6, 2)), "mothers day": Holiday("weekday", (5, 6, 2)),
    "father's day": Holiday("weekday", (6, 6, 3)), "fathers day": Holiday("weekday", (6, 6, 3)),
}  # fmt: skip
HOLIDAYS.update(
    {"burns night": Holiday("fixed", (1, 25)), "hogmanay": Holiday("fixed", (12, 31)),
     "easter sun": _EASTER, "easter mon": Holiday("easter", offset=1),
     "good fri": Holiday("easter", offset=-2), "new yrs eve": Holiday("fixed", (12, 31)),
     "new yrs day": Holiday("fixed", (1, 1)), "new yr's eve": Holiday("fixed", (12, 31))}
)  # fmt: skip
HOLIDAYS.update({k.replace("bank holiday", "bank hol"): v for k, v in HOLIDAYS.items()})
HOLIDAYS.update({k.replace("'", "’"): v for k, v in HOLIDAYS.items() if "'" in k})
# Plurals for counting ("two Christmases ago"): single-word holidays only.
HOLIDAY_PLURALS: dict[str, str] = {
    name + ("es" if name.endswith(("s", "x")) else "s"): name
    for name in HOLIDAYS
    if " " not in name and "'" not in name and "’" not in name
}

# Plurals for counting seasons ("three summers ago"), as for holidays.
SEASON_PLURALS: dict[str, str] = {name + "s": name for name in SEASONS if not name.endswith("time")}

# Quarters and ordinal positions inside a month ("the third week of June", "the last Friday").
QUARTER_ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "last": 4, "final": 4,
}  # fmt: skip
POSITION_ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1, "final": -1,
    "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
}  # fmt: skip

# Lower-case words that may follow a bare month, season, weekday or holiday without making it
# qualify a noun ("Sunday morning", "summer holidays"); function words may always follow.
TIME_FOLLOWERS: frozenset[str] = frozenset(
    (
        "morning", "mornings", "afternoon", "evening", "night", "lunchtime", "day", "eve",
        "morn", "nite", "arvo",
        "weekend", "break", "holiday", "holidays", "vacation", "term", "semester", "season",
        "last", "next", "ago", "past", "already", "yet", "again", "onwards", "onward", "time",
        "when", "while", "as", "too", "either", "itself", "though", "although", "because", "and",
        "or", "then", "till", "until", "through", "to", "through", "also", "just", "even",
        "i", "we", "you", "he", "she", "they", "it", "my", "our", "your", "his", "her", "their",
        # chat words, and the gatherings a date names ("halloween party", "xmas dinner")
        "gonna", "gotta", "wanna", "lol", "tbh", "btw", "pls", "plz", "now", "instead",
        "party", "parties", "dinner", "lunch", "drinks", "plans", "flights", "flight", "trip",
        "bbq", "meal", "shopping", "sales", "sale", "do", "night", "morning", "eve",
        "works", "work", "good", "ok", "okay", "fine", "suits", "sorry", "maybe", "either",
    )
)  # fmt: skip


# Things a holiday's name qualifies that are no time ("a Christmas tree", "Easter eggs"); before
# other lower-case words a holiday names its day ("boxing day walk", "halloween party").
HOLIDAY_THINGS: frozenset[str] = frozenset(
    (
        "tree", "trees", "egg", "eggs", "card", "cards", "jumper", "jumpers", "sweater",
        "present", "presents", "gift", "gifts", "carol", "carols", "song", "songs", "music",
        "movie", "movies", "film", "films", "decorations", "decoration", "lights", "cracker",
        "crackers", "costume", "costumes", "bunny", "spirit", "island", "hunt", "pudding",
        "cake", "stocking", "stockings", "ornaments", "wreath", "candy", "sweets", "special",
        "episode", "album", "themed", "theme", "colours", "colors", "turkey", "recipe",
        "recipes", "menu", "menus", "ham",
    )
)  # fmt: skip

# Phrases that hold a time word but name no time: read as nothing, and never as their parts.
NOT_TIMES: tuple[str, ...] = (
    "man friday", "girl friday", "gal friday", "freaky friday", "casual friday",
    "the sunday times", "sunday school", "sunday best",
)  # fmt: skip


# ------------------------------------------------------------------ tense: which way a date points

#: Irregular simple past forms (with re-, un-, over-, mis-, out-, under- also read: "redid").
#: Forms the same in the present ("put", "read", "cut", "set") are left out: they say nothing.
PAST_VERBS: tuple[str, ...] = (
    "was", "were", "did", "had", "went", "came", "saw", "got", "took", "made", "gave", "met",
    "told", "said", "ate", "drank", "bought", "brought", "thought", "caught", "taught", "fought",
    "sought", "found", "flew", "drove", "rode", "wrote", "spoke", "broke", "woke", "chose",
    "froze", "stole", "swore", "wore", "tore", "bore", "knew", "grew", "threw", "drew", "blew",
    "began", "ran", "swam", "sang", "rang", "sank", "drank", "sat", "stood", "understood",
    "left", "felt", "kept", "slept", "swept", "wept", "crept", "meant", "dealt", "lent", "sent",
    "spent", "built", "bent", "lost", "paid", "laid", "sold", "held", "fell", "won", "led",
    "fed", "fled", "bled", "bred", "sped", "heard", "became", "forgot", "forgave", "shook",
    "hid", "bit", "lit", "slid", "spun", "stuck", "struck", "hung", "dug", "clung", "swung",
    "flung", "stung", "shot", "shone", "rose", "arose", "dove", "strove", "gotten", "born",
)  # fmt: skip
#: Irregular past participles, for the perfect ("have seen", "had been"). "got" is left out:
#: "I've got an exam" is the present.
PARTICIPLES: tuple[str, ...] = (
    "been", "gone", "seen", "done", "had", "made", "taken", "given", "eaten", "written",
    "spoken", "broken", "woken", "chosen", "frozen", "stolen", "known", "grown", "thrown",
    "drawn", "blown", "flown", "driven", "ridden", "begun", "run", "swum", "sung", "rung",
    "drunk", "forgotten", "forgiven", "hidden", "bitten", "fallen", "shaken", "gotten",
    "become", "come", "met", "told", "said", "bought", "brought", "thought", "caught",
    "taught", "found", "left", "felt", "kept", "slept", "meant", "sent", "spent", "built",
    "lost", "paid", "sold", "held", "won", "led", "heard", "sat", "stood", "shot", "born",
)  # fmt: skip
#: Words in -ed that are no simple past ("need", "excited", "hundred").
NOT_PAST_ED: tuple[str, ...] = (
    "need", "feed", "seed", "speed", "weed", "deed", "indeed", "proceed", "succeed", "exceed",
    "red", "bed", "shed", "wed", "sled", "hundred", "sacred", "naked", "wicked", "beloved",
    "excited", "interested", "scared", "worried", "tired", "bored", "pleased", "thrilled",
    "delighted", "supposed", "stressed",
)  # fmt: skip
#: Verbs of timetables and plans: their present tense ("Ana arrives", "we fly") points ahead.
SCHEDULE_VERBS: tuple[str, ...] = (
    "start", "begin", "open", "reopen", "close", "end", "finish", "leave", "arrive", "depart",
    "land", "fly", "return", "retire", "move", "get", "go", "come", "turn", "expire", "launch",
    "play", "meet", "graduate", "marry", "visit", "head", "travel", "drive", "sail", "resume",
    "restart", "kick", "premiere", "release", "run", "take", "have", "see",
)  # fmt: skip
#: Pronouns that "'s" is "is" after ("it's", not "Jo's").
S_IS_AFTER: tuple[str, ...] = (
    "it", "he", "she", "that", "there", "what", "who", "where", "here", "everything", "this",
)  # fmt: skip


#: Verbs that give an event a new time ("moved to", "postponed until", "rebooked for").
RESCHEDULED = r"(?:mov|push|postpon|bring|brought|reschedul|chang|delay|rebook|shift|bump)\w*"


class TenseCue(NamedTuple):
    """A cue to which way a bare date in its sentence points.

    ``pattern`` is a regex fragment matched as whole words, case-insensitively, on the sentence
    with contractions split off ("I 'm", "did n't", "let 's") and the date itself written "§"
    ("Her exam is on § ."); ``rank`` orders cues: the
    highest rank found decides, and at equal rank "back" wins. ``example`` has only this cue."""

    name: str
    pattern: str
    direction: str
    rank: int
    example: str


def _forms(words: tuple[str, ...]) -> str:
    return "|".join(sorted(set(words), key=len, reverse=True))


def _third_person(verb: str) -> str:
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if verb == "have":
        return "has"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s")


_PREFIX = "(?:re|un|over|mis|out|under)?"
_PAST_ED = rf"(?!(?:{_forms(NOT_PAST_ED)})(?![\w']))\w{{2,}}ed"
_PARTICIPLE = rf"(?:{_PAST_ED}|{_PREFIX}(?:{_forms(PARTICIPLES)}))"
_ADVERB = r"(?: (?:not|n't|never|just|already|finally|really|also|still|actually|all|so))?"
_BE_NOW = rf"(?:am|is|are|'m|'re|(?:{_forms(S_IS_AFTER)}) 's)(?: n't)?"
_HAVE = r"(?:have|has|had|'ve|'d)(?: n't)?"
_THIRD = _forms(tuple(_third_person(v) for v in SCHEDULE_VERBS))
# "last" and "next" after "the" or a possessive are adjectives ("the next day", "my last day")
_NOT_THE = "".join(f"(?<!{w} )" for w in ("the", "my", "our", "your", "his", "her", "their"))
_NOT_AFTER_PREPOSITION = "".join(
    f"(?<!{w} )" for w in ("on", "in", "at", "for", "by", "to", "from")
)
_NOT_PASSIVE = "".join(
    f"(?<!{w} )"
    for w in ("is", "are", "am", "'s", "'re", "'m", "be", "been", "get", "gets", "getting", "being")
)  # 'gets fitted in April' is no past
_NOT_SUBJECT = "".join(f"(?<!{w} )" for w in ("i", "we", "you", "u", "they", "he", "she", "who"))
_NOT_ING = r"(?!(?:no|some|any|every)?thing(?![\w'])|morning(?![\w'])|evening(?![\w']))"

TENSE_CUES: tuple[TenseCue, ...] = (
    # rank 3: words that say outright which way
    TenseCue("will", r"will|'ll|shall|wo n't", "forward", 3, "We'll fly to Oslo on Friday."),
    TenseCue("going to", r"going to|gonna", "forward", 3, "Ana is going to call on Friday."),
    TenseCue(
        "intent",
        r"about to|plan(?:s|ning)?(?: to| on)?|hop(?:e|es|ing) to|wants? to|intends? to"
        r"|would like to|'d like to|expect(?:s|ing)? to",
        "forward",
        3,
        "Planning a trip to Rome in November.",
    ),
    TenseCue(
        "booked for",
        r"(?:book|booked|schedule|scheduled|reserve|reserved|arrange|arranged|planned"
        r"|pencil|pencill?ed|set|lined up)(?: [\w']+){0,4} for"
        # a reschedule names the new time: "moved to Friday", "pushed the party to the 15th"
        rf"|{RESCHEDULED}(?: [\w']+){{0,3}}? (?:to|for|until|till|til) §"
        # and any participle right before it: "rearranged for monday", "swapped to sun"
        rf"|{_PAST_ED} (?:to|for|until|till|til) (?:the )?§",
        "forward",
        3,
        "Booked the hotel for Friday.",
    ),
    TenseCue(
        "ahead words",
        r"ca n't wait|can not wait|cannot wait|looking forward|look forward|upcoming|coming up"
        rf"|soon(?! after)|{_NOT_THE}next|tomorrow|tonight|remember to|do n't forget"
        r"|(?:need|needs|have|has) to|must|should|let 's|let us|see you"
        # chat spellings, availability and invitations: "can u do thurs?", "free on the 28th?"
        r"|tmrw|tmr|2moro|lets|cu|c u|see u|see ya|ca n't do|cant do"
        # a request or offer: "can you have the kids thurs?", "can i come sat?"
        r"|can (?:u|you|we|i|ya) (?!believe|remember|recall|imagine|see)[\w']+"
        r"|(?:r|are|am|is) (?:u|you|ya|i|we|they|he|she) free|free on|works|(?:is|'s) good for",
        "forward",
        3,
        "Can't wait for the concert in July!",
    ),
    TenseCue(
        "back words",
        rf"ago|yesterday|{_NOT_THE}last(?! thing| minute)|used to|back then|remembered"
        r"|remember(?! to(?![\w']))|recall(?:ed)?",
        "back",
        3,
        "Remember that hike in August!",
    ),
    TenseCue(
        "past plan",
        r"(?:was|were)(?: n't)? (?:going to|gonna|supposed to|planning to|meant to|about to)"
        r"|(?:should|could|would|must|might|may)(?: n't| not)? have",
        "back",
        3,
        "Jo should have come on Friday.",
    ),
    # rank 2: aspect and auxiliaries
    TenseCue("past be", r"was|were|did", "back", 2, "How was lunch on Thursday?"),
    TenseCue(
        "perfect", rf"{_HAVE}{_ADVERB} {_PARTICIPLE}", "back", 2, "We'd moved to Leeds in March."
    ),
    TenseCue(
        "progressive",
        rf"{_BE_NOW}{_ADVERB} {_NOT_ING}\w+ing",
        "forward",
        2,
        "We are flying to Porto on Friday.",
    ),
    TenseCue(
        "asked progressive",
        rf"(?:am|is|are)(?: n't)? (?:i|you|we|they|he|she|it){_ADVERB} {_NOT_ING}\w+ing",
        "forward",
        2,
        "are you still flying to Lisbon on friday",
    ),
    TenseCue(
        "present passive",
        rf"(?:{_BE_NOW}|gets?){_ADVERB} {_PARTICIPLE}",
        "forward",
        2,
        "The crown gets fitted in April.",
    ),
    TenseCue(
        "have got",
        r"(?:'ve|have|has)(?: (?:i|you|we|they|he|she))? got",
        "forward",
        2,
        "We've got tickets for Sunday.",
    ),
    TenseCue("due", r"due", "forward", 2, "Rent due on the 28th."),
    # the date's own verb: "we decided christmas is at mine"
    TenseCue(
        "date is",
        rf"{_NOT_AFTER_PREPOSITION}§ (?:is|are)(?! n't)",
        "forward",
        2,
        "Christmas is at ours.",
    ),
    # a thing arranged, named before its participle: "valentine's dinner booked"
    TenseCue(
        "arranged",
        rf"{_NOT_SUBJECT}(?:all )?(?:booked|reserved|arranged|confirmed|sorted)(?! [\w'])",
        "forward",
        2,
        "Table for Friday: booked.",
    ),
    # a past verb the date is the adverb of: "the invoice I sent on the 2nd is now due"
    TenseCue(
        "past on",
        rf"{_NOT_PASSIVE}(?:{_PAST_ED}|{_PREFIX}(?:{_forms(PAST_VERBS)}))"
        r"(?: [\w']+){0,2}? (?:on|in) §",
        "back",
        2,
        "The parcel she sent on Friday is here.",
    ),
    # thanks for a thing done: "thanks for having us on saturday!"
    TenseCue(
        "thanks for", r"thanks? (?:you )?for \w+ing", "back", 2, "Thanks for having us on Sunday."
    ),
    # rank 1: plain tense
    TenseCue(
        "simple past",
        rf"{_PAST_ED}|{_PREFIX}(?:{_forms(PAST_VERBS)})",
        "back",
        1,
        "Ana arrived on Thursday.",
    ),
    TenseCue("earlier", r"earlier|previously|already", "back", 1, "We met earlier on Friday."),
    TenseCue(
        "present be",
        rf"{_BE_NOW}(?: [\w']+){{0,3}}? (?:on|in|at|for|during|by|until|till) §"
        rf"|{_BE_NOW}(?: now| still| actually)? §",
        "forward",
        1,
        "Her exam is on the 20th.",
    ),
    TenseCue(
        "present have",
        r"(?:i|we|you|they|\w+s) have|has",
        "forward",
        1,
        "The kids have a swim meet on Saturday.",
    ),
    TenseCue(
        "schedule",
        rf"{_THIRD}|(?:i|we|you|they){_ADVERB} (?:{_forms(SCHEDULE_VERBS)})",
        "forward",
        1,
        "The bakery reopens in March.",
    ),
    # rank 0: a question about a day, with no other cue, asks what is coming ("Gym on
    # Saturday?"); "Anything fun over the weekend?" asks what was
    TenseCue("question", r"on §(?=[^.!]*\?)", "forward", 0, "Gym on Saturday?"),
)

#: Words around a time that make it the time replaced, not the one that holds, in a message
#: naming two ("physio cancelled tmrw, rebooked for fri"; "dinner at 7 instead of 8"):
#: regex fragments matched like TENSE_CUES, in the time's clause.
REPLACED_CUES: tuple[str, ...] = (
    r"cancell?ed|called off|§ (?:is|'s) off|did n't work|didnt work|could n't make"
    r"|couldnt make|ca n't make|cant make|ca n't do|cant do|meant to"
    r"|(?<!is )(?<!are )(?<!now )supposed to"
    r"|(?:was|were) (?:going to|gonna)"
    r"|(?:got|was|been|were|is|'s) (?:moved|pushed|postponed"
    r"|cancell?ed|changed|delayed|rescheduled)",
    r"instead of §|not (?:on )?§|from § to|rather than §",
    # a time turned down or given up: "this wknd no, nxt wknd def", "no longer the 5th"
    r"§ (?:no|nope|nah)(?! (?:problem|prob|probs|worries))|no longer (?:on )?§",
)

#: Words before a yearless date written with dots ("on 3.4") that make it a date, not a
#: decimal ("for 1.5 hours", "rated 4.5").
DOTTED_DATE_CUES: tuple[str, ...] = (
    "on", "due", "by", "until", "till", "til", "from", "since", "before", "after",
)  # fmt: skip

#: Words that may follow a bare hour after "at", "by", "until" for it to be a clock time
#: ("call u at 7 before work", "home by 1?"; not "at 7 she started piano").
CLOCK_FOLLOWERS: tuple[str, ...] = (
    "tonight", "tonite", "tomorrow", "tmrw", "today", "before", "after", "then", "ish",
    "o'clock", "oclock", "sharp", "latest", "and", "or", "instead", "outside", "pls", "lol",
    "in", "at", "on", "tho", "then", "please", "ok", "yeah", "x", "xx", "for", "with",
)  # fmt: skip
#: Words before a yearless numeric date ("on 4/5", "due 1/4") that make it a date, not a
#: fraction or a score; a padded part ("14/06") or a clock time after it does too.
NUMERIC_DATE_CUES: tuple[str, ...] = (
    "on", "for", "by", "due", "in", "out", "from", "til", "till", "until", "before", "after",
    "since", "to", "is", "s", "date", "dated", "starting", "thru", "lands",
)  # fmt: skip

#: Words before a yearless date that, with no cue, point it forward ("party on 12 March").
AHEAD_PREPOSITIONS: tuple[str, ...] = ("on", "for", "by", "until", "to", "from", "between")
#: Where a clause ends inside a sentence: the tense of one clause is not the other's.
CLAUSE_BREAKS: tuple[str, ...] = (
    ",",
    ";",
    ":",
    " - ",
    " – ",
    " but ",
    " and ",
    " so ",
    " because ",
)
#: Rules whose bare reading turns with the tense (names of rules in core/time/grounding.py).
DIRECTED_RULES: frozenset[str] = frozenset(
    (
        "weekday", "month", "season", "dmy", "mdy", "day_of_month", "day_range",
        "month_day_range", "holiday", "weekend", "part", "weekday_pinned", "position_in_month",
        "weekend_of", "weekday_short", "weekday_word", "weekday_word_at", "weekday_word_end",
        "day_month", "weekend_own", "weekend_chat", "clock", "clock_tonight", "day_month_range",
        "days_of_month", "month_moved", "weekday_word_open", "stay", "day_pair", "clock_ish",
    )
)  # fmt: skip
#: Rules a cue-less date after an AHEAD_PREPOSITIONS word points forward for.
#: Rules whose times still count as tense cues for another time in their sentence.
CUE_TIMES: frozenset[str] = frozenset()
AHEAD_RULES: frozenset[str] = frozenset(("dmy", "mdy", "day_range", "month_day_range"))


#: A report of a day is said on it or after it: a question about a day already past (a day at
#: most long) is met by what was said up to this long after it; chats run past midnight and
#: people tell of a day when they next talk ("Today I explored yoga" at 00:57 the day after).
REPORT_LAG = timedelta(days=2)
#: The longest asked time :data:`REPORT_LAG` widens: a day, not a week or a month.
REPORTED_DAY = timedelta(days=1)


def report_lag(asked: TimeSpan | None, reference: datetime | None) -> timedelta:
    """How long after ``asked`` a memory may have been said and still report it: up to
    :data:`REPORT_LAG`, never past ``reference``, for a time of at most a day wholly before it."""
    if asked is None or reference is None or asked.end - asked.start > REPORTED_DAY:
        return timedelta(0)
    return max(timedelta(0), min(REPORT_LAG, reference - asked.end))


def render_tense_cues() -> str:
    """:data:`TENSE_CUES` as the Markdown table in docs/temporal.md (a test keeps them equal)."""
    lines = ["| cue | points | rank | example |", "|---|---|---|---|"]
    for cue in sorted(TENSE_CUES, key=lambda c: (-c.rank, c.direction)):
        lines.append(f"| {cue.name} | {cue.direction} | {cue.rank} | {cue.example} |")
    return "\n".join(lines) + "\n"


#: Words after which "sun", "sat", "wed" or "mon" opening a message is the noun or verb, not
#: the day: a verb it is the subject of ("sun is out") or a noun it qualifies ("sat nav").
SHORT_DAY_NOT_BEFORE: tuple[str, ...] = (
    "is", "was", "'s", "s", "are", "has", "had", "will", "'ll", "came", "comes", "shining",
    "shone", "out", "set", "sets", "rose", "and", "nav", "navs", "cream", "hat", "burn", "tan",
    "lounger", "loungers", "glasses", "down", "up", "in", "on", "there",
)  # fmt: skip

#: Words that wish a holiday ("happy almost new year! coffee on tues?"): the holiday is a
#: greeting, not the message's time, when another time is said.
GREETINGS: tuple[str, ...] = ("happy", "merry", "have a good", "have a great", "enjoy your")

#: The two ends of a stay ("check in 20/1 check out 23/1"): one time, the first day to the last.
STAY_OPENERS: tuple[str, ...] = ("check in", "check-in", "checking in", "arrive", "arriving")
STAY_CLOSERS: tuple[str, ...] = (
    "check out", "check-out", "checking out", "leave", "leaving", "depart", "departing",
)  # fmt: skip
