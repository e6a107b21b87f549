"""Evaluation systems over LlamaIndex: a plain vector retriever, and the same with RaMem's
re-ranking postprocessor placed after it (the drop-in path).

``llama-vector``: a LlamaIndex ``VectorStoreIndex`` over one ``TextNode`` per stored memory
(text = content, metadata = the episode), embedded with the store's own embedder through
:class:`~ramem_integrations.llama_index.RaMemEmbedding`; built once per namespace and cached.
``llama-vector-restated``: the same over nodes whose text is the restatement (the original
under ``original_content``), as ``EpisodicMetadataExtractor(restate=True)`` makes them.
``llama-vector+ramem``: the same retriever fetches :data:`CANDIDATES` nodes and
:class:`~ramem_integrations.llama_index.EpisodicReinstatementPostprocessor` re-ranks them.
Questions without a date of their own are re-ranked with ``reference=UNDATED`` (relative times
are not grounded), as the other systems do. LlamaIndex's default vector store searches exactly
(every node's similarity), so these systems give the same figures run to run.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.evaluation.datasets import Asked

if TYPE_CHECKING:
    from llama_index.core.schema import NodeWithScore

    from ramem_integrations.memory.ramem import RaMem

#: How many nodes the vector retriever hands the postprocessor.
CANDIDATES = 50

_INDEXES: weakref.WeakKeyDictionary[RaMem, dict[tuple[str, bool], Any]] = (
    weakref.WeakKeyDictionary()
)


def _index(mem: RaMem, namespace: str, *, restated: bool = False) -> Any:
    from llama_index.core import VectorStoreIndex

    from ramem_integrations.llama_index import RaMemEmbedding, to_node
    from ramem_integrations.llama_index.extractors import restate

    cached = _INDEXES.setdefault(mem, {})
    key = (namespace, restated)
    if key not in cached:
        units = mem.memories(namespace)
        nodes = [to_node(unit).node for unit in units]
        if restated:
            nodes = [restate(node, unit) for node, unit in zip(nodes, units, strict=True)]
        cached[key] = VectorStoreIndex(nodes, embed_model=RaMemEmbedding(mem.embedder))
    return cached[key]


def _hits(nodes: list[NodeWithScore], k: int) -> list[ScoredMemory]:
    from ramem_integrations.llama_index import unit_of_node

    out = []
    for item in nodes[:k]:
        unit = unit_of_node(item.node)
        if unit is not None:
            context = item.node.metadata.get("reason") == "context"
            out.append(ScoredMemory(unit, item.score or 0.0, "context" if context else "content"))
    return out


def llama_vector(mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
    """A plain LlamaIndex vector retriever over the episodic nodes."""
    retriever = _index(mem, asked.namespace).as_retriever(similarity_top_k=k)
    return _hits(retriever.retrieve(asked.text), k)


def llama_vector_restated(mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
    """The vector retriever over nodes whose text is the restatement."""
    retriever = _index(mem, asked.namespace, restated=True).as_retriever(similarity_top_k=k)
    return _hits(retriever.retrieve(asked.text), k)


def llama_vector_ramem(mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
    """The vector retriever, then RaMem's re-ranking postprocessor."""
    from ramem_integrations.adapters_common.asked import UNDATED
    from ramem_integrations.llama_index import EpisodicReinstatementPostprocessor

    retriever = _index(mem, asked.namespace).as_retriever(similarity_top_k=max(k, CANDIDATES))
    reference = UNDATED if asked.asked_at is None else asked.asked_at
    postprocessor = EpisodicReinstatementPostprocessor(reference=reference, top_n=k)
    nodes = postprocessor.postprocess_nodes(retriever.retrieve(asked.text), query_str=asked.text)
    return _hits(nodes, k)
