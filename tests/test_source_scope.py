"""A search's scope is an argument (core.retrieval.Scope), not state: the memories it may rank
and the messages its dense search leans toward, over real Chroma and the hashing embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.source import EVERYTHING, Scope
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import parts

BASE = datetime(2023, 1, 2, tzinfo=UTC)
TEXTS = {
    "m1": "Ann: the pottery class was fun",
    "m2": "Ann: hiking the ridge trail with Bob",
    "m3": "Ann: pottery and hiking, both on Sunday",
    "m4": "Ann: bread for dinner",
}


@pytest.fixture
def mem(fake_mem: RaMem) -> RaMem:
    day = TimeSpan(BASE, BASE + timedelta(days=1))
    fake_mem.add_memories(
        [
            MemoryUnit(i, text, EpisodicContext("s", day, participants=("Ann",)), "ns", (i,), "c")
            for i, text in TEXTS.items()
        ]
    )
    return fake_mem


def ids(hits: list[tuple[MemoryUnit, float]]) -> list[str]:
    return [unit.id for unit, _ in hits]


@pytest.mark.parametrize("search", ["dense", "lexical"])
@pytest.mark.parametrize(
    ("within", "expected"),
    [
        (None, {"m1", "m2", "m3", "m4"}),
        (frozenset({"m2", "m4"}), {"m2", "m4"}),
        (frozenset(), set()),
    ],
)
def test_a_search_ranks_only_its_scope(
    mem: RaMem, search: str, within: frozenset[str] | None, expected: set[str]
) -> None:
    hits = getattr(parts(mem).source, search)("ns", "Ann pottery hiking", 10, None, Scope(within))
    assert set(ids(hits)) == expected
    # the scope is the call's own: the next search without one sees everything
    assert len(getattr(parts(mem).source, search)("ns", "Ann pottery hiking", 10)) == len(TEXTS)


def test_the_share_is_of_the_scope(mem: RaMem) -> None:
    bob = ContextFilter(people=("Bob",))  # m2 names Bob
    assert parts(mem).source.share("ns", bob) == pytest.approx(1 / 4)
    assert parts(mem).source.share("ns", bob, Scope(frozenset({"m1", "m2"}))) == pytest.approx(
        1 / 2
    )


def test_the_context_leans_the_dense_search_only(mem: RaMem) -> None:
    alone = parts(mem).source.dense("ns", "pottery", 4)
    leaning = parts(mem).source.dense("ns", "pottery", 4, None, Scope(context="hiking ridge trail"))
    assert ids(alone)[:2] == ["m1", "m3"]
    assert ids(leaning)[0] == "m3"  # pottery, and hiking as the messages before say
    assert dict((u.id, x) for u, x in leaning)["m2"] > dict((u.id, x) for u, x in alone)["m2"]
    blank = parts(mem).source.dense("ns", "pottery", 4, None, Scope(context="  "))
    assert blank == alone  # a blank context is none
    lexical = parts(mem).source.lexical(
        "ns", "pottery", 4, None, Scope(context="hiking ridge trail")
    )
    assert lexical == parts(mem).source.lexical("ns", "pottery", 4, None, EVERYTHING)
