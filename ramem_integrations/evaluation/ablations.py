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
import re
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from ramem_integrations.core.aliases import namespace_aliases
from ramem_integrations.core.frames import KnownContext
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.source import EVERYTHING, Hits, Scope
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.index.bm25 import BM25, lexical_text
from ramem_integrations.index.namespaces import kept_current
from ramem_integrations.memory.questions import frame_question, questions_last
from ramem_integrations.memory.source import CachedSource

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


class LexicalSource(CachedSource):
    """A store's source whose BM25 indexes each memory's :func:`~.bm25.lexical_text` with
    ``framed`` as given (the store's own index uses the default), built per namespace from
    the cached memories, again after each write."""

    def __init__(self, base: CachedSource, *, framed: bool, names: bool = True) -> None:
        super().__init__(base.embedder, base.cache)
        self.base, self.framed, self.names = base, framed, names
        self._indexes: dict[str, tuple[int, BM25]] = {}

    def dense(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        return self.base.dense(namespace, query, k, where, scope)  # its query vectors cached

    def lexical(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        among = self._cached_among(namespace, where, scope.within)
        if not self.names:
            query = self._without_names(namespace, query)
        return self._cached(namespace, self._index(namespace).search(query, k, among=among))

    def _without_names(self, namespace: str, query: str) -> str:
        """``query`` without the speakers' names: who said it is a coordinate, not a word."""
        speakers = {u.context.speaker for u in self.cache.memories(namespace).values()}
        names = sorted((n for n in speakers if n), key=len, reverse=True)
        if not names:
            return query
        pattern = r"\b(" + "|".join(map(re.escape, names)) + r")('s)?\b"
        return re.sub(pattern, " ", query)

    def _index(self, namespace: str) -> BM25:
        def build() -> BM25:
            index = BM25()
            for unit in self.cache.memories(namespace).values():
                index.add(unit.id, lexical_text(unit, framed=self.framed))
            return index

        return kept_current(self._indexes, self.cache, namespace, build)


_LEXICAL: weakref.WeakKeyDictionary[RaMem, dict[tuple[bool, bool], LexicalSource]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class LexicalText:
    """RaMem (``variant``; None: the ``content`` baseline) with the BM25 text framed by the
    speaker's and addressee's names (``framed``) or not: ``lexical-framed``."""

    framed: bool
    variant: Variant | None = field(default_factory=Variant)
    #: False: the speakers' names are taken out of the lexical query too.
    names: bool = True

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        sources = _LEXICAL.setdefault(mem, {})
        key = (self.framed, self.names)
        if key not in sources:
            if not isinstance(base := mem.content.source, CachedSource):
                raise InvalidInputError(
                    f"The lexical-text systems read a store's cache; this RaMem searches a "
                    f"{type(base).__name__}. Open the store with RaMem.from_path."
                )
            sources[key] = LexicalSource(base, framed=self.framed, names=self.names)
        source = sources[key]
        if self.variant is None:
            content = replace(mem.content, source=source)
            return questions_last(content.retrieve(asked.text, asked.namespace, k))
        retriever = self.variant.retriever(mem.reinstatement)
        retriever = replace(retriever, content=replace(retriever.content, source=source))
        frame = mem.frame(asked.text, asked.namespace, reference=asked.asked_at)
        return retriever.retrieve(frame, asked.namespace, k)


_KNOWN: weakref.WeakKeyDictionary[RaMem, dict[tuple[str, int], KnownContext]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class NoCalledAliases:
    """The ``no-called-aliases`` ablation: questions read with the aliases learned without the
    messages that open by calling the other ("Sammy!! how are you?":
    :func:`~ramem_integrations.core.aliases.alias_evidence`, ``calls``)."""

    variant: Variant = field(default_factory=Variant)

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        known = mem.known(asked.namespace)
        key = (asked.namespace, mem.count(asked.namespace))
        cached = _KNOWN.setdefault(mem, {})
        if key not in cached:
            aliases, once = namespace_aliases(mem.memories(asked.namespace), calls=False)
            cached[key] = replace(known, aliases=aliases, aliases_once=once)
        frame = frame_question(asked.text, mem.frame_inducer, cached[key], asked.asked_at)
        return self.variant.retriever(mem.reinstatement).retrieve(frame, asked.namespace, k)
