"""ConditionTable: which memories meet a filter, all at once, exactly as met_by says."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.types import Episode, EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.evaluation.ablations import AnchoredNamesFilter, EventTimeFilter
from ramem_integrations.index.conditions import ConditionTable
from ramem_integrations.testing import parts

BASE = datetime(2023, 1, 2, tzinfo=UTC)
NAMES = ["Ann", "bob", "Cy", "Paris", "rome"]


LAG = timedelta(days=2)


def day(n: int, days: int = 1) -> TimeSpan:
    return TimeSpan(BASE + timedelta(days=n), BASE + timedelta(days=n + days))


names = st.lists(st.sampled_from(NAMES), max_size=2, unique=True).map(tuple)
maybe_day = st.one_of(st.none(), st.integers(0, 20).map(day))
episodes = st.one_of(
    st.none(),
    st.builds(
        Episode,
        id=st.just("e"),
        event_time=maybe_day,
        participants=names,
        places=names,
        entities=names,
    ),
)
contexts = st.builds(
    EpisodicContext,
    session_id=st.just("s"),
    session_span=st.integers(0, 20).map(day),
    event_time=maybe_day,
    participants=names,
    entities=names,
    location=st.one_of(st.none(), st.sampled_from(NAMES)),
    episode=episodes,
)
#: The product's filter and the no-session-span ablation's, which reads other time coordinates.
filters = st.sampled_from([ContextFilter, EventTimeFilter]).flatmap(
    lambda kind: st.builds(
        kind,
        time=st.one_of(
            st.none(), st.tuples(st.integers(0, 20), st.integers(1, 6)).map(lambda t: day(*t))
        ),
        people=names,
        places=names,
        entities=st.lists(st.sampled_from(NAMES), max_size=1).map(tuple),
        said_after=st.integers(0, 3).map(lambda n: timedelta(days=n)),
    )
)


def units_of(contexts: list[EpisodicContext]) -> dict[str, MemoryUnit]:
    return {f"m{i}": MemoryUnit(f"m{i}", "text", c, "ns") for i, c in enumerate(contexts)}


@settings(max_examples=300, deadline=None)
@given(contexts=st.lists(contexts, max_size=12), where=filters)
def test_among_agrees_with_met_by(contexts: list[EpisodicContext], where: ContextFilter) -> None:
    units = units_of(contexts)
    expected = [i for i, unit in units.items() if where.met_by(unit) is not None]
    assert ConditionTable(units).among(where) == expected


@pytest.mark.parametrize(
    ("context", "where", "met"),
    [
        # a turn without its own date meets the time through its episode's
        (
            EpisodicContext("s", day(30), episode=Episode("e", event_time=day(3))),
            EventTimeFilter(time=day(2, 3)),
            True,
        ),
        # half-open: a span ending where the condition starts does not meet it
        (EpisodicContext("s", day(30), event_time=day(4)), ContextFilter(time=day(5, 2)), False),
        # said in the span counts, except for the no-session-span ablation's filter
        (EpisodicContext("s", day(5)), EventTimeFilter(time=day(5)), False),
        (EpisodicContext("s", day(5)), ContextFilter(time=day(5)), True),
        # a report said up to said_after later meets the day by when it was said, not by its
        # event time, and not by the no-session-span ablation's filter
        (EpisodicContext("s", day(7)), ContextFilter(time=day(5), said_after=LAG), True),
        (EpisodicContext("s", day(8)), ContextFilter(time=day(5), said_after=LAG), False),
        (
            EpisodicContext("s", day(30), event_time=day(7)),
            ContextFilter(day(5), said_after=LAG),
            False,
        ),
        (EpisodicContext("s", day(7)), EventTimeFilter(time=day(5), said_after=LAG), False),
        # names compare lower-cased; a person may be named as an entity
        (EpisodicContext("s", day(1), entities=("BOB",)), ContextFilter(people=("bob",)), True),
        (EpisodicContext("s", day(1), location="Rome"), ContextFilter(places=("rome",)), True),
        (EpisodicContext("s", day(1), location="Rome"), ContextFilter(entities=("Rome",)), False),
    ],
)
def test_cases(context: EpisodicContext, where: ContextFilter, met: bool) -> None:
    units: dict[str, Any] = units_of([context])
    assert (ConditionTable(units).among(where) == ["m0"]) is met
    assert (where.met_by(units["m0"]) is not None) is met


@pytest.mark.parametrize(
    ("text", "where", "met"),
    [
        # chats write names in lower case: the words meet the condition anchoring missed
        ("i've left it in the boston", ContextFilter(entities=("Boston",)), True),
        ("brunch at LISBON?", ContextFilter(places=("Lisbon",)), True),
        ("ordered from little napoli", ContextFilter(entities=("Little Napoli",)), True),
        ("jess is driving me this weekend", ContextFilter(people=("Jess",)), True),
        # whole words only, and every condition still has to hold
        ("a bostonian accent", ContextFilter(entities=("Boston",)), False),
        ("the boston, in march", ContextFilter(entities=("Boston", "Rio")), False),
        ("the boston", ContextFilter(entities=("Boston",), time=day(9)), False),
        # a name that is a common word in lower case is not read from the words
        ("i will be there in may", ContextFilter(people=("Will",)), False),
        ("i will be there in may", ContextFilter(entities=("May",)), False),
        # the no-names-in-text ablation's filter: the anchored names only
        ("the boston", AnchoredNamesFilter(entities=("Boston",)), False),
    ],
)
def test_a_memory_that_says_the_name_meets_it(text: str, where: ContextFilter, met: bool) -> None:
    unit = MemoryUnit("m0", text, EpisodicContext("s", day(1)), "ns")
    assert (where.met_by(unit) is not None) is met


def test_no_memories_meet_nothing() -> None:
    assert ConditionTable({}).among(ContextFilter(people=("Ann",))) == []


def test_the_store_source_checks_first_then_builds_the_table(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a write, the first question is checked memory by memory; the second builds the
    table; every answer is the same."""
    from ramem_integrations.memory import source as source_module
    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.testing import HashingEmbedder
    from tests.reliability.helpers import synthetic_conversation

    built: list[int] = []

    class Counted(ConditionTable):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(source_module, "ConditionTable", Counted)
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_conversation(synthetic_conversation("c", 3, 8, seed=1), "ns")
    source, units = parts(mem).source, parts(mem).cache.memories("ns")
    wheres = [
        ContextFilter(people=("Bob",)),
        ContextFilter(people=("Ann",)),
        ContextFilter(people=("Bob",)),
    ]
    shares = [source.share("ns", wheres[0])]
    assert built == []  # the first: checked one by one
    shares += [source.share("ns", where) for where in wheres[1:]]
    assert built == [1]  # then one table answers every later question
    for where, got in zip(wheres, shares, strict=True):
        met = sum(where.met_by(u) is not None for u in units.values())
        assert got == pytest.approx(met / len(units))
    assert shares[0] == shares[2] and shares[0]
