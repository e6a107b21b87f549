"""Tense decides which way a bare date points (issue 33): the cue tables and scored sentences.

``tests/fixtures/tense_pairs.tsv`` holds plans and reports in pairs ("We're flying to Lisbon on
Friday" / "We flew to Lisbon on Friday"), each said on a known day with the date it means;
``tense_pairs_heldout.tsv`` is a second table kept aside while the rules were written. Both are
scored through the rule anchorer (the event time a stored memory carries). Print both scores
with ``python -m tests.test_tense``.
"""

from __future__ import annotations

import csv
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.types import TimeSpan

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PAIRS = FIXTURES / "tense_pairs.tsv"
HELDOUT = FIXTURES / "tense_pairs_heldout.tsv"


def load(path: Path) -> list[tuple[str, date, str, str]]:
    """Rows (pair, said on, sentence, expected): expected is YYYY-MM-DD, YYYY-MM, or
    YYYY-MM-DD..YYYY-MM-DD (both days included)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(r["pair"], date.fromisoformat(r["said"]), r["sentence"], r["expected"]) for r in rows]


def expected_span(expected: str) -> TimeSpan:
    if ".." in expected:
        first, last = (date.fromisoformat(p) for p in expected.split(".."))
    elif expected.count("-") == 1:
        year, month = (int(p) for p in expected.split("-"))
        first = date(year, month, 1)
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
    else:
        first = last = date.fromisoformat(expected)
    start = datetime(first.year, first.month, first.day, tzinfo=UTC)
    return TimeSpan(start, datetime(last.year, last.month, last.day, tzinfo=UTC) + timedelta(1))


def event_time(sentence: str, said_on: date) -> TimeSpan | None:
    """The event time the rule anchorer stores for the sentence said at noon that day."""
    said = datetime(said_on.year, said_on.month, said_on.day, 12, tzinfo=UTC)
    conversation = Conversation("c", (Session("s1", said, (Turn("t1", "Maya", sentence),)),))
    (unit,) = RuleAnchorer().anchor(conversation, "maya")
    return unit.context.event_time


def score(path: Path) -> tuple[int, int, list[str]]:
    """(right, total, what went wrong) over a table."""
    rows = load(path)
    wrong = []
    for _, said_on, sentence, expected in rows:
        got = event_time(sentence, said_on)
        if got != expected_span(expected):
            wrong.append(f"{sentence!r} said {said_on}: {got and got.label()} (want {expected})")
    return len(rows) - len(wrong), len(rows), wrong


def test_the_tables_are_pairs_said_on_several_days() -> None:
    rows = load(PAIRS)
    assert len(rows) >= 80
    pairs: dict[str, list[date]] = {}
    for pair, said_on, _, _ in rows:
        pairs.setdefault(pair, []).append(said_on)
    assert all(len(days) == 2 and days[0] == days[1] for days in pairs.values())
    assert len({said_on for _, said_on, _, _ in rows}) >= 5
    assert len(load(HELDOUT)) >= 40


@pytest.mark.parametrize("path", [PAIRS, HELDOUT], ids=["pairs", "heldout"])
def test_plans_and_reports_score_at_least_097(path: Path) -> None:
    right, total, wrong = score(path)
    assert right / total >= 0.97, "\n".join(wrong)


if __name__ == "__main__":  # python -m tests.test_tense [--wrong]: the scores, and misses
    import sys

    for table in (PAIRS, HELDOUT):
        right, total, wrong = score(table)
        print(f"{table.name}: {right}/{total} = {right / total:.3f}")
        for line in wrong if "--wrong" in sys.argv else ():
            print("  wrong:", line)
