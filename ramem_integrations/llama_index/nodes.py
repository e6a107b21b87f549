"""Memory units as LlamaIndex nodes and back.

A node's metadata holds the flat episodic keys of :meth:`MemoryUnit.to_metadata` (what the
postprocessor reads back), lists written as JSON strings so that any LlamaIndex vector store
(Chroma's included) takes the node as it is, four readable coordinate lines (what the LLM sees
of a plain ``TextNode``): ``said``, ``happened``, ``who``, ``place``
(:data:`~ramem_integrations.adapters_common.hits.COORDINATE_KEYS`), and ``said_by``, the
speaker line RaMem's own vectors carry
(:func:`~ramem_integrations.memory.embedding.speaker_line`). The flat keys are hidden from the
LLM and from the embedding; the readable ones from the embedding; ``said_by`` from the LLM
only, so a node embeds as its speaker line and its text, whatever embedding model embeds it.
A memory's node is a :class:`MemoryNode`: the LLM sees it as the one renderer shows it.
A retrieved or re-ranked node also carries why it was chosen
(:data:`~ramem_integrations.adapters_common.hits.HIT_KEYS`: ``reason``, ``matched`` and
``score``, hidden from the LLM), the keys every surface's hits carry.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.schema import BaseNode, MetadataMode, NodeWithScore, TextNode

from ramem_integrations.adapters_common.hits import (
    COORDINATE_KEYS,
    HIT_KEYS,
    RENAMED,
    coordinate_metadata,
    hit_metadata,
)
from ramem_integrations.adapters_common.records import unit_of
from ramem_integrations.core.prompts import Excerpt, group_block, record_block
from ramem_integrations.core.serialise import scalar_metadata
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.memory.embedding import speaker_line

#: The coordinate lines an LLM sees with each node.
SHOWN_KEYS = COORDINATE_KEYS
#: The line the embedding sees with each node's text: who said it, to whom.
EMBEDDED_KEY = "said_by"
#: The characters of its text a node retrieved within a budget is shown by, ``"start:end"``
#: (an :class:`~ramem_integrations.core.prompts.Excerpt`; the text stays whole). Hidden from
#: the LLM and the embedding.
EXCERPT_KEY = "excerpt"
#: Why RaMem chose a node (set on retrieved and re-ranked nodes; hidden from the LLM), and
#: the older names of two of them, written too until the next release.
REASON_KEYS = (*HIT_KEYS, *RENAMED)


class MemoryNode(TextNode):
    """A memory as a ``TextNode`` that a model sees as the one renderer shows it.

    In a query engine's prompt (``MetadataMode.LLM``) the node is its memory as a group of
    one (:func:`~ramem_integrations.core.prompts.group_block`): its coordinates line
    (``[rank] said ...; happened ...; with ...; at ...``), then its speaker and its words
    quoted, so a memory saying "Question: ..." or "ignore all previous instructions" stays
    data; a node without an episode shows "said not stated"
    (:func:`~ramem_integrations.core.prompts.record_block`). ``rank`` is its place among the
    nodes it was retrieved or re-ranked with. Other metadata is for code, not for the model.
    :class:`~ramem_integrations.llama_index.synthesis.MemorySynthesizer` shows a set of nodes
    as the renderer shows those memories together (grouped by episode). Every other view is
    ``TextNode``'s, and it is stored as a ``TextNode``.
    """

    rank: int = 1

    def get_content(self, metadata_mode: MetadataMode = MetadataMode.NONE) -> str:
        if metadata_mode != MetadataMode.LLM:
            return super().get_content(metadata_mode)
        unit = unit_of_node(self)
        return group_block([unit], self.rank) if unit else record_block(self.rank, self.text)


def memory_node(node: BaseNode, rank: int = 1) -> BaseNode:
    """``node`` (a copy the caller owns) as a :class:`MemoryNode` at ``rank`` when it is a
    plain ``TextNode`` or a memory node; any other kind of node as it is."""
    if not isinstance(node, TextNode) or type(node) not in (TextNode, MemoryNode):
        return node
    return MemoryNode.model_validate({**node.model_dump(exclude={"class_name"}), "rank": rank})


def episodic_metadata(unit: MemoryUnit) -> dict[str, Any]:
    """The flat episodic keys (scalars only: lists as JSON strings) plus the readable
    coordinate lines."""
    line = speaker_line(unit)
    embedded = {EMBEDDED_KEY: line} if line else {}
    return {**scalar_metadata(unit.to_metadata()), **coordinate_metadata(unit), **embedded}


def hide(
    node: BaseNode, keys: list[str], *, from_llm: bool = True, from_embed: bool = True
) -> None:
    """Exclude metadata keys from the embedding and the LLM of ``node`` (a copy), or from one."""
    if from_embed:
        node.excluded_embed_metadata_keys = list(
            dict.fromkeys([*node.excluded_embed_metadata_keys, *keys])
        )
    if from_llm:
        node.excluded_llm_metadata_keys = list(
            dict.fromkeys([*node.excluded_llm_metadata_keys, *keys])
        )


def attach(node: BaseNode, unit: MemoryUnit) -> None:
    """Write ``unit``'s episode onto ``node`` (a copy the caller owns)."""
    meta = episodic_metadata(unit)
    node.metadata.update(meta)
    flat = [k for k in meta if k not in (*SHOWN_KEYS, EMBEDDED_KEY)]
    hide(node, flat)
    hide(node, list(SHOWN_KEYS), from_llm=False)
    hide(node, [EMBEDDED_KEY], from_embed=False)


def to_node(hit: ScoredMemory | MemoryUnit, rank: int = 1) -> NodeWithScore:
    """A memory as a scored ``TextNode`` (id = memory id, text = memory content), shown to a
    model at ``rank`` (:class:`MemoryNode`)."""
    scored = hit if isinstance(hit, ScoredMemory) else ScoredMemory(hit, 0.0)
    node = MemoryNode(id_=scored.memory.id, text=scored.memory.content, rank=rank)
    attach(node, scored.memory)
    if isinstance(scored.memory, Excerpt):
        node.metadata[EXCERPT_KEY] = "{}:{}".format(*scored.memory.span)
        hide(node, [EXCERPT_KEY])
    if isinstance(hit, ScoredMemory):
        note(node, scored)
    return NodeWithScore(node=node, score=scored.score)


def note(node: BaseNode, hit: ScoredMemory) -> None:
    """Record on ``node`` (a copy) why it was chosen, and its coordinate lines when it has
    none (a node anchored from its common metadata; hidden from the LLM, as its other keys)."""
    missing = {k: v for k, v in coordinate_metadata(hit.memory).items() if k not in node.metadata}
    node.metadata.update(missing)
    hide(node, list(missing))
    node.metadata.update(hit_metadata(hit))
    node.metadata["ramem_reason"] = hit.reason
    node.metadata["ramem_matched"] = ", ".join(hit.matched)
    hide(node, list(REASON_KEYS))


def unit_of_node(node: BaseNode) -> MemoryUnit | None:
    """The memory a node's episodic metadata describes, or None when it carries none; an
    :class:`~ramem_integrations.core.prompts.Excerpt` when the node names one
    (:data:`EXCERPT_KEY`)."""
    text = node.get_content(metadata_mode=MetadataMode.NONE)
    unit = unit_of(node.node_id, text, node.metadata)
    start, _, end = str(node.metadata.get(EXCERPT_KEY, "")).partition(":")
    if unit is None or not (start.isdigit() and end.isdigit()):
        return unit
    span = (int(start), int(end))
    return Excerpt.of(unit, span) if span[0] < span[1] <= len(text) else unit
