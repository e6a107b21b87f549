"""Questions about the current state ("now", "currently", "still", "these days") put the latest
memory about their subject first, with real retrieval (Chroma, the packaged model).

The fixture (``fixtures/now_questions.json``) is four sessions among friends, February to May
2024. In February each person's state is told in words that match the question and often say
"still" or "now" ("I still live in the tiny flat on Baker Street"); the later state is told in
other words ("We finally moved into a house in Leeds"). Questions are asked on 10 June 2024.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ramem_integrations.memory.ramem import RaMem
from tests.conftest import fixture_memory

pytestmark = pytest.mark.slow

ASKED = datetime(2024, 6, 10, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    return fixture_memory(tmp_path_factory.mktemp("now"), "now_questions.json", "friends")


def turns(mem: RaMem, question: str, k: int = 5) -> list[str]:
    hits = mem.retrieve(question, "friends", k=k, reference=ASKED)
    return [h.memory.source_ids[0] for h in hits]


@pytest.mark.parametrize(
    ("question", "latest", "older"),
    [
        ("Where does Priya live now?", "apr:1", "feb:1"),  # moved house
        ("What phone does Tom have currently?", "apr:2", "feb:2"),  # changed phone
        ("Which team is Maya on now?", "apr:3", "feb:3"),  # new team
        ("What car does Ken drive these days?", "may:1", "feb:4"),  # sold the car
        ("Who is Sam dating now?", "may:2", "feb:5"),  # new partner
        ("Is Ken still driving the Corolla?", "may:1", "feb:4"),
        ("Is Tom still baking sourdough?", "may:3", "mar:3"),
        ("What is Sam's current relationship?", "may:2", "feb:5"),
        # The question names the old state: the answer no longer names it.
        ("Does Priya still live on Baker Street?", "apr:1", "feb:1"),
    ],
)
def test_the_latest_memory_about_the_subject_comes_first(
    mem: RaMem, question: str, latest: str, older: str
) -> None:
    found = turns(mem, question)
    assert found[0] == latest
    assert older in found  # the older state is still shown, after it


@pytest.mark.parametrize(
    "question",
    ["Where does Priya live?", "What phone does Tom have?", "Who is Sam dating?"],
)
def test_without_a_recency_word_relevance_decides(mem: RaMem, question: str) -> None:
    """The same questions without "now": the best match leads, whenever it was said."""
    assert turns(mem, question, k=1)[0].startswith("feb")


@pytest.mark.parametrize(
    ("question", "only"),
    [("What is Priya reading these days?", "mar:2"), ("Where does Tom go climbing now?", "mar:1")],
)
def test_a_subject_told_once_keeps_its_memory_first(mem: RaMem, question: str, only: str) -> None:
    """Nothing later is about the subject: later memories about other things do not lead."""
    assert turns(mem, question, k=1) == [only]
