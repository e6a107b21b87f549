"""Retrieval over a memory source: content (the hybrid fallback) and, later, reinstatement.

Framework-free: the store, the embedder and the lexical index stand behind
:class:`MemorySource`, so the ranking logic here can be tested with any source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ramem_integrations.core.fusion import reciprocal_rank_fusion
from ramem_integrations.core.types import MemoryUnit, ScoredMemory

Hits = list[tuple[MemoryUnit, float]]


class MemorySource(Protocol):
    """What retrieval needs from storage: dense and lexical search within a namespace."""

    def dense(self, namespace: str, query: str, k: int) -> Hits: ...

    def lexical(self, namespace: str, query: str, k: int) -> Hits: ...


@dataclass(frozen=True)
class ContentRetriever:
    """Content-only retrieval: dense and BM25 rankings fused by reciprocal rank fusion.

    ``depth`` is how many candidates each ranking contributes before fusion.
    """

    source: MemorySource
    depth: int = 50
    weights: tuple[float, float] = (1.0, 1.0)

    def retrieve(self, query: str, namespace: str, k: int) -> list[ScoredMemory]:
        depth = max(self.depth, k)
        return fuse(
            [self.source.dense(namespace, query, depth), self.source.lexical(namespace, query, depth)],
            k,
            self.weights,
        )


def fuse(rankings: Sequence[Hits], k: int, weights: Sequence[float]) -> list[ScoredMemory]:
    """Fuse ranked hit lists by RRF and keep the best ``k`` as content-chosen memories."""
    by_id = {unit.id: unit for hits in rankings for unit, _ in hits}
    fused = reciprocal_rank_fusion(
        [[unit.id for unit, _ in hits] for hits in rankings], weights=weights
    )
    return [ScoredMemory(by_id[i], score, "content") for i, score in fused[:k]]


def single(hits: Hits, k: int) -> list[ScoredMemory]:
    """One ranking as scored memories (the dense-only and BM25-only baselines)."""
    return [ScoredMemory(unit, score, "content") for unit, score in hits[:k]]
