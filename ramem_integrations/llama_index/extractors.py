"""``EpisodicMetadataExtractor``: episodic metadata on nodes at ingestion."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from llama_index.core.schema import BaseNode, MetadataMode, TransformComponent
from pydantic import ConfigDict, SkipValidation

from ramem_integrations.adapters_common.records import Record, anchor_records
from ramem_integrations.core.anchoring import Anchorer
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.llama_index.nodes import attach, hide


class EpisodicMetadataExtractor(TransformComponent):
    """Anchor nodes as RaMem anchors conversation turns, and attach their episode.

    Each node needs a time: metadata ``session_time``, ``timestamp``, ``time``, ``date`` or
    ``created_at`` (a datetime, a date string or epoch seconds), else ``default_time``; the
    speaker comes from ``speaker``, ``author``, ``sender`` or ``role``; the session from
    ``session_id`` (else the node's day).

    Returns copies: their metadata gains the flat episodic keys of
    :meth:`~ramem_integrations.MemoryUnit.to_metadata` (hidden from the LLM and the embedding)
    and the coordinate lines ``said`` / ``happened`` / ``who`` / ``place`` (hidden from the
    embedding), and ``said_by``, the speaker line the embedding sees beside the text (hidden
    from the LLM). The text stays the user's words; the self-contained restatement (speaker
    named, "yesterday" as a date) sits beside it under ``restatement``. With ``restate=True``
    the text becomes the restatement and the words move to ``original_content``. Node ids are
    kept; they are the memory ids.

    Usage:
        .. code-block:: python

            from llama_index.core.ingestion import IngestionPipeline

            pipeline = IngestionPipeline(transformations=[
                EpisodicMetadataExtractor(namespace="alice"), RaMemEmbedding()])
            nodes = pipeline.run(documents=documents)
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    namespace: str
    default_time: datetime | None = None
    default_speaker: str = "user"
    conversation_id: str = "documents"
    restate: bool = False
    anchorer: SkipValidation[Anchorer | None] = None

    @classmethod
    def class_name(cls) -> str:
        return "EpisodicMetadataExtractor"

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[BaseNode]:
        records = [
            Record(n.get_content(metadata_mode=MetadataMode.NONE), n.metadata, n.node_id)
            for n in nodes
        ]
        units = anchor_records(
            records,
            self.namespace,
            default_time=self.default_time,
            default_speaker=self.default_speaker,
            conversation_id=self.conversation_id,
            anchorer=self.anchorer,
        )
        out: list[BaseNode] = []
        for node, unit in zip(nodes, units, strict=True):
            copy = node.model_copy(deep=True)
            attach(copy, unit)
            out.append(restate(copy, unit) if self.restate else copy)
        return out


def restate(node: BaseNode, unit: MemoryUnit) -> BaseNode:
    """``node`` (a copy the caller owns) with the restatement as its text and its own text
    under ``original_content`` (hidden from the LLM and the embedding)."""
    node.metadata["original_content"] = node.get_content(metadata_mode=MetadataMode.NONE)
    hide(node, ["original_content"])
    node.set_content(unit.search_text)
    return node
