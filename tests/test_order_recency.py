"""Order and recency words on a small conversation, with real retrieval (Chroma, packaged model).

The fixture (``fixtures/order_recency.json``) is seven sessions between Sam and Ava, January
to June 2024: the cat (January, March, May), the dentist (March, May), a move (March), Sam's
job (a barista at Contoso Coffee, then Northwind Books), and distractors that share the order
words themselves ("the last day of our ski trip", "the first time I skied", "the last time we
went camping").
Questions are asked on 12 June 2024.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ramem_integrations.core.types import TimeSpan
from ramem_integrations.memory.ramem import RaMem
from tests.conftest import fixture_memory

pytestmark = pytest.mark.slow

ASKED = datetime(2024, 6, 12, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    return fixture_memory(tmp_path_factory.mktemp("order"), "order_recency.json", "sam")


def turns(mem: RaMem, question: str, k: int = 5) -> list[str]:
    return [h.memory.source_ids[0] for h in mem.retrieve(question, "sam", k=k, reference=ASKED)]


@pytest.mark.parametrize(
    ("question", "first", "in_order"),
    [
        ("When was the first time I mentioned the cat?", "jan:3", ["jan:3", "mar:3", "may:3"]),
        ("What was the first thing I said about my cat?", "jan:3", ["jan:3", "mar:3", "may:3"]),
        ("What did I say the last time I mentioned the dentist?", "may:1", ["may:1", "mar:1"]),
        ("When did I last talk about the dentist?", "may:1", ["may:1", "mar:1"]),
        ("What happened the last time I talked about the cat?", "may:3", ["may:3", "mar:3"]),
        ("When did I first mention Miso?", "jan:3", ["jan:3", "may:2"]),
    ],
)
def test_order_words_rank_the_memories_about_their_subject_by_time(
    mem: RaMem, question: str, first: str, in_order: list[str]
) -> None:
    found = turns(mem, question)
    assert found[0] == first
    assert [t for t in found if t in in_order] == in_order


def test_order_words_in_the_distractors_do_not_lead(mem: RaMem) -> None:
    for question in (
        "What did I say the last time I mentioned the dentist?",
        "When was the first time I mentioned the cat?",
    ):
        assert turns(mem, question, k=1)[0] not in ("feb:1", "feb:3", "jun:3", "jan:5")


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Where do I work now?", "work"),
        ("Is Sam still a barista at Contoso Coffee?", "barista Contoso Coffee"),
    ],
)
def test_recency_puts_the_latest_relevant_memory_first(
    mem: RaMem, question: str, subject: str
) -> None:
    frame = mem.frame(question, "sam", reference=ASKED)
    (recency,) = (c for c in frame.conditions if c.kind == "recency")
    assert recency.anchor == subject  # the subject the recency word governs
    assert turns(mem, question, k=1)[0] in {"jun:1", "apr:1"}  # Northwind, not Contoso (jan:1)


def test_a_holiday_is_a_time_not_a_participant(mem: RaMem) -> None:
    frame = mem.frame("Were you working last Christmas?", "sam", reference=ASKED)
    assert [(c.kind, c.value, c.grounded) for c in frame.conditions] == [
        ("time", "25 December 2023", True)
    ]


def test_since_runs_to_the_time_asked(mem: RaMem) -> None:
    frame = mem.frame("What did I do since March?", "sam", reference=ASKED)
    assert frame.time_range is not None
    assert frame.time_range.label() == "1 March 2024 to 12 June 2024"
    hits = mem.retrieve("What did I do since March?", "sam", k=5, reference=ASKED)
    context = [h for h in hits if h.reason == "context"]
    months = {"mar", "mov", "apr", "may", "jun"}
    assert context and all(h.memory.source_ids[0][:3] in months for h in context)


def test_rerank_orders_the_given_candidates_by_the_same_subject(mem: RaMem) -> None:
    question = "What did I say the last time I mentioned the dentist?"
    candidates = mem.retrieve(question, "sam", k=8, mode="content", reference=ASKED)
    frame = mem.frame(question, "sam", reference=ASKED)
    ranked = mem.reinstatement.rerank(frame, candidates, k=3)
    assert [h.memory.source_ids[0] for h in ranked[:2]] == ["may:1", "mar:1"]


def test_since_an_event_starts_at_that_event_and_ends_when_asked(mem: RaMem) -> None:
    frame = mem.frame("What have I done since I moved?", "sam", reference=ASKED)
    (relation,) = frame.conditions
    assert (relation.kind, relation.value, relation.anchor) == ("relation", "after", "I moved")
    time = mem.reinstatement.resolve(frame, "sam").time
    assert time == TimeSpan(datetime(2024, 3, 16, tzinfo=UTC), datetime(2024, 6, 13, tzinfo=UTC))
    assert turns(mem, "What have I done since I moved?", k=1) == ["mov:1"]
