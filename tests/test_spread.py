"""Hits spread with the evidence (core/retrieval/spread.py, the ``spread`` step): when the best
content candidates of several sessions score within a margin of the best, a hit of each leads
and the episode neighbours come after the hits; when one session holds them, nothing moves.
Logic tests: memories built in place, the steps run over an in-memory episode source."""

from __future__ import annotations

from datetime import UTC, date

import pytest

from ramem_integrations.core.retrieval.content import HybridSearch
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.source import EVERYTHING
from ramem_integrations.core.retrieval.spread import session_of, spread_out, spread_sessions
from ramem_integrations.core.retrieval.steps import Neighbours, Ranking, Spread, run
from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    ScoredMemory,
    TimeSpan,
)
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.evaluation.variants import Variant


def unit(name: str, session: str, position: int = 0) -> MemoryUnit:
    """Turn ``position`` of the one episode of ``session`` (its id is ``session`` too)."""
    day = int(session.removeprefix("s"))
    context = EpisodicContext(
        session, TimeSpan.day(date(2024, 1, day), UTC), episode=Episode(session, position)
    )
    return MemoryUnit(name, name, context, "ns")


def hits(*scored: tuple[MemoryUnit, float]) -> list[ScoredMemory]:
    return [ScoredMemory(u, s, "content") for u, s in scored]


class Episodes:
    def __init__(self, *units: MemoryUnit) -> None:
        self.units = units

    def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
        turns = [u for u in self.units if u.context.episode and u.context.episode.id == episode_id]
        return sorted(turns, key=lambda u: u.context.episode.position)  # type: ignore[union-attr]


A0, A1, A2, A3 = (unit(f"a{i}", "s1", i) for i in range(4))
B0, B1 = unit("b0", "s2", 0), unit("b1", "s2", 1)
C0 = unit("c0", "s3", 0)
EPISODES = Episodes(A0, A1, A2, A3, B0, B1, C0)


@pytest.mark.parametrize(
    ("scored", "margin", "sessions"),
    [
        # two sessions' best within 10% of the best: spread
        (((A0, 1.0), (B0, 0.95), (C0, 0.5)), 0.1, ["s2"]),
        # the third is within a wider margin
        (((A0, 1.0), (B0, 0.95), (C0, 0.85)), 0.2, ["s2", "s3"]),
        # one session holds every near candidate: not spread
        (((A0, 1.0), (A1, 0.98), (B0, 0.6)), 0.1, []),
        # a session counts once, by its best candidate
        (((A0, 1.0), (B1, 0.5), (B0, 0.92)), 0.1, ["s2"]),
        # nothing scored
        (((A0, 0.0),), 0.1, []),
    ],
)
def test_the_sessions_near_the_best_are_read_off_the_scores(
    scored: tuple[tuple[MemoryUnit, float], ...], margin: float, sessions: list[str]
) -> None:
    found = spread_sessions(hits(*scored), margin)
    assert [s for _, s in found if s != "s1"] == sessions
    assert (len(found) > 1) == bool(sessions)


def ranking(margin: float, candidates: list[ScoredMemory]) -> Ranking:
    steps = (Neighbours(), Spread(margin))
    retriever = ContextualRetriever(HybridSearch(source=None))  # type: ignore[arg-type]
    return Ranking(
        RecallFrame("", ""),
        "ns",
        10,
        10,
        EVERYTHING,
        retriever,
        steps,
        ContextFilter(),
        episodes=EPISODES,
        searched=candidates,
    )


#: The first hit's episode brings its turns after the five best hits (Neighbours).
SPREAD = hits((A0, 1.0), (A1, 0.7), (A2, 0.6), (A3, 0.55), (C0, 0.5), (B0, 0.95))


def test_a_spread_question_puts_a_hit_of_each_session_first_and_neighbours_after_the_hits() -> None:
    candidates = sorted(SPREAD, key=lambda h: -h.score)
    ranked = [h.memory.id for h in run(list(candidates), ranking(0.1, candidates))]
    # without the step: the best two hits bring b1 (their episode's turn) among the hits
    alone = [h.memory.id for h in run(list(candidates), ranking(0.0, candidates))]
    assert alone.index("b1") < alone.index("c0")
    assert ranked == ["a0", "b0", "a1", "a2", "a3", "c0", "b1"]


def test_a_hit_of_each_spread_session_moves_up_behind_the_first() -> None:
    ranked = hits((A0, 1.0), (A1, 0.9), (A2, 0.85), (B0, 0.8), (C0, 0.7))
    s1, s2, s3 = (session_of(u) for u in (A0, B0, C0))
    assert [h.memory.id for h in spread_out(ranked, [s1, s3])] == ["a0", "c0", "a1", "a2", "b0"]
    assert [h.memory.id for h in spread_out(ranked, [s1, s2, s3])] == ["a0", "b0", "c0", "a1", "a2"]
    assert spread_out(ranked, [s1]) == ranked  # the first hit's session alone: nothing moves


def test_one_dominant_session_keeps_the_ranking_as_it_was() -> None:
    candidates = hits((A0, 1.0), (A1, 0.98), (A2, 0.9), (B0, 0.5), (C0, 0.4))
    with_step = run(list(candidates), ranking(0.1, candidates))
    without = run(list(candidates), ranking(0.0, candidates))
    assert [h.memory.id for h in with_step] == [h.memory.id for h in without]


@pytest.mark.parametrize(("system", "margin"), [("with-spread", 0.05), ("spread-0.1", 0.1)])
def test_the_step_is_off_by_default_and_eval_systems_turn_it_on(system: str, margin: float) -> None:
    base = ContextualRetriever(HybridSearch(source=None))  # type: ignore[arg-type]
    assert not [s for s in base.pipeline() if isinstance(s, Spread)]
    variant = SYSTEMS[system]
    assert isinstance(variant, Variant)
    (step,) = [s for s in variant.retriever(base).pipeline() if isinstance(s, Spread)]
    assert step.margin == margin
