"""The retrieval systems the evaluation builds from RaMem: its plain modes, and RaMem with
some of its retriever's options changed (typed, so a misspelt option fails at once).

A system is any callable ``(mem, asked, k) -> list[ScoredMemory]``; ``asked`` is the
:class:`~ramem_integrations.evaluation.datasets.Asked` view of a question (its text, namespace
and date), never the question with its gold answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ramem_integrations.core.fusion import Fusion
from ramem_integrations.core.retrieval import ContextualRetriever
from ramem_integrations.core.types import RetrievalMode, ScoredMemory
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.memory.questions import questions_last

if TYPE_CHECKING:
    from ramem_integrations.memory.ramem import RaMem

System = Callable[["RaMem", Asked, int], list[ScoredMemory]]


@dataclass(frozen=True)
class Mode:
    """A baseline: one of :meth:`RaMem.retrieve`'s plain modes on the question text."""

    mode: RetrievalMode

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        return mem.retrieve(asked.text, asked.namespace, k, mode=self.mode)


@dataclass(frozen=True)
class Fused:
    """The ``content`` baseline with another fusion of its dense and BM25 rankings."""

    fusion: Fusion

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        content = replace(mem.content, fusion=self.fusion)
        return questions_last(content.retrieve(asked.text, asked.namespace, k))


@dataclass(frozen=True)
class Variant:
    """RaMem (the question's recall frame, then selective reinstatement) with some options of
    its :class:`ContextualRetriever` changed; a field left None keeps the store's own setting.

    ``Variant()`` is RaMem itself. See :class:`ContextualRetriever` for what each option does.
    """

    strict: bool | None = None
    use_need: bool | None = None
    match_session: bool | None = None
    speaker_bonus: float | None = None
    #: False: the turn-level method (hits without their episodes).
    episodes: bool | None = None
    #: How content retrieval fuses dense and BM25 ("convex" or "rrf").
    fusion: Fusion | None = None
    #: How much a memory gains from the best score of another candidate of its episode.
    episode_evidence: float | None = None
    #: False: a name condition is met by the names anchoring read only, not by the words.
    names_in_text: bool | None = None

    def retriever(self, base: ContextualRetriever) -> ContextualRetriever:
        """``base`` with this variant's options put in."""
        return replace(
            base,
            strict=base.strict if self.strict is None else self.strict,
            use_need=base.use_need if self.use_need is None else self.use_need,
            match_session=base.match_session if self.match_session is None else self.match_session,
            speaker_bonus=base.speaker_bonus if self.speaker_bonus is None else self.speaker_bonus,
            episodes=None if self.episodes is False else base.episodes,
            content=base.content
            if self.fusion is None
            else replace(base.content, fusion=self.fusion),
            episode_evidence=base.episode_evidence
            if self.episode_evidence is None
            else self.episode_evidence,
            names_in_text=base.names_in_text if self.names_in_text is None else self.names_in_text,
        )

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        frame = mem.frame(asked.text, asked.namespace, reference=asked.asked_at)
        return self.retriever(mem.reinstatement).retrieve(frame, asked.namespace, k)
