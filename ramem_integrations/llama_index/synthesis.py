"""The memories a query engine's model reads, as the one renderer shows them.

LlamaIndex's response synthesizers put each node's LLM view into ``context_str`` one after
another. :class:`MemorySynthesizer` gives them, in place of the memory nodes, the one
renderer's text for those memories together
(:func:`~ramem_integrations.core.prompts.render_memories`): grouped by episode, each group's
coordinates once, every text quoted. The response still cites the nodes it was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.response_synthesizers import CompactAndRefine
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from ramem_integrations.core.prompts import render_memories
from ramem_integrations.llama_index.nodes import unit_of_node


def memory_context(nodes: Sequence[NodeWithScore]) -> list[NodeWithScore]:
    """One node holding the renderer's text of the memories among ``nodes`` (in their order),
    then the nodes that carry no memory, as they are."""
    units, others = [], []
    for item in nodes:
        unit = unit_of_node(item.node)
        if unit is None:
            others.append(item)
        else:
            units.append(unit)
    shown = [NodeWithScore(node=TextNode(text=render_memories(units)))] if units else []
    return [*shown, *others]


class MemorySynthesizer(CompactAndRefine):
    """A ``CompactAndRefine`` synthesizer whose context is the one renderer's text for the
    memories it is given (:func:`memory_context`), with RaMem's answer prompt
    (:func:`~ramem_integrations.llama_index.prompts.context_prompt`) as its usual
    ``text_qa_template``. :meth:`RaMemRetriever.as_query_engine
    <ramem_integrations.llama_index.RaMemRetriever.as_query_engine>` builds a query engine
    with it; any ``RetrieverQueryEngine`` takes it as ``response_synthesizer=``.

    Usage:
        .. code-block:: python

            synthesizer = MemorySynthesizer(llm=llm, text_qa_template=context_prompt())
            engine = RetrieverQueryEngine.from_args(retriever, response_synthesizer=synthesizer)
    """

    def synthesize(
        self,
        query: str | QueryBundle,
        nodes: list[NodeWithScore],
        additional_source_nodes: Sequence[NodeWithScore] | None = None,
        **response_kwargs: Any,
    ) -> Any:
        response = super().synthesize(query, memory_context(nodes), **response_kwargs)
        return _citing(response, nodes, additional_source_nodes)

    async def asynthesize(
        self,
        query: str | QueryBundle,
        nodes: list[NodeWithScore],
        additional_source_nodes: Sequence[NodeWithScore] | None = None,
        **response_kwargs: Any,
    ) -> Any:
        response = await super().asynthesize(query, memory_context(nodes), **response_kwargs)
        return _citing(response, nodes, additional_source_nodes)


def _citing(response: Any, nodes: list[NodeWithScore], more: Sequence[NodeWithScore] | None) -> Any:
    """``response`` citing the nodes given, not the context made of them."""
    response.source_nodes = [*nodes, *(more or [])]
    return response
