"""``EpisodicReinstatementPostprocessor``: the drop-in for an existing RAG pipeline."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle
from pydantic import ConfigDict, Field, PrivateAttr, SkipValidation

from ramem_integrations.adapters_common.asked import Reference, asked_at
from ramem_integrations.adapters_common.records import (
    SPEAKER_KEYS,
    TIME_KEYS,
    Record,
    anchor_records,
)
from ramem_integrations.core.frames import FrameInducer, KnownContext, RuleFrameInducer
from ramem_integrations.core.retrieval.content import HybridSearch
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.source import Hits
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import InvalidInputError, RamemError
from ramem_integrations.llama_index.nodes import attach, memory_node, note, unit_of_node
from ramem_integrations.memory.questions import frame_question

#: Said when no node carries an episode or a readable time (once per postprocessor).
NO_EPISODES = (
    "EpisodicReinstatementPostprocessor: none of the {count} nodes carries an episode or a "
    "readable time (metadata {keys}), so they keep their order. Ingest with "
    "EpisodicMetadataExtractor, or put a date in each document's metadata."
)


class _NoSearch:
    """The content source of a re-rank-only retriever: re-ranking never searches (the ranking
    steps look among the given candidates)."""

    def dense(
        self, namespace: str, query: str, k: int, where: object = None, scope: object = None
    ) -> Hits:
        raise RamemError("The postprocessor only re-ranks the nodes it is given.")

    lexical = dense

    def share(self, namespace: str, where: object, scope: object = None) -> float:
        return 0.0


class EpisodicReinstatementPostprocessor(BaseNodePostprocessor):
    """Re-rank nodes from any retriever by validity against the question's recall frame.

    Reads the episodic metadata on each node (as written by
    :class:`~ramem_integrations.llama_index.EpisodicMetadataExtractor` or
    :class:`~ramem_integrations.llama_index.RaMemRetriever`), induces the question's recall
    frame (a time range, people, places) and puts the nodes that meet it first, through the
    core's :meth:`ContextualRetriever.rerank` (the ranking steps RaMem's own retrieval runs,
    over the given nodes; the episode steps need a store and pass them through); the rest
    follow in their given order, then the nodes that carry no episodic metadata. Nothing is
    dropped unless ``top_n`` says so.

    A node without episodic metadata but with a time in its common metadata (``timestamp``,
    ``date``, ``created_at``, ...; the speaker from ``author``, ``speaker``, ...) is anchored
    from it, as :class:`~ramem_integrations.llama_index.EpisodicMetadataExtractor` would; when no
    node has either, a warning (once) says so and names the extractor.

    Pure: the nodes given are never changed; the returned ones are copies, with ``reason``,
    ``matched`` and ``score`` in their metadata (hidden from the LLM; the keys of
    :mod:`ramem_integrations.adapters_common.hits`; ``ramem_reason`` / ``ramem_matched``, their
    older names, are written too until the next release).

    Args:
        reference: when the question is asked: a datetime, or a callable returning one (as
            ``TimeWeightedPostprocessor``'s ``now``); the wall clock when None. Relative times
            ("last March") are grounded against it. ``UNDATED``
            (:mod:`ramem_integrations.adapters_common.asked`) reads an undated question:
            absolute dates ground against the candidates' latest session, relative ones do
            not, and an ``UngroundedTimeWarning`` says so.
        top_n: how many nodes to return (all when None).
        strict: keep every valid node ahead of every other one (``False``: a bonus instead).
        known: the people, places and dates of the corpus; read from the candidates when None.
        frame_inducer: reads questions into frames (the rule-based one when None).
        read_metadata: anchor nodes without episodes from their common metadata (default).

    Usage:
        .. code-block:: python

            engine = index.as_query_engine(
                similarity_top_k=30,
                node_postprocessors=[EpisodicReinstatementPostprocessor(reference=asked_on,
                                                                        top_n=5)],
            )
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reference: SkipValidation[Reference] = None
    top_n: int | None = Field(default=None, ge=1)
    strict: bool = True
    known: SkipValidation[KnownContext | None] = None
    frame_inducer: SkipValidation[FrameInducer | None] = None
    read_metadata: bool = True
    _warned: bool = PrivateAttr(default=False)

    @classmethod
    def class_name(cls) -> str:
        return "EpisodicReinstatementPostprocessor"

    def frame(self, query: str, units: Sequence[MemoryUnit]) -> RecallFrame:
        """The recall frame of ``query``, grounded against ``reference`` (the clock when
        None; undated when :data:`~ramem_integrations.adapters_common.asked.UNDATED`)."""
        known = self.known or KnownContext.from_memories(units)
        inducer = self.frame_inducer or RuleFrameInducer()
        return frame_question(query, inducer, known, asked_at(self.reference))

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        if query_bundle is None:
            raise InvalidInputError(
                "EpisodicReinstatementPostprocessor needs the query: call "
                "postprocess_nodes(nodes, query_str=...) or use it in a query engine."
            )
        hits: list[ScoredMemory] = []
        plain: list[NodeWithScore] = []
        by_id: dict[str, NodeWithScore] = {}
        for item in nodes:
            unit = unit_of_node(item.node) or self._from_metadata(item)
            if unit is None:
                plain.append(item)
                continue
            hits.append(ScoredMemory(unit, item.score or 0.0))
            by_id.setdefault(unit.id, item)
        if plain and not hits:
            self._warn_once(len(plain))
        frame = self.frame(query_bundle.query_str, [h.memory for h in hits])
        reranker = ContextualRetriever(HybridSearch(_NoSearch()), strict=self.strict)
        ranked = reranker.rerank(frame, hits, len(hits)) if hits else []
        out = [self._copy(by_id[h.memory.id], h, rank) for rank, h in enumerate(ranked, 1)]
        out += [NodeWithScore(node=p.node.model_copy(deep=True), score=p.score) for p in plain]
        return out[: self.top_n] if self.top_n else out

    def _from_metadata(self, item: NodeWithScore) -> MemoryUnit | None:
        """The episode a node's common metadata gives (a time, maybe a speaker), if any."""
        meta = item.node.metadata
        if not self.read_metadata or not any(meta.get(k) not in (None, "") for k in TIME_KEYS):
            return None
        text = item.node.get_content(metadata_mode=MetadataMode.NONE)
        try:
            (unit,) = anchor_records([Record(text, dict(meta), item.node.node_id)], "nodes")
        except RamemError:
            return None
        return unit

    def _warn_once(self, count: int) -> None:
        if not self._warned:
            self._warned = True
            keys = ", ".join(dict.fromkeys([*TIME_KEYS, *SPEAKER_KEYS]))
            warnings.warn(NO_EPISODES.format(count=count, keys=keys), UserWarning, stacklevel=3)

    @staticmethod
    def _copy(item: NodeWithScore, hit: ScoredMemory, rank: int) -> NodeWithScore:
        """A copy of ``item`` shown to a model as the renderer shows ``hit`` (a node read from
        common metadata gets the episode it was read as, so it shows its coordinates)."""
        node = memory_node(item.node.model_copy(deep=True), rank)
        if unit_of_node(node) is None:
            attach(node, hit.memory)
        note(node, hit)
        return NodeWithScore(node=node, score=hit.score)
