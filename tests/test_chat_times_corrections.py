"""A correction by its shape: a message that follows a plan of its speaker (other people's
replies may come between) and gives it only a new time is a correction, whatever words open
it; a message that names another event is not. Each chat goes through the rule anchorer and
:func:`corrected`, its messages sent a few minutes apart from Saturday 10 October 2026, 14:00.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.time.corrections import corrected
from ramem_integrations.core.types import MemoryUnit, TimeSpan

SENT = datetime(2026, 10, 10, 14, tzinfo=UTC)


def read(turns: list[tuple[str, str]]) -> list[MemoryUnit]:
    """The chat's memories (one a message) after corrections."""
    said = tuple(
        Turn(f"t{i}", speaker, text, SENT + timedelta(minutes=5 * i))
        for i, (speaker, text) in enumerate(turns)
    )
    conversation = Conversation("c", (Session("c-s1", SENT, said),))
    return corrected(RuleAnchorer().anchor(conversation, "t"))


def linked(turns: list[tuple[str, str]]) -> list[TimeSpan]:
    """The event times of the first and last message, which must correct it, read together."""
    units = read(turns)
    plan, correction = units[0], units[-1]
    assert correction.corrects == (plan.id,)
    assert plan.corrected_by == (correction.id,)
    spans = [plan.context.event_time, correction.context.event_time]
    assert None not in spans
    return [span for span in spans if span is not None]


#: (a chat as (speaker, text); the plan's new day, on it and on its correction). The last
#: message has no cue word the plan shares: only its shape says it restates the plan.
RESHAPED = [
    ([("B", "quiz tue 8?"), ("A", "sounds good, may bring jo"),
      ("B", "ah wait hang on, friday better for me")], "16 October 2026"),
    ([("B", "dinner mon at 7?"), ("B", "hold on, thursday better for everyone")],
     "15 October 2026"),
    ([("Kim", "movie night 21/10?"), ("Raj", "🍿"), ("Raj", "yes!!"),
      ("Kim", "22/10 would be easier")], "22 October 2026"),
    ([("Kim", "brunch sun?"), ("Ola", "👍"), ("Kim", "one sec... saturday possible?")],
     "17 October 2026"),
    ([("Jo", "lunch on the 20th?"), ("Al", "can do"),
      ("Jo", "erm, thinking about it, the 22nd suits better")], "22 October 2026"),
    ([("Jo", "drinks thurs after work?"), ("Jo", "let me check... fri preferable")],
     "16 October 2026"),
]  # fmt: skip


@pytest.mark.parametrize(("turns", "label"), RESHAPED)
def test_a_new_time_alone_after_a_plan_corrects_it(
    turns: list[tuple[str, str]], label: str
) -> None:
    assert [span.label() for span in linked(turns)] == [label, label]


#: Chats whose last message is no correction: another event, a report rather than a plan,
#: another speaker's counter-offer. Nothing is linked.
NOT_RESHAPED = [
    [("B", "dinner fri at 7?"), ("B", "gym sat morning btw")],
    [("B", "dinner fri at 7?"), ("A", "yes"), ("B", "saturday better for the cinema")],
    [("B", "saw the new bond film tuesday"), ("B", "friday was better")],
    [("A", "quiz tue 8?"), ("B", "friday better for me")],
    [("B", "quiz tue 8?"), ("B", "also saturday works for the boat trip")],
]  # fmt: skip


@pytest.mark.parametrize("turns", NOT_RESHAPED)
def test_a_new_time_for_another_event_corrects_nothing(turns: list[tuple[str, str]]) -> None:
    units = read(turns)
    assert all(not u.corrects and not u.corrected_by for u in units)


#: (a chat as (speaker, text); the corrected plan's new start and its length in hours). A new
#: day keeps the hour the plan gave when that hour is sure (am or pm, or 12 to 6); "at 9.15"
#: may be morning or evening, so that plan keeps the day alone.
HOUR_CARRIED = [
    ([("B", "dinner mon at 6:45?"), ("B", "sorry i meant fri!! same time")],
     datetime(2026, 10, 16, 18, 45, tzinfo=UTC), 1),
    ([("Ana", "flight lands 14/10 at 6pm"), ("Ana", "correction - lands 15/10")],
     datetime(2026, 10, 15, 18, tzinfo=UTC), 1),
    ([("Jo", "meet at 7pm tomorrow"), ("Sam", "k"), ("Jo", "hmm thursday better actually")],
     datetime(2026, 10, 15, 19, tzinfo=UTC), 1),
    ([("Jo", "doctor's at 9.15 tomorrow"), ("Jo", "no wait, monday")],
     datetime(2026, 10, 12, tzinfo=UTC), 24),
]  # fmt: skip


@pytest.mark.parametrize(("turns", "start", "hours"), HOUR_CARRIED)
def test_a_new_day_keeps_the_plans_hour(
    turns: list[tuple[str, str]], start: datetime, hours: int
) -> None:
    plan = read(turns)[0]
    assert plan.corrected_by
    assert plan.context.event_time is not None
    assert plan.context.event_time.start == start
    assert plan.context.event_time.duration == timedelta(hours=hours)


#: (a chat as (speaker, text); the plan's new start, on it and on its correction). The last
#: message replaces its speaker's plan's time by shape alone: "X not Y" where Y is the plan's
#: day or hour, or "make that X"; an hour-like "7.30" after a plan with a clock time is an hour.
REPLACED = [
    ([("B", "drinks thurs at 8pm"), ("A", "👍"), ("B", "ugh sorry, make that mon")],
     datetime(2026, 10, 12, 20, tzinfo=UTC)),
    ([("Jo", "brunch sun at 11am"), ("Jo", "wait might be wed not sun")],
     datetime(2026, 10, 14, 11, tzinfo=UTC)),
    ([("B", "party's monday from 8"), ("A", "ok cool"), ("B", "oops it's from 7.30 not 8")],
     datetime(2026, 10, 12, 19, 30, tzinfo=UTC)),
    ([("Kim", "dinner fri at 7.45"), ("Kim", "8.15 not 7.45 sorry")],
     datetime(2026, 10, 16, 20, 15, tzinfo=UTC)),
    ([("Ola", "gym tues 10am"), ("Ola", "change that to wed")],
     datetime(2026, 10, 14, 10, tzinfo=UTC)),
]  # fmt: skip


@pytest.mark.parametrize(("turns", "start"), REPLACED)
def test_a_time_in_place_of_the_plans_corrects_it(
    turns: list[tuple[str, str]], start: datetime
) -> None:
    assert [span.start for span in linked(turns)] == [start, start]


#: Chats whose last message has the shape of a replaced time but replaces nothing: another
#: speaker's counter-offer, another event named as the subject, a time the plan did not give,
#: a second plan, a message of its speaker between. Nothing is linked.
NOT_REPLACED = [
    [("A", "drinks thurs at 8pm"), ("B", "make that mon")],
    [("A", "drinks thurs at 8pm"), ("A", "the gym is 7 not 8 btw")],
    [("A", "drinks thurs at 8pm"), ("A", "lunch is wed not fri")],
    [("A", "drinks thurs at 8pm"), ("A", "and footy sat at 10am")],
    [("A", "drinks thurs at 8pm"), ("A", "bring jo"), ("A", "make that mon")],
]  # fmt: skip


@pytest.mark.parametrize("turns", NOT_REPLACED)
def test_a_replacing_shape_for_another_time_corrects_nothing(
    turns: list[tuple[str, str]],
) -> None:
    units = read(turns)
    assert all(not u.corrects and not u.corrected_by for u in units)


#: (a chat as (speaker, text); the plan's new start and its length in hours). The last
#: message's clause holding a time says only that time and at most two other words, whatever
#: they are; what follows a comma explains. A clock time is an hour on the plan's day, a day
#: keeps the plan's sure hour.
SHORT_RESTATED = [
    ([("Dan", "parents evening is weds 6pm"), ("Al", "ok"),
      ("Dan", "erm no 6.30, just found the email")], datetime(2026, 10, 14, 18, 30, tzinfo=UTC), 1),
    ([("Steph", "train gets in at 14:05 on mon"), ("Steph", "lol 15:05, misread it")],
     datetime(2026, 10, 12, 15, 5, tzinfo=UTC), 1),
    ([("Ami", "library 2moro at 1?"), ("Ami", "make it half 1 actually, lecture runs over")],
     datetime(2026, 10, 11, 13, 30, tzinfo=UTC), 1),
    ([("Bex", "work party is the 15th"), ("Mo", "ooh"), ("Bex", "nope 16th, im an idiot")],
     datetime(2026, 10, 16, tzinfo=UTC), 24),
    ([("Liv", "dentist fri at 3pm"), ("Liv", "grr the 19th, misread the card")],
     datetime(2026, 10, 19, 15, tzinfo=UTC), 1),
    ([("Kat", "pick up tmrw at 4.15"), ("Ed", "kk"), ("Kat", "4.45 ugh")],
     datetime(2026, 10, 11, 16, 45, tzinfo=UTC), 1),
]  # fmt: skip


@pytest.mark.parametrize(("turns", "start", "hours"), SHORT_RESTATED)
def test_a_short_restatement_of_a_plans_time_corrects_it(
    turns: list[tuple[str, str]], start: datetime, hours: int
) -> None:
    plan, correction = linked(turns)
    assert plan == correction
    assert (plan.start, plan.duration) == (start, timedelta(hours=hours))


#: Chats whose last message is as short but restates no plan of its speaker: another
#: speaker, another event joined in, a question about something else, a plan with no time.
#: Nothing is linked.
NOT_SHORT_RESTATED = [
    [("A", "drinks thurs at 8pm"), ("B", "nope 9pm")],
    [("A", "drinks thurs at 8pm"), ("A", "plus gym 7am")],
    [("A", "dinner fri at 7pm"), ("A", "u free the 20th?")],
    [("A", "dinner at mine?"), ("A", "nope 8pm")],
]  # fmt: skip


@pytest.mark.parametrize("turns", NOT_SHORT_RESTATED)
def test_a_short_time_for_no_plan_of_its_speaker_corrects_nothing(
    turns: list[tuple[str, str]],
) -> None:
    units = read(turns)
    assert all(not u.corrects and not u.corrected_by for u in units)
