"""A report of a day is said on it or after it: report_lag, and the filter a question gets."""

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.reinstatement import said_on_first
from ramem_integrations.core.time.tables import REPORT_LAG, report_lag
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, ScoredMemory, TimeSpan

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


def test_what_was_said_on_the_day_comes_before_the_reports_after_it() -> None:
    asked = span(MONDAY - 7 * DAY)
    where = ContextFilter(time=asked, said_after=report_lag(asked, MONDAY))

    def hit(name: str, said: TimeSpan, score: float) -> ScoredMemory:
        return ScoredMemory(MemoryUnit(name, "text", EpisodicContext("s", said), "ns"), score)

    valid = [
        hit("next day", span(MONDAY - 6 * DAY), 0.9),
        hit("on the day", span(MONDAY - 7 * DAY), 0.5),
        hit("two days on", span(MONDAY - 5 * DAY, timedelta(hours=1)), 0.8),
    ]
    assert [h.memory.id for h in valid if where.met_by(h.memory)] == [h.memory.id for h in valid]
    assert [h.memory.id for h in said_on_first(where, valid)] == [
        "on the day",
        "next day",
        "two days on",
    ]
    # three days on is past the lag; without a lag the order is the given one
    assert not where.meets(hit("later", span(MONDAY - 4 * DAY), 1.0).memory)
    assert said_on_first(ContextFilter(time=asked), valid) == valid
