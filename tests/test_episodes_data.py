"""The hand-written recurring-episodes data set is well formed (benchmarks/data/episodes)."""

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

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "episodes"


def _load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("episodes_check", DATA / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _load_check()


def test_check_script_passes_and_prints_counts() -> None:
    result = subprocess.run(
        [sys.executable, str(DATA / "check.py")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    rows = {line.split("|")[1].strip(): line for line in result.stdout.splitlines()[2:]}
    assert set(rows) == {"dev", "held", "all"}


def test_every_conversation_has_no_problems() -> None:
    for path in check.FILES.values():
        for sample in json.loads(path.read_text(encoding="utf-8")):
            problems: list[str] = []
            counts = check.check_sample(sample, problems)
            assert problems == []
            assert counts["sessions"] >= 7
            assert counts["questions"] >= 20


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(sample: dict[str, Any]) -> None:
        target: Any = sample
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


BREAKAGES = [
    ("dia_id out of order", _set(("conversation", "session_1", 1, "dia_id"), "D1:5"), "dia_id"),
    ("unknown evidence", _set(("qa", 0, "evidence"), ["D99:1"]), "is not a turn"),
    ("no evidence", _set(("qa", 0, "evidence"), []), "no evidence"),
    ("bad date", _set(("conversation", "session_2_date_time"), "May 2022"), "not written"),
    ("category 5", _set(("qa", 0, "category"), 5), "category"),
    ("unknown speaker", _set(("conversation", "session_1", 0, "speaker"), "Zed"), "speaker"),
]


@pytest.mark.parametrize(("case", "breaks", "expected"), BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_check_finds_each_kind_of_breakage(
    case: str, breaks: Callable[[dict[str, Any]], None], expected: str
) -> None:
    sample = copy.deepcopy(json.loads(check.FILES["dev"].read_text(encoding="utf-8"))[0])
    breaks(sample)
    problems: list[str] = []
    check.check_sample(sample, problems)
    assert any(expected in p for p in problems), (case, problems)
