"""``EpisodicDocumentTransformer``: episodic metadata on a user's own Documents."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langchain_core.documents import BaseDocumentTransformer, Document

from ramem_integrations.adapters_common.records import Record, anchor_records
from ramem_integrations.core.anchoring import Anchorer


class EpisodicDocumentTransformer(BaseDocumentTransformer):
    """Anchor Documents as RaMem anchors conversation turns, and attach their episode.

    Each Document needs a time: metadata ``session_time``, ``timestamp``, ``time``, ``date`` or
    ``created_at`` (a datetime, a date string or epoch seconds), else ``default_time``. The
    speaker comes from ``speaker``, ``author``, ``sender`` or ``role`` (else
    ``default_speaker``); the session from ``session_id`` (else the Document's day).

    Returned Documents are new: their metadata is the original plus the flat episodic keys of
    :meth:`~ramem_integrations.MemoryUnit.to_metadata` (epoch-second dates, lists, no None), so
    ``MemoryUnit.from_metadata(doc.id, doc.page_content, doc.metadata)`` reads the memory back;
    their ``id`` is the memory's id. ``page_content`` stays the user's words; the
    self-contained restatement (speaker named, "yesterday" written as a date) sits beside
    them under ``restatement``. With ``restate=True`` the restatement becomes ``page_content``
    (what a vector store embeds) and the words move to ``original_content``.

    Setup:
        .. code-block:: bash

            pip install 'ramem-integrations[langchain]' langchain-chroma

    Usage, a langchain-chroma collection that RaMem can search:
        .. code-block:: python

            import chromadb
            from langchain_chroma import Chroma
            from ramem_integrations import RaMem
            from ramem_integrations.langchain import EpisodicDocumentTransformer, RaMemEmbeddings

            client = chromadb.PersistentClient("./memory")
            episodic = EpisodicDocumentTransformer(namespace="alice")
            store = Chroma(collection_name="notes", client=client,
                           embedding_function=RaMemEmbeddings(),
                           collection_configuration={"hnsw": {"space": "cosine"}})
            store.add_documents(list(episodic.transform_documents(docs)))

            mem = RaMem.from_client(client, collection="notes")  # same embedder, same space
            mem.retrieve("What did the dentist say last March?", "alice", reference=asked_on)
    """

    def __init__(
        self,
        namespace: str,
        *,
        default_time: datetime | None = None,
        default_speaker: str = "user",
        conversation_id: str = "documents",
        restate: bool = False,
        anchorer: Anchorer | None = None,
    ) -> None:
        self.namespace = namespace
        self.default_time = default_time
        self.default_speaker = default_speaker
        self.conversation_id = conversation_id
        self.restate = restate
        self.anchorer = anchorer

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """New Documents carrying episodic metadata; the inputs are left unchanged."""
        records = [Record(d.page_content, d.metadata, d.id) for d in documents]
        units = anchor_records(
            records,
            self.namespace,
            default_time=self.default_time,
            default_speaker=self.default_speaker,
            conversation_id=self.conversation_id,
            anchorer=self.anchorer,
        )
        out = []
        for doc, unit in zip(documents, units, strict=True):
            meta: dict[str, Any] = {**doc.metadata, **unit.to_metadata()}
            text = doc.page_content
            if self.restate:
                meta["original_content"] = doc.page_content
                text = unit.search_text
            out.append(Document(id=unit.id, page_content=text, metadata=meta))
        return out
