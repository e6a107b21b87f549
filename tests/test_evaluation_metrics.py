"""Metric functions on hand-made cases with known answers."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta

import pytest

from ramem_integrations.core.prompts import render_memories
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import MissingDependencyError
from ramem_integrations.evaluation import metrics
from ramem_integrations.evaluation.context import (
    Answerability,
    TokenCounter,
    answer_span,
    render_memory,
)

REF = datetime(2023, 10, 1, tzinfo=UTC)


def unit(
    content: str, day: datetime, participants: tuple[str, ...] = ("Anna", "Ben")
) -> MemoryUnit:
    span = TimeSpan(day, day + timedelta(hours=1))
    return MemoryUnit(
        id=content[:20],
        content=content,
        context=EpisodicContext("session_1", span, participants=participants),
        namespace="ns",
        source_ids=("D1:1",),
    )


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("The Cat, and the Hat!", "cat hat"),
        ("An apple a day", "apple day"),
        ("  Lots   of\tspace ", "lots of space"),
        ("$350,000", "350000"),
        ("Band", "band"),  # 'and' only as a whole word
    ],
)
def test_normalize_answer(text: str, normalised: str) -> None:
    assert metrics.normalize_answer(text) == normalised


@pytest.mark.parametrize(
    ("prediction", "gold", "category", "expected"),
    [
        ("The cat, and a dog", "dog cat", "4", 1.0),
        ("blue bowl", "a blue vase", "4", 0.5),
        ("nothing alike", "blue vase", "2", 0.0),
        ("7 May 2023", "7 May 2023", "2", 1.0),
        # multi-hop: gold split on ',', best F1 per part, averaged
        ("dog", "dog, cat", "1", 0.5),
        ("cat, dog", "dog, cat", "1", 1.0),
        ("a dog and a cat", "dog, cat", "1", pytest.approx((2 / 3 + 2 / 3) / 2)),
        # open-domain: gold up to the first ';'
        ("psychology", "Psychology; counseling", "3", 1.0),
        ("counseling", "Psychology; counseling", "3", 0.0),
        # adversarial: the prediction must say the answer is not there
        ("Not mentioned in the conversation", "a blue bowl", "5", 1.0),
        ("No information available.", "a blue bowl", "5", 1.0),
        ("a blue bowl", "a blue bowl", "5", 0.0),
    ],
)
def test_locomo_f1(prediction: str, gold: str, category: str, expected: float) -> None:
    assert metrics.locomo_f1(prediction, gold, category) == expected


def test_f1_stems_like_locomo() -> None:
    """Always nltk's PorterStemmer (the eval extra), never unstemmed words."""
    assert metrics.f1_score("paintings", "painting") == 1.0
    assert metrics.f1_score("She generously donated", "generous donation") == 0.8
    assert metrics.STEMMER == "nltk PorterStemmer"


def test_f1_without_nltk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nltk.stem", None)  # as if nltk were not installed
    metrics.porter_stem.cache_clear()
    try:
        with pytest.raises(
            MissingDependencyError, match=r"pip install 'ramem-integrations\[eval\]'"
        ):
            metrics.f1_score("paintings", "painting")
    finally:
        metrics.porter_stem.cache_clear()


@pytest.mark.parametrize(
    ("evidence", "retrieved", "frac", "any_", "all_"),
    [
        (["a", "b"], ["b", "c"], 0.5, 1.0, 0.0),
        (["a"], ["a"], 1.0, 1.0, 1.0),
        (["a", "b"], [], 0.0, 0.0, 0.0),
        (["a", "b"], ["b", "a", "z"], 1.0, 1.0, 1.0),
    ],
)
def test_recalls(
    evidence: list[str], retrieved: list[str], frac: float, any_: float, all_: float
) -> None:
    assert metrics.recall(evidence, retrieved) == frac
    assert metrics.recall_any(evidence, retrieved) == any_
    assert metrics.recall_all(evidence, retrieved) == all_


def test_recall_needs_evidence() -> None:
    with pytest.raises(ValueError):
        metrics.recall([], ["a"])


@pytest.mark.parametrize(
    ("ranked", "gap", "d_at_1"),
    [
        ([("e",), ("d",)], 1, 0.0),  # evidence first
        ([("d",), ("x",), ("e",)], -2, 1.0),  # distractor first
        ([("x",), ("e",)], 1, 0.0),  # distractor not retrieved: rank 3 (cap = depth + 1)
        ([("d",), ("x",)], -2, 1.0),  # evidence not retrieved: rank 3
        ([("x",), ("y",)], 0, 0.0),  # neither
        ([("d", "e")], 0, 0.0),  # a memory of both is not a distractor at 1
        ([], 0, 0.0),
    ],
)
def test_rank_gap_and_d_at_1(ranked: list[tuple[str, ...]], gap: int, d_at_1: float) -> None:
    assert metrics.rank_gap(ranked, {"e"}, {"d"}) == gap
    assert metrics.distractor_at_1(ranked, {"e"}, {"d"}) == d_at_1


@pytest.mark.parametrize(
    ("answer", "context", "expected"),
    [
        ("a blue vase", "Anna: I made a blue vase.", True),
        ("Blue vases", "anna made a blue vase", True),  # plurals folded
        ("a blue vase", "Anna: I made a blue bowl.", False),
        ("Psychology, counseling", "counseling and psychology", True),
        ("the", "anything", None),  # no content word: not scorable
    ],
)
def test_tokens_covered(answer: str, context: str, expected: bool | None) -> None:
    assert metrics.tokens_covered(answer, context) is expected


def test_rank_gap_cap_is_depth_plus_one() -> None:
    assert metrics.rank_gap([("e",)], {"e"}, {"d"}, depth=10) == 10


def test_mean_of_nothing_is_none() -> None:
    assert metrics.mean([]) is None
    assert metrics.mean([1.0, 0.0]) == 0.5


@pytest.mark.parametrize(
    ("answer", "start", "end"),
    [
        ("7 May 2023", datetime(2023, 5, 7, tzinfo=UTC), datetime(2023, 5, 8, tzinfo=UTC)),
        ("2022", datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC)),
        ("June 2023", datetime(2023, 6, 1, tzinfo=UTC), datetime(2023, 7, 1, tzinfo=UTC)),
    ],
)
def test_answer_span_of_dates(answer: str, start: datetime, end: datetime) -> None:
    assert answer_span(answer, REF) == TimeSpan(start, end)


@pytest.mark.parametrize("answer", ["Psychology, counseling", "a blue vase", ""])
def test_answer_span_of_non_dates(answer: str) -> None:
    assert answer_span(answer, REF) is None


def test_date_answer_found_in_another_form() -> None:
    able = Answerability.of("7 May 2023", REF)
    said = datetime(2023, 5, 20, 13, tzinfo=UTC)
    assert able.check([unit("Anna: I went to pottery on 2023-05-07.", said)])
    assert not able.check([unit("Anna: I went to pottery on 2023-05-09.", said)])


def test_date_answer_found_in_session_coordinates() -> None:
    able = Answerability.of("7 May 2023", REF)
    assert able.check([unit("Anna: I went to pottery today.", datetime(2023, 5, 7, 9, tzinfo=UTC))])


def test_year_answer_contains_a_day_in_it() -> None:
    able = Answerability.of("2022", REF)
    said = datetime(2023, 6, 20, 10, tzinfo=UTC)
    assert able.check([unit("Anna: I painted it on 3 March 2022.", said)])


def test_render_memory_is_the_agents_rendering_of_one_memory() -> None:
    memory = unit("Anna: hello", datetime(2023, 5, 8, 13, tzinfo=UTC))
    assert render_memory(memory) == '[1] said 8 May 2023; with Anna, Ben\n"Anna: hello"'
    assert render_memory(memory) == render_memories([memory])


def test_token_counter_is_minilm_wordpiece() -> None:
    counter = TokenCounter()
    assert "MiniLM" in counter.name
    assert counter.count(["Hello world, Caroline!", ""]) == [5, 0]
