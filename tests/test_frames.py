"""RuleFrameInducer and KnownContext: a table of questions and the frames they should get.

Two namespaces, each with a fixed reference moment (the end of its conversations): ``demo``
(Alice, Bob, Carol and Sam; Lisbon and Kyoto; September 2023 to September 2024, as in the product
demo) and ``chat`` (a LoCoMo-like chat between Caroline and Melanie, May to October 2023).
A condition is written ``kind:value`` (the span's label for a time, ``relation@anchor`` for a
relation), with ``!`` in front when it is kept but not grounded.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from dateutil.relativedelta import relativedelta

from ramem_integrations.core.frames import (
    KnownContext,
    RuleFrameInducer,
    asks_for_several,
    asks_for_time,
    one_slip,
)
from ramem_integrations.core.types import (
    Condition,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError, InvalidTimeError

DEMO = KnownContext(
    participants=("Alice", "Bob", "Carol", "Sam"),
    places=("Lisbon", "Kyoto"),
    entities=("Northwind", "Contoso Coffee", "Dr. Patel", "SQL"),
    date_range=TimeSpan(
        datetime(2023, 9, 2, 19, 10, tzinfo=UTC), datetime(2024, 9, 2, 19, 45, tzinfo=UTC)
    ),
)
CHAT = KnownContext(
    participants=("Caroline", "Melanie"),
    places=("Sweden",),
    entities=("LGBTQ", "Becoming Nicole", "Oliver", "Pride"),
    date_range=TimeSpan(
        datetime(2023, 5, 8, 13, 56, tzinfo=UTC), datetime(2023, 10, 22, 10, 54, tzinfo=UTC)
    ),
)
NAMESPACES = {"demo": DEMO, "chat": CHAT}
REFERENCE = {"demo": DEMO.date_range.end, "chat": CHAT.date_range.end}  # type: ignore[union-attr]


def induce(namespace: str, question: str) -> RecallFrame:
    known = NAMESPACES[namespace]
    return RuleFrameInducer().induce(question, reference=REFERENCE[namespace], known=known)


def describe(cond: Condition) -> str:
    value = cond.value
    if cond.kind == "time" and cond.span is not None:
        value = cond.span.label()
    elif cond.kind == "relation":
        value = f"{cond.value}@{cond.anchor}"
    return f"{'' if cond.grounded else '!'}{cond.kind}:{value}"


CASES = [
    ("demo", "What did the dentist say last March?", ["time:March 2024"]),
    ("demo", "Where does Alice work now?", ["recency:latest", "participant:Alice"]),
    ("demo", "What did Alice eat on the trip with Bob?", ["participant:Alice", "participant:Bob"]),
    ("demo", "What did Alice have for her birthday in 2023?", ["time:2023", "participant:Alice"]),
    ("demo", "What did Alice have for her birthday in 2024?", ["time:2024", "participant:Alice"]),
    ("demo", "When did Alice go to Kyoto?", ["participant:Alice", "location:Kyoto"]),
    ("demo", "What did Alice eat in Lisbon?", ["participant:Alice", "location:Lisbon"]),
    ("demo", "Where is Alice working these days?", ["recency:latest", "participant:Alice"]),
    (
        "demo",
        "Is Alice still a barista at Contoso Coffee?",
        ["recency:latest", "participant:Alice", "entity:Contoso Coffee"],
    ),
    (
        "demo",
        "Does Alice work at Contoso Coffee anymore?",
        ["recency:latest", "participant:Alice", "entity:Contoso Coffee"],
    ),
    ("demo", "What is Alice's latest job?", ["recency:latest", "participant:Alice"]),
    ("demo", "What is the most recent thing Carol baked?", ["recency:latest", "participant:Carol"]),
    (
        "demo",
        "What did Carol buy in Kyoto last month?",
        ["time:August 2024", "participant:Carol", "location:Kyoto"],
    ),
    (
        "demo",
        "What did Alice do two weeks ago?",  # the day that far back, as a chat means it
        ["time:19 August 2024", "participant:Alice"],
    ),
    ("demo", "What did Sam ask yesterday?", ["time:1 September 2024", "participant:Sam"]),
    (
        "demo",
        "What did Alice say last week?",
        ["time:26 August 2024 to 1 September 2024", "participant:Alice"],
    ),
    ("demo", "What happened last summer?", ["time:1 June 2024 to 31 August 2024"]),
    (
        "demo",
        "What did Alice say about SQL in September 2023?",
        ["time:September 2023", "participant:Alice", "entity:SQL"],
    ),
    (
        "demo",
        "What did Dr. Patel tell Alice in March 2024?",
        ["time:March 2024", "participant:Alice", "entity:Dr. Patel"],
    ),
    (
        "demo",
        "What did Alice do after the trip to Lisbon?",
        ["!relation:after@the trip to Lisbon", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice plan before her birthday?",
        ["!relation:before@her birthday", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice eat since she got back from Kyoto?",
        ["!relation:after@she got back from Kyoto", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice cook after it had to be cancelled?",
        ["!relation:after@it had to be cancelled", "participant:Alice"],
    ),
    (
        "demo",
        "What did Bob say after he was told?",
        ["!relation:after@he was told", "participant:Bob"],
    ),
    ("demo", "What did Bob say after it?", ["participant:Bob"]),
    # a lone name then its auxiliary: the event is the clause, not the person
    (
        "demo",
        "How long has it been since Bob had a nosebleed?",
        ["!relation:after@Bob had a nosebleed"],
    ),
    (
        "demo",
        "What did Alice cook after Bob had left?",
        ["!relation:after@Bob had left", "participant:Alice"],
    ),
    (
        "demo",
        "What has Alice done since May 2024?",
        ["time:1 May 2024 to 2 September 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice do before May 2024?",
        ["time:2 September 2018 to 30 April 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice say until June 2024?",
        ["time:2 September 2018 to 30 June 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice do the week before 12 March 2024?",
        ["time:5 March 2024 to 11 March 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice do two weeks after 20 May 2024?",
        ["time:21 May 2024 to 3 June 2024", "participant:Alice"],
    ),
    (
        "demo",
        "When was the first time Alice went to Lisbon?",
        ["!relation:first@Lisbon", "participant:Alice", "location:Lisbon"],
    ),
    (
        "demo",
        "What did Bob buy the last time he was in Lisbon?",
        ["!relation:last@Lisbon", "participant:Bob", "location:Lisbon"],
    ),
    # order words carry the subject they govern; holidays and round-2 times are times
    ("demo", "When was the first time I mentioned the dentist?", ["!relation:first@dentist"]),
    (
        "demo",
        "What did Carol say the last time she talked about Kyoto?",
        ["!relation:last@Kyoto", "participant:Carol", "location:Kyoto"],
    ),
    (
        "demo",
        "When did Sam first mention Northwind?",
        ["!relation:first@Northwind", "participant:Sam", "entity:Northwind"],
    ),
    ("demo", "Were you working last Christmas?", ["time:25 December 2023"]),
    (
        "demo",
        "What did Alice do over Easter?",
        ["time:29 March 2024 to 1 April 2024", "participant:Alice"],
    ),
    ("demo", "What did Alice do in October last year?", ["time:October 2023", "participant:Alice"]),
    (
        "chat",
        "What did Melanie do two Christmases ago?",
        ["time:25 December 2021", "participant:Melanie"],
    ),
    (
        "demo",
        "What did Alice do in Q2 2024?",
        ["time:1 April 2024 to 30 June 2024", "participant:Alice"],
    ),
    (
        "demo",
        "Who did Alice meet over the last two months?",
        ["time:2 July 2024 to 2 September 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What is Carol doing until Friday?",
        ["time:2 September 2024 to 6 September 2024", "participant:Carol"],
    ),
    ("demo", "What did Bob wear in his Sunday best?", ["participant:Bob"]),
    ("demo", "What did Dave say about Kyoto?", ["location:Kyoto", "!participant:Dave"]),
    ("demo", "Did Alice visit Porto?", ["participant:Alice", "!location:Porto"]),
    ("demo", "What did Alice say in 2015?", ["!time:2015", "participant:Alice"]),
    ("demo", "What will Alice do in 2027?", ["!time:2027", "participant:Alice"]),
    ("demo", "What did Alice's dentist say?", ["participant:Alice"]),
    ("demo", "What did alice eat?", ["participant:Alice"]),
    ("demo", "What is Alice's dog named after?", ["participant:Alice"]),
    ("demo", "Who takes care of Alice after work?", ["participant:Alice"]),
    (
        "demo",
        "How long ago did Alice start at Northwind?",
        ["participant:Alice", "entity:Northwind"],
    ),
    ("demo", "What year did Alice join Northwind?", ["participant:Alice", "entity:Northwind"]),
    (
        "demo",
        "What did Alice eat between May and July 2024?",
        ["time:1 May 2024 to 31 July 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice do over the weekend?",
        ["time:31 August 2024 to 1 September 2024", "participant:Alice"],
    ),
    (
        "demo",
        "What did Alice do the other day?",
        ["time:26 August 2024 to 1 September 2024", "participant:Alice"],
    ),
    ("demo", "What did Alice do a while ago?", ["participant:Alice"]),
    (
        "demo",
        "What did Alice do recently?",
        ["time:3 August 2024 to 2 September 2024", "participant:Alice"],
    ),
    ("demo", "What did Alice say on Friday?", ["time:30 August 2024", "participant:Alice"]),
    (
        "demo",
        "What did Alice order on 1 September 2023?",
        ["time:1 September 2023", "participant:Alice"],
    ),
    (
        "demo",
        "What did Sam and Alice talk about on 2024-03-12?",
        ["time:12 March 2024", "participant:Sam", "participant:Alice"],
    ),
    ("demo", "May I ask what Alice ate?", ["participant:Alice"]),
    ("demo", "What did Bob say before the trip?", ["!relation:before@the trip", "participant:Bob"]),
    ("demo", "What does Alice like?", ["participant:Alice"]),
    ("demo", "Where does Carol live now?", ["recency:latest", "participant:Carol"]),
    (
        "demo",
        "What did Alice eat in Kyoto in August 2024?",
        ["time:August 2024", "participant:Alice", "location:Kyoto"],
    ),
    ("demo", "What is the weather like?", []),
    ("demo", "Tell me something nice.", []),
    (
        "chat",
        "When did Caroline go to the LGBTQ support group?",
        ["participant:Caroline", "entity:LGBTQ"],
    ),
    ("chat", "When did Melanie paint a sunrise?", ["participant:Melanie"]),
    (
        "chat",
        "What did Caroline do after the support group?",
        ["!relation:after@the support group", "participant:Caroline"],
    ),
    ("chat", "What did Melanie do in May 2023?", ["time:May 2023", "participant:Melanie"]),
    ("chat", "When did Melanie go camping in June?", ["time:June 2023", "participant:Melanie"]),
    (
        "chat",
        "When did Caroline go to a pride parade during the summer?",
        # 'pride' in lower case, in a question that capitalises names: a common word
        ["time:1 June 2023 to 31 August 2023", "participant:Caroline"],
    ),
    (
        "chat",
        "What did Melanie paint recently?",
        ["time:22 September 2023 to 22 October 2023", "participant:Melanie"],
    ),
    ("chat", "Where did Caroline move from 4 years ago?", ["time:2019", "participant:Caroline"]),
    (
        "chat",
        "How many times has Melanie gone to the beach in 2023?",
        ["time:2023", "participant:Melanie"],
    ),
    (
        "chat",
        "What did Mel and her kids paint in their latest project in July 2023?",
        ["time:July 2023", "recency:latest", "participant:Melanie"],
    ),
    (
        "chat",
        "What did Melanie and her family see during their camping trip last year?",
        ["time:2022", "participant:Melanie"],
    ),
    (
        "chat",
        "What painting did Melanie show to Caroline on October 13, 2023?",
        ["time:13 October 2023", "participant:Melanie", "participant:Caroline"],
    ),
    (
        "chat",
        "What did Caroline participate in last weekend before October 16, 2023?",
        [
            "time:14 October 2023 to 15 October 2023",
            "time:8 May 2018 to 15 October 2023",
            "participant:Caroline",
        ],
    ),
    (
        "chat",
        "What did Melanie contribute on the Sunday before October 13, 2023?",
        ["time:8 October 2023", "participant:Melanie"],
    ),
    (
        "chat",
        "What new activity did Melanie start recently, as mentioned on 3 June, 2023?",
        ["time:4 May 2023 to 3 June 2023", "time:3 June 2023", "participant:Melanie"],
    ),
    (
        "chat",
        "When did Melanie go on a hike after the roadtrip?",
        ["!relation:after@the roadtrip", "participant:Melanie"],
    ),
    (
        "chat",
        'What did Caroline take away from the book "Becoming Nicole"?',
        ["participant:Caroline", "entity:Becoming Nicole"],
    ),
    ("chat", "Where did Oliver hide his bone once?", ["entity:Oliver"]),
    ("chat", "What country is Caroline's grandma from?", ["participant:Caroline"]),
    (
        "chat",
        "How long has Caroline had her current group of friends for?",
        ["recency:latest", "participant:Caroline"],
    ),
    (
        "chat",
        "Would Caroline still want to pursue counseling?",
        ["recency:latest", "participant:Caroline"],
    ),
    (
        "chat",
        "Which city have both Jean and John visited?",
        ["!participant:Jean", "!participant:John"],
    ),
    ("chat", "What did Caroline do in Sweden?", ["participant:Caroline", "location:Sweden"]),
    ("chat", "What did Caroline do in 2010?", ["!time:2010", "participant:Caroline"]),
    (
        "chat",
        "Would Melanie be considered an ally to the transgender community?",
        ["participant:Melanie"],
    ),
    ("chat", "What is Caroline's identity?", ["participant:Caroline"]),
    ("chat", "What fields would someone be likely to pursue in education?", []),
]


@pytest.mark.parametrize(("namespace", "question", "expected"), CASES)
def test_question_gets_its_frame(namespace: str, question: str, expected: list[str]) -> None:
    frame = induce(namespace, question)
    assert [describe(c) for c in frame.conditions] == expected
    assert frame.query == question and frame.reference == REFERENCE[namespace]
    assert frame.is_grounded == any(not e.startswith("!") for e in expected)
    assert all(c.reason for c in frame.conditions if not c.grounded)


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize(
    ("namespace", "question", "need"),
    [
        ("demo", "What did the dentist say last March?", "What did the dentist say?"),
        ("demo", "Where does Alice work now?", "Where does Alice work?"),
        ("demo", "What did Alice eat on the trip with Bob?",
         "What did Alice eat on the trip with Bob?"),
        ("demo", "What did Alice have for her birthday in 2023?",
         "What did Alice have for her birthday?"),
        ("demo", "What did Alice do after the trip to Lisbon?", "What did Alice do?"),
        ("demo", "Is Alice still a barista at Contoso Coffee?",
         "Is Alice a barista at Contoso Coffee?"),
        ("demo", "What did Alice do the week before 12 March 2024?", "What did Alice do?"),
        ("demo", "What did Carol buy in Kyoto last month?", "What did Carol buy in Kyoto?"),
        ("demo", "What did Alice eat between May and July 2024?", "What did Alice eat?"),
        ("chat", "When did Melanie paint a sunrise?", "When did Melanie paint a sunrise?"),
        ("chat", "What did Melanie do in May 2023?", "What did Melanie do?"),
        ("chat", "When did Caroline go to a pride parade during the summer?",
         "When did Caroline go to a pride parade?"),
        ("chat", "What new activity did Melanie start recently, as mentioned on 3 June, 2023?",
         "What new activity did Melanie start?"),
    ],
)  # fmt: skip
def test_need_drops_condition_words_but_keeps_names(
    namespace: str, question: str, need: str
) -> None:
    assert induce(namespace, question).need == need


def test_condition_evidence_is_the_question_words() -> None:
    frame = induce("demo", "What did Alice's friend say after the trip to Lisbon last May?")
    by_kind = {c.kind: c for c in frame.conditions}
    assert by_kind["time"].evidence == "last May"
    assert by_kind["time"].span == TimeSpan(
        datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)
    )
    assert by_kind["relation"].evidence == "after the trip to Lisbon"
    assert (
        by_kind["relation"].value == "after" and by_kind["relation"].anchor == "the trip to Lisbon"
    )
    assert "anchor event's time" in by_kind["relation"].reason
    assert by_kind["participant"].evidence == "Alice"


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Where do I work now?", "work"),
        ("Is Alice still a barista at Contoso Coffee?", "barista Contoso Coffee"),
        ("What is Bob's latest job?", "job"),
        ("When was the last time Bob went to the dentist?", "dentist"),
        ("What did I say the first time I brought up the move to Lisbon?", "move to Lisbon"),
        ("What did Alice say the last time?", None),
        # stop words and generic verbs do not count toward the subject's length
        (
            "When did Bob first mention that he was working on a time travel machine?",
            "working on a travel machine",
        ),
        (
            "When did Alice first say that it would be cool to have a robot that cooks?",
            "cool to a robot that cooks",
        ),
    ],
)
def test_order_and_recency_words_govern_a_subject(question: str, subject: str | None) -> None:
    (cond,) = (c for c in induce("demo", question).conditions if c.kind in ("relation", "recency"))
    assert cond.anchor == subject


def test_relative_time_is_read_against_the_date_the_question_names() -> None:
    frame = induce("chat", "What did Melanie do last weekend before April 10, 2023?")
    weekend, before = (c for c in frame.conditions if c.kind == "time")
    assert weekend.span == TimeSpan(
        datetime(2023, 4, 8, tzinfo=UTC), datetime(2023, 4, 10, tzinfo=UTC)
    )
    assert "the date the question names" in weekend.reason
    assert before.evidence == "before April 10, 2023"
    assert frame.time_range == weekend.span  # the conditions' intersection


def test_a_weekday_before_a_date_is_one_condition() -> None:
    frame = induce("chat", "What did Melanie contribute on the Sunday before October 13, 2023?")
    (sunday,) = (c for c in frame.conditions if c.kind == "time")
    assert sunday.span == TimeSpan.day(datetime(2023, 10, 8).date())
    assert sunday.evidence == "the Sunday before October 13, 2023"


def test_time_range_covers_conditions_that_do_not_meet() -> None:
    # 'last Friday' (an event) said 'on 13 October' (when it was mentioned): both kept
    frame = induce("chat", "What did Caroline finish last Friday on 13 October, 2023?")
    assert [c.value for c in frame.conditions if c.kind == "time"] == [
        "6 October 2023",
        "13 October 2023",
    ]
    assert frame.time_range == TimeSpan(
        datetime(2023, 10, 6, tzinfo=UTC), datetime(2023, 10, 14, tzinfo=UTC)
    )


def test_open_ranges_stop_at_the_time_asked_or_the_widened_conversation_dates() -> None:
    since = induce("demo", "What has Alice done since May 2024?").time_range
    assert since == TimeSpan(datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 9, 3, tzinfo=UTC))
    after = induce("demo", "What has Alice done after May 2024?").time_range
    assert after == TimeSpan(datetime(2024, 6, 1, tzinfo=UTC), datetime(2025, 9, 3, tzinfo=UTC))
    before = induce("demo", "What did Alice do before May 2024?").time_range
    assert before == TimeSpan(datetime(2018, 9, 2, tzinfo=UTC), datetime(2024, 5, 1, tzinfo=UTC))


def test_a_time_far_outside_the_conversation_is_kept_ungrounded() -> None:
    frame = induce("demo", "What did the dentist say in 2015?")
    assert not frame.is_grounded and frame.time_range is None
    [cond] = frame.conditions
    assert cond.kind == "time" and cond.span is not None and cond.span.label() == "2015"
    assert "outside the conversation's dates" in frame.why_not_grounded


def test_seasons_follow_the_hemisphere_option() -> None:
    question = "What did Alice do last winter?"
    north = RuleFrameInducer().induce(question, reference=REFERENCE["demo"], known=DEMO)
    south = RuleFrameInducer(hemisphere="southern").induce(
        question, reference=REFERENCE["demo"], known=DEMO
    )
    assert (
        north.time_range is not None
        and north.time_range.label() == "1 December 2023 to 29 February 2024"
    )
    assert (
        south.time_range is not None and south.time_range.label() == "1 June 2024 to 31 August 2024"
    )


def test_margins_are_configurable() -> None:
    strict = RuleFrameInducer(past_margin=relativedelta(), future_margin=relativedelta())
    frame = strict.induce("What happened in 2022?", reference=REFERENCE["demo"], known=DEMO)
    assert not frame.is_grounded
    assert induce("demo", "What happened in 2022?").is_grounded  # within the 5-year margin


def test_without_known_dates_times_are_judged_against_the_reference() -> None:
    ref = datetime(2024, 9, 2, 12, tzinfo=UTC)
    inducer = RuleFrameInducer()
    assert inducer.induce(
        "What happened last March?", reference=ref, known=KnownContext()
    ).is_grounded
    old = inducer.induce("What happened in 2001?", reference=ref, known=KnownContext())
    assert not old.is_grounded


def test_question_without_conditions_says_why() -> None:
    frame = induce("chat", "What fields would someone be likely to pursue in education?")
    assert frame.conditions == () and not frame.is_grounded
    assert "names no time, person, place or event" in frame.why_not_grounded
    assert frame.need == frame.query


def test_unknown_name_is_explained() -> None:
    frame = induce("chat", "Which city have both Jean and John visited?")
    assert not frame.is_grounded
    assert "'Jean' is no participant, place or entity this namespace has seen" in (
        frame.why_not_grounded
    )


@pytest.mark.parametrize(
    ("question", "participants"),
    [
        ("What did mel's kids make?", ()),  # lower case: no name
        ("Mel made what with her kids?", ()),  # opening the question: capitalised as any word
        ("What did her kids make? And Mel?", ("Melanie",)),  # after "And": written as a name
        ("Did Mel make it with her kids?", ("Melanie",)),
    ],
)
def test_a_short_form_counts_where_the_question_writes_it_as_a_name(
    question: str, participants: tuple[str, ...]
) -> None:
    assert induce("chat", question).values("participant") == participants


def test_short_form_and_case_of_a_participant_name_are_recognised() -> None:
    frame = induce("chat", "What did Mel and her kids make?")
    assert frame.values("participant") == ("Melanie",)
    [cond] = frame.conditions
    assert cond.evidence == "Mel" and "short for 'Melanie'" in cond.reason


@pytest.mark.parametrize(
    ("typed", "meant", "slip"),
    [
        ("nerbaas", "nebraas", True),  # two neighbours swapped
        ("aqib", "akib", True),  # a letter changed
        ("johnn", "john", True),  # a letter added
        ("jon", "john", True),  # a letter dropped
        ("melanie", "melanie", False),  # the name itself
        ("melany", "melanie", False),  # two slips
        ("carol", "caroline", False),  # a short form, not a slip (shortens)
        ("nebarsa", "nebraas", False),
    ],
)
def test_one_slip(typed: str, meant: str, slip: bool) -> None:
    assert one_slip(typed, meant) is slip


@pytest.mark.parametrize(
    ("question", "conditions"),
    [
        ("What did Alcie eat in Lisbon?", ["location:Lisbon", "participant:Alice"]),
        ("What did Bob tell Carrol?", ["participant:Bob", "participant:Carol"]),
        ("What did Sal say?", ["!participant:Sal"]),  # too short to tell a slip from a name
        ("What did Rob say?", ["!participant:Rob"]),  # a slip from Bob, but not its first letter
    ],
)
def test_a_misspelt_participant_name_is_that_participant(
    question: str, conditions: list[str]
) -> None:
    assert [describe(c) for c in induce("demo", question).conditions] == conditions


def test_first_name_matches_a_known_full_name() -> None:
    known = KnownContext(participants=("Alice Smith", "Bob Jones", "Bob Brown"))
    frame = RuleFrameInducer().induce(
        "What did Alice say to Bob?", reference=REFERENCE["demo"], known=known
    )
    assert [describe(c) for c in frame.conditions] == [
        "participant:Alice Smith",
        "!participant:Bob",
    ]


def test_stop_words_and_time_words_among_known_entities_never_match() -> None:
    known = KnownContext(participants=("Alice",), entities=("Last", "Here", "Now", "Go", "Fri"))
    frame = RuleFrameInducer().induce(
        "Where does Alice go now, and what did she do here last week?",
        reference=REFERENCE["demo"],
        known=known,
    )
    assert frame.values("entity") == ()


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("When did Melanie paint a sunrise?", True),
        ("What year did Alice join Northwind?", True),
        ("How long ago was Caroline's 18th birthday?", True),
        ("In which month did Alice go to Kyoto?", True),
        ("What did Alice do in May?", False),
        ("Whenever Alice travels, what does she eat?", False),
    ],
)
def test_asks_for_time(question: str, asks: bool) -> None:
    assert asks_for_time(question) is asks
    assert induce("demo", question).asks_time is asks


@pytest.mark.parametrize(
    ("question", "several"),
    [
        ("What sports does Kevin play?", True),
        ("What films did Nebraas watch?", True),
        ("Which cities has Ann visited?", True),
        ("What kind of music does Ann like?", True),
        ("What new hobbies did Alice pick up?", True),  # an adjective before the plural
        ("How many pets does Nebraas have?", True),
        ("Did both of them go to the lake?", True),
        ("What are all the places Alice has been to?", True),
        ("What did Kevin cook?", False),
        ("What is his job?", False),
        ("What news did Bob share?", False),  # "news" is one thing
        ("What was the name of his dog?", False),
        ("How many years ago did Caroline move?", False),  # asks for a time
        ("When did both of them move?", False),
        ("Where does Alice work now?", False),
    ],
)
def test_asks_for_several(question: str, several: bool) -> None:
    assert asks_for_several(question) is several
    assert induce("demo", question).asks_several is several


def test_a_when_question_gets_no_time_condition_from_asking() -> None:
    frame = induce("chat", "When did Caroline go to the LGBTQ support group?")
    assert frame.asks_time and frame.time_range is None
    assert "time" not in {c.kind for c in frame.conditions}


def test_reference_must_be_aware_and_query_a_string() -> None:
    with pytest.raises(InvalidTimeError):
        RuleFrameInducer().induce(
            "What happened last May?", reference=datetime(2024, 1, 1), known=DEMO
        )
    with pytest.raises(InvalidInputError):
        RuleFrameInducer().induce(None, reference=REFERENCE["demo"], known=DEMO)  # type: ignore[arg-type]


def test_induction_is_deterministic() -> None:
    first = induce("demo", "What did Alice eat in Kyoto last month?")
    assert all(induce("demo", "What did Alice eat in Kyoto last month?") == first for _ in range(3))


# ------------------------------------------------------------------------- KnownContext


def unit(
    turn: str,
    start: datetime,
    speaker: str,
    participants: tuple[str, ...],
    location: str | None = None,
    entities: tuple[str, ...] = (),
) -> MemoryUnit:
    context = EpisodicContext(
        session_id=f"s-{start:%m%d}",
        session_span=TimeSpan(start, start + timedelta(hours=1)),
        participants=participants,
        speaker=speaker,
        location=location,
        entities=entities,
    )
    return MemoryUnit(turn, f"{speaker}: ...", context, "alice", source_ids=(turn,))


def test_known_context_from_memories() -> None:
    march = datetime(2024, 3, 12, 18, tzinfo=UTC)
    may = datetime(2024, 5, 20, 20, 30, tzinfo=UTC)
    units = [
        unit("t1", may, "Alice", ("Sam", "Alice"), "Lisbon", ("Bob", "Tram 28")),
        unit("t2", march, "Sam", ("Sam", "Alice"), None, ("Northwind", "Lisbon")),
        unit("t3", march, "Alice", ("Sam", "Alice", "Bob"), "Lisbon", ("Northwind",)),
    ]
    known = KnownContext.from_memories(units)
    assert known.participants == ("Alice", "Sam", "Bob")
    assert known.places == ("Lisbon",)
    assert known.entities == ("Tram 28", "Northwind")  # people and places are not entities
    assert known.date_range == TimeSpan(march, may + timedelta(hours=1))


def test_known_context_from_no_memories_is_empty() -> None:
    assert KnownContext.from_memories([]) == KnownContext()


def test_known_context_from_anchored_conversation() -> None:
    from ramem_integrations.core.anchoring import RuleAnchorer
    from ramem_integrations.core.conversation import Conversation, Session, Turn

    said = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    turns = (
        Turn("D1:1", "Caroline", "I went to the LGBTQ support group yesterday."),
        Turn("D1:2", "Melanie", "I painted a sunrise over Lake Tahoe last year."),
    )
    conversation = Conversation("c", (Session("session_1", said, turns),))
    known = KnownContext.from_memories(RuleAnchorer().anchor(conversation, "ns"))
    assert known.participants == ("Caroline", "Melanie")
    assert "Lake Tahoe" in known.places and "LGBTQ" in known.entities
    assert known.date_range == conversation.date_range


def test_known_context_cleans_names_a_capitalised_run_picked_up() -> None:
    start = datetime(2024, 5, 20, 20, 30, tzinfo=UTC)
    units = [unit("t1", start, "Sam", ("Sam", "Alice"), "The Lisbon", ("Did Bob", "Dr", "Alice"))]
    known = KnownContext.from_memories(units)
    assert known.entities == ("Bob",) and known.places == ("Lisbon",)
    frame = RuleFrameInducer().induce(
        "What did Alice eat on the trip with Bob?", reference=start, known=known
    )
    assert [describe(c) for c in frame.conditions] == ["participant:Alice", "entity:Bob"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the question capitalises names: lower-case words are common words
        ("Where did Caroline see the castle shadow box?", ["participant:Caroline"]),
        ("When did Caroline go to a pride parade?", ["participant:Caroline"]),
        ("What did Caroline and Oliver do?", ["participant:Caroline", "entity:Oliver"]),
        ("When did Caroline go to Pride?", ["participant:Caroline", "entity:Pride"]),
        # written all in lower case (months and greetings do not count): names are found anyway
        ("what did caroline say about pride?", ["participant:Caroline", "entity:Pride"]),
        (
            "did caroline go to pride in August?",
            ["time:August 2023", "participant:Caroline", "entity:Pride"],
        ),
        # a sentence-initial capital is no sign of cased names
        ("Pride: when did caroline go?", ["participant:Caroline", "entity:Pride"]),
    ],
)
def test_a_question_that_capitalises_names_is_taken_at_its_word(
    question: str, expected: list[str]
) -> None:
    assert [describe(c) for c in induce("chat", question).conditions] == expected


@pytest.mark.parametrize(
    ("namespace", "question", "sure"),
    [
        ("demo", "What did Alice do in May 2024?", True),
        ("demo", "What did Alice do last month?", True),
        ("demo", "What did Alice do two weeks before 11 August 2024?", True),  # a stated reach
        ("demo", "What did Alice do between March and May 2024?", True),
        ("demo", "What did Alice do with Bob?", True),
        # said later, it may report on before
        ("demo", "What did Alice do before May 2024?", False),
        ("demo", "What has Alice done after May 2024?", False),
        ("demo", "What has Alice done since May 2024?", True),  # up to the time asked
        # an anchor event found by search
        ("demo", "What did Alice buy after the appointment?", False),
        ("demo", "What did Alice do before the move?", False),
        ("demo", "What did Alice do first?", True),
        # no session was held then (the demo runs 2 Sep 2023 to 2 Sep 2024): only anchored
        # event times meet it
        ("demo", "What did Alice do in May 2023?", False),
        ("demo", "What does Alice plan for December 2024?", False),
        ("demo", "What did Alice do in September 2023?", True),
        # a named thing or person who is not a participant: what is said about it need not
        # name it
        ("chat", "What did Caroline say about Pride?", False),
        ("chat", "What did Melanie do in August?", True),
    ],
)
def test_a_frame_is_sure_unless_a_condition_is_open_unheld_or_an_entity_or_hangs_on_an_anchor(
    namespace: str, question: str, sure: bool
) -> None:
    frame = induce(namespace, question)
    assert all(c.grounded for c in frame.conditions if c.kind == "time")
    assert frame.is_sure is sure
