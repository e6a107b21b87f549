"""Rank fusion: pure functions over ranked lists.

Content retrieval fuses a dense and a BM25 ranking. The default is a convex combination of
their normalised scores (Bruch et al., 2023, "An Analysis of Fusion Functions for Hybrid
Retrieval"); reciprocal rank fusion (Cormack et al., 2009), which looks at ranks only, stays
available. Measured in docs/evaluation.md ("Fusion").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

#: The k of reciprocal rank fusion (Cormack et al., 2009); 60 is the usual value.
RRF_K = 60

#: How content retrieval fuses its rankings (:class:`~.content.HybridSearch`).
Fusion = Literal["convex", "rrf"]


def _weights_for(rankings: Sequence[object], weights: Sequence[float] | None) -> Sequence[float]:
    weights = weights if weights is not None else [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("give one weight per ranking")
    return weights


def _best_first(scores: dict[str, float]) -> list[tuple[str, float]]:
    """Best score first; ties break by first appearance (the sort is stable, and a dict keeps
    the order its items were first set in)."""
    return sorted(scores.items(), key=lambda pair: -pair[1])


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(id) = sum of weight / (k + rank), rank from 1.

    Returns ``(id, score)`` pairs, best first; ties break by first appearance.
    """
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, _weights_for(rankings, weights), strict=True):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return _best_first(scores)


def convex_combination(
    rankings: Sequence[Sequence[tuple[str, float]]],
    *,
    weights: Sequence[float] | None = None,
    floors: Sequence[float | None] | None = None,
) -> list[tuple[str, float]]:
    """Fuse scored lists: each list's scores normalised to 0..1, then a weighted mean (weights
    sum to one); an item missing from a list scores 0 there.

    A list is normalised from its floor to its best score: ``floors`` gives one per list, a
    number where the score has a natural zero (BM25: no word of the query), None for the
    list's own lowest score (min-max; cosine similarity has no such zero). A list whose items
    all score alike gives each of them 1. Returns ``(id, score)`` pairs, best first; ties
    break by first appearance.
    """
    weights = _weights_for(rankings, weights)
    floors = floors if floors is not None else [None] * len(rankings)
    if len(floors) != len(rankings):
        raise ValueError("give one floor per ranking")
    total = sum(weights) or 1.0
    scores: dict[str, float] = {}
    for ranking, weight, floor in zip(rankings, weights, floors, strict=True):
        values = [score for _, score in ranking]
        high = max(values, default=0.0)
        low = min(values, default=0.0) if floor is None else floor
        for item, score in ranking:
            unit = (score - low) / (high - low) if high > low else 1.0
            scores[item] = scores.get(item, 0.0) + weight / total * unit
    return _best_first(scores)
