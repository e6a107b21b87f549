"""Each ablation of evaluation/ablations.py changes the ranking it should, and only that: a
table of small cases over real Chroma and the hashing embedder, the product retriever beside
the ablation built from it (as the evaluation's systems build them)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.types import (
    Condition,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    TimeSpan,
)
from ramem_integrations.evaluation.ablations import NoNamesInText, NoSessionSpan, SearchNeed
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.memory.ramem import RaMem

BASE = datetime(2023, 1, 2, tzinfo=UTC)


def day(n: int) -> TimeSpan:
    return TimeSpan(BASE + timedelta(days=n), BASE + timedelta(days=n + 1))


def said(i: int, text: str, on: int, event: int | None = None, names: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    ctx = EpisodicContext(
        f"s{on}", day(on), event_time=None if event is None else day(event), entities=names
    )
    return MemoryUnit(f"m{i}", text, ctx, "ns", (f"t{i}",), "c")


MARCH = Condition("time", "day 60", "in March", True, day(60))
BOSTON = Condition("entity", "Boston", "The Boston", True)

#: (ablation, memories, question, its information need, conditions, product ranking, ablated)
CASES = [
    # The session span is a time coordinate: m1 was said on day 60 and meets "March" by it;
    # without it only m3's own event time does, and m1 falls back to its content rank.
    (
        NoSessionSpan,
        [
            said(1, "Ann: the dentist said my tooth is fine", 60),
            said(2, "Ann: the dentist said the dentist filling, dentist visit", 180),
            said(3, "Ann: the dentist", 190, event=60),
        ],
        "what did the dentist say",
        "what did the dentist say",
        (MARCH,),
        ["m3", "m1", "m2"],
        ["m3", "m2", "m1"],
    ),
    # "the boston" in lower case meets the Boston condition by its words; with the anchored
    # names only, the memory anchoring read as naming Boston leads.
    (
        NoNamesInText,
        [
            said(1, "Ann: Rio are playing the Boston on friday", 10, names=("Boston",)),
            said(2, "Ann: left my jacket in the boston last night", 12),
            said(3, "Ann: my jacket is at the dry cleaner", 14),
        ],
        "where did I leave my jacket, at the Boston",
        "where did I leave my jacket, at the Boston",
        (BOSTON,),
        ["m2", "m3", "m1"],  # an entity orders softly: the other jacket memory before m1
        ["m1", "m2", "m3"],
    ),
    # Searching with the need ("tooth") instead of the question's other words.
    (
        SearchNeed,
        [
            said(1, "Ann: what did we say we would do", 10),
            said(2, "Ann: my tooth hurts", 11),
        ],
        "what did we say about the tooth",
        "tooth",
        (),
        ["m1", "m2"],
        ["m2", "m1"],
    ),
]


@pytest.mark.parametrize(
    ("kind", "memories", "question", "need", "conditions", "product", "ablated"),
    CASES,
    ids=[case[0].__name__ for case in CASES],
)
def test_an_ablation_changes_what_it_takes_away(  # type: ignore[no-untyped-def]
    fake_mem: RaMem, kind, memories, question, need, conditions, product, ablated
) -> None:
    fake_mem.add_memories(memories)
    frame = RecallFrame(question, need, conditions, BASE)
    base = ContextualRetriever(fake_mem.content)
    ablation = Variant(kind=kind).retriever(base)
    assert type(ablation) is kind
    assert [h.memory.id for h in base.retrieve(frame, "ns", 3)] == product
    assert [h.memory.id for h in ablation.retrieve(frame, "ns", 3)] == ablated


@pytest.mark.parametrize(
    ("system", "kind"),
    [
        ("no-session-span", NoSessionSpan),
        ("no-names-in-text", NoNamesInText),
        ("ramem-need", SearchNeed),
    ],
)
def test_the_ablation_systems_run_the_ablation_retrievers(system: str, kind: type) -> None:
    variant = SYSTEMS[system]
    assert isinstance(variant, Variant) and variant.kind is kind
