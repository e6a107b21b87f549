"""``EpisodicReinstatementPostprocessor``: the drop-in for an existing RAG pipeline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle
from pydantic import ConfigDict, Field, SkipValidation

from ramem_integrations.core.frames import (
    FrameInducer,
    KnownContext,
    RuleFrameInducer,
    without_relative_times,
)
from ramem_integrations.core.retrieval import ContentRetriever, ContextualRetriever, Hits
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import InvalidInputError, RamemError
from ramem_integrations.llama_index.nodes import note, unit_of_node


class _NoSearch:
    """The content source of a re-rank-only retriever: re-ranking never searches."""

    def dense(self, namespace: str, query: str, k: int, where: object = None) -> Hits:
        raise RamemError("The postprocessor only re-ranks the nodes it is given.")

    lexical = dense


class EpisodicReinstatementPostprocessor(BaseNodePostprocessor):
    """Re-rank nodes from any retriever by validity against the question's recall frame.

    Reads the episodic metadata on each node (as written by
    :class:`~ramem_integrations.llama_index.EpisodicMetadataExtractor` or
    :class:`~ramem_integrations.llama_index.RaMemRetriever`), induces the question's recall
    frame (a time range, people, places) and puts the nodes that meet it first, through the
    core's :meth:`ContextualRetriever.rerank`; the rest follow in their given order, then the
    nodes that carry no episodic metadata. Nothing is dropped unless ``top_n`` says so.

    Pure: the nodes given are never changed; the returned ones are copies, with
    ``ramem_reason`` / ``ramem_matched`` in their metadata (hidden from the LLM).

    Args:
        reference: when the question is asked: a datetime, or a callable returning one (as
            ``TimeWeightedPostprocessor``'s ``now``). Relative times ("last March") are
            grounded against it; without it they are not grounded (absolute dates are, against
            the candidates' latest session), and the wall clock is never read.
        top_n: how many nodes to return (all when None).
        strict: keep every valid node ahead of every other one (``False``: a bonus instead).
        known: the people, places and dates of the corpus; read from the candidates when None.
        frame_inducer: reads questions into frames (the rule-based one when None).

    Usage:
        .. code-block:: python

            engine = index.as_query_engine(
                similarity_top_k=30,
                node_postprocessors=[EpisodicReinstatementPostprocessor(reference=asked_on,
                                                                        top_n=5)],
            )
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reference: SkipValidation[datetime | Callable[[], datetime] | None] = None
    top_n: int | None = Field(default=None, ge=1)
    strict: bool = True
    known: SkipValidation[KnownContext | None] = None
    frame_inducer: SkipValidation[FrameInducer | None] = None

    @classmethod
    def class_name(cls) -> str:
        return "EpisodicReinstatementPostprocessor"

    def frame(self, query: str, units: Sequence[MemoryUnit]) -> RecallFrame:
        """The recall frame of ``query``, grounded against ``reference``."""
        known = self.known or KnownContext.from_memories(units)
        reference = self.reference() if callable(self.reference) else self.reference
        estimated = reference is None
        if estimated and known.date_range is not None:
            reference = known.date_range.end
        if reference is None:
            return RecallFrame(query, query)
        inducer = self.frame_inducer or RuleFrameInducer()
        frame = inducer.induce(query, reference=reference, known=known)
        return without_relative_times(frame) if estimated else frame

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
            unit = unit_of_node(item.node)
            if unit is None:
                plain.append(item)
                continue
            hits.append(ScoredMemory(unit, item.score or 0.0))
            by_id.setdefault(unit.id, item)
        frame = self.frame(query_bundle.query_str, [h.memory for h in hits])
        reranker = ContextualRetriever(ContentRetriever(_NoSearch()), strict=self.strict)
        ranked = reranker.rerank(frame, hits, len(hits)) if hits else []
        out = [self._copy(by_id[h.memory.id], h) for h in ranked]
        out += [NodeWithScore(node=p.node.model_copy(deep=True), score=p.score) for p in plain]
        return out[: self.top_n] if self.top_n else out

    @staticmethod
    def _copy(item: NodeWithScore, hit: ScoredMemory) -> NodeWithScore:
        node = item.node.model_copy(deep=True)
        note(node, hit)
        return NodeWithScore(node=node, score=hit.score)
