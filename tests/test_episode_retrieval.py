"""Stages 3 and 4 with episodes: a hit brings its episode's turns; budgets pack episodes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.memory.ramem import RaMem

SAID = datetime(2022, 5, 8, 18, tzinfo=UTC)
TURNS = [
    ("Nadia", "I finally went to the dentist on 28 April 2022."),
    ("Leila", "Oh no, what did the dentist say about the tooth?"),
    ("Nadia", "He found a small cavity in a back tooth."),
    ("Leila", "A cavity, does he want to fill it soon?"),
    ("Nadia", "We hiked the ridge trail with the dog and a picnic."),
    ("Leila", "The ridge trail with a picnic and the dog sounds fun."),
    ("Nadia", "The dog loved the picnic on the ridge trail."),
]


@pytest.fixture
def nadia(fake_mem: RaMem) -> RaMem:
    turns = [{"speaker": s, "text": t} for s, t in TURNS]
    fake_mem.add_turns(turns, "n", session_time=SAID, session_id="s1", conversation_id="c")
    return fake_mem


def texts(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.memory.content for h in hits]


def test_a_hit_returns_its_episodes_neighbouring_turn(nadia: RaMem) -> None:
    question = "What did the dentist find in April 2022?"
    frame = nadia.frame(question, "n", reference=SAID)
    # decay 1, no hits held first: the neighbours score as their hit and come right after it
    retriever = replace(nadia.reinstatement, decay=1.0, hits_first=1)
    hits = retriever.retrieve(frame, "n", 3)
    # the best hit is a dentist turn; the fact told in a turn that never names the episode
    # (no word of the question) comes with it
    assert "dentist" in texts(hits)[0]
    assert TURNS[2][1] in texts(hits)
    cavity = next(h for h in hits if h.memory.content.endswith(TURNS[2][1]))
    assert cavity.reason == "episode" and cavity.matched == (hits[0].memory.id,)
    turn_level = replace(retriever, episodes=None)
    assert TURNS[2][1] not in texts(turn_level.retrieve(frame, "n", 3))


def test_a_question_asking_for_several_things_brings_no_episode(nadia: RaMem) -> None:
    """Its evidence is spread over several episodes: the places go to more hits."""
    retriever = replace(nadia.reinstatement, decay=1.0, hits_first=1)
    one = nadia.frame("What trail did Nadia hike with the dog?", "n", reference=SAID)
    several = nadia.frame("What trails did Nadia hike with the dog?", "n", reference=SAID)
    assert (one.asks_several, several.asks_several) == (False, True)
    assert retriever.fitted(several).leading == 0
    assert "episode" in {h.reason for h in retriever.retrieve(one, "n", 4)}
    assert "episode" not in {h.reason for h in retriever.retrieve(several, "n", 4)}


def test_neighbours_stay_inside_the_episode(nadia: RaMem) -> None:
    hits = nadia.retrieve("the dog picnic on the ridge trail", "n", 10)
    episodes = {h.memory.context.episode.id for h in hits[:3] if h.memory.context.episode}
    assert len(episodes) == 1
    assert {h.memory.id for h in hits} == {u.id for u in nadia.memories("n")}  # de-duplicated


def test_reingesting_never_duplicates_and_forget_removes_episodes(nadia: RaMem) -> None:
    before = sorted((u.id, u.context.episode) for u in nadia.memories("n"))
    turns = [{"speaker": s, "text": t} for s, t in TURNS]
    nadia.add_turns(turns, "n", session_time=SAID, session_id="s1", conversation_id="c")
    assert sorted((u.id, u.context.episode) for u in nadia.memories("n")) == before
    episode = nadia.memories("n")[0].context.episode
    assert episode is not None and nadia.reinstatement.episodes is not None
    assert len(nadia.reinstatement.episodes.episode("n", episode.id)) >= 2
    nadia.forget("n", conversation_id="c")
    assert nadia.reinstatement.episodes.episode("n", episode.id) == []


def test_budget_packs_whole_turns_until_the_tokens_run_out(nadia: RaMem) -> None:
    question = "What did the dentist find in April 2022?"
    everything = nadia.retrieve(question, "n", budget=10_000, reference=SAID)
    assert len(everything) == len(TURNS)
    small = nadia.retrieve(question, "n", budget=60, reference=SAID)
    assert 0 < len(small) < len(TURNS)
    ranked = nadia.retrieve(question, "n", 10, reference=SAID)
    prompt = nadia.render(question, ranked, budget=60)
    shown = prompt.split("Memories:\n", 1)[1].split("\n\nAnswer", 1)[0]
    assert sum(nadia.count_tokens(shown.splitlines())) <= 60
    assert all(h.memory.content in shown for h in small)
    with pytest.raises(InvalidInputError, match="budget"):
        nadia.retrieve(question, "n", budget=0)


def test_a_valid_memory_with_no_content_match_does_not_outrank_a_relevant_one(
    fake_mem: RaMem,
) -> None:
    may = TimeSpan(datetime(2022, 5, 1, tzinfo=UTC), datetime(2022, 6, 1, tzinfo=UTC))
    april = TimeSpan(datetime(2022, 4, 1, tzinfo=UTC), datetime(2022, 5, 1, tzinfo=UTC))

    def unit(i: int, text: str, span: TimeSpan) -> MemoryUnit:
        ctx = EpisodicContext(f"s{i}", TimeSpan(span.start, span.start.replace(hour=1)))
        return MemoryUnit(f"m{i}", text, ctx, "ns", (f"t{i}",), "c")

    fake_mem.add_memories(
        [
            unit(1, "Flights booked for the summer", may),
            unit(2, "The dentist found a cavity", april),
        ]
    )
    cond = fake_mem.frame("What did the dentist find in May 2022?", "ns").conditions
    frame = RecallFrame("What did the dentist find in May 2022?", "dentist", cond)
    ranked = fake_mem.reinstatement.retrieve(frame, "ns", 2)
    assert [h.memory.id for h in ranked] == ["m2", "m1"]


class _Episodes:
    """Episode 'e' holds turns a0..a3 in order; 'f' holds b0 alone."""

    def __init__(self, units: dict[str, MemoryUnit]) -> None:
        self.units = units

    def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
        return [u for u in self.units.values() if u.context.episode.id == episode_id]  # type: ignore[union-attr]


def _unit(name: str, episode: str, position: int) -> MemoryUnit:
    span = TimeSpan.day(datetime(2024, 1, 1).date(), UTC)
    episode_of = Episode(episode, position)
    context = EpisodicContext(session_id="s", session_span=span, episode=episode_of)
    return MemoryUnit(id=name, content=name, context=context, namespace="ns")


@pytest.mark.parametrize(
    ("decay", "hits_first", "scores", "order"),
    [
        # decay 1: every neighbour scores as its hit, so it comes before a weaker hit,
        # nearest first (after before before)
        (1.0, 1, (1.0, 0.9), ["a1", "a2", "a0", "a3", "b0"]),
        # 0.8: a2 and a0 (0.8) beat b0 (0.7), a3 (0.64) does not
        (0.8, 1, (1.0, 0.7), ["a1", "a2", "a0", "b0", "a3"]),
        # 0.8, b0 close behind a1 (0.9): every neighbour after it
        (0.8, 1, (1.0, 0.9), ["a1", "b0", "a2", "a0", "a3"]),
        # 0.5: a2 and a0 score 0.5, a3 0.25; b0 at 0.5 ties with the near ones and comes first
        (0.5, 1, (1.0, 0.5), ["a1", "b0", "a2", "a0", "a3"]),
        # the two best hits first: the neighbours of decay 1 wait for b0
        (1.0, 2, (1.0, 0.9), ["a1", "b0", "a2", "a0", "a3"]),
        # the default, five hits first: with two hits, both come before any neighbour
        (0.8, None, (1.0, 0.7), ["a1", "b0", "a2", "a0", "a3"]),
    ],
)
def test_neighbours_take_their_place_by_decayed_score(
    decay: float, hits_first: int | None, scores: tuple[float, float], order: list[str]
) -> None:
    from ramem_integrations.core.retrieval.content import HybridSearch
    from ramem_integrations.core.retrieval.reinstatement import (
        EPISODE_HITS_FIRST,
        ContextualRetriever,
    )
    from ramem_integrations.core.types import ScoredMemory

    units = {n: _unit(n, "e", i) for i, n in enumerate(["a0", "a1", "a2", "a3"])}
    units["b0"] = _unit("b0", "f", 0)
    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        episodes=_Episodes(units),
        before=1,
        after=2,
        decay=decay,
        leading=1,
        hits_first=EPISODE_HITS_FIRST if hits_first is None else hits_first,
    )
    ranked = [
        ScoredMemory(units[n], s, "content") for n, s in zip(["a1", "b0"], scores, strict=True)
    ]
    hits = retriever.reinstate(ranked, "ns", 10)
    assert [h.memory.id for h in hits] == order
    by_id = {h.memory.id: h for h in hits}
    assert by_id["a3"].score == pytest.approx(scores[0] * decay**2)
    assert by_id["a3"].reason == "episode" and by_id["a3"].matched == ("a1",)


def test_the_second_best_hit_brings_its_episode_too() -> None:
    from ramem_integrations.core.retrieval.content import HybridSearch
    from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
    from ramem_integrations.core.types import ScoredMemory

    units = {n: _unit(n, e, i) for e in "abc" for i, n in enumerate([f"{e}0", f"{e}1"])}
    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        episodes=_Episodes(units),
        before=1,
        after=1,
        decay=0.8,
    )
    ranked = [ScoredMemory(units[n], 1.0, "content") for n in ["a0", "b0", "c0"]]
    hits = retriever.reinstate(ranked, "ns", 10)
    # the default two leading hits bring their next turn; the third comes alone
    assert [h.memory.id for h in hits] == ["a0", "b0", "c0", "a1", "b1"]


def test_reactions_in_an_episode_are_passed_over() -> None:
    """A reaction ("lol", "🎉") is its sender's memory but carries no facts: a hit does not
    bring it, and the turn past it comes instead, as near as the reaction was."""
    from ramem_integrations.core.retrieval.content import HybridSearch
    from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
    from ramem_integrations.core.types import ScoredMemory

    names = ["a0", "a1", "lol", "🎉", "a2", "a3"]
    units = {n: _unit(n, "e", i) for i, n in enumerate(names)}
    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        episodes=_Episodes(units),
        before=1,
        after=2,
        decay=0.8,
        leading=1,
    )
    hits = retriever.reinstate([ScoredMemory(units["a1"], 1.0, "content")], "ns", 10)
    assert [h.memory.id for h in hits] == ["a1", "a2", "a0", "a3"]
    assert [round(h.score, 2) for h in hits] == [1.0, 0.8, 0.8, 0.64]


@pytest.mark.parametrize(
    ("weight", "order", "scores"),
    [
        # c (0.5) gains 0.4 x a's 1.0 and passes d, which has no episode; e gains from b
        # (1.2, 0.98, 0.9, 0.8, 0.56, over the best)
        (0.4, ["a", "b", "c", "d", "e"], [1.0, 0.98 / 1.2, 0.75, 0.8 / 1.2, 0.56 / 1.2]),
        # a stronger lift: c passes b too (1.5, 1.5, 1.1, 1.1, 0.8)
        (1.0, ["a", "c", "b", "e", "d"], [1.0, 1.0, 1.1 / 1.5, 1.1 / 1.5, 0.8 / 1.5]),
        # no lift: the content order and scores
        (0.0, ["a", "b", "d", "c", "e"], [1.0, 0.9, 0.8, 0.5, 0.2]),
        # c (0.5 + 2 x 1.0) would pass a (1.0 + 2 x 0.5); the best hit keeps first place,
        # at c's score (2.5, 2.5, 2.0 for e, 1.3 for b, 0.8)
        (2.0, ["a", "c", "e", "b", "d"], [1.0, 1.0, 0.8, 1.3 / 2.5, 0.8 / 2.5]),
    ],
)
def test_a_hit_gains_from_the_best_other_hit_of_its_episode(
    weight: float, order: list[str], scores: list[float]
) -> None:
    from ramem_integrations.core.retrieval.reinstatement import lifted_by_episode

    lifted = lifted_by_episode(_lift_candidates(), weight)
    assert [h.memory.id for h in lifted] == order
    assert [h.score for h in lifted] == pytest.approx(scores)
    assert all(h.reason == "content" for h in lifted)


def test_without_keep_first_the_lift_passes_the_best_hit() -> None:
    from ramem_integrations.core.retrieval.reinstatement import lifted_by_episode

    # c (0.5 + 2 x 1.0 = 2.5) passes a (1.0 + 2 x 0.5 = 2.0): RaMem before session 20
    passing = lifted_by_episode(_lift_candidates(), 2.0, keep_first=False)
    assert [h.memory.id for h in passing] == ["c", "a", "e", "b", "d"]
    assert [h.score for h in passing] == pytest.approx([1.0, 0.8, 0.8, 1.3 / 2.5, 0.8 / 2.5])


def _lift_candidates() -> list:  # type: ignore[type-arg]
    """Content candidates a (1.0), b (0.9), d (0.8), c (0.5), e (0.2): a and c share an
    episode, b and e another, d has none."""
    from ramem_integrations.core.types import ScoredMemory

    units = {"a": _unit("a", "e", 0), "b": _unit("b", "f", 0), "c": _unit("c", "e", 3)}
    units["d"] = replace(_unit("d", "-", 0), context=replace(units["a"].context, episode=None))
    units["e"] = _unit("e", "f", 1)
    content = {"a": 1.0, "b": 0.9, "d": 0.8, "c": 0.5, "e": 0.2}
    return [ScoredMemory(units[n], s, "content") for n, s in content.items()]


def test_a_turn_of_a_relevant_episode_passes_a_lookalike_from_another(nadia: RaMem) -> None:
    beach = [{"speaker": "Nadia", "text": "I found a small shell on the beach."}]
    beach.append({"speaker": "Leila", "text": "Nice, keep it."})
    june = datetime(2022, 6, 8, tzinfo=UTC)
    nadia.add_turns(beach, "n", session_time=june, session_id="s2", conversation_id="c")
    frame = nadia.frame("What was found at the dentist?", "n", reference=june)

    def rank(weight: float) -> list[str]:
        retriever = replace(nadia.reinstatement, episode_evidence=weight, leading=0)
        return [h.memory.content for h in retriever.retrieve(frame, "n", 9)]

    cavity, shell = TURNS[2][1], beach[0]["text"]
    # by its own words the shell turn is closer; the cavity's episode names the dentist
    assert rank(0.0).index(shell) < rank(0.0).index(cavity)
    assert rank(0.4).index(cavity) < rank(0.4).index(shell)
    assert nadia.reinstatement.episode_evidence == 0.4
    turn_level = replace(nadia.reinstatement, episodes=None)
    assert [h.memory.content for h in turn_level.retrieve(frame, "n", 9)] == rank(0.0)
