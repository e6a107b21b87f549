"""Retrieval (stage 3), framework-free: the store, the embedder and the lexical index stand
behind :class:`~.source.MemorySource`, so the ranking logic can be tested with any source.

- :mod:`.filters`: :class:`ContextFilter`, the conditions a memory meets or not.
- :mod:`.source`: what retrieval reads (:class:`MemorySource`, :class:`EpisodeSource`) and the
  :class:`Scope` of a search.
- :mod:`.fusion`: rank fusion, pure functions over ranked ids.
- :mod:`.content`: :class:`HybridSearch`, dense and BM25 fused.
- :mod:`.ordering`: what order words ("the last time", "now") reorder by time.
- :mod:`.steps`: the ranking steps run after the content search, in order (``DEFAULT_STEPS``).
- :mod:`.reinstatement`: :class:`ContextualRetriever`, selective reinstatement.

The names below are re-exported for importers of ``core.retrieval``; each has one home above.
"""

from ramem_integrations.core.retrieval.content import HybridSearch, fuse, single
from ramem_integrations.core.retrieval.filters import ContextFilter, names_in
from ramem_integrations.core.retrieval.reinstatement import (
    SPEAKER_BONUS,
    ContextualRetriever,
    lifted_by_episode,
)
from ramem_integrations.core.retrieval.source import (
    EVERYTHING,
    EpisodeSource,
    Hits,
    MemorySource,
    Scope,
)

__all__ = [
    "EVERYTHING",
    "SPEAKER_BONUS",
    "ContextFilter",
    "ContextualRetriever",
    "EpisodeSource",
    "Hits",
    "HybridSearch",
    "MemorySource",
    "Scope",
    "fuse",
    "lifted_by_episode",
    "names_in",
    "single",
]
