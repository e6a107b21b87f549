"""The conventions :mod:`ramem_integrations.core.time.grounding` follows, as rules in prose,
and the constants of its reading (how near is "next", how long after a day it is reported).

``docs/temporal.md`` renders :data:`CONVENTIONS` and the tense cues as tables. The values the
code reads are the defaults of :class:`~.conventions.Conventions`, which the grounding is handed;
their rows here say the rule. The words themselves (months, weekdays, tense cues, ...) are the
lexicon's time section, :class:`~ramem_integrations.core.lexicon.time.TimeWords`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from ramem_integrations.core.lexicon import ENGLISH
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
        "the week of 24 Apr (in a chat message or a question, an exact count of weeks is the one "
        "day that far back: 24 Apr); a decade is ten years ('a decade ago' said in 2025 is 2015), "
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
        "which way it points: time.tense_cues rows, read in its clause, else its sentence; the "
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
        "time.ahead_prepositions ('party on 12 March', 'from 3 to 5 May') points forward.",
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
        "lower-case word which is neither a function word nor in time.time_followers qualifies a "
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


#: The most words of a sentence whose day ahead is its point ("the hospital rang this
#: morning, my op is on 6 november"); a longer one tells a story its first time leads.
PLAN_SENTENCE_WORDS = 20
#: 'next Friday' said this close before the coming Friday is the Friday after it.
NEXT_IS_NEAR = timedelta(days=2)
#: Before this hour, a message's "tomorrow" is the coming daytime, the date it is sent on
#: ("see you tomorrow" at 1am has not slept yet); "tonight" is the night already begun.
NIGHT_OWL_HOUR = 4


#: Rules whose bare reading turns with the tense (names of rules in core/time/grounding.py).
DIRECTED_RULES: frozenset[str] = frozenset(
    (
        "weekday", "month", "season", "dmy", "mdy", "day_of_month", "day_range",
        "month_day_range", "holiday", "weekend", "part", "weekday_pinned", "position_in_month",
        "weekend_of", "weekday_short", "weekday_word", "weekday_word_at", "weekday_word_clock",
        "weekday_word_end", "day_month", "weekend_own", "weekend_chat", "clock", "clock_tonight",
        "day_month_range", "days_of_month", "month_moved", "month_for", "weekday_word_open",
        "stay", "day_pair", "clock_ish", "away_back",
    )
)  # fmt: skip
#: Rules whose times still count as tense cues for another time in their sentence.
CUE_TIMES: frozenset[str] = frozenset()
#: Rules a cue-less date after a ``TimeWords.ahead_prepositions`` word points forward for.
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
    """The English tense cues as the Markdown table in docs/temporal.md (a test keeps them
    equal)."""
    lines = ["| cue | points | rank | example |", "|---|---|---|---|"]
    for cue in sorted(ENGLISH.time.tense_cues, key=lambda c: (-c.rank, c.direction)):
        lines.append(f"| {cue.name} | {cue.direction} | {cue.rank} | {cue.example} |")
    return "\n".join(lines) + "\n"
