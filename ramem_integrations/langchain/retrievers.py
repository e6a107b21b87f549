"""``RaMemRetriever``: RaMem's selective reinstatement as a LangChain retriever."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from ramem_integrations.core.prompts import describe_frame
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.glue.records import readable_metadata
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import check_namespace

#: Arguments ``invoke`` may override per call.
CALL_OPTIONS = ("k", "namespace", "reference", "mode")

Reference = datetime | Callable[[], datetime] | None


def to_document(hit: ScoredMemory) -> Document:
    """A retrieved memory as a Document: its content, and its coordinates as metadata."""
    return Document(
        id=hit.memory.id, page_content=hit.memory.content, metadata=readable_metadata(hit)
    )


def resolve_reference(reference: Reference) -> datetime | None:
    """A fixed moment, or the moment a clock callable gives now."""
    return reference() if callable(reference) else reference


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
            relative times ("last March") are grounded against it. ``None``: they are not
            grounded (absolute dates still are).

    ``k``, ``namespace``, ``reference`` and ``mode`` can be overridden per call:
    ``retriever.invoke(question, k=3, reference=asked_on)``.

    Instantiate:
        .. code-block:: python

            from ramem_integrations import RaMem
            from ramem_integrations.langchain import RaMemRetriever

            mem = RaMem.from_path("./memory")
            retriever = RaMemRetriever(memory=mem, namespace="alice", k=3)

    Usage:
        .. code-block:: python

            docs = retriever.invoke("What did the dentist say last March?", reference=asked_on)
            docs[0].metadata["session"], docs[0].metadata["reason"]
            # ('12 March 2024', 'context')

    Each Document's ``page_content`` is the memory's words as said; its metadata holds
    the coordinates (see :func:`ramem_integrations.glue.records.readable_metadata`), including
    ``reason`` (``"context"`` when it meets the question's conditions) and ``matched``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: RaMem
    namespace: str
    k: int = 10
    mode: str = "ramem"
    reference: Reference = None

    def __init__(self, **data: Any) -> None:
        check_namespace(data.get("namespace"))  # a NamespaceError that says what to pass
        super().__init__(**data)

    def _arguments(self, query: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(kwargs) - set(CALL_OPTIONS))
        if unknown:
            raise InvalidInputError(
                f"RaMemRetriever got unknown argument(s) {unknown}; it takes "
                f"{', '.join(CALL_OPTIONS)}."
            )
        options = {
            "k": self.k,
            "namespace": self.namespace,
            "reference": self.reference,
            "mode": self.mode,
            **kwargs,
        }
        return {
            "query": query,
            "namespace": options["namespace"],
            "k": options["k"],
            "mode": options["mode"],
            "reference": resolve_reference(options["reference"]),
        }

    def conditions(self, query: str) -> str:
        """The question's grounded conditions in words: the ``conditions`` of
        :func:`~ramem_integrations.langchain.context_prompt` (``"none"`` when there are none)."""
        reference = resolve_reference(self.reference)
        return describe_frame(self.memory.frame(query, self.namespace, reference=reference))

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
