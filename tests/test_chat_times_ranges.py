"""Two times joined as a start and an end are one range ("4-8/10", "out 14/8 back 21/8",
"xmas eve ..., back boxing day"), pointing the way its message does; questions about what is
on look ahead, and "N weeks ago" in a question is the one day that far back, as in a message.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from tests.test_chat_times import event_label

TUE_3_SEP = datetime(2024, 9, 3, 10, tzinfo=UTC)

#: (message sent on Tuesday 3 September 2024, the event time its memory carries)
RANGES: list[tuple[str, str]] = [
    ("off 7-11/10 if you fancy a walk", "7 October 2024 to 11 October 2024"),
    ("the office is closed 27/12-3/1", "27 December 2024 to 3 January 2025"),
    ("flying out 14/10 back 18/10", "14 October 2024 to 18 October 2024"),
    ("booked flights, out 30/9 back 2/10", "30 September 2024 to 2 October 2024"),
    ("christmas eve at mum's, home boxing day", "24 December 2024 to 26 December 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), RANGES)
def test_a_range_is_its_start_to_its_end(text: str, label: str) -> None:
    assert event_label(text, TUE_3_SEP) == label


#: (question asked on Tuesday 3 September 2024, the time it asks about)
QUESTIONS: list[tuple[str, str]] = [
    ("whats on 14.2", "14 February 2025"),
    ("whats happening on 1/3", "1 March 2025"),
    ("what was i doing 3 weeks ago", "13 August 2024"),
    ("what did we do 1 week ago?", "27 August 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "label"), QUESTIONS)
def test_a_question_about_a_schedule_looks_ahead(question: str, label: str) -> None:
    frame = RuleFrameInducer().induce(question, reference=TUE_3_SEP, known=KnownContext())
    assert [c.span.label() for c in frame.conditions if c.kind == "time" and c.span] == [label]
