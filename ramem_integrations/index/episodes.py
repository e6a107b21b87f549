"""The episodes of a namespace, read from its loaded memories (the namespace cache)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.index.namespaces import NamespaceCache


class EpisodeIndex:
    """An :class:`~ramem_integrations.core.retrieval.source.EpisodeSource` over a
    :class:`NamespaceCache`: each episode's turns in order, rebuilt when the namespace changes."""

    def __init__(self, cache: NamespaceCache) -> None:
        self.cache = cache
        self._built: dict[str, tuple[int, dict[str, list[MemoryUnit]]]] = {}

    def episode(self, namespace: str, episode_id: str) -> Sequence[MemoryUnit]:
        version = self.cache.version(namespace)
        built = self._built.get(namespace)
        if built is None or built[0] != version:
            built = (version, _by_episode(list(self.cache.memories(namespace).values())))
            self._built[namespace] = built
        return built[1].get(episode_id, [])


def _by_episode(units: Iterable[MemoryUnit]) -> dict[str, list[MemoryUnit]]:
    out: dict[str, list[MemoryUnit]] = {}
    for unit in units:
        episode = unit.context.episode
        if episode is not None:
            out.setdefault(episode.id, []).append(unit)
    for members in out.values():
        members.sort(key=lambda u: u.context.episode.position if u.context.episode else 0)
    return out
