"""Content retrieval: dense and BM25 rankings of a :class:`~.source.MemorySource`, fused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.fusion import (
    Fusion,
    convex_combination,
    reciprocal_rank_fusion,
)
from ramem_integrations.core.retrieval.source import EVERYTHING, Hits, MemorySource, Scope
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.errors import InvalidInputError


@dataclass(frozen=True)
class HybridSearch:
    """Content-only retrieval: dense and BM25 rankings fused.

    ``depth`` is how many candidates each ranking contributes before fusion; ``fusion`` is
    ``"convex"`` (normalised scores, weighted mean: the default, measured best) or
    ``"rrf"`` (reciprocal rank fusion); ``weights`` are the dense and BM25 weights.
    """

    source: MemorySource
    depth: int = 50
    weights: tuple[float, float] = (1.0, 1.0)
    fusion: Fusion = "convex"

    def __post_init__(self) -> None:
        if self.fusion not in get_args(Fusion):
            raise InvalidInputError(
                f"fusion must be one of {', '.join(get_args(Fusion))}, got {self.fusion!r}."
            )

    def retrieve(
        self,
        query: str,
        namespace: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> list[ScoredMemory]:
        depth = max(self.depth, k)
        rankings = [
            self.source.dense(namespace, query, depth, where, scope),
            self.source.lexical(namespace, query, depth, where, scope),
        ]
        return fuse(rankings, k, self.weights, self.fusion)


#: Where each content ranking's scores start (dense: its own lowest, min-max; BM25: 0, no word
#: of the query), for the convex fusion (docs/evaluation.md, "Fusion").
FUSION_FLOORS = (None, 0.0)


def fuse(
    rankings: Sequence[Hits],
    k: int,
    weights: Sequence[float] = (1.0, 1.0),
    fusion: Fusion = "convex",
) -> list[ScoredMemory]:
    """Fuse ranked hit lists and keep the best ``k`` as content-chosen memories."""
    by_id = {unit.id: unit for hits in rankings for unit, _ in hits}
    if fusion == "rrf":
        ids = [[unit.id for unit, _ in hits] for hits in rankings]
        fused = reciprocal_rank_fusion(ids, weights=weights)
    else:
        scored = [[(unit.id, score) for unit, score in hits] for hits in rankings]
        fused = convex_combination(scored, weights=weights, floors=FUSION_FLOORS)
    return [ScoredMemory(by_id[i], score, "content") for i, score in fused[:k]]


def single(hits: Hits, k: int) -> list[ScoredMemory]:
    """One ranking as scored memories (the dense-only and BM25-only baselines)."""
    return [ScoredMemory(unit, score, "content") for unit, score in hits[:k]]
