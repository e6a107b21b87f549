"""Systems compared by the evaluation, in one registry.

A system is any callable ``(mem, question, k) -> list[ScoredMemory]``. Adding one is one line::

    register("ramem", lambda mem, q, k: mem.retrieve(q.text, q.namespace, k, mode="ramem",
                                                     reference=q.reference))

Every system runs on the same store (the same memories) and the same questions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from ramem_integrations.core.retrieval import ContextualRetriever
from ramem_integrations.core.types import ScoredMemory
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Question

if TYPE_CHECKING:
    from ramem_integrations.memory import RaMem

System = Callable[["RaMem", Question, int], list[ScoredMemory]]

#: The registered systems, by name, in registration order.
SYSTEMS: dict[str, System] = {}


def register(name: str, system: System) -> System:
    """Add (or replace) a system under ``name``; returns it, so it also works as a decorator."""
    if not name or "," in name:
        raise InvalidInputError(f"A system name must be non-empty and without commas: {name!r}.")
    SYSTEMS[name] = system
    return system


def by_mode(mode: str, mem: RaMem, question: Question, k: int) -> list[ScoredMemory]:
    """A baseline: one of :meth:`RaMem.retrieve`'s modes on the question text."""
    return mem.retrieve(question.text, question.namespace, k, mode=mode)


def select(names: str | list[str] | None) -> dict[str, System]:
    """The systems named (comma-separated or a list), or all when ``names`` is empty."""
    if not names:
        return dict(SYSTEMS)
    wanted = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    unknown = [n for n in wanted if n not in SYSTEMS]
    if unknown:
        raise InvalidInputError(
            f"Unknown system(s): {', '.join(unknown)}. Known: {', '.join(SYSTEMS)}."
        )
    return {n: SYSTEMS[n] for n in wanted if n}


def reference_of(question: Question) -> datetime | None:
    """The question's own date when the data gives one; else None (RaMem then treats
    relative times in the question as ungroundable rather than guess a date)."""
    return question.reference if question.dated else None


def reinstated(
    mem: RaMem, question: Question, k: int, *, retriever: ContextualRetriever | None = None
) -> list[ScoredMemory]:
    """RaMem: the question's recall frame, then selective reinstatement."""
    frame = mem.frame(question.text, question.namespace, reference=reference_of(question))
    return (retriever or mem.reinstatement).retrieve(frame, question.namespace, k)


def _shuffle(mem: RaMem, question: Question, k: int) -> list[ScoredMemory]:
    from ramem_integrations.evaluation.ablations import context_shuffle

    return context_shuffle(mem, question, k)


def variant(mem: RaMem, question: Question, k: int, **options: Any) -> list[ScoredMemory]:
    """RaMem with its retriever's options changed (soft ranking, ablations)."""
    retriever = replace(mem.reinstatement, **options)
    return reinstated(mem, question, k, retriever=retriever)


for _mode in ("bm25", "dense", "content"):
    register(_mode, partial(by_mode, _mode))
register("ramem", reinstated)
register("ramem-soft", partial(variant, strict=False))
register("no-session-span", partial(variant, match_session=False))
register("no-speaker-preference", partial(variant, speaker_bonus=0.0))
#: Searching with the information need (condition words removed) instead of the question.
register("ramem-need", partial(variant, use_need=True))
#: The turn-level method: hits without their episodes.
register("no-episodes", partial(variant, episodes=None))
register("context-shuffle", lambda mem, q, k: _shuffle(mem, q, k))
#: No context-aware ranking: content retrieval; only the prompt keeps the coordinates.
register("no-context-ranking", partial(by_mode, "content"))
#: The flat prompt changes only what the generator sees (answer F1), not retrieval.
register("flat-prompt", reinstated)
FLAT_PROMPT_SYSTEMS = frozenset({"flat-prompt"})

# LlamaIndex systems (need the llama-index extra): a plain vector retriever, and the same with
# RaMem's re-ranking postprocessor after it.
try:
    import llama_index.core  # noqa: F401

    from ramem_integrations.evaluation.llama_systems import llama_vector, llama_vector_ramem
except ImportError:  # pragma: no cover - the evaluation runs without llama-index
    pass
else:
    register("llama-vector", llama_vector)
    register("llama-vector+ramem", llama_vector_ramem)
