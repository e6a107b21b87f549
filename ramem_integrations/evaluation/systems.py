"""Systems compared by the evaluation, in one registry.

A system is any callable ``(mem, question, k) -> list[ScoredMemory]``. Adding one is one line::

    register("ramem", lambda mem, q, k: mem.retrieve(q.text, q.namespace, k, mode="ramem",
                                                     reference=q.reference))

Every system runs on the same store (the same memories) and the same questions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

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


for _mode in ("bm25", "dense", "content"):
    register(_mode, partial(by_mode, _mode))
