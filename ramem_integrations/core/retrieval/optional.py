"""The ranking steps that are off by default, in one place, and the one way to turn them on.

Each is a step value holding its constants (the ones it runs with when on). It names the
default step it runs after (its ``after``) or takes the place of (its ``replaces``);
:func:`added` puts it there, by name, or as a value with other constants::

    ContextualRetriever(content, episodes=..., steps=added(DEFAULT_STEPS, "replies"))
    added(DEFAULT_STEPS, Spread(margin=0.1))

The evaluation's ``with-<name>`` systems are the default list plus one of them
(docs/rules.md says why each is off).
"""

from __future__ import annotations

from ramem_integrations.core.retrieval.chats import UserFirstByTurn
from ramem_integrations.core.retrieval.costs import PaidLift, TokenCost
from ramem_integrations.core.retrieval.steps import Replies, Spread, Step
from ramem_integrations.errors import InvalidInputError

#: The steps off by default, by name, each with the constants it runs with when turned on.
OPTIONAL_STEPS: dict[str, Step] = {
    step.name: step for step in (Replies(), Spread(), TokenCost(), PaidLift(), UserFirstByTurn())
}


def added(steps: tuple[Step, ...], *on: str | Step) -> tuple[Step, ...]:
    """``steps`` with the optional steps ``on`` (each a name of :data:`OPTIONAL_STEPS`, or such
    a step as a value with other constants), each in place of the step it replaces, else of
    the step of its own name, else just after the step it runs after (at the end when that
    step is not in the list)."""
    names = [s if isinstance(s, str) else s.name for s in on]
    if unknown := [n for n in names if n not in OPTIONAL_STEPS]:
        raise InvalidInputError(
            f"Unknown optional step(s): {', '.join(unknown)}. Known: {', '.join(OPTIONAL_STEPS)}."
            " Turn one on by its name, e.g. added(DEFAULT_STEPS, 'replies')."
        )
    out = list(steps)
    for name, given in zip(names, on, strict=True):
        step = OPTIONAL_STEPS[name] if isinstance(given, str) else given
        takes = (getattr(step, "replaces", ""), name)
        if replaced := [i for i, s in enumerate(out) if s.name in takes]:
            out[replaced[0]] = step
            continue
        follows = getattr(step, "after", "")
        where = [i for i, s in enumerate(out) if s.name == follows]
        out.insert(where[0] + 1 if where else len(out), step)
    return tuple(out)
