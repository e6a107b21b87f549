"""Chat dates: the time a message puts to its reader. A time asked about in a question that is
still to come, or taken in place of another ("fri instead"), is the message's time, over a
time told or turned down before it. Messages go through the rule anchorer, sent on Tuesday
3 September 2024 at 10:00; a time moved from is given up for the one moved to.
"""

from __future__ import annotations

import pytest

from tests.test_chat_times_mixed import event_label

#: A question to the reader about a time ahead wins over a report or a refusal told first.
ASKED = [
    ("wednesday's looking bad now, could we do friday?", "6 September 2024"),
    ("the 12th is tricky for me, what about the 15th?", "15 September 2024"),
    ("had a lovely time on saturday!! are you around next week?",
     "9 September 2024 to 15 September 2024"),
    ("I'm away on the 5th but could we meet on the 9th?", "9 September 2024"),
    ("tomorrow is busy for me, is thursday any good?", "5 September 2024"),
]  # fmt: skip

#: A time followed by "instead" is the one taken; the other is given up.
TAKEN = [
    ("the plumber won't manage thursday, he's coming friday instead", "6 September 2024"),
    ("let's swap friday's lunch for saturday instead", "7 September 2024"),
    ("not sure about the 20th, we could do the 18th instead", "18 September 2024"),
]  # fmt: skip


#: A move "from" one time "to" another is two times, the new one held, not a range.
MOVED = [
    ("gig's been postponed from 3 march to 17 may", "17 May 2025"),
    ("the meeting got moved from monday to friday", "6 September 2024"),
    ("they've pushed the deadline from the 10th to the 24th", "24 September 2024"),
]  # fmt: skip


#: A time turned down, as the subject of a negated predicate or the object of a negated verb,
#: or the time a thing is moved from, gives way to the other time said.
TURNED_DOWN = [
    ("the 10th doesn't work any more, the 13th is better", "13 September 2024"),
    ("thursday's a no-go now, monday works though", "9 September 2024"),
    ("friday isn't good for me anymore, saturday is", "7 September 2024"),
    ("plasterer can't come mon now, he's doing fri", "6 September 2024"),
    ("we can't manage the 20th, we'll come on the 22nd", "22 September 2024"),
    ("let's move thursday's call to monday", "9 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), ASKED + TAKEN + MOVED + TURNED_DOWN)
def test_the_time_put_to_the_reader_is_the_messages(text: str, label: str) -> None:
    assert event_label(text) == label
