"""Dates as chats write them: which way an underspecified date points, chat spellings,
day-first numeric dates, clock times, the time a reschedule holds, corrections by their shape,
and ``ramem eval times``. Messages go through the rule anchorer (the event time a stored memory
carries), questions through the rule frame inducer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.time.corrections import corrected
from ramem_integrations.evaluation.times import score_times

TUE_3_SEP = datetime(2024, 9, 3, 10, tzinfo=UTC)
EVENING = datetime(2024, 9, 3, 22, 30, tzinfo=UTC)
SMALL_HOURS = datetime(2024, 9, 4, 1, 30, tzinfo=UTC)


def event_label(text: str, said: datetime, **options: object) -> str | None:
    turn = Turn("t1", "Maya", text, said)
    conversation = Conversation("c", (Session("s1", said, (turn,)),))
    (unit,) = RuleAnchorer(**options).anchor(conversation, "maya")  # type: ignore[arg-type]
    span = unit.context.event_time
    return span.label() if span else None


#: (message, when it is sent, the event time its memory carries)
MESSAGES: list[tuple[str, datetime, str | None]] = [
    # direction: arrangements, availability, reschedules and no evidence point ahead
    ("My dentist appointment moved to Thursday 12 September at 3pm.", TUE_3_SEP,
     "12 September 2024"),
    ("Party on the 28th!", TUE_3_SEP, "28 September 2024"),
    ("Leaving Globex on Friday", TUE_3_SEP, "6 September 2024"),
    ("The dentist rescheduled me to Thursday.", TUE_3_SEP, "5 September 2024"),
    ("can't do lunch on Thursday", TUE_3_SEP, "5 September 2024"),
    ("I'm off Thursday next week", TUE_3_SEP, "12 September 2024"),
    ("They pushed the meeting to the 20th.", TUE_3_SEP, "20 September 2024"),
    ("gig postponed until saturday", TUE_3_SEP, "7 September 2024"),
    # ... and the past points back
    ("We went bowling on Friday.", TUE_3_SEP, "30 August 2024"),
    ("saw her last sat lol", TUE_3_SEP, "31 August 2024"),
    # chat spellings
    ("drinks tmrw?", TUE_3_SEP, "4 September 2024"),
    ("r u free weds", TUE_3_SEP, "4 September 2024"),
    ("thurs works for me", TUE_3_SEP, "5 September 2024"),
    ("cu mon at 9", TUE_3_SEP, "9 September 2024"),
    ("bbq friday week?", TUE_3_SEP, "13 September 2024"),
    ("saturday after next then", TUE_3_SEP, "14 September 2024"),
    ("I sat on the bench", TUE_3_SEP, None),  # "sat" alone is a verb
    # numeric dates, day first
    ("party is on 4/10!!", TUE_3_SEP, "4 October 2024"),
    ("flight lands 14/09 at 6pm", TUE_3_SEP, "14 September 2024"),
    ("booked for 06/12/24", TUE_3_SEP, "6 December 2024"),
    ("2/3 of us are vegetarian", TUE_3_SEP, None),
    # clock times said late, and "tomorrow" before sleeping
    ("see u at 1am outside", EVENING, "4 September 2024 01:00 to 4 September 2024 01:59"),
    ("still on for 12:30 tonight?", EVENING, "4 September 2024 00:30 to 4 September 2024 01:29"),
    ("see you tomorrow", SMALL_HOURS, "4 September 2024"),
    # a message naming an old and a new time: the new one holds
    ("physio cancelled tmrw, rebooked for fri", TUE_3_SEP, "6 September 2024"),
    ("it was supposed to be today but now it's next week", TUE_3_SEP,
     "9 September 2024 to 15 September 2024"),
    ("what about the weekend after?", TUE_3_SEP, "14 September 2024 to 15 September 2024"),
    ("camping 20-22/9", TUE_3_SEP, "20 September 2024 to 22 September 2024"),
    ("sat night?", TUE_3_SEP, "7 September 2024"),
    ("thurs 12th works", TUE_3_SEP, "12 September 2024"),
    ("I sat 3rd in the race", TUE_3_SEP, None),
    # holidays in chat
    ("halloween party at jess's", TUE_3_SEP, "31 October 2024"),
    ("boxing day walk?", TUE_3_SEP, "26 December 2024"),
    ("she decorated the christmas tree", TUE_3_SEP, None),
    ("nye plans?", TUE_3_SEP, "31 December 2024"),
]  # fmt: skip


FRI_20_OCT = datetime(2023, 10, 20, 18, tzinfo=UTC)
SUN_26_FEB = datetime(2023, 2, 26, 12, tzinfo=UTC)
AFTER_MIDNIGHT = datetime(2023, 12, 9, 0, 40, tzinfo=UTC)

#: Chat dates read by their shape (and the lookalikes that stay no date)
BY_SHAPE: list[tuple[str, datetime, str | None]] = [
    # a yearless numeric date that ends its clause, day first; not a fraction or a score
    ("back 2/7", TUE_3_SEP, "2 July 2025"),
    ("deadline 31.10", TUE_3_SEP, "31 October 2024"),
    ("can u do 3/1?", TUE_3_SEP, "3 January 2025"),
    ("we met on 10/9 remember", datetime(2024, 9, 26, 21, tzinfo=UTC), "10 September 2024"),
    ("rated it 4/5", TUE_3_SEP, None),
    ("the score was 3/4", TUE_3_SEP, None),
    ("took 2.5 hours", TUE_3_SEP, None),
    # "N weeks ago" / "in N weeks" in a message: the day that many weeks away
    ("2 weeks ago i quit my job lol", TUE_3_SEP, "20 August 2024"),
    ("in 2 weeks? ill be back by then", TUE_3_SEP, "17 September 2024"),
    ("a week ago today we were in lisbon", TUE_3_SEP, "27 August 2024"),
    # sat / sun / mon / wed ending a clause are days; after a subject or determiner, words
    ("dinner sat? 🍝", TUE_3_SEP, "7 September 2024"),
    ("had a lie in, i'm working sat 😩", SUN_26_FEB, "4 March 2023"),
    ("parents eve moved from thurs to mon", TUE_3_SEP, "9 September 2024"),
    ("The cat sat.", TUE_3_SEP, None),
    ("lying in the sun!", TUE_3_SEP, None),
    # 'next X' a day or two ahead in this week is the week after's
    ("match got pushed back a week so its next sat now", FRI_20_OCT, "28 October 2023"),
    ("next Friday", datetime(2023, 5, 8, 12, tzinfo=UTC), "12 May 2023"),
    # a participle right before to / for: the new time
    ("delivery rearranged for monday between 8-12", datetime(2023, 11, 14, 17, tzinfo=UTC),
     "20 November 2023"),
    ("we were gonna do sat but let's push to sun", datetime(2025, 11, 20, 10, tzinfo=UTC),
     "23 November 2025"),
    ("cant do this wknd, next wknd? 🙌", datetime(2023, 11, 22, 19, tzinfo=UTC),
     "2 December 2023 to 3 December 2023"),
    # 'since thurs', whose weekend, a particle after the time, 'tmrw' before sleeping
    ("been sick since thurs 🤒", datetime(2023, 4, 3, 8, tzinfo=UTC),
     "30 March 2023 to 3 April 2023"),
    ("how was ur weekend?", datetime(2024, 11, 26, 12, tzinfo=UTC),
     "23 November 2024 to 24 November 2024"),
    ("they pushed the meeting to the 20th ugh", TUE_3_SEP, "20 September 2024"),
    ("its the 29th actually", TUE_3_SEP, "29 September 2024"),
    ("on the 3rd floor", TUE_3_SEP, None),
    ("going to bed now, see u tmrw at 10", AFTER_MIDNIGHT, "9 December 2023"),
    ("omw home, u up at 9 for the run?", AFTER_MIDNIGHT,
     "9 December 2023 09:00 to 9 December 2023 09:59"),
    # weeks on from a weekday or a day, days of a month as a range
    ("a week on thursday is his leaving do", TUE_3_SEP, "12 September 2024"),
    ("wednesday fortnight", TUE_3_SEP, "18 September 2024"),
    ("a fortnight today we'll be in Cornwall", TUE_3_SEP, "17 September 2024"),
    ("a week yesterday we went", TUE_3_SEP, "26 August 2024"),
    ("I'm in London from the 17th to the 19th", TUE_3_SEP,
     "17 September 2024 to 19 September 2024"),
    # chat spellings and named days
    ("2moz innit", TUE_3_SEP, "4 September 2024"),
    ("saw him ytd, he's fine", TUE_3_SEP, "2 September 2024"),
    ("nxt wk sometime?", TUE_3_SEP, "9 September 2024 to 15 September 2024"),
    ("camping on the late may bank hol monday?", TUE_3_SEP, "26 May 2025"),
    ("we did burns night at Ali's", TUE_3_SEP, "25 January 2024"),
    # a day come and a day ahead in one sentence: the one ahead, unless an aside
    ("the hospital rang this morning, my op is on 6 november", TUE_3_SEP, "6 November 2024"),
    ("the plumber who came yesterday said the part will arrive on monday", TUE_3_SEP,
     "9 September 2024"),
    ("the 10th is off, we've rescheduled for the 17th", TUE_3_SEP, "17 September 2024"),
    ("sports day was yesterday (parents evening is next week btw)", TUE_3_SEP,
     "2 September 2024"),
    ("Got a puppy yesterday! We start classes next month.", TUE_3_SEP, "2 September 2024"),
    ("we didnt end up doing the book reading today so I told her we should go to a movie now"
     " and we will do the book reading tomorrow", TUE_3_SEP, "3 September 2024"),
    # days of a named week; a holiday naming the event gives way to its date
    ("I'm around monday to wednesday next week if you fancy it", TUE_3_SEP,
     "9 September 2024 to 11 September 2024"),
    ("xmas party fri 15th", datetime(2023, 12, 3, 11, tzinfo=UTC), "15 December 2023"),
    ("halloween party at jess's", TUE_3_SEP, "31 October 2024"),
    # more chat spellings; 'later' and 'in the morning' only said before sleeping
    ("tmw at 6?", TUE_3_SEP, "4 September 2024"),
    ("drinks 2nite?", TUE_3_SEP, "3 September 2024 18:00 to 4 September 2024 05:59"),
    ("weds morn", TUE_3_SEP, "4 September 2024"),
    ("in 3 wks", TUE_3_SEP, "24 September 2024"),
    ("wknd?", TUE_3_SEP, "7 September 2024 to 8 September 2024"),
    ("easter mon?", TUE_3_SEP, "21 April 2025"),
    ("new yrs eve", TUE_3_SEP, "31 December 2024"),
    ("see u later", SMALL_HOURS, "4 September 2024"),
    ("see u in the morning", SMALL_HOURS, "4 September 2024 06:00 to 4 September 2024 11:59"),
    ("see u later", TUE_3_SEP, None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "said", "label"), BY_SHAPE)
def test_a_chat_date_is_read_by_its_shape(text: str, said: datetime, label: str | None) -> None:
    assert event_label(text, said) == label


@pytest.mark.parametrize(("text", "said", "label"), MESSAGES)
def test_a_chat_message_is_dated(text: str, said: datetime, label: str | None) -> None:
    assert event_label(text, said) == label


def test_a_month_first_user_says_so() -> None:
    assert event_label("party is on 4/10!!", TUE_3_SEP, date_order="MDY") == "10 April 2025"


#: (question, when it is asked, the span of its time condition)
QUESTIONS: list[tuple[str, datetime, str]] = [
    ("What is on 12 September?", datetime(2024, 9, 10, 9, tzinfo=UTC), "12 September 2024"),
    ("What plans do I have on Thursday?", TUE_3_SEP, "5 September 2024"),
    ("What did I do on Thursday?", TUE_3_SEP, "29 August 2024"),
    ("what happened on 3/9?", TUE_3_SEP, "3 September 2024"),
    ("what's on 05/10?", TUE_3_SEP, "5 October 2024"),
    ("am i free saturday?", datetime(2023, 8, 3, 13, tzinfo=UTC), "5 August 2023"),
    ("anything on next fri?", datetime(2025, 8, 20, 12, tzinfo=UTC), "29 August 2025"),
    # 'the weekend after next' is the coming weekend's next, as 'the Sunday after next' is
    (
        "what's on the weekend after next?",
        datetime(2023, 1, 26, 15, tzinfo=UTC),
        "4 February 2023 to 5 February 2023",
    ),
]


@pytest.mark.parametrize(("question", "asked", "label"), QUESTIONS)
def test_a_question_is_read_the_same_way(question: str, asked: datetime, label: str) -> None:
    frame = RuleFrameInducer().induce(question, reference=asked, known=KnownContext())
    assert [c.span.label() for c in frame.conditions if c.kind == "time" and c.span] == [label]


def _chat(*said: tuple[str, str, int]) -> list:  # type: ignore[type-arg]
    turns = tuple(
        Turn(f"t{n}", who, text, datetime(2024, 9, 3, 9, minutes, tzinfo=UTC))
        for n, (who, text, minutes) in enumerate(said, 1)
    )
    conversation = Conversation("c", (Session("s1", turns[0].time, turns),))  # type: ignore[arg-type]
    return corrected(RuleAnchorer().anchor(conversation, "n"))


@pytest.mark.parametrize(
    "restated",
    ["update: party is now the 27th", "sorry, my bad - it's the 27th", "party's the 27th"],
)
def test_a_correction_is_read_by_its_shape(restated: str) -> None:
    """Whatever opens it, a short message of the same speaker giving the same event a new
    time corrects it: the first memory takes the new time, the two are linked."""
    first, ack, second = _chat(
        ("Priya", "party's on the 20th", 0), ("Ali", "ok cool", 10), ("Priya", restated, 30)
    )
    assert first.context.event_time is not None
    assert first.context.event_time.label() == "27 September 2024"
    assert first.corrected_by == (second.id,) and second.corrects == (first.id,)
    assert not ack.corrects and not ack.corrected_by


#: (what a speaker said, their correction, the first memory's time once corrected)
RESTATED = [
    ("meeting thurs 2pm", "sorry make that 3pm",
     "5 September 2024 15:00 to 5 September 2024 15:59"),
    ("dentist on monday", "oops i meant tuesday", "10 September 2024"),
    ("I saw Jo on Friday", "no wait, thursday", "29 August 2024"),
    ("interview is on 10/9", "update - they moved it to 11/9", "11 September 2024"),
]  # fmt: skip


#: (what a speaker said, a correction giving an hour alone, the time both then carry)
HOURS_RESTATED = [
    ("dinner sat at 7?", "dinner's 8 not 7", "7 September 2024 20:00 to 7 September 2024 20:59"),
    ("football tmrw 11am", "oops 12 not 11", "4 September 2024 12:00 to 4 September 2024 12:59"),
    ("pick u up at 6:30am tmrw", "make that 7",
     "4 September 2024 07:00 to 4 September 2024 07:59"),
    ("doctor's at 9.15am tomorrow", "wait no, 9.45",
     "4 September 2024 09:45 to 4 September 2024 10:44"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "restated", "label"), HOURS_RESTATED)
def test_a_correction_by_an_hour_alone(said: str, restated: str, label: str) -> None:
    """A bare hour restated ("8 not 7", "make that 7") is read nearest the old hour, on the
    old day; both memories carry it and are linked."""
    first, second = _chat(("Priya", said, 0), ("Priya", restated, 10))
    assert first.context.event_time is not None and second.context.event_time is not None
    assert first.context.event_time.label() == label == second.context.event_time.label()
    assert second.corrects == (first.id,) and first.corrected_by == (second.id,)


def test_an_hour_alone_corrects_nothing_without_its_shape() -> None:
    first, second = _chat(("Priya", "dinner sat at 7?", 0), ("Priya", "i have 2 not 3 kids", 10))
    assert not second.corrects and not first.corrected_by


@pytest.mark.parametrize(("said", "restated", "label"), RESTATED)
def test_a_correction_keeps_what_it_does_not_restate(said: str, restated: str, label: str) -> None:
    """A new clock time keeps the corrected day; a new day points the way the old one did."""
    first, second = _chat(("Priya", said, 0), ("Priya", restated, 10))
    assert first.context.event_time is not None
    assert first.context.event_time.label() == label
    assert second.corrects == (first.id,)


@pytest.mark.parametrize(
    "turns",
    [
        [("Priya", "party's on the 20th", 0), ("Ali", "the 27th is the bbq", 10)],
        [("Priya", "yoga on monday", 0), ("Priya", "yoga on friday too", 10)],
        [("Priya", "dentist on monday", 0), ("Priya", "the car goes in on friday", 10)],
    ],
)
def test_no_correction_without_its_shape(turns: list[tuple[str, str, int]]) -> None:
    assert all(not u.corrects and not u.corrected_by for u in _chat(*turns))


BLIND = {
    "messages": [
        {"id": "a.1", "chat": "a", "group": "plan", "sent": "2024-09-03T10:00",
         "speaker": "sam", "text": "r u free on the 28th?",
         "gold": {"start": "2024-09-28", "end": "2024-09-28"}},
        {"id": "a.2", "chat": "a", "group": "distractor", "sent": "2024-09-03T10:05",
         "speaker": "jo", "text": "ok cool", "gold": None},
        {"id": "b.1", "chat": "b", "group": "report", "sent": "2024-09-03T10:00",
         "speaker": "me", "text": "2 weeks ago i quit my job",
         "gold": {"start": "2024-08-20", "end": "2024-08-20"}},
        {"id": "c.1", "chat": "c", "group": "report", "sent": "2024-09-03T10:00",
         "speaker": "me", "text": "ages ago i quit my job",
         "gold": {"start": "2023-09-03", "end": "2023-09-03"}},
    ],
    "questions": [
        {"id": "q1", "asked": "2024-09-03T10:00", "text": "what did i do yesterday?",
         "gold": {"start": "2024-09-02", "end": "2024-09-02"}},
    ],
}  # fmt: skip


def test_eval_times_scores_by_group(tmp_path: Path) -> None:
    result = score_times(BLIND)
    assert result["groups"]["plan"] == {"right": 1, "total": 1}
    assert result["groups"]["distractor"] == {"right": 1, "total": 1}
    assert result["groups"]["report"] == {"right": 1, "total": 2}  # 'ages ago' is no day
    assert result["groups"]["questions"] == {"right": 1, "total": 1}
    path, out = tmp_path / "blind.json", tmp_path / "out" / "scores.json"
    path.write_text(json.dumps(BLIND), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", "eval", "times", str(path),
         "--json", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "plan" in run.stdout and "c.1" in run.stdout  # the table, and the row it got wrong
    assert json.loads(out.read_text())["groups"] == result["groups"]
