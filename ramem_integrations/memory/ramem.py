"""RaMem: the facade users start from (add, retrieve, answer, forget).

.. code-block:: python

    from ramem_integrations import RaMem

    mem = RaMem.from_path("./memory")
    mem.add_conversation(conversation, namespace="alice")
    hits = mem.retrieve("What did Bob say about the trip last August?", namespace="alice")

The write path lives in :mod:`ramem_integrations.memory.writing`, the store-backed source in
:mod:`ramem_integrations.memory.source`, request checks in
:mod:`ramem_integrations.memory.questions`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ramem_integrations.core.anchoring import Anchorer, RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Turn
from ramem_integrations.core.frames import FrameInducer, KnownContext, RuleFrameInducer
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.limits import Limits
from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.prompts import (
    PACK_DEPTH,
    check_budget,
    render_answer_prompt,
    within_budget,
)
from ramem_integrations.core.retrieval.content import HybridSearch, single
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.source import Scope
from ramem_integrations.core.segmentation import EpisodeSegmenter
from ramem_integrations.core.time.corrections import with_corrections
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.index.episodes import EpisodeIndex
from ramem_integrations.index.freshness import Freshness
from ramem_integrations.index.namespaces import NamespaceCache
from ramem_integrations.memory.questions import (
    MODES,
    check_mode,
    check_query,
    check_request,
    frame_question,
    questions_last,
    read_frame,
)
from ramem_integrations.memory.source import CachedSource
from ramem_integrations.memory.writing import Progress, Writer, edited_turns, segmenter_for
from ramem_integrations.models import embeddings
from ramem_integrations.models.embeddings import Embedder, as_embedder
from ramem_integrations.models.tokens import count_tokens
from ramem_integrations.stores.chroma import DEFAULT_COLLECTION, ChromaEpisodicStore
from ramem_integrations.stores.protocol import MemoryStore

if TYPE_CHECKING:  # answering imports openai: loaded on first use only
    from ramem_integrations.memory.answering import Answer
    from ramem_integrations.models.llm import LLM

__all__ = ["MODES", "RaMem", "check_request"]


class RaMem:
    """Episodic long-term memory over a store (Chroma: :meth:`from_path`, :meth:`from_client`).

    Args:
        store: where memories live, any :class:`~ramem_integrations.stores.protocol.MemoryStore`.
        embedder: an :class:`~ramem_integrations.models.embeddings.Embedder`, or a LangChain
            ``Embeddings``, LlamaIndex ``BaseEmbedding`` or Chroma ``EmbeddingFunction``;
            the packaged offline MiniLM model when omitted.
        anchorer: turns conversations into memory units; :class:`RuleAnchorer` when omitted.
            An :class:`~ramem_integrations.models.llm_anchoring.LLMAnchorer` brings the same model's
            episode cuts (:class:`~ramem_integrations.models.llm_segmentation.LLMSegmenter`) unless
            :attr:`segmenter` is set.
        frame_inducer: reads questions into recall frames; :class:`RuleFrameInducer` when omitted.
        lexicon: the word tables the rule readers read
            (:class:`~ramem_integrations.core.lexicon.Lexicon`, English when omitted): given to
            the default anchorer and frame inducer, and to retrieval and what a namespace knows.
        strict: keep every context-valid memory ahead of every fallback one (the paper's
            reference behaviour); ``False`` ranks by content score plus a context bonus.
        limits: how long a turn and a query may be
            (:class:`~ramem_integrations.core.limits.Limits`; generous defaults).

    Attributes:
        store, embedder, frame_inducer, lexicon: as given (or their defaults).
        content: the :class:`~ramem_integrations.core.retrieval.content.HybridSearch`
            behind ``mode="content"`` and the fallback.
        reinstatement: the
            :class:`~ramem_integrations.core.retrieval.reinstatement.ContextualRetriever` behind
            ``mode="ramem"`` (its product options, e.g. ``strict``, may be replaced).

    The namespace cache, the read source and the writer are private; tests that check them reach
    them through :func:`ramem_integrations.testing.parts`.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        embedder: embeddings.EmbedderLike | None = None,
        anchorer: Anchorer | None = None,
        frame_inducer: FrameInducer | None = None,
        strict: bool = True,
        limits: Limits | None = None,
        lexicon: Lexicon = ENGLISH,
    ) -> None:
        self.store = store
        self.lexicon = lexicon
        self.embedder: Embedder = (
            as_embedder(embedder) if embedder is not None else embeddings.default_embedder()
        )
        self._cache = NamespaceCache(
            self.store.get_with_vectors,
            marks=lambda ns: self.store.written(ns, others_only=True),
        )
        self._freshness = Freshness(store, self._cache, lexicon)
        self._source = CachedSource(self.embedder, self._cache)
        self.content = HybridSearch(self._source)
        self.frame_inducer: FrameInducer = frame_inducer or RuleFrameInducer(lexicon=lexicon)
        self.reinstatement = ContextualRetriever(
            self.content, strict=strict, episodes=EpisodeIndex(self._cache), lexicon=lexicon
        )
        anchorer = anchorer or RuleAnchorer(lexicon=lexicon)
        self._writer = Writer(store, self.embedder, anchorer, self._cache)
        self._writer.segmenter = segmenter_for(self._writer.anchorer)
        self._writer.limits = limits if limits is not None else Limits()
        self._writer.time_words = lexicon.time
        self._segmenter_chosen = False

    @property
    def limits(self) -> Limits:
        """How long a turn and a query may be (may be replaced)."""
        return self._writer.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self._writer.limits = limits

    @property
    def anchorer(self) -> Anchorer:
        """What turns conversations into memory units (may be replaced)."""
        return self._writer.anchorer

    @anchorer.setter
    def anchorer(self, anchorer: Anchorer) -> None:
        self._writer.anchorer = anchorer
        if not self._segmenter_chosen:
            self._writer.segmenter = segmenter_for(anchorer)

    @property
    def segmenter(self) -> EpisodeSegmenter | None:
        """What cuts sessions into episodes at write time (None: turns without episodes).
        ``Segmenter()`` by default, the model's cuts with an ``LLMAnchorer``; once set here, a
        new anchorer leaves it as it is."""
        return self._writer.segmenter

    @segmenter.setter
    def segmenter(self, segmenter: EpisodeSegmenter | None) -> None:
        self._writer.segmenter = segmenter
        self._segmenter_chosen = True

    @classmethod
    def from_path(
        cls, path: str | Path, *, collection: str = DEFAULT_COLLECTION, **kwargs: Any
    ) -> RaMem:
        """Memory in an embedded Chroma store persisted under ``path``."""
        return cls(ChromaEpisodicStore.from_path(path, collection), **kwargs)

    @classmethod
    def from_client(
        cls, client: Any, *, collection: str = DEFAULT_COLLECTION, **kwargs: Any
    ) -> RaMem:
        """Memory over any chromadb client (``PersistentClient``, ``HttpClient``, ...).

        A ``PersistentClient``'s path is taken for this process, as by :meth:`from_path`: a
        second process is refused with a StoreError that points to a Chroma server."""
        return cls(ChromaEpisodicStore.from_client(client, collection), **kwargs)

    # -- writing (see ramem_integrations.memory.writing) ----------------------------------------
    def add_conversation(
        self,
        conversation: Conversation,
        namespace: str,
        *,
        progress: Progress | None = None,
        replace: bool = False,
    ) -> list[str]:
        """Anchor a conversation and store its memories; re-adding it changes nothing.

        Memories stored with other text under the same ids (the same conversation id and turn
        ids) raise :class:`~ramem_integrations.errors.MemoryConflictError`; ``replace=True``
        overwrites them on purpose. A message its sender edited (a chat export says so)
        replaces the text stored for it.
        """
        units = self.anchor(conversation, namespace)
        edits = edited_turns([conversation])
        return self._writer.add_memories(units, progress=progress, replace=replace, edits=edits)

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        """The memories ``conversation`` would be stored as in ``namespace``, cut into episodes;
        nothing is written (:meth:`add_memories` stores them)."""
        return self._writer.anchor(conversation, check_namespace(namespace))

    def add_conversations(
        self,
        conversations: Iterable[Conversation],
        namespace: str | None = None,
        *,
        progress: Progress | None = None,
        replace: bool = False,
        total: Progress | None = None,
    ) -> dict[str, int]:
        """Add many conversations in one batched write, each into ``namespace`` or a namespace
        named by its id; returns the number of memories per namespace. ``progress`` counts
        memories, and ``total`` is told how many there are once they are anchored."""
        return self._writer.add_conversations(
            conversations, namespace, progress=progress, replace=replace, total=total
        )

    def add_turns(
        self,
        turns: Sequence[Turn | Mapping[str, Any]],
        namespace: str,
        *,
        session_time: datetime,
        session_id: str | None = None,
        conversation_id: str = "default",
        replace: bool = False,
    ) -> list[str]:
        """Add one session of turns (``Turn``s or ``{"speaker", "text"[, "time"]}`` dicts).

        ``session_time`` is when the session happened (timezone-aware); the session id defaults
        to it, so adding the same session again changes nothing, and other turns under the same
        ids are refused unless ``replace=True``.
        """
        return self.add_memories(
            self.anchor_turns(
                turns,
                namespace,
                session_time=session_time,
                session_id=session_id,
                conversation_id=conversation_id,
            ),
            replace=replace,
        )

    def anchor_turns(
        self,
        turns: Sequence[Turn | Mapping[str, Any]],
        namespace: str,
        *,
        session_time: datetime,
        session_id: str | None = None,
        conversation_id: str = "default",
    ) -> list[MemoryUnit]:
        """The memories :meth:`add_turns` would store for one session of turns; nothing is
        written."""
        namespace = check_namespace(namespace)
        conversation = self._writer.session_of_turns(
            turns,
            namespace,
            session_time=session_time,
            session_id=session_id,
            conversation_id=conversation_id,
        )
        return self._writer.anchor(conversation, namespace)

    def add_memories(
        self,
        memories: Sequence[MemoryUnit],
        *,
        progress: Progress | None = None,
        replace: bool = False,
        embedded: Mapping[str, np.ndarray] | None = None,
    ) -> list[str]:
        """Embed and upsert memory units; those already stored unchanged are skipped, and
        stored ones with other text are refused unless ``replace=True``. ``embedded`` holds
        vectors already computed for their texts
        (:func:`~ramem_integrations.memory.embedding.memory_embeddings`), not embedded again."""
        return self._writer.add_memories(
            memories, progress=progress, replace=replace, embedded=embedded
        )

    def reembed(self, namespace: str, *, progress: Progress | None = None) -> int:
        """Embed a namespace's memories again with this memory's embedder and today's vector
        recipe (for a store written before it, or with another embedder); returns how many.
        Texts and coordinates stay as they are."""
        namespace = check_namespace(namespace)
        self._freshness.sync(namespace)
        return self._writer.reembed(namespace, progress)

    def forget(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
        missing_ok: bool = True,
    ) -> int:
        """Delete memories: by id, by source conversation, or the whole namespace. A namespace
        never written forgets nothing, or raises
        :class:`~ramem_integrations.errors.UnknownNamespaceError` when not ``missing_ok``."""
        namespace = check_namespace(namespace)
        if not missing_ok:
            self._freshness.sync(namespace)
        return self._writer.forget(namespace, ids=ids, conversation_id=conversation_id)

    # -- reading -----------------------------------------------------------------------
    def known(self, namespace: str) -> KnownContext:
        """What the namespace knows: its people, places, entities and date range (cached)."""
        namespace = check_namespace(namespace)
        self._freshness.sync(namespace)
        return self._freshness.known(namespace)

    def frame(
        self, query: str, namespace: str, *, reference: datetime | None = None
    ) -> RecallFrame:
        """Read ``query`` for the conditions its evidence must meet.

        Times are grounded against ``reference``, the moment the question is asked. Without
        it, absolute dates ("May 2023") still ground, against the end of the namespace's date
        range, but relative ones ("last week") do not: that would be a guess. Never against
        today's clock (see :func:`~ramem_integrations.memory.questions.frame_question`).
        """
        check_query(query, self.limits)
        known = self.known(namespace)
        return frame_question(query, self.frame_inducer, known, reference, self.lexicon.time)

    def retrieve(
        self,
        query: str,
        namespace: str,
        k: int = 10,
        *,
        mode: str = "ramem",
        reference: datetime | None = None,
        missing_ok: bool = False,
        budget: int | None = None,
        within: Collection[str] | None = None,
        context: str | None = None,
    ) -> list[ScoredMemory]:
        """The ``k`` memories of ``namespace`` that best serve ``query``.

        ``mode="ramem"`` (default) is selective reinstatement; ``content``, ``dense`` and
        ``bm25`` are the plain retrievers it falls back on. Each hit says why it was chosen.
        Questions once put to the memory rank after statements of fact. Every read sees
        every write committed before it, by any object or process. A
        namespace never written raises
        :class:`~ramem_integrations.errors.UnknownNamespaceError`; ``missing_ok=True`` reads
        it as empty. With ``budget``, instead of ``k`` memories: as many as :meth:`render`
        shows within ``budget`` tokens, by episode
        (see :func:`~ramem_integrations.core.prompts.pack`). With ``within`` (memory ids), only
        those memories are ranked and returned (a LangGraph store's filtered items). With
        ``context`` (the recent messages before the question), the dense search leans toward
        it (:data:`~ramem_integrations.memory.source.CONTEXT_WEIGHT`); the conditions (times,
        people, places) and the lexical search read ``query`` alone.
        """
        if budget is not None:
            found = self.retrieve(
                query,
                namespace,
                PACK_DEPTH,
                mode=mode,
                reference=reference,
                missing_ok=missing_ok,
                within=within,
                context=context,
            )
            return within_budget(found, check_budget(budget), self.count_tokens)
        namespace = check_namespace(namespace)
        check_request(query, k, self.limits)
        mode = check_mode(mode)
        if isinstance(within, str):
            raise InvalidInputError("within must be a list of memory ids, not one string.")
        if context is not None and not isinstance(context, str):
            raise InvalidInputError(f"context must be text, got {type(context).__name__}.")
        if context:
            check_query(f"{query}\n{context}", self.limits)
        if not self._freshness.sync(namespace, missing_ok=missing_ok):
            return []
        only = None if within is None else frozenset(within)
        hits = self._retrieve(query, namespace, k, mode, reference, Scope(only, context))
        # no episode neighbour from outside ``within``
        return hits if only is None else [h for h in hits if h.memory.id in only]

    def _retrieve(
        self,
        query: str,
        namespace: str,
        k: int,
        mode: str,
        reference: datetime | None,
        scope: Scope,
    ) -> list[ScoredMemory]:
        if mode == "ramem":
            known = self._freshness.known(namespace)
            frame = frame_question(query, self.frame_inducer, known, reference, self.lexicon.time)
            hits = self.reinstatement.retrieve(frame, namespace, k, scope)
            hits = with_corrections(hits, self._cache.memories(namespace), k)
            return questions_last([replace(h, frame=frame) for h in hits])
        if mode == "dense":
            return questions_last(single(self._source.dense(namespace, query, k, None, scope), k))
        if mode == "bm25":
            return questions_last(single(self._source.lexical(namespace, query, k, None, scope), k))
        return questions_last(self.content.retrieve(query, namespace, k, None, scope))

    def render(
        self,
        question: str,
        hits: Sequence[ScoredMemory],
        *,
        namespace: str | None = None,
        reference: datetime | None = None,
        flat: bool = False,
        budget: int | None = None,
    ) -> str:
        """The context-preserving prompt for ``question`` over ``hits`` (flat for the ablation).

        The question's grounded conditions are written into the prompt: those the retrieval of
        ``hits`` read (when it read this question), else, with ``namespace``, those read now.
        Memories are shown by episode; with ``budget``, only those that fit in ``budget``
        tokens of memories, taken in rank order.
        """
        frame = read_frame(question, hits)
        if frame is None and namespace:
            frame = self.frame(question, namespace, reference=reference)
        if budget is not None:
            hits = within_budget(hits, check_budget(budget), self.count_tokens)
        return render_answer_prompt(question, hits, frame, flat=flat)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text, by the packaged MiniLM WordPiece tokenizer: the one count of
        every budget (:func:`~ramem_integrations.models.tokens.count_tokens`)."""
        return count_tokens(texts)

    def answer(
        self,
        question: str,
        namespace: str,
        *,
        k: int = 10,
        reference: datetime | None = None,
        llm: LLM | None = None,
    ) -> Answer:
        """Answer ``question`` from ``namespace`` with ``llm`` (or the model configured in the
        environment); without one, the :class:`~ramem_integrations.memory.answering.Answer` has no
        text and carries the evidence and the prompt. See
        :mod:`ramem_integrations.memory.answering`.
        """
        from ramem_integrations.memory.answering import answer

        return answer(self, question, namespace, k=k, reference=reference, llm=llm)

    async def aretrieve(
        self,
        query: str,
        namespace: str,
        k: int = 10,
        *,
        mode: str = "ramem",
        reference: datetime | None = None,
        missing_ok: bool = False,
        budget: int | None = None,
        within: Collection[str] | None = None,
        context: str | None = None,
    ) -> list[ScoredMemory]:
        """:meth:`retrieve` without blocking the event loop (runs in a worker thread)."""
        return await asyncio.to_thread(
            self.retrieve,
            query,
            namespace,
            k,
            mode=mode,
            reference=reference,
            missing_ok=missing_ok,
            budget=budget,
            within=within,
            context=context,
        )

    def count(self, namespace: str) -> int:
        return self.store.count(namespace)

    def namespaces(self) -> dict[str, int]:
        """Every namespace holding memories, with its number of memories (reads each one:
        :meth:`namespace_names` is the cheap listing)."""
        return self.store.namespaces()

    def namespace_names(self) -> list[str]:
        """Every namespace ever written to the store, sorted, read without opening any."""
        return self.store.namespace_names()

    def memories(self, namespace: str, *, missing_ok: bool = False) -> list[MemoryUnit]:
        """Every memory of ``namespace``; a namespace never written raises
        :class:`~ramem_integrations.errors.UnknownNamespaceError` unless ``missing_ok``."""
        namespace = check_namespace(namespace)
        if not self._freshness.sync(namespace, missing_ok=missing_ok):
            return []
        return self.store.get(namespace)
