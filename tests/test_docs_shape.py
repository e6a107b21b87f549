"""The manual stays a manual: each page a reference of readable length, about the package.

A page under docs/ is what a user reads to use the package: what it is, how to use it, the
current figures with the command that makes them. History goes to CHANGELOG.md by version;
development notes (which session or issue did what, machine paths, commits to dig up) go
nowhere a user reads.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
READ_BY_USERS = ["README.md", "CHANGELOG.md", *PAGES]

#: A page longer than this is a notebook, not a reference: split it or move history out.
MAX_LINES = 320
#: How a development note reads: "session 12", "issues 31 and 32".
NARRATION = re.compile(r"\bsessions? [0-9]+|\bissues? [0-9]+", re.IGNORECASE)
#: Where a development note points: this machine's folders, or a commit to dig up.
MACHINE = re.compile(r"/work/|\.\./shared/|git show|/tmp/")
RESULT_FILE = re.compile(r"benchmarks/results/([\w.-]+\.(?:json|md))")


def _lines(name: str) -> list[str]:
    return (ROOT / name).read_text(encoding="utf-8").splitlines()


def test_every_page_is_checked() -> None:
    assert {"docs/evaluation.md", "docs/performance.md", "docs/reliability.md"} <= set(PAGES)


@pytest.mark.parametrize("name", PAGES)
def test_a_page_is_a_reference_of_readable_length(name: str) -> None:
    assert len(_lines(name)) <= MAX_LINES, f"{name}: move history to CHANGELOG.md"


@pytest.mark.parametrize("name", READ_BY_USERS)
def test_no_page_narrates_development(name: str) -> None:
    found = [f"{i}: {line}" for i, line in enumerate(_lines(name), 1) if NARRATION.search(line)]
    assert found == [], f"{name} narrates sessions or issues"


@pytest.mark.parametrize("name", READ_BY_USERS)
def test_no_page_points_at_this_machine_or_old_commits(name: str) -> None:
    found = [f"{i}: {line}" for i, line in enumerate(_lines(name), 1) if MACHINE.search(line)]
    assert found == [], f"{name} names a machine path or a `git show` look-up"


@pytest.mark.parametrize("name", READ_BY_USERS)
def test_every_result_file_a_page_names_is_shipped(name: str) -> None:
    named = {m.group(1) for line in _lines(name) for m in RESULT_FILE.finditer(line)}
    missing = sorted(f for f in named if not (ROOT / "benchmarks" / "results" / f).is_file())
    assert missing == []


def test_the_readme_says_how_to_install_before_how_to_use() -> None:
    headings = [line for line in _lines("README.md") if line.startswith("## ")]
    assert headings[:3] == ["## Install", "## Use it", "## Figures"]


@pytest.mark.parametrize(
    ("line", "narrates"),
    [
        ("Session 20 chose where episode neighbours go", True),
        ("fixed in issue 31 (item 4)", True),
        ("sessions 6 to 11", True),
        ("Each session's date and turns", False),
        ("a session of 30 turns", False),
        ("what issues remain: 3", False),
    ],
)
def test_narration_pattern(line: str, narrates: bool) -> None:
    assert bool(NARRATION.search(line)) is narrates
