"""The passage systems: RaMem (or content) whose BM25 scores a long message by its best
passage, and whose hits name that passage as the excerpt the packer may show.

Built per namespace from the store's cached memories (:class:`~.index.passages.PassageIndex`),
again after each write; the store and its own index are never changed.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from ramem_integrations.core.passages import Passages
from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.retrieval.source import EVERYTHING, Hits, Scope
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.index.episodes import EpisodeIndex
from ramem_integrations.index.namespaces import kept_current
from ramem_integrations.index.passages import PassageIndex, PassageVectors
from ramem_integrations.memory.embedding import speaker_line, spoken_vectors
from ramem_integrations.memory.questions import questions_last
from ramem_integrations.memory.source import CachedSource

if TYPE_CHECKING:
    from ramem_integrations.memory.ramem import RaMem


class PassageSource(CachedSource):
    """A store's source whose lexical search reads a :class:`PassageIndex` (dense is the
    store's own)."""

    def __init__(self, base: CachedSource, passages: Passages, *, dense: bool = False) -> None:
        super().__init__(base.embedder, base.cache)
        self.base, self.passages, self.by_passage = base, passages, dense
        self._indexes: dict[str, tuple[int, PassageIndex]] = {}
        self._passage_vectors: dict[str, tuple[int, PassageVectors]] = {}

    def dense(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        if not self.by_passage:
            return self.base.dense(namespace, query, k, where, scope)  # its query vectors cached
        among = self._cached_among(namespace, where, scope.within)
        vector = self.base._vector(query, scope.context)
        table = self.cache.vectors(namespace)
        whole = table.search(vector, len(table), among=among)
        ranked = self.passage_vectors(namespace).search(vector, whole, k, among=among)
        return self._cached(namespace, ranked)

    def lexical(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits:
        among = self._cached_among(namespace, where, scope.within)
        return self._cached(namespace, self.index(namespace).search(query, k, among=among))

    def index(self, namespace: str) -> PassageIndex:
        return kept_current(
            self._indexes,
            self.cache,
            namespace,
            lambda: PassageIndex(self.cache.memories(namespace).values(), self.passages),
        )

    def passage_vectors(self, namespace: str) -> PassageVectors:
        return kept_current(
            self._passage_vectors,
            self.cache,
            namespace,
            lambda: PassageVectors(
                self.cache.memories(namespace).values(),
                partial(spoken_vectors, self.embedder),
                speaker_line,
                self.passages,
            ),
        )


_SOURCES: weakref.WeakKeyDictionary[RaMem, dict[tuple[Passages, bool], PassageSource]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class PassageSystem:
    """RaMem (``variant``; None: the ``content`` baseline) with BM25 by passage (``search``)
    and hits naming their best passage as an excerpt (``excerpts``)."""

    passages: Passages = field(default_factory=Passages)
    search: bool = True
    excerpts: bool = False
    #: True: dense search by passage too (the passages embedded when a namespace is first read).
    dense: bool = False
    variant: Variant | None = field(default_factory=Variant)
    #: In a user-assistant chat (the namespace's answering speaker,
    #: :meth:`~.index.episodes.EpisodeIndex.assistant`): ``"assistant"``, no excerpt of the
    #: assistant's turns; ``"chat"``, no excerpt at all; ``""``, excerpts in every chat.
    structural: str = ""

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        source = self._source(mem)
        content = replace(mem.content, source=source) if self.search else mem.content
        if self.variant is None:
            hits = questions_last(content.retrieve(asked.text, asked.namespace, k))
        else:
            retriever = replace(self.variant.retriever(mem.reinstatement), content=content)
            frame = mem.frame(asked.text, asked.namespace, reference=asked.asked_at)
            hits = retriever.retrieve(frame, asked.namespace, k)
        if not self.excerpts:  # none, whatever the default steps named
            return [replace(h, excerpt=None) for h in hits]
        index = source.index(asked.namespace)
        episodes = mem.reinstatement.episodes
        assistant = None
        if self.structural and isinstance(episodes, EpisodeIndex):
            assistant = episodes.assistant(asked.namespace)
        if assistant and self.structural == "chat":
            return [replace(h, excerpt=None) for h in hits]
        return [
            replace(h, excerpt=None)
            if assistant and h.memory.context.speaker == assistant
            else replace(h, excerpt=index.best(asked.text, h.memory.id))
            for h in hits
        ]

    def _source(self, mem: RaMem) -> PassageSource:
        sources, key = _SOURCES.setdefault(mem, {}), (self.passages, self.dense)
        if key not in sources:
            if not isinstance(base := mem.content.source, CachedSource):
                raise InvalidInputError(
                    f"The passage systems read a store's cache; this RaMem searches a "
                    f"{type(base).__name__}. Open the store with RaMem.from_path."
                )
            sources[key] = PassageSource(base, self.passages, dense=self.dense)
        return sources[key]
