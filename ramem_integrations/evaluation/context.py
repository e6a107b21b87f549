"""What a generator would be shown: rendered memories, their token cost, answerability.

Memories are rendered by the one renderer every agent gets
(:func:`~ramem_integrations.core.prompts.render_memories`); :func:`render_memory` is one memory
shown alone. Tokens are counted by :class:`~ramem_integrations.models.tokens.TokenCounter`
(re-exported here for the evaluation's callers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from ramem_integrations.core.prompts import render_memories
from ramem_integrations.core.time.grounding import FoundTime, find_times, ground_time
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.evaluation import metrics
from ramem_integrations.models.tokens import TokenCounter

__all__ = ["Answerability", "TokenCounter", "answer_span", "render_memory"]


def render_memory(unit: MemoryUnit) -> str:
    """A memory as the generator sees it when shown alone: its group's coordinates line and
    its quoted turn."""
    return render_memories([unit])


# -- answerability -----------------------------------------------------------------------


@dataclass(frozen=True)
class Answerability:
    """Whether the gold answer can be read from a context, without an LLM.

    An answer is answerable when every content word of it (LoCoMo normalisation, stop words
    out) appears in the rendered context, or, for an answer that is a date or period, when a date
    written in the context (in any form the temporal module reads) falls inside its span.
    """

    answer: str
    span: TimeSpan | None

    @classmethod
    def of(cls, answer: str, reference: datetime) -> Answerability:
        return cls(answer, answer_span(answer, reference))

    @property
    def scorable(self) -> bool:
        return self.span is not None or bool(metrics.content_tokens(self.answer))

    def check(self, units: Sequence[MemoryUnit]) -> bool:
        blocks = [render_memory(u) for u in units]
        if metrics.tokens_covered(self.answer, "\n".join(blocks)):
            return True
        if self.span is None:
            return False
        written = (
            found.span
            for unit, block in zip(units, blocks, strict=True)
            for found in _find_times(block, unit.context.session_span.start)
        )
        return metrics.date_covered(self.span, written)


def answer_span(answer: str, reference: datetime) -> TimeSpan | None:
    """The span of an answer that is a date or a period ('7 May 2023', '2022'), else None."""
    text = answer.strip().rstrip(".")
    if not text:
        return None
    span = ground_time(text, reference)
    found = find_times(text, reference)
    rest = text
    for item in sorted(found, key=lambda f: -f.start):
        rest = rest[: item.start] + " " + rest[item.end :]
    pure = not metrics.content_tokens(rest)
    # A span equal to one found inside a longer phrase ('the week before 9 June 2023') means
    # the phrase's relation was not read: do not trust it.
    if span is not None and (pure or all(f.span != span for f in found)):
        return span
    return found[0].span if pure and len(found) == 1 else None


@lru_cache(maxsize=65536)
def _find_times(block: str, said_at: datetime) -> tuple[FoundTime, ...]:
    return tuple(find_times(block, said_at))
