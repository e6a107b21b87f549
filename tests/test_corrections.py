"""A message that corrects the time its speaker just gave: the corrected memory takes the new
time on its derived side, its words stay as said, the two are linked, and retrieval shows the
correction with it. Driven through ``RaMem.add_turns`` and ``retrieve`` (real Chroma, the
packaged model). Every session is said on Wednesday 5 March 2025, 18:00 UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.memory.ramem import RaMem

pytestmark = pytest.mark.slow

SAID = datetime(2025, 3, 5, 18, tzinfo=UTC)

#: (turns as (speaker, text), the question, the corrected turn, its time after the correction).
CORRECTIONS = [
    (
        [("Ana", "I saw Jo last week at the market btw"), ("Ben", "Oh nice, how is she?"),
         ("Ana", "wait no, that was two weeks ago")],
        "When did Ana see Jo at the market?", 1, "17 February 2025 to 23 February 2025",
    ),
    (
        [("Ana", "I had the dentist on Monday, the filling is done."), ("Ben", "Ouch."),
         ("Ana", "Actually it was Tuesday, not Monday")],
        "When did Ana go to the dentist?", 1, "4 March 2025",
    ),
    (
        [("Ana", "We met Lea on Friday for lunch."), ("Ana", "I mean Thursday, sorry")],
        "When did Ana meet Lea for lunch?", 1, "27 February 2025",
    ),
    (
        [("Ana", "The plumber came yesterday to fix the boiler."), ("Ben", "Finally!"),
         ("Ana", "sorry, it was the day before yesterday")],
        "When did the plumber fix the boiler?", 1, "3 March 2025",
    ),
    (
        [("Ana", "Tom's party was on Saturday, so much cake."), ("Ben", "Jealous"),
         ("Ana", "hmm, not Saturday but Sunday")],
        "When was Tom's party?", 1, "2 March 2025",
    ),
    (
        [("Ana", "The jazz concert was in January, what a night."), ("Ben", "Who played?"),
         ("Ana", "Correction: the concert was in December")],
        "When was the jazz concert?", 1, "December 2024",
    ),
]  # fmt: skip

#: Sessions that hold no correction of a time: nothing is linked, no time changes.
NOT_CORRECTIONS = [
    [("Ana", "I'm going to the cinema on Friday."), ("Ben", "Cool"),
     ("Ana", "Actually, I'm going again on Saturday too")],  # "actually" adds, not corrects
    [("Ana", "I saw Jo last week at the market"), ("Ben", "wait no, that was two weeks ago")],
    [("Ana", "I saw Jo last week at the market"), ("Ana", "wait no, I meant the bakery")],
    [("Ana", "I mean, the trip was fun"), ("Ana", "We left on Monday and came back Friday")],
    [("Ana", "The gym reopened on Monday."), ("Ana", "I go on Fridays, not on Saturday")],
]  # fmt: skip


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    return RaMem.from_path(tmp_path_factory.mktemp("corrections") / "store")


def add(mem: RaMem, namespace: str, turns: list[tuple[str, str]]) -> dict[int, MemoryUnit]:
    """The session's memories by turn number (from 1), as read back from the store."""
    given = [{"speaker": s, "text": t, "id": f"t{n}"} for n, (s, t) in enumerate(turns, 1)]
    mem.add_turns(given, namespace=namespace, session_time=SAID, conversation_id=namespace)
    return {int(u.source_ids[0][1:]): u for u in mem.memories(namespace)}


@pytest.mark.parametrize(("turns", "question", "turn", "label"), CORRECTIONS)
def test_a_correction_takes(
    mem: RaMem, turns: list[tuple[str, str]], question: str, turn: int, label: str
) -> None:
    namespace = f"c{CORRECTIONS.index((turns, question, turn, label))}"
    units = add(mem, namespace, turns)
    fixed, last = units[turn], units[len(turns)]
    assert fixed.context.event_time is not None
    assert fixed.context.event_time.label() == label
    assert fixed.content == turns[turn - 1][1]  # the words as said
    assert fixed.corrected_by == (last.id,) and last.corrects == (fixed.id,)
    assert label in (fixed.restatement or "")
    top = [h.memory.id for h in mem.retrieve(question, namespace, k=3, reference=SAID)]
    assert fixed.id in top and last.id in top
    assert top.index(last.id) == top.index(fixed.id) + 1  # the correction right after


@pytest.mark.parametrize("turns", NOT_CORRECTIONS)
def test_no_correction_is_read_where_there_is_none(
    mem: RaMem, turns: list[tuple[str, str]]
) -> None:
    units = add(mem, f"n{NOT_CORRECTIONS.index(turns)}", turns)
    assert all(not u.corrected_by and not u.corrects for u in units.values())


def test_ingesting_a_correction_again_changes_nothing(mem: RaMem) -> None:
    turns, *_ = CORRECTIONS[0]
    first = add(mem, "again", turns)
    assert add(mem, "again", turns) == first
    assert mem.count("again") == len(turns)


def test_a_correction_in_a_later_session_corrects_nothing(tmp_path: Path) -> None:
    mem = RaMem.from_path(tmp_path / "store")
    mem.add_turns([{"speaker": "Ana", "text": "I saw Jo last week"}], namespace="ana",
                  session_time=SAID, session_id="s1", conversation_id="c")  # fmt: skip
    later = SAID.replace(day=6)
    fix = [{"speaker": "Ana", "text": "wait no, that was two weeks ago"}]
    mem.add_turns(fix, namespace="ana", session_time=later, session_id="s2", conversation_id="c")
    assert all(not u.corrected_by and not u.corrects for u in mem.memories("ana"))


def test_a_correction_sent_with_what_it_corrects_retimes_that_memory(mem: RaMem) -> None:
    """Timed messages sent close together are one memory: its time is the corrected one."""
    sent = [("I saw Jo last week at the market btw", "18:00"), ("wait no, two weeks ago", "18:01")]
    turns = [{"speaker": "Ana", "text": t, "time": f"2025-03-05 {hm}"} for t, hm in sent]
    mem.add_turns(turns, namespace="burst", session_time=SAID, conversation_id="burst")
    (unit,) = mem.memories("burst")
    assert unit.content == "I saw Jo last week at the market btw\nwait no, two weeks ago"
    assert unit.context.event_time is not None
    assert unit.context.event_time.label() == "19 February 2025"  # two weeks ago, the day
    assert not unit.corrected_by and not unit.corrects
