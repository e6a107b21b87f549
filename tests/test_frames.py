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

from ramem_integrations.core.frames import KnownContext, RuleFrameInducer, asks_for_time
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
    ("demo", 'What did the dentist say last March?', ['time:March 2024']),
    ("demo", 'Where does Alice work now?', ['recency:latest', 'participant:Alice']),
    ("demo", 'What did Alice eat on the trip with Bob?', ['participant:Alice', 'participant:Bob']),
    ("demo", 'What did Alice have for her birthday in 2023?', ['time:2023', 'participant:Alice']),
    ("demo", 'What did Alice have for her birthday in 2024?', ['time:2024', 'participant:Alice']),
    ("demo", 'When did Alice go to Kyoto?', ['participant:Alice', 'location:Kyoto']),
    ("demo", 'What did Alice eat in Lisbon?', ['participant:Alice', 'location:Lisbon']),
    ("demo", 'Where is Alice working these days?', ['recency:latest', 'participant:Alice']),
    ("demo", 'Is Alice still a barista at Contoso Coffee?', ['recency:latest', 'participant:Alice', 'entity:Contoso Coffee']),
    ("demo", 'Does Alice work at Contoso Coffee anymore?', ['recency:latest', 'participant:Alice', 'entity:Contoso Coffee']),
    ("demo", "What is Alice's latest job?", ['recency:latest', 'participant:Alice']),
    ("demo", 'What is the most recent thing Carol baked?', ['recency:latest', 'participant:Carol']),
    ("demo", 'What did Carol buy in Kyoto last month?', ['time:August 2024', 'participant:Carol', 'location:Kyoto']),
    ("demo", 'What did Alice do two weeks ago?', ['time:19 August 2024 to 25 August 2024', 'participant:Alice']),
    ("demo", 'What did Sam ask yesterday?', ['time:1 September 2024', 'participant:Sam']),
    ("demo", 'What did Alice say last week?', ['time:26 August 2024 to 1 September 2024', 'participant:Alice']),
    ("demo", 'What happened last summer?', ['time:1 June 2024 to 31 August 2024']),
    ("demo", 'What did Alice say about SQL in September 2023?', ['time:September 2023', 'participant:Alice', 'entity:SQL']),
    ("demo", 'What did Dr. Patel tell Alice in March 2024?', ['time:March 2024', 'participant:Alice', 'entity:Dr. Patel']),
    ("demo", 'What did Alice do after the trip to Lisbon?', ['!relation:after@the trip to Lisbon', 'participant:Alice']),
    ("demo", 'What did Alice plan before her birthday?', ['!relation:before@her birthday', 'participant:Alice']),
    ("demo", 'What did Alice eat since she got back from Kyoto?', ['!relation:after@she got back from Kyoto', 'participant:Alice']),
    ("demo", 'What has Alice done since May 2024?', ['time:1 May 2024 to 2 September 2025', 'participant:Alice']),
    ("demo", 'What did Alice do before May 2024?', ['time:2 September 2018 to 30 April 2024', 'participant:Alice']),
    ("demo", 'What did Alice say until June 2024?', ['time:2 September 2018 to 30 June 2024', 'participant:Alice']),
    ("demo", 'What did Alice do the week before 12 March 2024?', ['time:5 March 2024 to 11 March 2024', 'participant:Alice']),
    ("demo", 'What did Alice do two weeks after 20 May 2024?', ['time:21 May 2024 to 3 June 2024', 'participant:Alice']),
    ("demo", 'When was the first time Alice went to Lisbon?', ['!relation:first@None', 'participant:Alice', 'location:Lisbon']),
    ("demo", 'What did Bob buy the last time he was in Lisbon?', ['!relation:last@None', 'participant:Bob', 'location:Lisbon']),
    ("demo", 'What did Dave say about Kyoto?', ['location:Kyoto', '!participant:Dave']),
    ("demo", 'Did Alice visit Porto?', ['participant:Alice', '!location:Porto']),
    ("demo", 'What did Alice say in 2015?', ['!time:2015', 'participant:Alice']),
    ("demo", 'What will Alice do in 2027?', ['!time:2027', 'participant:Alice']),
    ("demo", "What did Alice's dentist say?", ['participant:Alice']),
    ("demo", 'What did alice eat?', ['participant:Alice']),
    ("demo", "What is Alice's dog named after?", ['participant:Alice']),
    ("demo", 'Who takes care of Alice after work?', ['participant:Alice']),
    ("demo", 'How long ago did Alice start at Northwind?', ['participant:Alice', 'entity:Northwind']),
    ("demo", 'What year did Alice join Northwind?', ['participant:Alice', 'entity:Northwind']),
    ("demo", 'What did Alice eat between May and July 2024?', ['time:1 May 2024 to 31 July 2024', 'participant:Alice']),
    ("demo", 'What did Alice do over the weekend?', ['time:31 August 2024 to 1 September 2024', 'participant:Alice']),
    ("demo", 'What did Alice do the other day?', ['time:26 August 2024 to 1 September 2024', 'participant:Alice']),
    ("demo", 'What did Alice do a while ago?', ['participant:Alice']),
    ("demo", 'What did Alice do recently?', ['time:3 August 2024 to 2 September 2024', 'participant:Alice']),
    ("demo", 'What did Alice say on Friday?', ['time:30 August 2024', 'participant:Alice']),
    ("demo", 'What did Alice order on 1 September 2023?', ['time:1 September 2023', 'participant:Alice']),
    ("demo", 'What did Sam and Alice talk about on 2024-03-12?', ['time:12 March 2024', 'participant:Sam', 'participant:Alice']),
    ("demo", 'May I ask what Alice ate?', ['participant:Alice']),
    ("demo", 'What did Bob say before the trip?', ['!relation:before@the trip', 'participant:Bob']),
    ("demo", 'What does Alice like?', ['participant:Alice']),
    ("demo", 'Where does Carol live now?', ['recency:latest', 'participant:Carol']),
    ("demo", 'What did Alice eat in Kyoto in August 2024?', ['time:August 2024', 'participant:Alice', 'location:Kyoto']),
    ("demo", 'What is the weather like?', []),
    ("demo", 'Tell me something nice.', []),
    ("chat", 'When did Caroline go to the LGBTQ support group?', ['participant:Caroline', 'entity:LGBTQ']),
    ("chat", 'When did Melanie paint a sunrise?', ['participant:Melanie']),
    ("chat", 'What did Caroline do after the support group?', ['!relation:after@the support group', 'participant:Caroline']),
    ("chat", 'What did Melanie do in May 2023?', ['time:May 2023', 'participant:Melanie']),
    ("chat", 'When did Melanie go camping in June?', ['time:June 2023', 'participant:Melanie']),
    ("chat", 'When did Caroline go to a pride parade during the summer?', ['time:1 June 2023 to 31 August 2023', 'participant:Caroline', 'entity:Pride']),
    ("chat", 'What did Melanie paint recently?', ['time:22 September 2023 to 22 October 2023', 'participant:Melanie']),
    ("chat", 'Where did Caroline move from 4 years ago?', ['time:2019', 'participant:Caroline']),
    ("chat", 'How many times has Melanie gone to the beach in 2023?', ['time:2023', 'participant:Melanie']),
    ("chat", 'What did Mel and her kids paint in their latest project in July 2023?', ['time:July 2023', 'recency:latest', 'participant:Melanie']),
    ("chat", 'What did Melanie and her family see during their camping trip last year?', ['time:2022', 'participant:Melanie']),
    ("chat", 'What painting did Melanie show to Caroline on October 13, 2023?', ['time:13 October 2023', 'participant:Melanie', 'participant:Caroline']),
    ("chat", 'What did Caroline participate in last weekend before October 16, 2023?', ['time:14 October 2023 to 15 October 2023', 'time:8 May 2018 to 15 October 2023', 'participant:Caroline']),
    ("chat", 'What did Melanie contribute on the Sunday before October 13, 2023?', ['time:8 October 2023', 'time:8 May 2018 to 12 October 2023', 'participant:Melanie']),
    ("chat", 'What new activity did Melanie start recently, as mentioned on 3 June, 2023?', ['time:4 May 2023 to 3 June 2023', 'time:3 June 2023', 'participant:Melanie']),
    ("chat", 'When did Melanie go on a hike after the roadtrip?', ['!relation:after@the roadtrip', 'participant:Melanie']),
    ("chat", 'What did Caroline take away from the book "Becoming Nicole"?', ['participant:Caroline', 'entity:Becoming Nicole']),
    ("chat", 'Where did Oliver hide his bone once?', ['entity:Oliver']),
    ("chat", "What country is Caroline's grandma from?", ['participant:Caroline']),
    ("chat", 'How long has Caroline had her current group of friends for?', ['recency:latest', 'participant:Caroline']),
    ("chat", 'Would Caroline still want to pursue counseling?', ['recency:latest', 'participant:Caroline']),
    ("chat", 'Which city have both Jean and John visited?', ['!participant:Jean', '!participant:John']),
    ("chat", 'What did Caroline do in Sweden?', ['participant:Caroline', 'location:Sweden']),
    ("chat", 'What did Caroline do in 2010?', ['!time:2010', 'participant:Caroline']),
    ("chat", 'Would Melanie be considered an ally to the transgender community?', ['participant:Melanie']),
    ("chat", "What is Caroline's identity?", ['participant:Caroline']),
    ("chat", 'What fields would someone be likely to pursue in education?', []),
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
