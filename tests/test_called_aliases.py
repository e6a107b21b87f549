"""The nickname rule (core/aliases.py): a message that opens by calling the other ("Sammy!! how
are you?") names them. ``calls=False`` learns aliases without it, and the evaluation system
``no-called-aliases`` reads questions so: its ablation."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from ramem_integrations.core.aliases import alias_evidence, namespace_aliases
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

PAIR = ("Marcus", "Bea")


@pytest.mark.parametrize(
    ("rows", "with_calls", "without"),
    [
        # called only: an alias said once with the rule, nothing without it
        (["Trixie!! how are you?"], {"Trixie": ("Bea", 1)}, {}),
        (["Trixie, how are you?"], {"Trixie": ("Bea", 1)}, {}),
        # greeted: the rule is not needed
        (["hey trixie what happened"], {"Trixie": ("Bea", 1)}, {"Trixie": ("Bea", 1)}),
        (["hey trixie", "thanks trixie"], {"Trixie": ("Bea", 2)}, {"Trixie": ("Bea", 2)}),
    ],
)
def test_aliases_are_learned_with_and_without_called_openings(
    rows: list[str], with_calls: dict[str, tuple[str, int]], without: dict[str, tuple[str, int]]
) -> None:
    said = [("Marcus", PAIR, text) for text in rows]
    assert alias_evidence(said) == with_calls
    assert alias_evidence(said, calls=False) == without


@pytest.fixture
def sammy(tmp_path: Path) -> RaMem:
    """Priya calls Samantha "Sammy" (tests/test_aliases.py has the same chat)."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    sessions = [
        (10, [("Priya", "My boss moved the deadline again."), ("Samantha", "Ugh, good luck")]),
        (
            26,
            [
                ("Priya", "Sammy!! how are you?"),
                ("Samantha", "Good! I finally booked the flights to Lisbon for June."),
                ("Priya", "Sammy that is amazing, who is going with you?"),
                ("Samantha", "Just me and my sister Ana. We want to ride the old trams."),
            ],
        ),
    ]
    for day, turns in sessions:
        start = datetime(2026, 11, day, 18, tzinfo=UTC)
        rows = [
            {"speaker": who, "text": text, "time": start + timedelta(minutes=i)}
            for i, (who, text) in enumerate(turns)
        ]
        mem.add_turns(rows, "chat", session_time=start)
    return mem


def test_the_ablation_reads_sammy_as_no_one(sammy: RaMem) -> None:
    units = sammy.memories("chat")
    assert namespace_aliases(units) == ((), (("Sammy", "Samantha"),))
    assert namespace_aliases(units, calls=False) == ((), ())
    asked = Asked("What did Sammy say?", "chat", datetime(2026, 12, 4, 12, tzinfo=UTC))
    with_rule = SYSTEMS["ramem"](sammy, asked, 4)
    without = SYSTEMS["no-called-aliases"](sammy, asked, 4)
    assert with_rule[0].memory.context.speaker == "Samantha"
    assert without[0].memory.context.speaker == "Priya"  # the message that writes "Sammy"


def test_without_called_openings_the_stored_aliases_are_not_read() -> None:
    """Stored aliases were learned at ingest with the rule on: the ablation learns again."""
    context = EpisodicContext(
        "s1",
        TimeSpan.day(date(2026, 11, 10), UTC),
        participants=("Priya", "Samantha"),
        speaker="Priya",
        aliases=(("Sammy", "Samantha"),),
    )
    units = [MemoryUnit("m1", "see you at the station", context, "chat")]
    assert namespace_aliases(units) == ((("Sammy", "Samantha"),), ())
    assert namespace_aliases(units, calls=False) == ((), ())
