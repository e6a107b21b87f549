"""Holidays by rule: the day (or days) a holiday falls on in a given year, never a list of dates.

Fixed-date holidays by their month and day, Easter by the Gregorian computus, and holidays such
as Thanksgiving by a weekday rule ("the fourth Thursday of November"). The holidays themselves
are rows of ``TimeWords.holidays`` (:mod:`ramem_integrations.core.lexicon.time`).

>>> easter_sunday(2024)
datetime.date(2024, 3, 31)
>>> nth_weekday(2023, 11, 3, 4)  # Thanksgiving 2023
datetime.date(2023, 11, 23)
"""

from __future__ import annotations

from datetime import date, timedelta

from ramem_integrations.core.lexicon.time import Holiday

__all__ = ["easter_sunday", "holiday_span", "nth_weekday"]


def easter_sunday(year: int) -> date:
    """Easter Sunday of a Gregorian year (the anonymous Gregorian computus, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date | None:
    """The ``n``-th ``weekday`` (0 = Monday) of a month; ``n == -1`` is the last. None when the
    month has no such day (a fifth Monday)."""
    if n == -1:
        following = date(year + month // 12, month % 12 + 1, 1)
        last = following - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    return day if day.month == month else None


def holiday_span(holiday: Holiday, year: int, *, over: bool = False) -> tuple[date, date] | None:
    """The half-open days ``[start, end)`` of a holiday in ``year``; ``over`` widens it to the
    break around it ("over Easter": Good Friday to Easter Monday)."""
    if holiday.rule == "fixed":
        base: date | None = date(year, *holiday.args)
    elif holiday.rule == "easter":
        base = easter_sunday(year)
    else:
        base = nth_weekday(year, *holiday.args)
    if base is None:
        return None
    start = base + timedelta(days=holiday.offset)
    days = holiday.days
    if over and holiday.over is not None:
        shift, days = holiday.over
        start += timedelta(days=shift)
    return start, start + timedelta(days=days)
