from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    TimeMention,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError, InvalidTimeError, RamemError


def dt(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_timespan_rejects_naive_and_empty() -> None:
    with pytest.raises(InvalidTimeError, match="no timezone"):
        TimeSpan(datetime(2023, 5, 1), dt(2023, 5, 2))
    with pytest.raises(InvalidTimeError, match="before end"):
        TimeSpan(dt(2023, 5, 2), dt(2023, 5, 2))
    with pytest.raises(InvalidTimeError, match="must be a datetime"):
        TimeSpan("2023-05-01", dt(2023, 5, 2))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("span", "label"),
    [
        (TimeSpan.day(date(2023, 5, 7)), "7 May 2023"),
        (TimeSpan(dt(2023, 5, 1), dt(2023, 6, 1)), "May 2023"),
        (TimeSpan(dt(2023, 12, 1), dt(2024, 1, 1)), "December 2023"),
        (TimeSpan(dt(2022, 1, 1), dt(2023, 1, 1)), "2022"),
        (TimeSpan(dt(2023, 5, 1), dt(2023, 5, 8)), "1 May 2023 to 7 May 2023"),
        (
            TimeSpan(dt(2023, 5, 8, 13, 56), dt(2023, 5, 8, 14, 56)),
            "8 May 2023 13:56 to 8 May 2023 14:55",
        ),
        (TimeSpan(dt(2023, 5, 8, 18, 0), dt(2023, 5, 8, 18, 1)), "8 May 2023 18:00"),
        (TimeSpan(dt(2023, 5, 8, 18, 0, 5), dt(2023, 5, 8, 18, 0, 40)), "8 May 2023 18:00"),
        (
            TimeSpan(dt(2023, 5, 8, 18, 0), dt(2023, 5, 8, 18, 2)),
            "8 May 2023 18:00 to 8 May 2023 18:01",
        ),
        (
            TimeSpan(dt(2023, 5, 8, 23, 59), dt(2023, 5, 9, 0, 1)),
            "8 May 2023 23:59 to 9 May 2023 00:00",
        ),
    ],
)
def test_timespan_label(span: TimeSpan, label: str) -> None:
    assert span.label() == label


def test_timespan_half_open_relations() -> None:
    may = TimeSpan(dt(2023, 5, 1), dt(2023, 6, 1))
    june = TimeSpan(dt(2023, 6, 1), dt(2023, 7, 1))
    assert not may.overlaps(june) and not june.overlaps(may)
    assert may.contains(dt(2023, 5, 31, 23, 59)) and not may.contains(dt(2023, 6, 1))
    assert may.contains(TimeSpan.day(date(2023, 5, 7)))
    assert may.overlaps(TimeSpan(dt(2023, 5, 31), dt(2023, 6, 2)))


def _unit(**context: object) -> MemoryUnit:
    ctx = EpisodicContext(
        session_id="s1",
        session_span=TimeSpan(dt(2023, 5, 8, 13, 56), dt(2023, 5, 8, 14, 56)),
        **context,  # type: ignore[arg-type]
    )
    return MemoryUnit("m1", "Ann: hello", ctx, "alice", ("D1:1",), "conv-1")


def test_metadata_round_trip_full() -> None:
    unit = _unit(
        event_time=TimeSpan.day(date(2023, 5, 7)),
        mention_times=(
            TimeMention("yesterday", TimeSpan.day(date(2023, 5, 7))),
            TimeMention("next month", TimeSpan(dt(2023, 6, 1), dt(2023, 7, 1))),
        ),
        participants=("Ann", "Ben"),
        speaker="Ann",
        location="Lake Tahoe",
        entities=("Bob",),
        topic="hiking",
    )
    meta = unit.to_metadata()
    assert meta["session_start"] == int(dt(2023, 5, 8, 13, 56).timestamp())
    assert meta["participants"] == ["Ann", "Ben"]
    assert meta["mention_texts"] == ["yesterday", "next month"]
    assert MemoryUnit.from_metadata(unit.id, unit.content, meta) == unit


def test_metadata_minimal_has_no_none_or_empty_lists() -> None:
    unit = _unit()
    meta = unit.to_metadata()
    assert all(v is not None and v != [] for v in meta.values())
    assert set(meta) == {
        "namespace",
        "conversation_id",
        "session_id",
        "session_start",
        "session_end",
        "source_ids",
    }
    assert MemoryUnit.from_metadata(unit.id, unit.content, meta) == unit


def test_metadata_round_trip_other_timezone_keeps_instant() -> None:
    tz = timezone(timedelta(hours=2))
    ctx = EpisodicContext(
        "s", TimeSpan(datetime(2023, 5, 8, 10, tzinfo=tz), datetime(2023, 5, 8, 11, tzinfo=tz))
    )
    unit = MemoryUnit("m", "x", ctx, "ns")
    back = MemoryUnit.from_metadata("m", "x", unit.to_metadata())
    assert back.context.session_span.start == ctx.session_span.start


@pytest.mark.parametrize(
    ("content", "namespace"), [("", "ns"), ("   ", "ns"), ("x", ""), ("x", None)]
)
def test_memory_unit_rejects_empty(content: str, namespace: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        _ = MemoryUnit("m", content, _unit().context, namespace)
    assert isinstance(info.value, RamemError)


def test_times_read_back_in_the_clock_they_were_said_in() -> None:
    """Stored as epoch seconds, a +01:00 memory's times come back at +01:00: its day is the
    speaker's day, not 23:00 to 22:59 in UTC (what a prompt and `ramem query` show)."""
    plus1 = timezone(timedelta(hours=1))
    day = TimeSpan.day(date(2024, 8, 2), plus1)
    said = TimeSpan(
        datetime(2024, 8, 5, 20, 41, tzinfo=plus1), datetime(2024, 8, 6, 0, 8, tzinfo=plus1)
    )
    context = EpisodicContext(
        "s1",
        said,
        event_time=day,
        mention_times=(TimeMention("yesterday", day),),
        episode=Episode("e1", event_time=day, said=said),
        said_at=TimeSpan(said.start, said.start + timedelta(minutes=1)),
    )
    unit = MemoryUnit("m", "the bike was stolen yesterday", context, "ns")
    meta = unit.to_metadata()
    assert meta["utc_offset"] == 3600
    back = MemoryUnit.from_metadata("m", unit.content, meta)
    assert back == unit  # the same instants
    assert back.context.event_time is not None and back.context.episode is not None
    assert back.context.event_time.label() == "2 August 2024"
    assert back.context.mention_times[0].span.label() == "2 August 2024"
    assert back.context.episode.event_time is not None
    assert back.context.episode.event_time.label() == "2 August 2024"
    assert back.context.session_span.label() == "5 August 2024 20:41 to 6 August 2024 00:07"
    assert back.context.said_at is not None
    assert back.context.said_at.label() == "5 August 2024 20:41"
    assert back.context.episode.said == said
    in_utc = MemoryUnit("m", "x", EpisodicContext("s1", TimeSpan.day(date(2024, 8, 2))), "ns")
    assert "utc_offset" not in in_utc.to_metadata()  # UTC stores stay as they were
