"""White-box seams: the parts a :class:`~ramem_integrations.memory.ramem.RaMem` is built from,
for tests that check a part directly (the namespace cache kept current by each write, the read
source's condition tables, the writer's batches). Programs use RaMem's own methods instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ramem_integrations.index.freshness import Freshness
    from ramem_integrations.index.namespaces import NamespaceCache
    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.memory.source import CachedSource
    from ramem_integrations.memory.writing import Writer


@dataclass(frozen=True)
class Parts:
    """A RaMem's private parts, as the objects themselves (not copies)."""

    cache: NamespaceCache
    freshness: Freshness
    source: CachedSource
    writer: Writer


def parts(mem: RaMem) -> Parts:
    """The namespace cache, freshness check, read source and writer ``mem`` is built from."""
    return Parts(mem._cache, mem._freshness, mem._source, mem._writer)
