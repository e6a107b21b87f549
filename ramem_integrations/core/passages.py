"""Passages: a long message cut into overlapping runs of words, each a span of its text.

A passage is where a long message's words lie, never a copy that could drift from them: search
scores a long message by its best passage, and the packer may show that passage (an excerpt)
when the whole message does not fit. The message itself is stored and returned whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ramem_integrations.errors import InvalidInputError

_WORD = re.compile(r"\S+")

#: Words in a passage, and words two neighbouring passages share (evaluation system
#: ``passages-<size>``; docs/rules.md, "passages").
SIZE = 80
OVERLAP = 20

Span = tuple[int, int]


@dataclass(frozen=True)
class Passages:
    """How a long message is cut: ``size`` words a passage, ``overlap`` of them shared with the
    next. A message of at most ``size`` words is one passage."""

    size: int = SIZE
    overlap: int = OVERLAP

    def __post_init__(self) -> None:
        if not 0 <= self.overlap < self.size:
            raise InvalidInputError(
                f"A passage needs 0 <= overlap < size words, got size {self.size} and "
                f"overlap {self.overlap}; e.g. Passages(size=80, overlap=20)."
            )

    def spans(self, text: str) -> tuple[Span, ...]:
        """The character spans of ``text``'s passages, in order; the last one ends with the
        text's last word. ``((0, len(text)),)`` when the text is one passage."""
        words = [m.span() for m in _WORD.finditer(text)]
        if len(words) <= self.size:
            return ((0, len(text)),)
        step = self.size - self.overlap
        starts = range(0, len(words) - self.overlap, step)
        return tuple((words[i][0], words[min(i + self.size, len(words)) - 1][1]) for i in starts)
