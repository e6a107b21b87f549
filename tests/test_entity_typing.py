"""Entity typing: a capitalised name is a place only with evidence."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from ramem_integrations.core.anchoring import find_place
from ramem_integrations.core.entity_typing import place_evidence, typed_places
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan


@pytest.mark.parametrize(
    ("cue", "name", "evidence"),
    [
        ("in", "Leeds", "preposition of place"),
        ("near", "Fort Wayne", "preposition of place"),
        ("moved to", "Oregon", "motion verb"),
        ("trip to", "England", "motion verb"),
        ("at", "London", "gazetteer"),
        ("from", "Pacific Northwest", "gazetteer"),
        ("at", "Pride", None),
        ("at", "Door Dash", None),
        ("from", "Havana", None),
        ("over", "Dune", None),
        ("at", "the Lido", "a venue ('at the Lido')"),
        ("over", "Lake Tahoe", "place word"),
    ],
)
def test_place_evidence(cue: str, name: str, evidence: str | None) -> None:
    assert place_evidence(cue, name) == evidence


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("We moved to Oregon last spring.", "Oregon"),
        ("I saw a great band in Leeds.", "Leeds"),
        ("Had brunch at London Fields with Sam.", None),
        ("I lost my job at Door Dash.", None),
        ("I met Ana at Pride last weekend!", None),
        ("Meet you at the Lido", "Lido"),
        ("A sunrise over Lake Tahoe", "Lake Tahoe"),
        ("We went to see Dune", None),
        ("Postcard from Spain arrived", "Spain"),
    ],
)
def test_find_place_needs_evidence(text: str, place: str | None) -> None:
    assert find_place(text, ["Sam"]) == place


def test_typed_places_follow_the_majority_of_memories() -> None:
    as_place = Counter({"Leeds": 3, "Dune": 1, "Lisbon": 1})
    as_other = Counter({"Dune": 4, "Lisbon": 1})
    assert typed_places(as_place, as_other) == {"Leeds", "Lisbon"}


SPAN = TimeSpan(datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 2, tzinfo=UTC))


def unit(i: int, location: str | None, entities: tuple[str, ...]) -> MemoryUnit:
    ctx = EpisodicContext("s1", SPAN, participants=("Sam",), location=location, entities=entities)
    return MemoryUnit(f"m{i}", f"memory {i}", ctx, "ns")


def test_a_place_the_namespace_contradicts_gives_no_place_condition() -> None:
    units = [
        unit(1, "Dune", ("Dune",)),  # "at Dune": one memory reads it as a place
        unit(2, None, ("Dune",)),  # three others name it otherwise (a film)
        unit(3, None, ("Dune",)),
        unit(4, None, ("Dune",)),
        unit(5, "Leeds", ("Leeds",)),
    ]
    known = KnownContext.from_memories(units)
    assert known.places == ("Leeds",)
    assert "Dune" in known.entities
    frame = RuleFrameInducer().induce(
        "When did Sam watch Dune in Leeds?", reference=SPAN.end, known=known
    )
    kinds = {(c.kind, c.value) for c in frame.conditions if c.grounded}
    assert ("location", "Leeds") in kinds
    assert ("location", "Dune") not in kinds
    assert ("entity", "Dune") in kinds
