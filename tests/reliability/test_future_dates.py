"""Plans are dated ahead, not a year back (issue 13, 3).

A day or month without a year in a sentence about what is ahead points forward; the same
words in a sentence about the past keep pointing back. Each row: what was said, when, and the
event date the stored memory must carry.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability


def said(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


PLANS = [
    # the examples
    ("I start at Brightwave as a designer on 16 June.", said(2025, 5, 30), "16 June 2025"),
    ("I booked a dentist cleaning for 3 December.", said(2025, 11, 5), "3 December 2025"),
    (
        "The dentist said the extraction healed well, but I have a small cavity to fill in August.",
        said(2024, 7, 9),
        "August 2024",
    ),
    # more plans
    (
        "We fly to Lisbon from 18 to 24 August.",
        said(2025, 6, 2),
        "18 August 2025 to 24 August 2025",
    ),
    ("I'm off between 3 and 5 January.", said(2025, 12, 20), "3 January 2026 to 5 January 2026"),
    ("The wedding will be on 2 January.", said(2025, 12, 20), "2 January 2026"),
    ("I'm going to Paris in March.", said(2025, 12, 20), "March 2026"),
    ("My interview is on March 12th.", said(2025, 2, 20), "12 March 2025"),
    ("My birthday is on 12 March.", said(2025, 2, 20), "12 March 2025"),
    ("The new job starts on 1 September.", said(2025, 8, 14), "1 September 2025"),
    ("We're planning to move on 5 January.", said(2024, 11, 30), "5 January 2025"),
    # the past stays in the past
    ("I went to Rome on 3 July.", said(2025, 6, 20), "3 July 2024"),
    ("We celebrated on 12 March.", said(2025, 2, 20), "12 March 2024"),
    ("We went hiking in August.", said(2024, 7, 9), "August 2023"),
    ("We stayed in Porto from 3 to 5 May.", said(2025, 6, 20), "3 May 2025 to 5 May 2025"),
    ("We stayed in Porto from 3 to 5 August.", said(2025, 6, 20), "3 August 2024 to 5 August 2024"),
    ("I went to Rome on 3 May.", said(2025, 6, 20), "3 May 2025"),
]


@pytest.mark.parametrize(("text", "when", "expected"), PLANS, ids=[p[0][:40] for p in PLANS])
def test_event_dates_of_plans(text: str, when: datetime, expected: str, tmp_path: Path) -> None:
    conversation = Conversation("c", (Session("s1", when, (Turn("t1", "Maya", text),)),))
    (unit,) = RuleAnchorer().anchor(conversation, "maya")
    assert unit.context.event_time is not None
    assert unit.context.event_time.label() == expected
    assert unit.content == text  # the date is in the context, not written into the words


def test_a_stored_plan_is_found_by_its_date(tmp_path: Path) -> None:
    """Through the store: 'What is on in June 2025?' finds the plan said in May."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    # Two sessions, so each memory is its own episode: within one episode the interview would
    # meet "June 2025" through the episode's date (the plan's), and content alone would decide.
    mem.add_turns(
        [{"speaker": "Maya", "text": "I start at Brightwave as a designer on 16 June."}],
        "maya",
        session_time=said(2025, 5, 30),
    )
    mem.add_turns(
        [{"speaker": "Maya", "text": "I had a designer interview at Northwind in June."}],
        "maya",
        session_time=said(2025, 5, 31),
    )
    hits = mem.retrieve("designer in June 2025", "maya", k=1, reference=said(2025, 7, 1))
    assert hits[0].memory.content.startswith("I start at Brightwave")
    assert hits[0].reason == "context"
