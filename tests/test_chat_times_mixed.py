"""Chat dates, continued: numeric dates by their shape, the time a short message is about when
it names a day come and a day ahead, times a message turns down, stays and pairs of days,
habits, and times a reply carries from another speaker's message. Each table's messages go
through the rule anchorer, sent on Tuesday 3 September 2024 at 10:00.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.time.corrections import corrected
from ramem_integrations.evaluation.times import score_times

TUE_3_SEP = datetime(2024, 9, 3, 10, tzinfo=UTC)


def event_label(text: str, said: datetime = TUE_3_SEP) -> str | None:
    turn = Turn("t1", "Maya", text, said)
    conversation = Conversation("c", (Session("s1", said, (turn,)),))
    (unit,) = RuleAnchorer().anchor(conversation, "maya")
    span = unit.context.event_time
    return span.label() if span else None


#: Yearless numeric dates: a day above the month is no fraction or score; one date set against
#: another; a dotted date closed by a dot.
NUMERIC = [
    ("bbq 21/9 at mine", "21 September 2024"),
    ("14/10 suits me", "14 October 2024"),
    ("we got the keys 30/8 and it poured", "30 August 2024"),
    ("can we do 5/9 instead of 12/9?", "5 September 2024"),
    ("gig is 7.9. doors at 8", "7 September 2024"),
    ("rated it 4/5", None),
    ("gave it 13/10", None),
    ("2/3 of us are in", None),
]  # fmt: skip

#: A short message naming a day come and a day ahead is about the one ahead, across its
#: sentences, unless the one ahead is vaguer; cues in another time's clause are that time's.
MIXED = [
    ("loved the gig on friday! dinner on the 14th?", "14 September 2024"),
    ("I know we met up on sunday but fancy lunch thurs?", "5 September 2024"),
    ("thanks for coming on saturday! next one on the 21st?", "21 September 2024"),
    ("we agreed christmas is at nan's", "25 December 2024"),
    ("halloween party booked!", "31 October 2024"),
    ("since the car died yesterday can you walk the dog fri?", "6 September 2024"),
    ("merry almost christmas! coffee tmrw?", "4 September 2024"),
    ("the invoice I sent on the 2nd is now due tomorrow", "4 September 2024"),
    ("after last month's mess we're eating in tonight",
     "3 September 2024 18:00 to 4 September 2024 05:59"),
    ("Got a puppy yesterday! We start classes next month.", "2 September 2024"),
]  # fmt: skip

#: Times a message turns down or moves away from; the one it keeps.
REPLACED = [
    ("no longer the 10th, the 12th now", "12 September 2024"),
    ("sat no, sun yes", "8 September 2024"),
    ("the recital got moved from wed to fri", "6 September 2024"),
    ("friday no problem", "6 September 2024"),
    ("they've pushed the launch back to november", "November 2024"),
    ("not this fri, the one after", "13 September 2024"),
]  # fmt: skip

#: Chat shapes: a day opening the message, 'c u', particles after a day, a day with its
#: date, the eve of a holiday, 'last thing', a habit, stays and pairs of days.
SHAPES = [
    ("sat brunch?", "7 September 2024"),
    ("mon works", "9 September 2024"),
    ("sun cream pls", None),
    ("c u sun 👋", "8 September 2024"),
    ("I'm playing sun now instead", "8 September 2024"),
    ("doing the fri class instead", "6 September 2024"),
    ("dinner's on sat 14th", "14 September 2024"),
    ("I sat 2nd in the quiz", None),
    ("halloween eve drinks?", "30 October 2024"),
    ("I'll send it over last thing on thursday", "5 September 2024"),
    ("swim lessons every wednesday", None),
    ("check in 12/9, check out 15/9", "12 September 2024 to 15 September 2024"),
    ("check in fri 20 sep, check out sun 22 sep", "20 September 2024 to 22 September 2024"),
    ("off thurs and fri", "5 September 2024 to 6 September 2024"),
    ("dinner fri 13/9?", "13 September 2024"),
    ("check in fri 13/9, check out sun 15/9", "13 September 2024 to 15 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), NUMERIC)
def test_a_numeric_date_is_read_by_its_shape(text: str, label: str | None) -> None:
    assert event_label(text) == label


@pytest.mark.parametrize(("text", "label"), MIXED)
def test_a_short_message_is_about_its_day_ahead(text: str, label: str) -> None:
    assert event_label(text) == label


@pytest.mark.parametrize(("text", "label"), REPLACED)
def test_a_time_turned_down_gives_way(text: str, label: str) -> None:
    assert event_label(text) == label


@pytest.mark.parametrize(("text", "label"), SHAPES)
def test_a_chat_shape_is_read(text: str, label: str | None) -> None:
    assert event_label(text) == label


def _chat(*said: tuple[str, str, int]) -> list:  # type: ignore[type-arg]
    turns = tuple(
        Turn(f"t{n}", who, text, datetime(2024, 9, 3, 9, minutes, tzinfo=UTC))
        for n, (who, text, minutes) in enumerate(said, 1)
    )
    conversation = Conversation("c", (Session("s1", turns[0].time, turns),))  # type: ignore[arg-type]
    return corrected(RuleAnchorer().anchor(conversation, "n"))


#: (what one speaker proposed, the other's reply, the time the reply's memory carries)
CARRIED = [
    ("lunch fri?", "yes! 1ish?", "6 September 2024 13:00 to 6 September 2024 13:59"),
    ("book club is thurs at 7", "count me in for book club", "5 September 2024"),
    ("check in fri 13 sep, check out sun 15 sep", "I'll book the saturday off",
     "14 September 2024"),
    ("lunch fri?", "ok cool", None),
    ("good pizza place on fri?", "good morning 🌞", None),
    ("lunch was great yesterday", "the lunch was lovely", None),
]  # fmt: skip


@pytest.mark.parametrize(("proposed", "reply", "label"), CARRIED)
def test_a_reply_carries_the_time_of_the_plan(proposed: str, reply: str, label: str) -> None:
    _, answer = _chat(("Priya", proposed, 0), ("Ali", reply, 10))
    span = answer.context.event_time
    assert (span.label() if span else None) == label


#: (what a speaker said, their restatement, the time the first memory then carries)
RESTATED = [
    ("boat trip sat 10am", "boat trip sat 11am", "7 September 2024"),
    ("my train gets in 17:20 tomorrow", "actually it gets in 17:45, checked again",
     "4 September 2024 17:45 to 4 September 2024 18:44"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "restated", "label"), RESTATED)
def test_a_restatement_with_a_new_clock_time_corrects(said: str, restated: str, label: str) -> None:
    first, ack, second = _chat(("Priya", said, 0), ("Ali", "yay", 5), ("Priya", restated, 30))
    assert second.corrects == (first.id,) and first.corrected_by == (second.id,)
    assert first.context.event_time is not None
    assert first.context.event_time.label() == label
    assert not ack.corrects


def test_eval_times_reads_an_american_chat_month_first() -> None:
    july = {"start": "2024-07-04", "end": "2024-07-04"}
    message = {"group": "numeric", "sent": "2024-06-10T10:00", "speaker": "Al",
               "text": "bbq on 7/4", "gold": july}  # fmt: skip
    data = {
        "conventions": {"us_chat_ids": ["listed"]},
        "messages": [
            {**message, "id": "a", "chat": "c1-us"},
            {**message, "id": "b", "chat": "listed"},
            {
                **message,
                "id": "c",
                "chat": "uk",
                "gold": {"start": "2025-04-07", "end": "2025-04-07"},
            },
        ],
    }
    assert [row["right"] for row in score_times(data)["rows"]] == [True, True, True]
