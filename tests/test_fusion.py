"""Convex-combination fusion: min-max normalised scores, weighted mean."""

from __future__ import annotations

import pytest

from ramem_integrations.core.retrieval.fusion import convex_combination

CASES = [
    # (dense, bm25, weights, expected order, expected top score)
    # both lists agree: the shared best item leads with 1.0
    ([("a", 0.9), ("b", 0.5)], [("a", 12.0), ("b", 3.0)], None, ["a", "b"], 1.0),
    # found by one list only: scores there alone, 0 in the other
    (
        [("a", 0.9), ("b", 0.5), ("c", 0.1)],
        [("c", 8.0), ("d", 4.0)],
        None,
        ["a", "c", "b", "d"],
        0.5,
    ),
    # BM25's raw scale does not swamp the dense one
    (
        [("a", 0.8), ("b", 0.2)],
        [("b", 100.0), ("a", 90.0), ("c", 0.0)],
        None,
        ["a", "b", "c"],
        0.95,
    ),
    # weights move the balance
    ([("a", 0.8), ("b", 0.2)], [("b", 100.0), ("a", 0.0)], [1.0, 3.0], ["b", "a"], 0.75),
    # a list whose items all score alike gives each 1
    ([("a", 0.5)], [("b", 2.0), ("a", 2.0)], None, ["a", "b"], 1.0),
    # ties break by first appearance (dense first)
    ([("x", 0.9), ("y", 0.1)], [("y", 5.0), ("x", 1.0)], None, ["x", "y"], 0.5),
    # an empty list adds nothing
    ([], [("a", 3.0), ("b", 1.0)], None, ["a", "b"], 0.5),
]


@pytest.mark.parametrize(("dense", "bm25", "weights", "order", "top"), CASES)
def test_convex_combination(
    dense: list[tuple[str, float]],
    bm25: list[tuple[str, float]],
    weights: list[float] | None,
    order: list[str],
    top: float,
) -> None:
    fused = convex_combination([dense, bm25], weights=weights)
    assert [i for i, _ in fused] == order
    assert fused[0][1] == pytest.approx(top)


def test_convex_combination_needs_one_weight_per_list() -> None:
    with pytest.raises(ValueError, match="one weight per ranking"):
        convex_combination([[("a", 1.0)]], weights=[1.0, 2.0])


def test_a_floor_keeps_the_second_of_two_matches_above_zero() -> None:
    bm25 = [("a", 4.0), ("b", 2.0)]
    assert dict(convex_combination([bm25]))["b"] == 0.0  # min-max: the lowest is 0
    assert dict(convex_combination([bm25], floors=[0.0]))["b"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="one floor per ranking"):
        convex_combination([bm25], floors=[0.0, None])


def test_an_unknown_fusion_is_refused() -> None:
    from ramem_integrations.core.retrieval.content import HybridSearch
    from ramem_integrations.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="fusion must be one of convex, rrf, got 'mean'"):
        HybridSearch(source=None, fusion="mean")  # type: ignore[arg-type]
