"""``RaMemRetriever``: RaMem's selective reinstatement as a LangChain retriever."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, SkipValidation

from ramem_integrations.adapters_common.asked import Reference, asked_at
from ramem_integrations.adapters_common.hits import readable_metadata
from ramem_integrations.adapters_common.opening import open_memory
from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.prompts import describe_frame
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.memory.ramem import RaMem

#: Arguments ``search_kwargs`` and ``invoke`` may set, as a ``VectorStoreRetriever``'s.
CALL_OPTIONS = ("k", "namespace", "reference", "mode")


def to_document(hit: ScoredMemory) -> Document:
    """A retrieved memory as a Document: its content, and its coordinates as metadata."""
    return Document(
        id=hit.memory.id, page_content=hit.memory.content, metadata=readable_metadata(hit)
    )


def _refuse_unknown(names: set[str], known: tuple[str, ...] | list[str], where: str) -> None:
    """An :class:`InvalidInputError` naming each unknown argument and the closest known one."""
    unknown = sorted(names - set(known))
    if not unknown:
        return
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hints.append(f"{name!r} (did you mean {close[0]!r}?)" if close else repr(name))
    raise InvalidInputError(
        f"RaMemRetriever got unknown {where} {', '.join(hints)}; it takes {', '.join(known)}."
    )


class RaMemRetriever(BaseRetriever):
    """Memories of one namespace, chosen by contextual reinstatement, as Documents.

    Setup:
        .. code-block:: bash

            pip install 'ramem-integrations[langchain]'

    Key init args:
        memory: a :class:`~ramem_integrations.RaMem`.
        namespace: whose memories to search (user, agent or conversation).
        k: how many Documents to return (default 10).
        mode: ``"ramem"`` (default), or a baseline: ``"content"``, ``"dense"``, ``"bm25"``.
        reference: when the question is asked (a datetime, or a callable returning one);
            relative times ("last March") are grounded against it. ``None`` (default): the
            wall clock. ``UNDATED`` (:mod:`ramem_integrations.adapters_common.asked`): not grounded
            (absolute dates still are), with a warning.
        search_kwargs: ``k``, ``namespace``, ``reference`` or ``mode``, as a
            ``VectorStoreRetriever``'s ``search_kwargs``: ``search_kwargs={"k": 2}``.

    They can be overridden per call: ``retriever.invoke(question, k=3, reference=asked_on)``.
    Anything else (a misspelt field, ``top_k``, ``search_type``, a ``filter``) is refused
    with an :class:`~ramem_integrations.errors.InvalidInputError`.

    Instantiate:
        .. code-block:: python

            from ramem_integrations import RaMem
            from ramem_integrations.langchain import RaMemRetriever

            mem = RaMem.from_path("./memory")
            retriever = RaMemRetriever(memory=mem, namespace="alice", k=3)
            # or, as the LlamaIndex retriever:
            retriever = RaMemRetriever.from_defaults("alice", path="./memory", k=3)

    Usage:
        .. code-block:: python

            docs = retriever.invoke("What did the dentist say last March?", reference=asked_on)
            docs[0].metadata["session"], docs[0].metadata["reason"]
            # ('12 March 2024', 'context')

    Each Document's ``page_content`` is the memory's words as said; its metadata holds the
    keys every surface's hits carry (:mod:`ramem_integrations.adapters_common.hits`): the
    coordinates ``said`` / ``happened`` / ``who`` / ``place``, ``reason`` (``"context"`` when
    it meets the question's conditions), ``matched`` and ``score``, and readable data
    (:func:`~ramem_integrations.adapters_common.hits.readable_metadata`).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    memory: RaMem
    namespace: SkipValidation[str]
    k: int = 10
    mode: str = "ramem"
    reference: SkipValidation[Reference] = None
    search_kwargs: dict[str, Any] = Field(default_factory=dict)

    def __init__(self, **data: Any) -> None:
        _refuse_unknown(set(data), list(type(self).model_fields), "field(s)")
        search_kwargs = data.get("search_kwargs") or {}
        if not isinstance(search_kwargs, dict):
            raise InvalidInputError(
                f"search_kwargs must be a dict, e.g. {{'k': 2}}; got {search_kwargs!r}."
            )
        _refuse_unknown(set(search_kwargs), CALL_OPTIONS, "search_kwargs key(s)")
        # checked once here; the checked value is what RaMem is given (it is not checked again)
        checked = check_namespace(search_kwargs.get("namespace", data.get("namespace")))
        if "namespace" in search_kwargs:
            data["search_kwargs"] = {**search_kwargs, "namespace": checked}
        else:
            data["namespace"] = checked
        super().__init__(**data)

    @classmethod
    def from_defaults(
        cls,
        namespace: str,
        *,
        memory: RaMem | None = None,
        path: str | Path | None = None,
        client: Any = None,
        embed_model: Any = None,
        k: int = 10,
        mode: str = "ramem",
        reference: Reference = None,
    ) -> RaMemRetriever:
        """A retriever over ``memory``, else over a store at ``path`` or behind a chromadb
        ``client``, embedding with ``embed_model`` (any LangChain ``Embeddings``; the packaged
        offline model when omitted): the LlamaIndex retriever's ``from_defaults``, with
        LangChain's ``k`` for its ``similarity_top_k``. One of the three is required
        (:func:`~ramem_integrations.adapters_common.opening.open_memory`)."""
        memory = open_memory(memory, path, client, embed_model)
        return cls(memory=memory, namespace=namespace, k=k, mode=mode, reference=reference)

    def _arguments(self, query: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        _refuse_unknown(set(kwargs), CALL_OPTIONS, "argument(s)")
        options = {
            "k": self.k,
            "namespace": self.namespace,
            "reference": self.reference,
            "mode": self.mode,
            **self.search_kwargs,
            **kwargs,
        }
        return {
            "query": query,
            "namespace": options["namespace"],
            "k": options["k"],
            "mode": options["mode"],
            "reference": asked_at(options["reference"]),
        }

    def conditions(self, query: str) -> str:
        """The question's grounded conditions in words: the ``conditions`` of
        :func:`~ramem_integrations.langchain.context_prompt` (``"none"`` when there are none)."""
        args = self._arguments(query, {})
        frame = self.memory.frame(query, args["namespace"], reference=args["reference"])
        return describe_frame(frame)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        hits = self.memory.retrieve(**self._arguments(query, kwargs))
        return [to_document(h) for h in hits]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        hits = await self.memory.aretrieve(**self._arguments(query, kwargs))
        return [to_document(h) for h in hits]
