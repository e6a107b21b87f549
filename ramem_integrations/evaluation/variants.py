"""The retrieval systems the evaluation builds from RaMem: its plain modes, and RaMem with
some of its retriever's options changed (typed, so a misspelt option fails at once) or its
retriever replaced by an ablation of it (:mod:`~ramem_integrations.evaluation.ablations`).

A system is any callable ``(mem, asked, k) -> list[ScoredMemory]``; ``asked`` is the
:class:`~ramem_integrations.evaluation.datasets.Asked` view of a question (its text, namespace
and date), never the question with its gold answer.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from ramem_integrations.core.retrieval.fusion import Fusion
from ramem_integrations.core.retrieval.optional import added
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS, Step
from ramem_integrations.core.types import RetrievalMode, ScoredMemory
from ramem_integrations.errors import InvalidInputError, MissingDependencyError
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
class Rewritten:
    """The ``content`` baseline searching for a rewrite of the question: its information need
    (``need``: the question without its condition words) or its words without the
    participants' names (``no-names``)."""

    rewrite: str

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        text = asked.text
        if self.rewrite == "need":
            text = mem.frame(text, asked.namespace, reference=asked.asked_at).need or text
        else:
            names = [n for n in mem.known(asked.namespace).participants if n]
            pattern = r"\b(" + "|".join(map(re.escape, names)) + r")('s)?\b"
            text = re.sub(pattern, " ", text) if names else text
        text = " ".join(text.split()) or asked.text
        return mem.retrieve(text, asked.namespace, k, mode="content")


@dataclass(frozen=True)
class Variant:
    """RaMem (the question's recall frame, then selective reinstatement) with some options of
    its :class:`ContextualRetriever` changed; a field left None keeps the store's own setting.

    ``Variant()`` is RaMem itself. See :class:`ContextualRetriever` for what each option does.
    ``kind`` is the retriever class: :class:`ContextualRetriever`, or an ablation of it
    (:mod:`~ramem_integrations.evaluation.ablations`) built with the same options.
    """

    strict: bool | None = None
    speaker_bonus: float | None = None
    #: False: the turn-level method (hits without their episodes).
    episodes: bool | None = None
    #: How content retrieval fuses dense and BM25 ("convex" or "rrf").
    fusion: Fusion | None = None
    #: How much a memory gains from the best score of another candidate of its episode.
    episode_evidence: float | None = None
    #: How many hits come before any episode neighbour.
    hits_first: int | None = None
    #: Whether the best hit keeps first place against the episode lift.
    keep_first: bool | None = None
    #: The ranking steps left out (by name, :data:`~.steps.DEFAULT_STEPS`).
    without: tuple[str, ...] = ()
    #: The steps off by default turned on: by name (:data:`~.optional.OPTIONAL_STEPS`), or
    #: as a step value with other constants (``Spread(margin=0.1)``).
    adding: tuple[str | Step, ...] = ()
    kind: type[ContextualRetriever] = ContextualRetriever

    def __post_init__(self) -> None:
        names = [step.name for step in DEFAULT_STEPS]
        if unknown := [n for n in self.without if n not in names]:
            raise InvalidInputError(
                f"Unknown ranking step(s): {', '.join(unknown)}. Known: {', '.join(names)}."
            )
        added((), *self.adding)  # an unknown name is refused here, not at the first question

    def retriever(self, base: ContextualRetriever) -> ContextualRetriever:
        """``base`` with this variant's options put in, as a ``kind``."""
        options = {f.name: getattr(base, f.name) for f in fields(base)}
        return replace(
            self.kind(**options),
            strict=base.strict if self.strict is None else self.strict,
            speaker_bonus=base.speaker_bonus if self.speaker_bonus is None else self.speaker_bonus,
            episodes=None if self.episodes is False else base.episodes,
            content=base.content
            if self.fusion is None
            else replace(base.content, fusion=self.fusion),
            episode_evidence=base.episode_evidence
            if self.episode_evidence is None
            else self.episode_evidence,
            hits_first=base.hits_first if self.hits_first is None else self.hits_first,
            keep_first=base.keep_first if self.keep_first is None else self.keep_first,
            steps=added(tuple(s for s in base.steps if s.name not in self.without), *self.adding)
            if self.without or self.adding
            else base.steps,
        )

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        frame = mem.frame(asked.text, asked.namespace, reference=asked.asked_at)
        return self.retriever(mem.reinstatement).retrieve(frame, asked.namespace, k)


def installed(package: str) -> bool:
    """Whether ``package`` can be imported (found, not imported: its own errors surface later)."""
    try:
        return importlib.util.find_spec(package) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


@dataclass(frozen=True)
class NeedsExtra:
    """A system that needs an optional package (``module``, from the distribution ``package``
    of the ``extra``). :meth:`check` raises
    :class:`~ramem_integrations.errors.MissingDependencyError` naming the extra when it is
    missing: :func:`~ramem_integrations.evaluation.systems.select` calls it before any work,
    and each run before it starts."""

    system: System
    module: str
    package: str
    extra: str

    def check(self) -> None:
        if not installed(self.module):
            raise MissingDependencyError(self.package, self.extra)

    def __call__(self, mem: RaMem, asked: Asked, k: int) -> list[ScoredMemory]:
        self.check()
        return self.system(mem, asked, k)
