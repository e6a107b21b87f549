"""``RaMemRetriever``: RaMem's selective reinstatement as a LlamaIndex retriever."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import NodeWithScore, QueryBundle

from ramem_integrations.adapters_common.asked import Reference, asked_at
from ramem_integrations.adapters_common.opening import open_memory
from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.prompts import check_budget
from ramem_integrations.llama_index.nodes import to_node
from ramem_integrations.llama_index.prompts import context_prompt
from ramem_integrations.llama_index.synthesis import MemorySynthesizer
from ramem_integrations.memory.ramem import RaMem


class RaMemRetriever(BaseRetriever):
    """Memories of one namespace, chosen by contextual reinstatement, as scored TextNodes.

    Each node's text is the memory's words as said, its id the memory id, its metadata
    the episode (flat keys for code, ``said`` / ``happened`` / ``who`` / ``place`` for the LLM;
    see :mod:`ramem_integrations.llama_index.nodes`) and ``reason`` (``"context"`` when it
    meets the question's conditions), ``matched`` and ``score``: the keys every surface's hits
    carry (:mod:`ramem_integrations.adapters_common.hits`).

    Args:
        memory: a :class:`~ramem_integrations.RaMem`.
        namespace: whose memories to search.
        similarity_top_k: how many nodes to return (default 10).
        budget: instead, the nodes whose memories fit in this many tokens as RaMem renders
            them (:func:`~ramem_integrations.core.prompts.pack`); a long memory that does not
            fit whole may be shown by its best passage, an excerpt (optional).
        mode: ``"ramem"`` (default) or a baseline: ``"content"``, ``"dense"``, ``"bm25"``.
        reference: when questions are asked (a datetime or a callable returning one); relative
            times are grounded against it. ``None`` (default): the wall clock. ``UNDATED``
            (:mod:`ramem_integrations.adapters_common.asked`): not grounded, with a warning.

    Usage:
        .. code-block:: python

            from ramem_integrations.llama_index import RaMemRetriever

            retriever = RaMemRetriever.from_defaults(path="./memory", namespace="alice",
                                                     similarity_top_k=3, reference=asked_on)
            engine = retriever.as_query_engine(llm=llm)  # the renderer's text, grouped
    """

    def __init__(
        self,
        memory: RaMem,
        namespace: str,
        *,
        similarity_top_k: int = 10,
        budget: int | None = None,
        mode: str = "ramem",
        reference: Reference = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        self.memory = memory
        self.namespace = check_namespace(namespace)
        self.similarity_top_k = similarity_top_k
        self.budget = None if budget is None else check_budget(budget)
        self.mode = mode
        self.reference = reference
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    @classmethod
    def from_defaults(
        cls,
        namespace: str,
        *,
        memory: RaMem | None = None,
        path: str | Path | None = None,
        client: Any = None,
        embed_model: Any = None,
        similarity_top_k: int = 10,
        budget: int | None = None,
        mode: str = "ramem",
        reference: Reference = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> RaMemRetriever:
        """A retriever over ``memory``, else over a store at ``path`` or behind a chromadb
        ``client``, embedding with ``embed_model`` (any LlamaIndex ``BaseEmbedding``; the
        packaged offline model when omitted). One of the three is required
        (:func:`~ramem_integrations.adapters_common.opening.open_memory`)."""
        return cls(
            open_memory(memory, path, client, embed_model),
            namespace,
            similarity_top_k=similarity_top_k,
            budget=budget,
            mode=mode,
            reference=reference,
            callback_manager=callback_manager,
            verbose=verbose,
        )

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.memory.retrieve(
            query_bundle.query_str,
            self.namespace,
            self.similarity_top_k,
            mode=self.mode,
            reference=asked_at(self.reference),
            budget=self.budget,
        )
        return [to_node(h, rank) for rank, h in enumerate(hits, 1)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = await self.memory.aretrieve(
            query_bundle.query_str,
            self.namespace,
            self.similarity_top_k,
            mode=self.mode,
            reference=asked_at(self.reference),
            budget=self.budget,
        )
        return [to_node(h, rank) for rank, h in enumerate(hits, 1)]

    def as_query_engine(self, llm: Any = None, **kwargs: Any) -> RetrieverQueryEngine:
        """A ``RetrieverQueryEngine`` over this retriever whose model reads the memories as the
        one renderer shows them (:class:`~.synthesis.MemorySynthesizer`), in RaMem's answer
        prompt with the question's grounded conditions (:func:`~.prompts.context_prompt`).
        ``kwargs`` go to the synthesizer (``streaming=True``, ``refine_template=``, ...) but
        ``node_postprocessors``, which go to the engine."""
        postprocessors = kwargs.pop("node_postprocessors", None)
        kwargs.setdefault(
            "text_qa_template", context_prompt(self.memory, self.namespace, self.reference)
        )
        synthesizer = MemorySynthesizer(llm=llm, **kwargs)
        return RetrieverQueryEngine(
            self, response_synthesizer=synthesizer, node_postprocessors=postprocessors
        )
