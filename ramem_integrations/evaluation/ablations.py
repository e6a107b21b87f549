"""The context-shuffle ablation: the same memories with their episodes permuted.

Each memory keeps its content (and so its source turns) but gets another memory's episodic
context (when, who spoke, who took part, where), in a copy of the namespace held in a store of
its own, so the store every other system reads is never written. If RaMem's gain comes from the
episodes, it vanishes here. The permutation is seeded: the same store gives the same copy.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.variants import Variant

if TYPE_CHECKING:
    from ramem_integrations.memory.ramem import RaMem

SEED = 13

#: The shuffled copy of each evaluated store, kept while the store is.
_COPIES: weakref.WeakKeyDictionary[RaMem, RaMem] = weakref.WeakKeyDictionary()


def shuffled_copy(mem: RaMem, namespace: str, seed: int = SEED) -> RaMem:
    """A RaMem over a temporary store of its own holding ``namespace`` with contexts permuted
    between its memories (made once per namespace; removed when ``mem`` goes)."""
    copy = _COPIES.get(mem)
    if copy is None:
        from ramem_integrations.memory.ramem import RaMem

        directory = tempfile.mkdtemp(prefix="ramem-shuffled-")
        copy = RaMem.from_path(
            directory, embedder=mem.embedder, anchorer=mem.anchorer, frame_inducer=mem.frame_inducer
        )
        weakref.finalize(copy, shutil.rmtree, directory, True)
        _COPIES[mem] = copy
    if copy.count(namespace) == 0:
        units = sorted(mem.memories(namespace), key=lambda u: u.id)
        contexts = [u.context for u in units]
        random.Random(seed).shuffle(contexts)
        copy.add_memories([replace(u, context=ctx) for u, ctx in zip(units, contexts, strict=True)])
    return copy


@dataclass(frozen=True)
class ContextShuffle:
    """A RaMem variant run over the shuffled copy of the question's namespace."""

    variant: Variant = field(default_factory=Variant)

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        return self.variant(shuffled_copy(mem, asked.namespace), asked, k)
