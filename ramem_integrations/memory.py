"""RaMem: the facade users start from (add, retrieve, answer, forget).

.. code-block:: python

    from ramem_integrations import RaMem

    mem = RaMem.from_path("./memory")
    mem.add_conversation(conversation, namespace="alice")
    hits = mem.retrieve("What did Bob say about the trip last August?", namespace="alice")
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ramem_integrations import embeddings
from ramem_integrations.core.anchoring import Anchorer, RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn, parse_datetime
from ramem_integrations.core.frames import (
    FrameInducer,
    KnownContext,
    RuleFrameInducer,
    without_relative_times,
)
from ramem_integrations.core.prompts import (
    PACK_DEPTH,
    check_budget,
    render_answer_prompt,
    within_budget,
)
from ramem_integrations.core.retrieval import (
    ContentRetriever,
    ContextFilter,
    ContextualRetriever,
    Hits,
    single,
)
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.embeddings import Embedder, as_embedder
from ramem_integrations.errors import InvalidInputError, InvalidTimeError
from ramem_integrations.lexical import LexicalIndex
from ramem_integrations.stores.chroma import (
    DEFAULT_COLLECTION,
    ChromaEpisodicStore,
    check_namespace,
    where_for,
)
from ramem_integrations.stores.episodes import EpisodeIndex
from ramem_integrations.tokens import TokenCounter

if TYPE_CHECKING:  # answering imports openai: loaded on first use only
    from ramem_integrations.answering import Answer
    from ramem_integrations.llm import LLM

logger = logging.getLogger(__name__)

#: Retrieval modes: the full method, and the baselines that share its store.
MODES = ("ramem", "content", "dense", "bm25")
EMBED_BATCH = 256
#: Up to this many ids meeting a condition, dense search filters by id, not by where-clause.
ID_FILTER_MAX = 5000
#: The unfiltered dense search reads this many neighbours, so that a condition met by enough
#: of them needs no second, filtered search.
DENSE_POOL = 100

Progress = Callable[[int], None]


class StoreSource:
    """A :class:`~ramem_integrations.core.retrieval.MemorySource` over the store and BM25.

    Dense search asks Chroma for ids and similarities only; lexical search ranks, filters
    (the where-clause evaluated on the cached metadata, as Chroma would) and materialises from
    the namespace's loaded :class:`LexicalIndex`, checking with the store that its candidates
    still exist. Memories not in that cache (written by another process) are read from the
    store. Query embeddings are cached, so one retrieval embeds its question once.
    """

    def __init__(self, store: ChromaEpisodicStore, embedder: Embedder, lexical: LexicalIndex):
        self.store, self.embedder, self.lexical_index = store, embedder, lexical
        self._embed_query = lru_cache(maxsize=256)(self._embed_one)
        self._last_pool: tuple[object, list[tuple[str, float]]] = (None, [])

    def _embed_one(self, text: str) -> np.ndarray:
        row: np.ndarray = self.embedder.embed([text])[0]
        return row

    def dense(self, namespace: str, query: str, k: int, where: ContextFilter | None = None) -> Hits:
        embedding, cached = self._embed_query(query), self.lexical_index.loaded(namespace)
        if where is None:
            pool = self.store.query_ids(namespace, embedding, max(k, DENSE_POOL))
            self._last_pool = ((namespace, query, self.lexical_index.version(namespace)), pool)
            return self._materialise(namespace, pool[:k], cached)
        among = self._cached_among(namespace, where) if cached is not None else None
        ranked = self._from_pool(namespace, query, among, k) if among is not None else None
        if ranked is None and among is not None and len(among) <= ID_FILTER_MAX:
            ranked = self.store.query_ids(namespace, embedding, k, among=among)
        if ranked is None:
            ranked = self.store.query_ids(namespace, embedding, k, where=where_for(where))
        return self._materialise(namespace, ranked, cached)

    def _from_pool(
        self, namespace: str, query: str, among: Sequence[str], k: int
    ) -> list[tuple[str, float]] | None:
        """The ``k`` nearest memories meeting a condition, read off the unfiltered search just
        made for the same question when it holds ``k`` of them (they are then exactly what
        the filtered search would return); else None. The pool serves one filtered search."""
        key, pool = self._last_pool
        self._last_pool = (None, [])
        if key != (namespace, query, self.lexical_index.version(namespace)):
            return None
        valid = set(among)
        found = [hit for hit in pool if hit[0] in valid]
        return found[:k] if len(found) >= k or len(found) == len(valid) else None

    def lexical(
        self, namespace: str, query: str, k: int, where: ContextFilter | None = None
    ) -> Hits:
        check_namespace(namespace)  # before the index: a nameless read is refused, not loaded
        among = self._cached_among(namespace, where)
        ranked = self.lexical_index.index(namespace).search(query, k, among=among)
        present = self.store.present([i for i, _ in ranked])  # deleted by another writer
        kept = [(i, score) for i, score in ranked if i in present]
        return self._materialise(namespace, kept, self.lexical_index.memories(namespace))

    def _cached_among(self, namespace: str, where: ContextFilter | None) -> list[str] | None:
        """The ids of the namespace's cached memories that meet ``where`` (None without one).

        The same predicate as the Chroma where-clause (a property test holds them equal)."""
        if not where:
            return None
        units = self.lexical_index.memories(namespace)
        return [i for i, unit in units.items() if where.met_by(unit) is not None]

    def _materialise(
        self,
        namespace: str,
        ranked: Sequence[tuple[str, float]],
        cached: Mapping[str, MemoryUnit] | None,
    ) -> Hits:
        cached = cached or {}
        missing = [i for i, _ in ranked if i not in cached]
        fetched = {u.id: u for u in self.store.get(namespace, ids=missing)} if missing else {}
        units = {**fetched, **{i: cached[i] for i, _ in ranked if i in cached}}
        return [(units[i], score) for i, score in ranked if i in units]


class RaMem:
    """Episodic long-term memory over a Chroma store.

    Args:
        store: where memories live (see :meth:`from_path`, :meth:`from_client`).
        embedder: an :class:`~ramem_integrations.embeddings.Embedder`, or a LangChain
            ``Embeddings``, LlamaIndex ``BaseEmbedding`` or Chroma ``EmbeddingFunction``;
            the packaged offline MiniLM model when omitted.
        anchorer: turns conversations into memory units; :class:`RuleAnchorer` when omitted.
        frame_inducer: reads questions into recall frames; :class:`RuleFrameInducer` when omitted.
        strict: keep every context-valid memory ahead of every fallback one (the paper's
            reference behaviour); ``False`` ranks by content score plus a context bonus.
    """

    def __init__(
        self,
        store: ChromaEpisodicStore,
        *,
        embedder: embeddings.EmbedderLike | None = None,
        anchorer: Anchorer | None = None,
        frame_inducer: FrameInducer | None = None,
        strict: bool = True,
    ) -> None:
        self.store = store
        self.embedder: Embedder = (
            as_embedder(embedder) if embedder is not None else embeddings.default_embedder()
        )
        self.anchorer: Anchorer = anchorer or RuleAnchorer()
        self.segmenter: Segmenter | None = Segmenter()  # None: no episodes
        self.lexical = LexicalIndex(lambda ns: self.store.get(ns))
        self.source = StoreSource(store, self.embedder, self.lexical)
        self.content = ContentRetriever(self.source)
        self.frame_inducer: FrameInducer = frame_inducer or RuleFrameInducer()
        self.reinstatement = ContextualRetriever(
            self.content, strict=strict, episodes=EpisodeIndex(self.lexical)
        )
        self._known: dict[str, KnownContext] = {}
        self._counter: TokenCounter | None = None

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
        """Memory over any chromadb client (``PersistentClient``, ``HttpClient``, ...)."""
        return cls(ChromaEpisodicStore.from_client(client, collection), **kwargs)

    # -- writing -----------------------------------------------------------------------
    def add_conversation(
        self, conversation: Conversation, namespace: str, *, progress: Progress | None = None
    ) -> list[str]:
        """Anchor a conversation and store its memories; re-adding it changes nothing."""
        return self.add_memories(self._anchor(conversation, namespace), progress=progress)

    def _anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        if not isinstance(conversation, Conversation):
            raise InvalidInputError(
                f"Expected a Conversation, got {type(conversation).__name__}. "
                "Load one with ramem_integrations.load_conversations(path)."
            )
        units = self.anchorer.anchor(conversation, check_namespace(namespace))
        return self.segmenter.segment(units) if self.segmenter else units

    def add_conversations(
        self,
        conversations: Iterable[Conversation],
        namespace: str | None = None,
        *,
        progress: Progress | None = None,
    ) -> dict[str, int]:
        """Add many conversations in one batched write, each into ``namespace`` or a namespace
        named by its id; returns the number of memories per namespace."""
        if isinstance(conversations, Conversation | str | bytes | Mapping) or not isinstance(
            conversations, Iterable
        ):
            raise InvalidInputError(
                f"Expected an iterable of Conversations, got {type(conversations).__name__}."
            )
        units: list[MemoryUnit] = []
        for conversation in conversations:
            if not isinstance(conversation, Conversation):
                self._anchor(conversation, namespace or "-")  # raises the type error
            units.extend(self._anchor(conversation, namespace or conversation.id))
        self.add_memories(units, progress=progress)
        counts: dict[str, int] = {}
        for unit in units:
            counts[unit.namespace] = counts.get(unit.namespace, 0) + 1
        return counts

    def add_turns(
        self,
        turns: Sequence[Turn | Mapping[str, Any]],
        namespace: str,
        *,
        session_time: datetime,
        session_id: str | None = None,
        conversation_id: str = "default",
    ) -> list[str]:
        """Add one session of turns (``Turn``s or ``{"speaker", "text"[, "time"]}`` dicts).

        ``session_time`` is when the session happened (timezone-aware); the session id defaults
        to it, so adding the same session again changes nothing.
        """
        check_namespace(namespace)
        if not isinstance(session_time, datetime) or session_time.utcoffset() is None:
            raise InvalidTimeError(
                f"session_time must be a timezone-aware datetime, got {session_time!r}; e.g. "
                "datetime(2024, 3, 12, 18, tzinfo=timezone.utc)."
            )
        named = (("session_id", session_id or "-"), ("conversation_id", conversation_id))
        for name, value in named:
            if not isinstance(value, str) or not value.strip():
                raise InvalidInputError(f"{name} must be a non-empty string, got {value!r}.")
        if isinstance(turns, str | bytes | Mapping) or not isinstance(turns, Iterable):
            raise InvalidInputError(
                f"turns must be a list of Turns or dicts, got {type(turns).__name__}."
            )
        sid = session_id or session_time.isoformat()
        session = Session(sid, session_time, tuple(_as_turns(list(turns), sid)))
        return self.add_conversation(Conversation(conversation_id, (session,)), namespace)

    def add_memories(
        self, memories: Sequence[MemoryUnit], *, progress: Progress | None = None
    ) -> list[str]:
        """Embed and upsert memory units; those already stored unchanged are skipped."""
        units = list(memories)
        for unit in units:
            if not isinstance(unit, MemoryUnit):
                raise InvalidInputError(f"Expected MemoryUnit objects, got {type(unit).__name__}.")
        by_ns: dict[str, list[MemoryUnit]] = {}
        for unit in units:
            by_ns.setdefault(unit.namespace, []).append(unit)
        for namespace, group in by_ns.items():
            self._add_namespace(namespace, group, progress)
        return [u.id for u in units]

    def _add_namespace(
        self, namespace: str, units: list[MemoryUnit], progress: Progress | None
    ) -> None:
        fresh = self._changed(namespace, units)
        if progress:
            progress(len(units) - len(fresh))
        for start in range(0, len(fresh), EMBED_BATCH):
            batch = fresh[start : start + EMBED_BATCH]
            vectors = self.embedder.embed([u.content for u in batch])
            self.store.upsert(batch, vectors)
            self.lexical.added(namespace, batch)
            self._known.pop(namespace, None)
            if progress:
                progress(len(batch))

    def _changed(self, namespace: str, units: list[MemoryUnit]) -> list[MemoryUnit]:
        unique = {u.id: u for u in units}
        stored = {u.id: u for u in self.store.get(namespace, ids=list(unique))}
        return [u for u in unique.values() if stored.get(u.id) != u]

    def forget(
        self,
        namespace: str,
        *,
        ids: Sequence[str] | None = None,
        conversation_id: str | None = None,
    ) -> int:
        """Delete memories: by id, by source conversation, or the whole namespace."""
        if isinstance(ids, str):
            raise InvalidInputError("ids must be a list of memory ids, not one string: ids=[id].")
        removed = self.store.delete(namespace, ids=ids, conversation_id=conversation_id)
        self.lexical.removed(namespace, removed)
        self._known.pop(namespace, None)
        return len(removed)

    # -- reading -----------------------------------------------------------------------
    def known(self, namespace: str) -> KnownContext:
        """What the namespace knows: its people, places, entities and date range (cached)."""
        if namespace not in self._known:
            self._known[namespace] = KnownContext.from_memories(self.store.get(namespace))
        return self._known[namespace]

    def frame(
        self, query: str, namespace: str, *, reference: datetime | None = None
    ) -> RecallFrame:
        """Read ``query`` for the conditions its evidence must meet.

        Times are grounded against ``reference``, the moment the question is asked. Without
        it, absolute dates ("May 2023") still ground, against the end of the namespace's date
        range, but relative ones ("last week") do not: that would be a guess. Never against
        today's clock.
        """
        known = self.known(check_namespace(namespace))
        estimated = reference is None
        if estimated and known.date_range is not None:
            reference = known.date_range.end
        if reference is None:
            return RecallFrame(query, query)
        frame = self.frame_inducer.induce(query, reference=reference, known=known)
        return without_relative_times(frame) if estimated else frame

    def retrieve(
        self,
        query: str,
        namespace: str,
        k: int = 10,
        *,
        mode: str = "ramem",
        reference: datetime | None = None,
        budget: int | None = None,
    ) -> list[ScoredMemory]:
        """The ``k`` memories of ``namespace`` that best serve ``query``.

        ``mode="ramem"`` (default) is selective reinstatement; ``content``, ``dense`` and
        ``bm25`` are the plain retrievers it falls back on. Each hit says why it was chosen.
        With ``budget``, instead of ``k`` memories: as many as :meth:`render` shows within
        ``budget`` tokens, by episode (see :func:`~ramem_integrations.core.prompts.pack`).
        """
        if budget is not None:
            found = self.retrieve(query, namespace, PACK_DEPTH, mode=mode, reference=reference)
            return within_budget(found, check_budget(budget), self.count_tokens)
        check_request(query, namespace, k)
        if mode == "ramem":
            frame = self.frame(query, namespace, reference=reference)
            return self.reinstatement.retrieve(frame, namespace, k)
        if mode == "dense":
            return single(self.source.dense(namespace, query, k), k)
        if mode == "bm25":
            return single(self.source.lexical(namespace, query, k), k)
        if mode == "content":
            return self.content.retrieve(query, namespace, k)
        raise InvalidInputError(f"Unknown mode {mode!r}; use one of: {', '.join(MODES)}.")

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

        With ``namespace``, the question's grounded conditions are written into the prompt.
        Memories are shown by episode; with ``budget``, only those that fit in ``budget``
        tokens of memories, taken in rank order.
        """
        frame = self.frame(question, namespace, reference=reference) if namespace else None
        if budget is not None:
            hits = within_budget(hits, check_budget(budget), self.count_tokens)
        return render_answer_prompt(question, hits, frame, flat=flat)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text, by the packaged MiniLM WordPiece tokenizer (as the evaluation)."""
        if self._counter is None:
            self._counter = TokenCounter()
        return self._counter.count(texts)

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
        environment); without one, the :class:`~ramem_integrations.answering.Answer` has no
        text and carries the evidence and the prompt. See :mod:`ramem_integrations.answering`.
        """
        from ramem_integrations.answering import answer

        return answer(self, question, namespace, k=k, reference=reference, llm=llm)

    async def aretrieve(
        self,
        query: str,
        namespace: str,
        k: int = 10,
        *,
        mode: str = "ramem",
        reference: datetime | None = None,
        budget: int | None = None,
    ) -> list[ScoredMemory]:
        """:meth:`retrieve` without blocking the event loop (runs in a worker thread)."""
        return await asyncio.to_thread(
            self.retrieve, query, namespace, k, mode=mode, reference=reference, budget=budget
        )

    def count(self, namespace: str) -> int:
        return self.store.count(namespace)

    def namespaces(self) -> dict[str, int]:
        return self.store.namespaces()

    def memories(self, namespace: str) -> list[MemoryUnit]:
        return self.store.get(namespace)


def _as_turns(turns: Sequence[Turn | Mapping[str, Any]], session_id: str) -> list[Turn]:
    """Turns from ``Turn`` objects or plain dicts, with ids ``<session>:<n>`` when missing."""
    out = []
    for index, turn in enumerate(turns, 1):
        if isinstance(turn, Turn):
            out.append(turn)
            continue
        if not isinstance(turn, Mapping):
            raise InvalidInputError(
                f"Turn {index} is a {type(turn).__name__}; give a Turn or a dict with "
                "'speaker' and 'text'."
            )
        speaker, text = turn.get("speaker"), turn.get("text")
        if not isinstance(speaker, str) or not speaker.strip():
            raise InvalidInputError(f"Turn {index} has no speaker; give 'speaker': 'Alice'.")
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError(f"Turn {index} has no text; give 'text': '...'.")
        time = turn.get("time")
        when = parse_datetime(time, f"turn {index}") if time is not None else None
        out.append(Turn(str(turn.get("id") or f"{session_id}:{index}"), speaker, text, when))
    if not out:
        raise InvalidInputError("No turns given; pass at least one.")
    ids = [t.id for t in out]
    if len(ids) != len(set(ids)):
        raise InvalidInputError("Turn ids repeat; give every turn its own 'id' or none.")
    return out


def check_request(query: object, namespace: object, k: object) -> None:
    """Refuse an empty query, a missing namespace or a k that is not a positive integer."""
    check_namespace(namespace)
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("The query is empty; ask a question in words.")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InvalidInputError(f"k must be a positive integer, got {k!r}.")
