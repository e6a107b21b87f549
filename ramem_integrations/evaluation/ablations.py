"""Ablations: RaMem with one of its parts taken away, built here from the product's parts.

Three are retrievers that override a hook of :class:`ContextualRetriever` (and filters that
override one of :class:`ContextFilter`): :class:`NoSessionSpan`, :class:`NoNamesInText`,
:class:`SearchNeed`; a :class:`~ramem_integrations.evaluation.variants.Variant` runs them.

The context-shuffle ablation runs on the same memories with their episodes permuted. Each
memory keeps its content (and so its source turns) but gets another memory's episodic context
(when, who spoke, who took part, where), in a copy of the namespace held in a store of its own,
so the store every other system reads is never written. If RaMem's gain comes from the
episodes, it vanishes here. The permutation is seeded: the same store gives the same copy.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
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


class EventTimeFilter(ContextFilter):
    """A filter whose time condition reads a memory's event time (its own or its episode's),
    never its session span."""

    TIME_COORDINATES: ClassVar[tuple[str, ...]] = ("event", "episode")


class AnchoredNamesFilter(ContextFilter):
    """A filter whose name conditions are met by the names anchoring read only, never by a
    memory's words."""

    def said(self, unit: MemoryUnit) -> str:
        return ""


class NoSessionSpan(ContextualRetriever):
    """The ``no-session-span`` ablation: a time condition is met by the event time only."""

    filter_type = EventTimeFilter


class NoNamesInText(ContextualRetriever):
    """The ``no-names-in-text`` ablation: a name condition is met by the anchored names only
    (a memory saying "the boston" in lower case does not meet "Boston")."""

    filter_type = AnchoredNamesFilter

    def named_too(
        self, where: ContextFilter, valid: list[ScoredMemory], ranked: list[ScoredMemory]
    ) -> list[ScoredMemory]:
        return valid


class SearchNeed(ContextualRetriever):
    """The ``ramem-need`` ablation: content retrieval searches for the frame's information need
    (the question without its condition words) instead of the whole question."""

    def search_query(self, frame: RecallFrame) -> str:
        return frame.need if frame.need.strip() else super().search_query(frame)
