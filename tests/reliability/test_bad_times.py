"""Times written with a zone abbreviation, or in years times cannot be grounded in.

A time is either read as the moment it names or refused naming the turn and the fix; it is
never stored hours off (issue 31, cases 12 and 14).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ramem_integrations.core.conversation import (
    Conversation,
    Session,
    Turn,
    load_conversations,
)
from ramem_integrations.errors import RamemError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability

DAY = "2023-05-08"
#: A turn's time as written, and the moment in UTC it names.
READ = [
    (f"{DAY}T13:56:00 PST", datetime(2023, 5, 8, 21, 56, tzinfo=UTC)),
    (f"{DAY}T13:56:00 PDT", datetime(2023, 5, 8, 20, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 EST", datetime(2023, 5, 8, 18, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 CEST", datetime(2023, 5, 8, 11, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 JST", datetime(2023, 5, 8, 4, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 UTC", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    (f"{DAY}T13:56:00Z", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    (f"{DAY}T13:56:00-08:00", datetime(2023, 5, 8, 21, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 UTC+3", datetime(2023, 5, 8, 10, 56, tzinfo=UTC)),
    (f"{DAY} 13:56 GMT-05:00", datetime(2023, 5, 8, 18, 56, tzinfo=UTC)),
    ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
]
#: A time with its zone in parentheses, or in another zone than its session's (UTC here): the
#: moment it names, in UTC, and the clock it was said by (hours east of UTC), both kept.
ZONED = [
    (f"{DAY} 13:56 (PST)", datetime(2023, 5, 8, 21, 56, tzinfo=UTC), -8),
    (f"{DAY} 13:56 (UTC+3)", datetime(2023, 5, 8, 10, 56, tzinfo=UTC), 3),
    (f"{DAY} 13:56 (GMT-5)", datetime(2023, 5, 8, 18, 56, tzinfo=UTC), -5),
    (f"{DAY} 13:56 (PDT)", datetime(2023, 5, 8, 20, 56, tzinfo=UTC), -7),
    ("2023/05/08 (Mon) 13:56 (JST)", datetime(2023, 5, 8, 4, 56, tzinfo=UTC), 9),
    ("2023/05/08 (Mon) 13:56", datetime(2023, 5, 8, 13, 56, tzinfo=UTC), 0),
    (f"{DAY}T13:56:00+05:30", datetime(2023, 5, 8, 8, 26, tzinfo=UTC), 5.5),
    (f"{DAY} 13:56 EST", datetime(2023, 5, 8, 18, 56, tzinfo=UTC), -5),
]
#: Abbreviations that name several zones, or none: refused.
REFUSED = ["CST", "IST", "BST", "AST", "XYZ"]


def chat_file(path: Path, times: list[object]) -> Path:
    turns = [
        {"speaker": "Ann" if i % 2 else "Ben", "text": f"message number {i}", "time": t}
        for i, t in enumerate(times)
    ]
    path.write_text(json.dumps([{"session_time": DAY, "turns": turns}]), encoding="utf-8")
    return path


def test_zone_abbreviations_are_read_as_the_moment_they_name(tmp_path: Path) -> None:
    source = chat_file(tmp_path / "chat.json", [written for written, _ in READ])
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_conversations(load_conversations(source), "ns")
    said = {m.content: m.context.said_at for m in mem.memories("ns")}
    for i, (written, moment) in enumerate(READ):
        span = said[f"message number {i}"]
        assert span is not None and span.start == moment, (written, span)


def test_a_zone_in_parentheses_and_a_turns_own_zone_are_kept(tmp_path: Path) -> None:
    source = chat_file(tmp_path / "chat.json", [written for written, _, _ in ZONED])
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_conversations(load_conversations(source), "ns")
    said = {m.content: m.context.said_at for m in mem.memories("ns")}
    for i, (written, moment, hours) in enumerate(ZONED):
        span = said[f"message number {i}"]
        assert span is not None and span.start == moment, (written, span)
        assert span.start.utcoffset() == timedelta(hours=hours), (written, span)


@pytest.mark.parametrize("brackets", [False, True])
@pytest.mark.parametrize("abbreviation", REFUSED)
def test_an_ambiguous_or_unknown_zone_is_refused_naming_the_turn(
    tmp_path: Path, abbreviation: str, brackets: bool
) -> None:
    written = f"({abbreviation})" if brackets else abbreviation
    source = chat_file(tmp_path / "chat.json", [f"{DAY} 12:00", f"{DAY} 13:56 {written}"])
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    with pytest.raises(RamemError) as refused:
        mem.add_conversations(load_conversations(source), "ns")
    message = str(refused.value)
    assert "session 0 turn 1" in message and repr(abbreviation) in message
    assert "-08:00" in message and "--tz" in message
    assert mem.namespaces() == {}


def test_the_cli_refuses_an_abbreviation_before_creating_the_store(tmp_path: Path) -> None:
    source = chat_file(tmp_path / "chat.json", [f"{DAY} 13:56 IST"])
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", "ingest", str(source), "--store",
         str(store)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=os.environ,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "'IST'" in done.stderr and "India" in done.stderr and "unexpected" not in done.stderr
    assert not store.exists()


@pytest.mark.parametrize("written", ["0001-01-01 10:00", "9999-12-31 10:00", -62135596800])
def test_a_turn_time_outside_the_years_names_the_turn_and_the_range(
    tmp_path: Path, written: object
) -> None:
    session_time = datetime(2023, 5, 8, tzinfo=UTC)
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    turns = [{"speaker": "Ann", "text": "hello"}, {"speaker": "Ben", "text": "hi", "time": written}]
    with pytest.raises(RamemError) as refused:
        mem.add_turns(turns, "ns", session_time=session_time)
    message = str(refused.value)
    assert message.startswith("turn 2:") and "100 to 9900" in message
    assert "reference" not in message
    source = chat_file(tmp_path / "chat.json", [f"{DAY} 12:00", written])
    with pytest.raises(RamemError, match=r"^session 0 turn 1: .*100 to 9900"):
        mem.add_conversations(load_conversations(source), "ns")
    if isinstance(written, str):  # a Turn built in code, its time already a datetime
        turn = Turn("t2", "Ben", "hi", datetime.fromisoformat(written).replace(tzinfo=UTC))
        built = Conversation("c", (Session("s1", session_time, (turn,)),))
        with pytest.raises(RamemError, match=r"^conversation 'c' session 's1' turn 't2': .*100 to"):
            mem.add_conversation(built, "ns")
    assert mem.namespaces() == {}
