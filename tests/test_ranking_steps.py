"""The ranking steps (core/retrieval/steps.py), each alone on a table of cases, their order,
the ablation system each has, and the rule row each has in docs/rules.md. Logic tests: the
memories are built in place, no store is read (but for the context search)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.retrieval.chats import UserFirst, UserNeighboursLast
from ramem_integrations.core.retrieval.content import HybridSearch
from ramem_integrations.core.retrieval.excerpts import Excerpts
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.optional import OPTIONAL_STEPS, added
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.source import EVERYTHING
from ramem_integrations.core.retrieval.steps import (
    DEFAULT_STEPS,
    Context,
    EpisodeEvidence,
    Neighbours,
    Order,
    Ranking,
    Replies,
    SpeakerPreference,
    Spread,
    Step,
    run,
)
from ramem_integrations.core.types import (
    Condition,
    Episode,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    ScoredMemory,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.systems import ALIASES, SYSTEMS
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.memory.ramem import RaMem

ROOT = Path(__file__).resolve().parents[1]
NAMES = (
    "episode-evidence",
    "context",
    "speaker-preference",
    "order",
    "user-first",
    "neighbours",
    "user-neighbours-last",
    "excerpts",
)


def unit(
    name: str,
    episode: str = "",
    position: int = 0,
    speaker: str | None = None,
    day: int = 1,
    participants: tuple[str, ...] = (),
) -> MemoryUnit:
    """A memory said on ``day`` January 2024, in ``episode`` at ``position`` if given."""
    context = EpisodicContext(
        "s",
        TimeSpan.day(date(2024, 1, day), UTC),
        participants=participants,
        speaker=speaker,
        episode=Episode(episode, position) if episode else None,
    )
    return MemoryUnit(name, name, context, "ns")


class Episodes:
    """An episode source over the units given: an episode's turns by position."""

    def __init__(self, *units: MemoryUnit) -> None:
        self.units = units

    def episode(self, namespace: str, episode_id: str) -> list[MemoryUnit]:
        turns = [u for u in self.units if u.context.episode and u.context.episode.id == episode_id]
        return sorted(turns, key=lambda u: u.context.episode.position)  # type: ignore[union-attr]


def at(
    *steps: Step,
    frame: RecallFrame | None = None,
    episodes: Episodes | None = None,
    where: ContextFilter | None = None,
    share: float = 0.0,
    named: frozenset[str] = frozenset(),
) -> Ranking:
    """What the steps read when re-ranking (nothing is searched)."""
    retriever = ContextualRetriever(HybridSearch(source=None))  # type: ignore[arg-type]
    return Ranking(
        frame or RecallFrame("", ""),
        "ns",
        10,
        10,
        EVERYTHING,
        retriever,
        steps,
        where or ContextFilter(),
        share,
        episodes=episodes,  # type: ignore[arg-type]
        named=named,
    )


def ids(hits: list[ScoredMemory]) -> list[str]:
    return [h.memory.id for h in hits]


def test_the_default_steps_run_in_one_visible_order_and_each_says_why() -> None:
    assert tuple(step.name for step in DEFAULT_STEPS) == NAMES
    for step in DEFAULT_STEPS:
        assert "Why:" in (type(step).__doc__ or ""), step.name
        with pytest.raises(AttributeError):  # frozen: a step is a value
            step.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("weight", "keep_first", "episodes", "order"),
    [
        # c (0.6) gains 0.4 x a's 1.0 and passes b, whose episode holds nothing else
        (0.4, True, True, ["a", "c", "b"]),
        (0.0, True, True, ["a", "b", "c"]),  # no weight: no lift
        (0.4, True, False, ["a", "b", "c"]),  # no episodes: no lift
    ],
)
def test_episode_evidence_lifts_a_candidate_by_its_episodes_best_other(
    weight: float, keep_first: bool, episodes: bool, order: list[str]
) -> None:
    a, b, c = unit("a", "e", 0), unit("b", "f", 0), unit("c", "e", 1)
    ranked = [ScoredMemory(a, 1.0), ScoredMemory(b, 0.9), ScoredMemory(c, 0.6)]
    step = EpisodeEvidence(weight, keep_first)
    assert ids(step.rank(ranked, at(step, episodes=Episodes() if episodes else None))) == order


@pytest.mark.parametrize(
    ("keep_first", "order"), [(True, ["a", "b", "c"]), (False, ["b", "c", "a"])]
)
def test_episode_evidence_keeps_the_best_by_its_own_words_first(
    keep_first: bool, order: list[str]
) -> None:
    a, b, c = unit("a", "f", 0), unit("b", "e", 0), unit("c", "e", 1)
    ranked = [ScoredMemory(a, 1.0), ScoredMemory(b, 0.9), ScoredMemory(c, 0.8)]
    step = EpisodeEvidence(0.4, keep_first)
    assert ids(step.rank(ranked, at(step, episodes=Episodes()))) == order


DAY_2 = ContextFilter(time=TimeSpan.day(date(2024, 1, 2), UTC))


@pytest.mark.parametrize(
    ("where", "strict", "bonus", "order", "context"),
    [
        # strict: the memories said on the asked day first, in their order
        (DAY_2, True, 0.5, ["b", "c", "a"], {"b", "c"}),
        # soft: two of three meet it (selectivity 1/3): a bonus of 0.5 x 1/3 leaves a first,
        (DAY_2, False, 0.5, ["a", "b", "c"], {"b", "c"}),
        # one of 1.0 x 1/3 lifts b (0.8) past it
        (DAY_2, False, 1.0, ["b", "a", "c"], {"b", "c"}),
        # no condition: nothing moves
        (ContextFilter(), True, 0.5, ["a", "b", "c"], set()),
    ],
)
def test_context_puts_the_memories_meeting_the_conditions_first_or_lifts_them(
    where: ContextFilter, strict: bool, bonus: float, order: list[str], context: set[str]
) -> None:
    ranked = [
        ScoredMemory(unit("a", day=1), 1.0),
        ScoredMemory(unit("b", day=2), 0.8),
        ScoredMemory(unit("c", day=2), 0.5),
    ]
    step = Context(strict, bonus)
    share = sum(1 for h in ranked if where and where.met_by(h.memory) is not None) / 3
    out = step.rank(ranked, at(step, where=where, share=share))
    assert ids(out) == order
    assert {h.memory.id for h in out if h.reason == "context"} == context


ANN, BOB = "Ann", "Bob"


@pytest.mark.parametrize(
    ("said", "named", "bonus", "strict", "order"),
    [
        # Ann's 0.8 gains 0.1 x 1.0: not enough to pass Bob's 1.0
        ([(BOB, 1.0, "content"), (ANN, 0.8, "content")], {ANN}, 0.1, True, [BOB, ANN]),
        ([(BOB, 1.0, "content"), (ANN, 0.8, "content")], {ANN}, 0.3, True, [ANN, BOB]),
        ([(BOB, 1.0, "content"), (ANN, 0.8, "content")], set(), 0.3, True, [BOB, ANN]),
        ([(BOB, 1.0, "content"), (ANN, 0.8, "content")], {ANN}, 0.0, True, [BOB, ANN]),
        # strict: the preference never crosses the line between context and the rest
        ([(BOB, 1.0, "context"), (ANN, 0.95, "content")], {ANN}, 0.3, True, [BOB, ANN]),
        ([(BOB, 1.0, "context"), (ANN, 0.95, "content")], {ANN}, 0.3, False, [ANN, BOB]),
    ],
)
def test_speaker_preference_lifts_what_the_named_people_said(
    said: list[tuple[str, float, str]],
    named: set[str],
    bonus: float,
    strict: bool,
    order: list[str],
) -> None:
    ranked = [ScoredMemory(unit(who, speaker=who), s, reason) for who, s, reason in said]
    step = SpeakerPreference(bonus, strict)
    assert ids(step.rank(ranked, at(step, named=frozenset(named)))) == order


def _order_word(value: str, anchor: str | None = None) -> Condition:
    return Condition("relation", value, f"the {value} time", grounded=False, anchor=anchor)


@pytest.mark.parametrize(
    ("conditions", "order"),
    [
        # "the last time I mentioned the dentist": its memories lead, the latest first
        ((_order_word("last", "dentist"),), ["dentist again", "dentist visit", "cat"]),
        ((_order_word("first", "dentist"),), ["dentist visit", "dentist again", "cat"]),
        # "now": among the most relevant (at least 0.75 of the best), the latest leads
        (
            (Condition("recency", "now", "now", grounded=True),),
            ["cat", "dentist again", "dentist visit"],
        ),
        ((), ["dentist visit", "cat", "dentist again"]),  # no order word: nothing moves
    ],
)
def test_order_words_put_the_memories_about_the_subject_in_time_order(
    conditions: tuple[Condition, ...], order: list[str]
) -> None:
    ranked = [
        ScoredMemory(unit("dentist visit", day=1), 1.0),
        ScoredMemory(unit("cat", day=5), 0.9),
        ScoredMemory(unit("dentist again", day=3), 0.8),
    ]
    frame = RecallFrame("q", "q", conditions)
    assert ids(Order().rank(ranked, at(Order(), frame=frame))) == order


ASKS = unit("Did you just get the tattoo?", "e", 0, "Caroline")
REPLY = unit("Yes, last Friday!", "e", 1, "Melanie")
AFTER = unit("It looks great.", "e", 2, "Caroline")
ALONE = unit("Sunflowers are my favourite.", "f", 0, "Caroline")


@pytest.mark.parametrize(
    ("depth", "named", "episodes", "order"),
    [
        # the question (second) brings Melanie's reply just before it, with its score
        (10, {"Melanie"}, True, [ALONE, REPLY, ASKS]),
        (1, {"Melanie"}, True, [ALONE, ASKS]),  # only the best `depth` hits bring one
        (10, set(), True, [ALONE, ASKS]),  # no one named
        (10, {"Melanie"}, False, [ALONE, ASKS]),  # no episodes to read
    ],
)
def test_replies_bring_a_named_persons_reply_before_the_question_put_to_them(
    depth: int, named: set[str], episodes: bool, order: list[MemoryUnit]
) -> None:
    ranked = [ScoredMemory(ALONE, 1.0), ScoredMemory(ASKS, 0.9)]
    step = Replies(depth)
    source = Episodes(ASKS, REPLY, AFTER, ALONE) if episodes else None
    out = run(ranked, at(step, episodes=source, named=frozenset(named)))
    assert ids(out) == [u.id for u in order]
    if REPLY in order:
        assert (out[1].score, out[1].reason, out[1].matched) == (0.9, "reply", (ASKS.id,))


@pytest.mark.parametrize(
    ("steps", "order", "reasons"),
    [
        # each hit's neighbours after it (no hits held first); the reply keeps its place
        # before the question, and is not brought again as a neighbour
        (
            (Replies(10), Neighbours(hits_first=1)),
            [ALONE, REPLY, ASKS, AFTER],
            ["content", "reply", "content", "episode"],
        ),
        (
            (Neighbours(hits_first=1),),
            [ALONE, ASKS, REPLY, AFTER],
            ["content", "content", "episode", "episode"],
        ),
        # only the best hit brings its episode (which holds nothing else)
        ((Neighbours(hits_first=1, leading=1),), [ALONE, ASKS], ["content", "content"]),
        ((Replies(10),), [ALONE, REPLY, ASKS], ["content", "reply", "content"]),
    ],
)
def test_neighbours_bring_a_hits_episode_around_it_and_leave_replies_in_place(
    steps: tuple[Step, ...], order: list[MemoryUnit], reasons: list[str]
) -> None:
    ranked = [ScoredMemory(ALONE, 1.0, "content"), ScoredMemory(ASKS, 0.9, "content")]
    source = Episodes(ASKS, REPLY, AFTER, ALONE)
    out = run(ranked, at(*steps, episodes=source, named=frozenset({"Melanie"})))
    assert ids(out) == [u.id for u in order]
    assert [h.reason for h in out] == reasons


def test_the_retrievers_options_are_the_steps_constants() -> None:
    retriever = ContextualRetriever(
        HybridSearch(source=None),  # type: ignore[arg-type]
        strict=False,
        speaker_bonus=0.3,
        leading=1,
        episode_evidence=0.2,
    )
    assert retriever.pipeline() == (
        EpisodeEvidence(0.2, True),
        Context(strict=False, bonus=0.5),
        SpeakerPreference(0.3, strict=False),
        Order(),
        UserFirst(),
        Neighbours(leading=1),
        UserNeighboursLast(),
        Excerpts(),
    )


def test_rerank_runs_the_retrievers_steps() -> None:
    """The drop-in path runs the same list: without the speaker step, Ann's memory stays
    behind Bob's (both meet the condition: their chat is Ann's)."""
    frame = RecallFrame("q", "q", (Condition("participant", ANN, ANN, grounded=True),))
    chat = (ANN, BOB)
    ranked = [
        ScoredMemory(unit("by bob", speaker=BOB, participants=chat), 1.0),
        ScoredMemory(unit("by ann", speaker=ANN, participants=chat), 0.95),
    ]
    retriever = ContextualRetriever(HybridSearch(source=None))  # type: ignore[arg-type]
    without = Variant(without=("speaker-preference",)).retriever(retriever)
    assert ids(retriever.rerank(frame, ranked, 2)) == ["by ann", "by bob"]
    assert ids(without.rerank(frame, ranked, 2)) == ["by bob", "by ann"]


@pytest.mark.parametrize("name", NAMES)
def test_each_step_has_an_ablation_system_the_default_list_minus_it(
    fake_mem: RaMem, name: str
) -> None:
    system = SYSTEMS[f"without-{name}"]
    assert isinstance(system, Variant)
    steps = system.retriever(fake_mem.reinstatement).steps
    assert [s.name for s in steps] == [n for n in NAMES if n != name]


def test_the_old_ablation_names_are_the_same_systems() -> None:
    assert ALIASES == {
        "no-episode-evidence": "without-episode-evidence",
        "no-speaker-preference": "without-speaker-preference",
        "no-replies": "without-replies",
    }
    assert all(SYSTEMS[old] is SYSTEMS[new] for old, new in ALIASES.items())
    # the ablations of the steps now off by default name RaMem itself
    assert all(SYSTEMS[name] is SYSTEMS["ramem"] for name in ("without-replies", "without-spread"))


def test_an_unknown_step_name_is_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"Unknown ranking step.*Known: episode-evidence"):
        Variant(without=("speaker",))


def test_without_context_ranks_by_content_alone(fake_mem: RaMem) -> None:
    """The context search, end to end over real Chroma: the memory of the asked day leads
    with the step and keeps its content rank without it."""
    said = {1: "hiking hiking trail with friends", 2: "we went hiking"}
    for day, words in said.items():
        fake_mem.add_turns(
            [{"speaker": ANN, "text": words}],
            "ns",
            session_time=datetime(2024, 3, day, 12, tzinfo=UTC),
            session_id=f"s{day}",
        )
    asked = Asked(
        "Where did Ann go hiking on 2 March 2024?", "ns", datetime(2024, 6, 1, tzinfo=UTC)
    )
    first = [h.memory.content for h in SYSTEMS["ramem"](fake_mem, asked, 2)]
    plain = [h.memory.content for h in SYSTEMS["without-context"](fake_mem, asked, 2)]
    assert "we went hiking" in first[0] and "hiking trail" in plain[0]


def test_every_step_has_a_row_in_the_rules_doc() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", text, flags=re.MULTILINE))
    assert {step.name for step in DEFAULT_STEPS} <= rows
    for step in DEFAULT_STEPS:
        assert f"`without-{step.name}`" in text


def test_the_steps_off_by_default_are_listed_in_one_place_with_their_constants() -> None:
    """Every step class of core/retrieval is a default step or an optional one, and an optional
    step holds the constants it runs with when turned on (none is a default step set to 0)."""
    import inspect

    from ramem_integrations.core.retrieval import chats, costs, excerpts, steps

    classes = {
        cls.name
        for module in (steps, chats, costs, excerpts)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if isinstance(getattr(cls, "name", None), str) and hasattr(cls, "rank")
    }
    assert classes == {s.name for s in DEFAULT_STEPS} | set(OPTIONAL_STEPS)
    assert not {s.name for s in DEFAULT_STEPS} & set(OPTIONAL_STEPS)
    assert OPTIONAL_STEPS["replies"] == Replies(depth=10)
    assert OPTIONAL_STEPS["spread"] == Spread(margin=0.05)
    # turned on by name, where it runs: replies after order, spread before the excerpts
    names = [s.name for s in added(DEFAULT_STEPS, "spread", "replies")]
    assert names == [*NAMES[:4], "replies", *NAMES[4:-1], "spread", "excerpts"]
    # a value with other constants takes the place of the named step
    assert added(added(DEFAULT_STEPS, "spread"), Spread(margin=0.2))[-2] == Spread(margin=0.2)


@pytest.mark.parametrize(
    ("options", "turned_on"),
    [
        ({"reply_depth": 2}, [Replies(2)]),
        ({"spread_margin": 0.1}, [Spread(0.1)]),
        ({"reply_depth": 0, "spread_margin": 0.0}, []),
        ({"reply_depth": 3, "spread_margin": 0.2}, [Replies(3), Spread(0.2)]),
    ],
)
def test_the_old_options_still_turn_their_steps_on_with_a_deprecation_warning(
    options: dict[str, float], turned_on: list[Step]
) -> None:
    with pytest.warns(
        DeprecationWarning, match=r"steps=added\(DEFAULT_STEPS, '(replies|spread)'\)"
    ):
        retriever = ContextualRetriever(HybridSearch(source=None), **options)  # type: ignore[arg-type]
    optional = [s for s in retriever.pipeline() if s.name in OPTIONAL_STEPS]
    assert optional == turned_on
    if turned_on and isinstance(turned_on[0], Replies):
        assert [s.name for s in retriever.steps].index("replies") == NAMES.index("order") + 1
    # the steps hold the value now: a copy keeps them, and warns no more
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = replace(retriever, strict=False)
    assert (again.steps, again.reply_depth, again.spread_margin) == (retriever.steps, None, None)
