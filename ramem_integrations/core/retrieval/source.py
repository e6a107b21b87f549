"""What retrieval reads: the :class:`MemorySource` and :class:`EpisodeSource` protocols, and
the :class:`Scope` of a search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ramem_integrations.core.retrieval.filters import ContextFilter
from ramem_integrations.core.types import MemoryUnit

Hits = list[tuple[MemoryUnit, float]]


@dataclass(frozen=True)
class Scope:
    """What a search reads besides its question: ``within``, the ids of the only memories it
    may rank (None: every memory of the namespace); ``context``, the messages before the
    question, which dense searches lean toward (lexical ones and the conditions read the
    question alone)."""

    within: frozenset[str] | None = None
    context: str | None = None


#: A search of the whole namespace, for the question alone.
EVERYTHING = Scope()


class EpisodeSource(Protocol):
    """The turns of an episode, in the order they were said."""

    def episode(self, namespace: str, episode_id: str) -> Sequence[MemoryUnit]: ...


class MemorySource(Protocol):
    """What retrieval needs from storage: dense and lexical search within a namespace,
    optionally limited to the memories that meet a :class:`ContextFilter`, in a
    :class:`Scope`."""

    def dense(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits: ...

    def lexical(
        self,
        namespace: str,
        query: str,
        k: int,
        where: ContextFilter | None = None,
        scope: Scope = EVERYTHING,
    ) -> Hits: ...

    def share(self, namespace: str, where: ContextFilter, scope: Scope = EVERYTHING) -> float:
        """The fraction of the namespace's memories (of ``scope``'s) that meet ``where``: 1.0
        when it selects none out (a participant of a two-person chat), 0.0 when not known."""
        ...
