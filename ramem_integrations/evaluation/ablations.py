"""The context-shuffle ablation: the same memories with their episodes permuted.

Each memory keeps its content (and so its source turns) but gets another memory's episodic
context, in a copy of the namespace. If RaMem's gain comes from the episodes, it vanishes here.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.evaluation.datasets import Question

if TYPE_CHECKING:
    from ramem_integrations.memory import RaMem

SUFFIX = "~shuffled"
SEED = 13


def shuffled_namespace(mem: RaMem, namespace: str, seed: int = SEED) -> str:
    """A copy of ``namespace`` with contexts permuted between memories (made once, kept)."""
    target = namespace + SUFFIX
    units = sorted(mem.memories(namespace), key=lambda u: u.id)
    if mem.count(target) == len(units):
        return target
    contexts = [u.context for u in units]
    random.Random(seed).shuffle(contexts)
    mem.add_memories(
        [
            replace(u, id=f"{u.id}{SUFFIX}", namespace=target, context=ctx)
            for u, ctx in zip(units, contexts, strict=True)
        ]
    )
    return target


def context_shuffle(mem: RaMem, question: Question, k: int) -> list[ScoredMemory]:
    """RaMem over the shuffled copy of the question's namespace."""
    from ramem_integrations.evaluation.systems import reference_of

    namespace = shuffled_namespace(mem, question.namespace)
    frame = mem.frame(question.text, namespace, reference=reference_of(question))
    return mem.reinstatement.retrieve(frame, namespace, k)
