"""Ranking steps that are off by default, and where each goes when it is turned on.

Each names the default step it runs after (its ``after``) or takes the place of (its
``replaces``); :func:`added` puts it there::

    ContextualRetriever(content, episodes=..., steps=added(DEFAULT_STEPS, "token-cost"))

The evaluation's ``with-<name>`` systems are the default list plus one of them
(docs/rules.md says why each is off).
"""

from __future__ import annotations

from ramem_integrations.core.retrieval.chats import UserFirstByTurn
from ramem_integrations.core.retrieval.costs import PaidLift, TokenCost
from ramem_integrations.core.retrieval.steps import Step
from ramem_integrations.errors import InvalidInputError

#: The steps off by default, by name.
OPTIONAL_STEPS: dict[str, Step] = {
    step.name: step for step in (TokenCost(), PaidLift(), UserFirstByTurn())
}


def added(steps: tuple[Step, ...], *names: str) -> tuple[Step, ...]:
    """``steps`` with the optional steps ``names``, each in place of the step it replaces, else
    just after the step it runs after (at the end when that step is not in the list)."""
    if unknown := [n for n in names if n not in OPTIONAL_STEPS]:
        raise InvalidInputError(
            f"Unknown optional step(s): {', '.join(unknown)}. Known: {', '.join(OPTIONAL_STEPS)}."
        )
    out = list(steps)
    for name in names:
        step = OPTIONAL_STEPS[name]
        if replaced := [i for i, s in enumerate(out) if s.name == getattr(step, "replaces", "")]:
            out[replaced[0]] = step
            continue
        follows = getattr(step, "after", "")
        where = [i for i, s in enumerate(out) if s.name == follows]
        out.insert(where[0] + 1 if where else len(out), step)
    return tuple(out)
