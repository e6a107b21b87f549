"""When a question is asked: the one rule every framework surface follows.

A surface (a retriever, the postprocessor, a memory, the middleware) grounds a question's
relative times ("last week") against ``reference`` when one is given (a datetime, or a callable
returning one, as ``TimeWeightedPostprocessor``'s ``now``), else against its clock (the wall
clock by default). :data:`UNDATED` reads a question with no date of its own (a dataset's):
absolute dates still ground, relative ones do not, and a warning says so.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from ramem_integrations.core.types import utc_now


class Undated:
    """The type of :data:`UNDATED`."""

    def __repr__(self) -> str:
        return "UNDATED"


#: ``reference=UNDATED``: the question has no date; relative times in it are not grounded.
UNDATED: Final = Undated()

#: What a surface's ``reference`` may be: a moment, a clock, ``None`` (the surface's clock) or
#: :data:`UNDATED`.
Reference = datetime | Callable[[], datetime] | Undated | None


def asked_at(reference: Reference, clock: Callable[[], datetime] = utc_now) -> datetime | None:
    """The moment a question is asked: ``reference`` (called when it is a clock), ``clock()``
    when it is None, and None (undated) when it is :data:`UNDATED`."""
    if isinstance(reference, Undated):
        return None
    if reference is None:
        return clock()
    return reference() if callable(reference) else reference
