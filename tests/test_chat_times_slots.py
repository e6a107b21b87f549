"""Chat dates: a short form that is also a word ("sat", "sun", "wed", "mon") and a dotted
"d.m" are times in the slot only a time fits: before a clock time, after a copula, ending a
clause after a verb's object, closing a question after a preposition's object ("coming to the
match sat?"), opening a clause after "but". Not the verb of a subject or the
noun of a determiner ("the cat sat", "lying in the warm sun"), not a decimal before a noun.
A clause that opens on a progressive without its subject ("going fri now") is the plan, after
an old time told in the past. Messages go through the rule anchorer, sent on Tuesday
3 September 2024 at 10:00.
"""

from __future__ import annotations

import pytest

from ramem_integrations.core.time.grounding import find_times
from tests.test_chat_times_mixed import TUE_3_SEP, event_label

#: The day before a clock time that opens with a word ("from 7", "half 6") or is dotted.
BEFORE_A_CLOCK = [
    ("quiz night sat from 7, u in?", "7 September 2024"),
    ("footy training weds half 6 if anyone fancies it", "4 September 2024"),
    ("brunch sun 11.30 at the usual place", "8 September 2024"),
    ("open house mon till 4, drop by whenever", "9 September 2024"),
]  # fmt: skip

#: After a copula ("its", "is"), the day the plan is said to be.
AFTER_A_COPULA = [
    ("match got moved, its sun now", "8 September 2024"),
    ("ok so the viewing is mon apparently", "9 September 2024"),
]  # fmt: skip

#: Ending a clause after the object of a verb in the past: the day it happened.
AFTER_AN_OBJECT = [
    ("couldn't answer ur text sat, was driving", "31 August 2024"),
    ("dropped the keys round sun, hope thats ok", "1 September 2024"),
]  # fmt: skip

#: Closing a question after the object of a preposition pointing ahead: the day to come.
ASKED_AFTER_AN_OBJECT = [
    ("wanna come to the match sat? ko 3pm", "7 September 2024"),
    ("coming to the bbq sun?", "8 September 2024"),
    ("free for the quiz wed?", "4 September 2024"),
    ("up for the gig mon?", "9 September 2024"),
]  # fmt: skip

#: Opening a clause after "but": the day offered in place of the one turned down.
AFTER_BUT = [
    ("tues is no good but sat works for us", "7 September 2024"),
    ("cant do thurs but mon would be great", "9 September 2024"),
]  # fmt: skip

#: A dotted day and month after a copula, ending its clause.
DOTTED_AFTER_A_COPULA = [
    ("the gig is 6.10, tickets go fast", "6 October 2024"),
    ("bday party's 9.11!", "9 November 2024"),
    ("her leaving do is 2.10 x", "2 October 2024"),
]  # fmt: skip

#: A dotted date with the day above 12 ends its clause though a chat word or an adverb in -ly
#: follows it.
DOTTED_THEN_A_CHAT_WORD = [
    ("flat viewing 18.10 hopefully", "18 October 2024"),
    ("exams finish 14.11 finally, then freedom", "14 November 2024"),
]  # fmt: skip

#: An old time told in the past, then a progressive without its subject: the weekday it
#: names is ahead.
OLD_THEN_NEW = [
    ("meant to ring them yesterday but forgot, calling them fri", "fri", "6 September 2024"),
    ("the vet couldnt fit us in yesterday, taking him thurs", "thurs", "5 September 2024"),
    ("the boiler broke on sunday, getting it fixed weds hopefully", "weds", "4 September 2024"),
    ("couldnt get tickets for last night so going thurs now", "thurs", "5 September 2024"),
]  # fmt: skip

#: A month said for an event ("june for the wedding") is the event's time; not "March" the
#: noun or verb.
MONTH_FOR = [
    ("we reckon december for the housewarming", "December 2024"),
    ("probs june for the wedding, tbc", "June 2025"),
    ("eyeing october for a city break now", "October 2024"),
    ("March for the climate this weekend", "7 September 2024 to 8 September 2024"),
]  # fmt: skip

#: The verb of a subject, the noun of a determiner, "wed" as "we'd", a decimal before its
#: noun or after a subject that is no event: no time.
NO_DAY = [
    "the cat sat.",
    "lying in the warm sun, bliss",
    "the drive is 2.5 hours",
    "sun was out all day but sat nav died",
    "enjoying the warm sun, bliss",
    "would come but wed need a lift",
    "my score is 7.5, not bad",
    "how much? it's 2.5",
    "where the cat sat?",
    "lying in the warm sun?",
    "going to the beach for the sun?",
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    BEFORE_A_CLOCK
    + AFTER_A_COPULA
    + AFTER_AN_OBJECT
    + ASKED_AFTER_AN_OBJECT
    + AFTER_BUT
    + DOTTED_AFTER_A_COPULA
    + DOTTED_THEN_A_CHAT_WORD
    + MONTH_FOR,
)
def test_a_time_in_the_slot_only_a_time_fits(text: str, expected: str) -> None:
    assert event_label(text) == expected


@pytest.mark.parametrize("text", NO_DAY)
def test_the_word_or_the_decimal_is_no_time(text: str) -> None:
    assert event_label(text) is None


@pytest.mark.parametrize(("text", "day", "expected"), OLD_THEN_NEW)
def test_a_progressive_without_its_subject_points_ahead(text: str, day: str, expected: str) -> None:
    found = {f.text: f.span.label() for f in find_times(text, TUE_3_SEP, tense=True)}
    assert found[day] == expected
