import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.core.conversation import (
    DEFAULT_SESSION_LENGTH,
    detect_format,
    load_conversations,
)
from ramem_integrations.errors import DataFormatError

FIXTURES = Path(__file__).parent / "fixtures"

LOCOMO = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Ben!"},
                {
                    "speaker": "Ben",
                    "dia_id": "D1:2",
                    "text": "Look at this.",
                    "blip_caption": "a photo of a red bike",
                    "img_url": ["http://x"],
                },
            ],
            "session_2_date_time": "10:00 am on 1 June, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Back again."}],
            "session_3_date_time": "10:00 am on 2 June, 2023",
        },
        "qa": [],
    }
]

LONGMEMEVAL = [
    {
        "question_id": "q1",
        "question": "What?",
        "question_date": "2023/12/18 (Mon) 04:17",
        "haystack_session_ids": ["s-a", "s-b"],
        "haystack_dates": ["2023/07/12 (Wed) 10:14", "2023/08/02 (Wed) 05:58"],
        "haystack_sessions": [
            [
                {"role": "user", "content": "I got pre-approved."},
                {"role": "assistant", "content": ""},
            ],
            [{"role": "user", "content": "Hello", "has_answer": True}],
        ],
    }
]


def write(tmp_path: Path, data: Any, name: str = "data.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_locomo_loader(tmp_path: Path) -> None:
    (conv,) = load_conversations(write(tmp_path, LOCOMO))
    assert conv.id == "conv-x" and conv.speakers == ("Ann", "Ben")
    assert [s.id for s in conv.sessions] == ["session_1", "session_2"]  # empty session 3 skipped
    first = conv.sessions[0]
    assert first.start == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.span.end == first.start + DEFAULT_SESSION_LENGTH
    assert first.turns[1].full_text == "Look at this. [shares an image: a photo of a red bike]"
    assert conv.date_range.start == first.start


def test_longmemeval_loader_also_reads_stringified_lists(tmp_path: Path) -> None:
    stringified = [
        {
            **LONGMEMEVAL[0],
            **{
                k: repr(LONGMEMEVAL[0][k])
                for k in ("haystack_session_ids", "haystack_dates", "haystack_sessions")
            },
        }
    ]
    for data in (LONGMEMEVAL, stringified):
        (conv,) = load_conversations(write(tmp_path, data))
        assert [s.id for s in conv.sessions] == ["s-a", "s-b"]
        assert [t.id for t in conv.sessions[0].turns] == ["s-a:0"]  # empty reply skipped
        assert conv.sessions[1].start == datetime(2023, 8, 2, 5, 58, tzinfo=UTC)


def test_chat_loader_fixture() -> None:
    (conv,) = load_conversations(FIXTURES / "chat_small.json")
    assert conv.id.startswith("chat-")  # a digest of the file: another file gets another id
    assert [t.id for t in conv.sessions[0].turns] == ["a:1", "a:2", "a:3"]
    second = conv.sessions[1]
    assert second.start == datetime(2023, 6, 8, 9, 0, tzinfo=UTC)
    assert second.turns[1].time == datetime(2023, 6, 8, 9, 5, tzinfo=UTC)
    assert second.span.end == datetime(2023, 6, 8, 9, 6, tzinfo=UTC)  # last timed turn + 1 min


def test_format_detection_and_explicit_format(tmp_path: Path) -> None:
    assert detect_format(LOCOMO) == "locomo"
    assert detect_format(LONGMEMEVAL) == "longmemeval"
    assert len(load_conversations(write(tmp_path, LOCOMO), "locomo")) == 1


def _chat(**session: Any) -> list[dict[str, Any]]:
    base: dict[str, Any] = {
        "session_time": "2023-05-08 10:00",
        "turns": [{"speaker": "Ann", "text": "hi"}],
    }
    base.update(session)
    return [base]


BAD_INPUTS = [
    ("malformed JSON", '[{"session_time": ', None, "not valid JSON"),
    ("not a list", {"turns": []}, None, "Cannot tell the format"),
    ("empty list", [], None, "Cannot tell the format"),
    ("unknown format", _chat(), "csv", "Unknown format 'csv'"),
    (
        "missing session date",
        [{"turns": [{"speaker": "A", "text": "x"}]}],
        "chat",
        "'session_time' is missing",
    ),
    ("unparseable date", _chat(session_time="the day after never"), None, "cannot read the date"),
    ("impossible date", _chat(session_time="2023-02-30 10:00"), None, "cannot read the date"),
    ("empty turn", _chat(turns=[{"speaker": "Ann", "text": "  "}]), None, "has no text"),
    ("no turns", _chat(turns=[]), None, "'turns' is empty"),
    ("turns wrong type", _chat(turns="hello"), None, "'turns' should be list"),
    (
        "speaker wrong type",
        _chat(turns=[{"speaker": 3, "text": "x"}]),
        None,
        "'speaker' should be str",
    ),
    ("text missing", _chat(turns=[{"speaker": "Ann"}]), None, "'text' is missing"),
    ("turn not an object", _chat(turns=["hello"]), None, "expected a JSON object"),
    (
        "duplicate turn ids",
        _chat(
            turns=[
                {"id": "t", "speaker": "A", "text": "x"},
                {"id": "t", "speaker": "A", "text": "y"},
            ]
        ),
        None,
        "turn ids repeat",
    ),
    (
        "locomo missing date",
        [
            {
                **LOCOMO[0],
                "conversation": {"session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "x"}]},
            }
        ],
        None,
        "a date is required",
    ),
    (
        "longmemeval lengths differ",
        [{**LONGMEMEVAL[0], "haystack_dates": ["2023/07/12 (Wed) 10:14"]}],
        None,
        "different lengths",
    ),
]


@pytest.mark.parametrize(
    ("data", "fmt", "message"), [c[1:] for c in BAD_INPUTS], ids=[c[0] for c in BAD_INPUTS]
)
def test_bad_input_raises_clear_error(
    tmp_path: Path, data: Any, fmt: str | None, message: str
) -> None:
    with pytest.raises(DataFormatError, match=message):
        load_conversations(write(tmp_path, data), fmt)


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="No file at"):
        load_conversations(tmp_path / "nope.json")


def test_timezone_is_applied_to_naive_dates(tmp_path: Path) -> None:
    from datetime import timezone

    tz = timezone(timedelta(hours=-5))
    (conv,) = load_conversations(write(tmp_path, _chat()), tz=tz)
    assert conv.sessions[0].start.utcoffset() == timedelta(hours=-5)
