"""BM25 by passage: a long message scores as its best passage, and names that passage.

A message of one passage is indexed as :func:`~.bm25.lexical_text` indexes it; a longer one
(:class:`~ramem_integrations.core.passages.Passages`) as each of its passages, each with the
name of its speaker and the message's entities beside it. Built from a namespace's memories,
in memory; nothing is stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy.typing as npt

from ramem_integrations.core.passages import Passages, Span
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.index.bm25 import BM25, lexical_text
from ramem_integrations.index.vectors import VectorTable


class PassageIndex:
    """BM25 over passages of the memories given, searched by memory."""

    def __init__(self, memories: Iterable[MemoryUnit], passages: Passages | None = None) -> None:
        self.passages = passages or Passages()
        self.bm25 = BM25()
        self._docs: dict[str, list[str]] = {}  # memory id -> its documents' ids
        self._of: dict[str, tuple[str, Span | None]] = {}  # document -> memory id, span
        self._units: dict[str, MemoryUnit] = {}  # memory id -> the memory indexed
        for memory in memories:
            self._add(memory)

    def update(self, memories: Mapping[str, MemoryUnit]) -> None:
        """Index ``memories`` (by id) as they are now: the memories gone are dropped, the new
        ones and those written again (another object under the same id) indexed; the others
        are left as they are, so a write costs what it changed."""
        for memory_id in [i for i, unit in self._units.items() if memories.get(i) is not unit]:
            self._remove(memory_id)
        for memory_id, unit in memories.items():
            if memory_id not in self._units:
                self._add(unit)

    def _remove(self, memory_id: str) -> None:
        for doc_id in self._docs.pop(memory_id, []):
            self.bm25.remove(doc_id)
            del self._of[doc_id]
        del self._units[memory_id]

    def _add(self, memory: MemoryUnit) -> None:
        self._units[memory.id] = memory
        spans = self.passages.spans(memory.content)
        if len(spans) == 1:
            self._document(memory.id, memory.id, None, lexical_text(memory))
            return
        beside = " ".join([_head(memory), *memory.context.entities])
        for i, (start, end) in enumerate(spans):
            text = f"{beside} {memory.content[start:end]}"
            self._document(f"{memory.id}\x1f{i}", memory.id, (start, end), text)

    def _document(self, doc_id: str, memory_id: str, span: Span | None, text: str) -> None:
        self.bm25.add(doc_id, text)
        self._docs.setdefault(memory_id, []).append(doc_id)
        self._of[doc_id] = (memory_id, span)

    def search(
        self, query: str, k: int, *, among: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``k`` best ``(memory id, score)`` pairs, a memory scored by its best passage,
        optionally only among the memory ids in ``among``."""
        docs = None if among is None else [d for i in among for d in self._docs.get(i, ())]
        best: dict[str, float] = {}
        for doc_id, score in self.bm25.search(query, len(self.bm25), among=docs):
            best.setdefault(self._of[doc_id][0], score)  # best first: the first is the best
        return list(best.items())[:k]

    def best(self, query: str, memory_id: str) -> Span | None:
        """The span of the memory's passage that best matches ``query`` (its first when none
        shares a word with it); None when the memory is one passage or not indexed."""
        docs = self._docs.get(memory_id, [])
        if len(docs) < 2:
            return None
        ranked = self.bm25.search(query, 1, among=docs)
        return self._of[ranked[0][0] if ranked else docs[0]][1]


def _head(memory: MemoryUnit) -> str:
    """The names the restatement heads the memory with ("Ann (to Bo): "), else its speaker."""
    speaker = memory.context.speaker or ""
    if speaker and memory.restatement:
        head = re.match(re.escape(speaker) + r"(?: \(to [^()\n]+\))?: ", memory.restatement)
        if head:
            return head.group(0)
    return speaker


#: Embeds ``(words, speaker line or None)`` pairs into unit rows (``memory.embedding``'s
#: ``spoken_vectors`` with an embedder).
EmbedSpoken = Callable[[Sequence[tuple[str, str | None]]], npt.ArrayLike]


class PassageVectors:
    """Dense vectors of the passages of the long memories given (each embedded as a memory
    is: its words plus its speaker line), searched by memory: a long memory scores as the
    best of its whole vector and its passages' vectors."""

    def __init__(
        self,
        memories: Iterable[MemoryUnit],
        embed: EmbedSpoken,
        speaker: Callable[[MemoryUnit], str | None],
        passages: Passages | None = None,
    ) -> None:
        self.passages = passages or Passages()
        self._docs: dict[str, list[str]] = {}
        self._of: dict[str, str] = {}
        spoken: list[tuple[str, str | None]] = []
        for memory in memories:
            spans = self.passages.spans(memory.content)
            if len(spans) < 2:
                continue
            for i, (start, end) in enumerate(spans):
                doc_id = f"{memory.id}\x1f{i}"
                self._docs.setdefault(memory.id, []).append(doc_id)
                self._of[doc_id] = memory.id
                spoken.append((memory.content[start:end], speaker(memory)))
        self.table = VectorTable(list(self._of), embed(spoken) if spoken else None)

    def search(
        self,
        query: npt.ArrayLike,
        whole: Sequence[tuple[str, float]],
        k: int,
        *,
        among: Iterable[str] | None = None,
    ) -> list[tuple[str, float]]:
        """``whole`` (the memories' own ranking) with each long memory scored by the best of
        its whole vector and its passages, the ``k`` best, ties by id."""
        docs = None if among is None else [d for i in among for d in self._docs.get(i, ())]
        best = dict(whole)
        for doc_id, score in self.table.search(query, len(self.table), among=docs):
            memory_id = self._of[doc_id]
            best[memory_id] = max(score, best.get(memory_id, score))
        return sorted(best.items(), key=lambda pair: (-pair[1], pair[0]))[:k]
