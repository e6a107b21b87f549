"""The hand-written messaging-app chats data set is well formed (benchmarks/data/chats)."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "chats"


def _load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chats_check", DATA / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _load_check()


def _dev_sample() -> dict[str, Any]:
    sample: dict[str, Any] = json.loads(check.FILES["dev"].read_text(encoding="utf-8"))[0]
    return copy.deepcopy(sample)


def test_check_script_passes_and_prints_counts() -> None:
    result = subprocess.run(
        [sys.executable, str(DATA / "check.py")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    rows = {line.split("|")[1].strip(): line for line in result.stdout.splitlines()[2:]}
    assert set(rows) == {"dev", "dev2", "held", "unseen", "dense-dev", "dense-unseen", "all"}


def test_every_conversation_has_no_problems() -> None:
    for name, path in check.FILES.items():
        for sample in json.loads(path.read_text(encoding="utf-8")):
            problems: list[str] = []
            counts = check.check_chat(sample, problems, check.SIZES.get(name, check.CHATS))
            assert problems == []
            assert counts["questions"] >= 20
            assert counts["past midnight"] >= 1


def test_session_date_is_the_first_message_time_in_locomo_style() -> None:
    conv = _dev_sample()["conversation"]
    assert conv["session_1_date_time"] == "9:04 pm on 3 March, 2024"
    assert conv["session_1"][0]["timestamp"].startswith("2024-03-03T21:04:")


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(sample: dict[str, Any]) -> None:
        target: Any = sample
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


def _drop_sessions_from(first: int) -> Callable[[dict[str, Any]], None]:
    def apply(sample: dict[str, Any]) -> None:
        conv = sample["conversation"]
        for key in [k for k in conv if k.startswith("session_") and int(k.split("_")[1]) >= first]:
            del conv[key]
        sample["qa"] = []

    return apply


def _stamp(session: int, index: int, value: str | None) -> Callable[[dict[str, Any]], None]:
    return _set(("conversation", f"session_{session}", index, "timestamp"), value)


BREAKAGES = [
    ("no offset", _stamp(1, 3, "2024-03-03T21:10:00"), "no UTC offset"),
    ("not a time", _stamp(1, 3, "last tuesday"), "'last tuesday'"),
    ("no timestamp", _stamp(1, 3, None), "missing"),
    ("goes back in time", _stamp(1, 3, "2024-03-03T20:00:00+00:00"), "not later"),
    ("long silence", _stamp(1, -1, "2024-03-04T09:00:00+00:00"), "a silence of"),
    ("session too soon", _stamp(2, 0, "2024-03-04T01:00:00+00:00"), "starts less than"),
    (
        "date is not first message",
        _set(("conversation", "session_1_date_time"), "9:05 pm on 3 March, 2024"),
        "first message",
    ),
    ("dia_id out of order", _set(("conversation", "session_1", 1, "dia_id"), "D1:5"), "dia_id"),
    ("unknown evidence", _set(("qa", 0, "evidence"), ["D99:1"]), "is not a turn"),
    ("too few messages", _drop_sessions_from(7), "messages, expected"),
]


@pytest.mark.parametrize(("case", "breaks", "expected"), BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_check_finds_each_kind_of_breakage(
    case: str, breaks: Callable[[dict[str, Any]], None], expected: str
) -> None:
    sample = _dev_sample()
    breaks(sample)
    problems: list[str] = []
    check.check_chat(sample, problems)
    assert any(expected in p for p in problems), (case, problems)


def test_a_dense_file_asks_for_conversations_as_long_as_real_chats() -> None:
    sample = _dev_sample()
    problems: list[str] = []
    check.check_chat(sample, problems, check.SIZES["dense"])
    assert any("messages, expected (800, 1100)" in p for p in problems), problems
    assert not any("messages, expected" in p for p in _problems_of(sample))


def _problems_of(sample: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    check.check_chat(sample, problems)
    return problems
