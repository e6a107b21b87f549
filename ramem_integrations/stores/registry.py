"""The id registry (``<store>.ids``): which namespace holds each memory id.

An id lives in one namespace: writing it into another moves it (see :mod:`.layout`). Ids the
anchorers make (:func:`~ramem_integrations.core.anchoring.memory_id`) hash their namespace, so
they cannot collide across namespaces and need no record each: the registry keeps one
*conversation record* per namespace and conversation instead. Only a memory carried by hand
into another namespace under its old id still names its first home; it is found by computing
that id for each namespace holding its conversation. Every other id (a LangChain
``Document.id``, a LlamaIndex node id, your own) has a record of its own.

One record per conversation instead of per memory took ingestion's registry writes from one
per memory to one per conversation (docs/performance.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from ramem_integrations.core.anchoring import memory_id

#: Conversation records' ids start with this (an anchored id is a bare hex digest).
CONVERSATION_PREFIX = "ramem.conversation."
_PAGE = 2000


def _conversation_record(namespace: str, conversation_id: str) -> str:
    digest = hashlib.sha256(f"{namespace}\x1f{conversation_id}".encode()).hexdigest()[:32]
    return CONVERSATION_PREFIX + digest


def _anchored(metadata: Mapping[str, Any] | None) -> tuple[str, list[str]] | None:
    """The conversation and turns a memory's metadata names, if it names both."""
    meta = metadata or {}
    conversation, turns = meta.get("conversation_id"), meta.get("source_ids")
    if isinstance(conversation, str) and conversation and isinstance(turns, list) and turns:
        return conversation, [str(t) for t in turns]
    return None


def own_ids(
    namespace: str, ids: Sequence[str], metadatas: Sequence[Mapping[str, Any] | None]
) -> set[str]:
    """The ids among ``ids`` that the anchorers made for ``namespace`` (from the memory's
    conversation and turns): they live there by construction."""
    own = set()
    for memory, meta in zip(ids, metadatas, strict=True):
        anchored = _anchored(meta)
        if anchored and memory_id(namespace, *anchored) == memory:
            own.add(memory)
    return own


class IdRegistry:
    """The registry collection: records by memory id, and conversation records."""

    def __init__(self, collection: Any, batch: int) -> None:
        self.collection, self._batch = collection, batch

    def owners(self, ids: Sequence[str]) -> dict[str, str]:
        """The namespace each of ``ids`` has a record in (ids never recorded are absent)."""
        owners: dict[str, str] = {}
        id_list = list(dict.fromkeys(ids))
        for start in range(0, len(id_list), _PAGE):
            page = self.collection.get(ids=id_list[start : start + _PAGE], include=["metadatas"])
            for i, meta in zip(page["ids"], page["metadatas"], strict=True):
                owners[i] = str(meta["namespace"])
        return owners

    def carried(
        self,
        namespace: str,
        ids: Sequence[str],
        metadatas: Sequence[Mapping[str, Any] | None],
        skip: set[str],
    ) -> dict[str, str]:
        """Anchored memories written into ``namespace`` under an id made for another one:
        that namespace, by id (``skip``: ids whose owner is already known)."""
        asked: dict[str, list[tuple[str, list[str]]]] = {}
        for memory, meta in zip(ids, metadatas, strict=True):
            anchored = None if memory in skip else _anchored(meta)
            if anchored:
                asked.setdefault(anchored[0], []).append((memory, anchored[1]))
        found: dict[str, str] = {}
        for conversation, memories in asked.items():
            page = self.collection.get(where={"conversation": conversation}, include=["metadatas"])
            for meta in page["metadatas"]:
                home = str(meta["namespace"])
                for memory, turns in memories:
                    if home != namespace and memory_id(home, conversation, turns) == memory:
                        found[memory] = home
        return found

    def record(
        self,
        namespace: str,
        ids: Sequence[str],
        metadatas: Sequence[Mapping[str, Any] | None],
        own: set[str],
        owners: Mapping[str, str],
    ) -> None:
        """After ``ids`` were written into ``namespace``: a record for each new id not made
        for it, a conversation record for those made for it (whose own records, left by an
        earlier version or a move, are dropped)."""
        fresh = [i for i in ids if i not in own and owners.get(i) != namespace]
        for start in range(0, len(fresh), self._batch):
            chunk = fresh[start : start + self._batch]
            self.collection.upsert(
                ids=chunk,
                embeddings=[[0.0]] * len(chunk),  # Chroma wants a vector; read by id only
                metadatas=[{"namespace": namespace}] * len(chunk),
            )
        self.release([i for i in own if i in owners])
        conversations = set()
        for memory, meta in zip(ids, metadatas, strict=True):
            anchored = _anchored(meta) if memory in own else None
            if anchored:
                conversations.add(anchored[0])
        if conversations:
            ordered = sorted(conversations)
            self.collection.upsert(
                ids=[_conversation_record(namespace, c) for c in ordered],
                embeddings=[[0.0]] * len(ordered),
                metadatas=[{"namespace": namespace, "conversation": c} for c in ordered],
            )

    def release(self, ids: Sequence[str]) -> None:
        """Drop the records of ``ids``."""
        for start in range(0, len(ids), self._batch):
            self.collection.delete(ids=list(ids[start : start + self._batch]))

    def forget_conversation(self, namespace: str, conversation_id: str) -> None:
        """Drop the conversation record of ``conversation_id`` in ``namespace``."""
        self.collection.delete(ids=[_conversation_record(namespace, conversation_id)])

    def forget_namespace(self, namespace: str) -> None:
        """Drop every record of ``namespace``."""
        self.collection.delete(where={"namespace": namespace})
