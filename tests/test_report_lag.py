"""A report of a day is said on it or after it: report_lag, and the filter a question gets."""

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.time.tables import REPORT_LAG, report_lag
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan

DAY = timedelta(days=1)
MONDAY = datetime(2024, 1, 22, tzinfo=UTC)


def span(start: datetime, length: timedelta = DAY) -> TimeSpan:
    return TimeSpan(start, start + length)


@pytest.mark.parametrize(
    ("asked", "reference", "lag"),
    [
        # a day well before the question: reports of it may come up to REPORT_LAG later
        (span(MONDAY - 7 * DAY), MONDAY, REPORT_LAG),
        # never past the moment asked: yesterday's reports end now
        (span(MONDAY - DAY), MONDAY + timedelta(hours=10), timedelta(hours=10)),
        # a part of a day is a day at most, so it widens too
        (span(MONDAY - 5 * DAY, timedelta(hours=6)), MONDAY, REPORT_LAG),
        # today, or a day to come, is not reported yet
        (span(MONDAY), MONDAY + timedelta(hours=10), timedelta(0)),
        (span(MONDAY + DAY), MONDAY, timedelta(0)),
        # a week or a month is long enough to hold its own reports
        (span(MONDAY - 14 * DAY, 7 * DAY), MONDAY, timedelta(0)),
        (span(MONDAY - 60 * DAY, 31 * DAY), MONDAY, timedelta(0)),
        # no time asked, or no moment of asking: nothing to widen
        (None, MONDAY, timedelta(0)),
        (span(MONDAY - 7 * DAY), None, timedelta(0)),
    ],
)
def test_report_lag(asked: TimeSpan | None, reference: datetime | None, lag: timedelta) -> None:
    assert report_lag(asked, reference) == lag


def test_a_report_said_after_the_day_meets_it_and_says_so() -> None:
    asked = span(MONDAY - 7 * DAY)
    where = ContextFilter(time=asked, said_after=report_lag(asked, MONDAY))

    def said(on: TimeSpan) -> MemoryUnit:
        return MemoryUnit("m", "text", EpisodicContext("s", on), "ns")

    # the day's own memory shows the day; a report within the lag shows it was said after it
    assert where.met_by(said(span(MONDAY - 7 * DAY))) == ("time 15 January 2024",)
    assert where.met_by(said(span(MONDAY - 6 * DAY))) == ("said after 15 January 2024",)
    assert where.met_by(said(span(MONDAY - 5 * DAY, timedelta(hours=1)))) == (
        "said after 15 January 2024",
    )
    # three days on is past the lag; without a lag the next day misses too
    assert where.met_by(said(span(MONDAY - 4 * DAY))) is None
    assert ContextFilter(time=asked).met_by(said(span(MONDAY - 6 * DAY))) is None
