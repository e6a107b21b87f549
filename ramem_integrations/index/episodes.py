"""The episodes of a namespace, read from its loaded memories (the namespace cache)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ramem_integrations.core.retrieval.chats import answering_speaker
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.index.namespaces import NamespaceCache, kept_current


class EpisodeIndex:
    """An :class:`~ramem_integrations.core.retrieval.source.EpisodeSource` over a
    :class:`NamespaceCache`: each episode's turns in order, rebuilt when the namespace changes."""

    def __init__(self, cache: NamespaceCache) -> None:
        self.cache = cache
        self._built: dict[str, tuple[int, dict[str, list[MemoryUnit]]]] = {}
        self._assistants: dict[str, tuple[int, str | None]] = {}

    def episode(self, namespace: str, episode_id: str) -> Sequence[MemoryUnit]:
        return self._episodes(namespace).get(episode_id, [])

    def assistant(self, namespace: str) -> str | None:
        """The answering speaker of the namespace's chat, read off all its episodes
        (:func:`~ramem_integrations.core.retrieval.chats.answering_speaker`): the assistant of
        a user-assistant chat, else None."""
        return kept_current(
            self._assistants,
            self.cache,
            namespace,
            lambda: answering_speaker(self._episodes(namespace).values()),
        )

    def _episodes(self, namespace: str) -> dict[str, list[MemoryUnit]]:
        return kept_current(
            self._built,
            self.cache,
            namespace,
            lambda: _by_episode(list(self.cache.memories(namespace).values())),
        )


def _by_episode(units: Iterable[MemoryUnit]) -> dict[str, list[MemoryUnit]]:
    out: dict[str, list[MemoryUnit]] = {}
    for unit in units:
        episode = unit.context.episode
        if episode is not None:
            out.setdefault(episode.id, []).append(unit)
    for members in out.values():
        members.sort(key=lambda u: u.context.episode.position if u.context.episode else 0)
    return out
