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
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TenseCue
from ramem_integrations.core.time import tables as temporal_tables
from ramem_integrations.core.time.grounding import _grammar, find_times, tense_of
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import InvalidTimeError

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


WED_5_MAR = datetime(2025, 3, 5, 12, tzinfo=UTC)
FRI_30_MAY = datetime(2025, 5, 30, 12, tzinfo=UTC)

# The issue's own sentences: (said, at, the date its time expression means).
ISSUE = [
    ("We fly to Porto on Friday.", WED_5_MAR, "7 March 2025"),
    ("The crown gets fitted in April.", WED_5_MAR, "April 2025"),
    ("He retires in September.", WED_5_MAR, "September 2025"),
    ("My exam is on the 20th.", WED_5_MAR, "20 March 2025"),
    ("Gym on Saturday?", WED_5_MAR, "8 March 2025"),
    ("I bought the car on 10 March.", WED_5_MAR, "10 March 2024"),
    ("The dentist found a cavity on 2 May.", FRI_30_MAY, "2 May 2025"),
    ("The trip to Porto is next Friday, the 14th.", WED_5_MAR, "14 March 2025"),
]


@pytest.mark.parametrize(("text", "said", "label"), ISSUE, ids=[t for t, _, _ in ISSUE])
def test_the_issues_sentences(text: str, said: datetime, label: str) -> None:
    (found,) = find_times(text, said, tense=True)
    assert found.span.label() == label


# Which way a sentence points, read around its one time expression; None: no cue.
DIRECTIONS = [
    ("We're flying to Lisbon on Friday.", "forward"),
    ("We flew to Lisbon on Friday.", "back"),
    ("On Friday, we flew to Porto.", "back"),
    ("On Friday, we fly to Porto.", "forward"),
    ("I was going to call you on Friday.", "back"),
    ("I should have called on Friday.", "back"),
    ("I've booked a table for Friday.", "forward"),
    ("I already booked a table for Friday.", "forward"),
    ("Remember to call mum on Sunday!", "forward"),
    ("Remember the party in April?", "back"),
    ("What are you doing on Saturday?", "forward"),
    ("What did you do on Saturday?", "back"),
    ("Who won the game on Sunday?", "back"),
    ("How was lunch on Thursday?", "back"),
    ("The store is closed on Sunday.", "forward"),
    ("My cousin gets married in June.", "forward"),
    ("Jo's wedding was on 23 July.", "back"),
    ("Jo's wedding is on 23 July.", "forward"),
    ("Their baby was due in October.", "back"),
    ("We've been to Porto in May.", "back"),
    ("I'm so glad we met on Friday.", "back"),
    ("It's like a late Christmas.", None),
    ("Anything fun over the weekend?", None),
    ("The next day we went to the beach on Saturday.", "back"),
    ("The last day of school is on the 20th.", "forward"),
    ("Did you book a table for Friday?", "forward"),
    ("I booked a flight on Friday.", "back"),
    ("We met earlier on Friday.", "back"),
    ("Lunch with Ann on Friday.", None),
]


@pytest.mark.parametrize(("text", "direction"), DIRECTIONS, ids=[t for t, _ in DIRECTIONS])
def test_tense_of(text: str, direction: str | None) -> None:
    (found,) = find_times(text, WED_5_MAR)
    assert tense_of(text, found.start, found.end) == direction


@pytest.mark.parametrize("cue", ENGLISH.time.tense_cues, ids=lambda c: c.name)
def test_every_cue_row_decides_its_example(cue: TenseCue) -> None:
    """Each row's example holds a match of that row, and points the row's way."""
    (found,) = find_times(cue.example, WED_5_MAR)
    assert tense_of(cue.example, found.start, found.end) == cue.direction
    text = cue.example
    words = f"{text[: found.start]} § {text[found.end :]}".replace("'", " '").replace("?", " ?")
    pattern = next(p for p, c in _grammar(ENGLISH.time).tense_cues if c is cue)
    assert pattern.search(" ".join(words.replace("n 't", " n't").split()))


def test_the_cue_table_is_in_the_docs() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "temporal.md").read_text()
    assert temporal_tables.render_tense_cues() in page


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Lunch with Ann on 12 March.", "12 March 2025"),  # after "on": ahead, as before
        ("Fun times in April.", "April 2024"),  # a bare month: its latest occurrence
        ("Fun times on Friday.", "28 February 2025"),
    ],
)
def test_no_cue_keeps_the_bare_reading(text: str, label: str) -> None:
    (found,) = find_times(text, WED_5_MAR, tense=True)
    assert found.span.label() == label


def test_tense_is_off_unless_asked() -> None:
    (found,) = find_times("We're flying to Lisbon on Friday.", WED_5_MAR)
    assert found.span.label() == "28 February 2025"


def test_a_pinned_weekday_is_restated_once() -> None:
    """'next Friday, the 14th' is one date in the restatement, not '7 March 2025, the 14th'."""
    text = "The trip to Porto is next Friday, the 14th."
    conversation = Conversation("c", (Session("s1", WED_5_MAR, (Turn("t1", "Maya", text),)),))
    (unit,) = RuleAnchorer().anchor(conversation, "maya")
    assert unit.restatement == "Maya: The trip to Porto is on 14 March 2025."
    assert unit.content == text


# ------------------------------------------------------------------ numeric dates, date_order

NUMERIC = [
    ("10.01.2024", None, "10 January 2024"),
    ("10/01/2024", None, "1 October 2024"),
    ("10-01-2024", None, "1 October 2024"),
    ("2024-01-10", None, "10 January 2024"),
    ("10/01/2024", "DMY", "10 January 2024"),
    ("10.01.2024", "MDY", "1 October 2024"),
    ("2024-01-10", "MDY", "10 January 2024"),
    ("25/08/2023", "MDY", "25 August 2023"),
    ("08.25.2023", "DMY", "25 August 2023"),
    ("13.13.2023", "DMY", None),
]


@pytest.mark.parametrize(("text", "order", "label"), NUMERIC)
def test_numeric_dates_follow_the_date_order(
    text: str, order: str | None, label: str | None
) -> None:
    found = find_times(f"The lease ends {text}.", WED_5_MAR, date_order=order)
    assert [f.span.label() for f in found] == ([label] if label else [])


def test_an_unknown_date_order_is_refused() -> None:
    with pytest.raises(InvalidTimeError, match="date_order must be one of DMY, MDY or None"):
        find_times("10/01/2024", WED_5_MAR, date_order="YMD")


def test_the_anchorer_and_the_frames_read_the_same_order() -> None:
    """Messages and questions alike: 10/01/2024 is 10 January with date_order='DMY'."""
    text = "I moved to Leeds on 10/01/2024."
    conversation = Conversation("c", (Session("s1", WED_5_MAR, (Turn("t1", "Maya", text),)),))
    (unit,) = RuleAnchorer(date_order="DMY").anchor(conversation, "maya")
    assert unit.context.event_time is not None
    assert unit.context.event_time.label() == "10 January 2024"
    frame = RuleFrameInducer(date_order="DMY").induce(
        "What happened on 10/01/2024?", reference=WED_5_MAR, known=KnownContext()
    )
    spans = [c.span.label() for c in frame.conditions if c.kind == "time" and c.span]
    assert spans == ["10 January 2024"]


@pytest.mark.parametrize(
    ("hemisphere", "label"),
    [
        ("southern", "1 June 2024 to 31 August 2024"),
        ("northern", "1 December 2024 to 28 February 2025"),
    ],
)
def test_the_anchorer_and_the_frames_read_the_same_hemisphere(hemisphere: str, label: str) -> None:
    """Messages and questions alike: 'last winter' is June to August with hemisphere='southern'."""
    text = "We went skiing last winter."
    conversation = Conversation("c", (Session("s1", WED_5_MAR, (Turn("t1", "Maya", text),)),))
    (unit,) = RuleAnchorer(hemisphere=hemisphere).anchor(conversation, "maya")
    assert unit.context.event_time is not None
    assert unit.context.event_time.label() == label
    frame = RuleFrameInducer(hemisphere=hemisphere).induce(
        "Where did Maya ski last winter?", reference=WED_5_MAR, known=KnownContext()
    )
    assert [c.span.label() for c in frame.conditions if c.kind == "time" and c.span] == [label]


if __name__ == "__main__":  # python -m tests.test_tense [--wrong]: the scores, and misses
    import sys

    for table in (PAIRS, HELDOUT):
        right, total, wrong = score(table)
        print(f"{table.name}: {right}/{total} = {right / total:.3f}")
        for line in wrong if "--wrong" in sys.argv and table == PAIRS else ():
            print("  wrong:", line)
