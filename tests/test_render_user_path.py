"""The README's ``mem.render(question, hits, budget=1000)`` after ``mem.retrieve``: the prompt
shows the conditions that retrieval read, and no turn is dated by a time another turn stated.
Real RaMem over real Chroma."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations import RaMem
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.testing import HashingEmbedder

QUESTION = "What did Bob say about the trip last August?"
ASKED = datetime(2023, 10, 2, tzinfo=UTC)
SESSIONS = [
    (
        datetime(2023, 8, 20, 19, tzinfo=UTC),
        [
            ("Bob", "The trip to Lisbon was great, the trams were my favourite part."),
            ("Alice", "I still work at Contoso Coffee."),
        ],
    ),
    (
        datetime(2023, 9, 28, 18, tzinfo=UTC),
        [
            ("Bob", "We are planning a trip to Rome with the kids."),
            ("Alice", "I started a new job at Northwind this week."),
        ],
    ),
]


@pytest.fixture
def mem(tmp_path: Path) -> RaMem:
    memory = RaMem.from_path(tmp_path / "memory", embedder=HashingEmbedder())
    for start, turns in SESSIONS:
        rows = [{"speaker": who, "text": text} for who, text in turns]
        memory.add_turns(rows, "alice", session_time=start)
    return memory


def _group_of(prompt: str, words: str) -> str:
    """The coordinates line of the group in ``prompt`` that quotes ``words``."""
    blocks = prompt.split("\n\n")
    return next(b.splitlines()[0] for b in blocks if words in b)


def test_render_shows_the_conditions_the_retrieval_read(mem: RaMem) -> None:
    hits = mem.retrieve(QUESTION, namespace="alice", k=3, reference=ASKED)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UngroundedTimeWarning)  # nothing read again undated
        prompt = mem.render(QUESTION, hits, budget=1000)
    assert (
        "Conditions read from the question: time = August 2023 (from 'last August'); "
        "participant = Bob (from 'Bob')"
    ) in prompt
    other = mem.render("Where is Bob?", hits)  # hits of another question: none claimed
    assert "Conditions read from the question: none" in other


def test_a_turn_is_not_dated_by_another_speakers_time(mem: RaMem) -> None:
    hits = mem.retrieve(QUESTION, namespace="alice", k=3, reference=ASKED)
    shown = {h.memory.content for h in hits}
    assert "We are planning a trip to Rome with the kids." in shown
    assert "I started a new job at Northwind this week." not in shown
    prompt = mem.render(QUESTION, hits, budget=1000)
    rome = _group_of(prompt, "Rome with the kids")
    assert rome.startswith("[") and "said 28 September 2023" in rome
    assert "happened" not in rome  # Alice's "this week" is not Bob's plan's time
    both = [*hits, *(h for h in mem.retrieve("Northwind job", "alice", 1, reference=ASKED))]
    together = _group_of(mem.render(QUESTION, both), "Rome with the kids")
    assert "happened 25 September 2023 to 1 October 2023" in together  # her turn is shown
