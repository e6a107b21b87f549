"""An episode turn pays its token cost: a neighbour brought beside a hit keeps its place only
while its worth per token beats the hits it would push out of a budget.

A budgeted context is filled in rank order (:func:`~ramem_integrations.core.prompts.pack`), so
a 700-token neighbour placed before the sixth hit costs the sixth hit, and the seventh, and
more. :class:`TokenCost` moves each neighbour after every later hit whose score per token is at
least its own. Where turns are of a length (person-to-person chats) that is the order by score
the neighbours step already gave; where they are not (an assistant's long replies) the long
neighbour waits for the budgets that can afford it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from ramem_integrations.core.prompts import turn_line
from ramem_integrations.core.types import MemoryUnit, ScoredMemory

if TYPE_CHECKING:
    from ramem_integrations.core.retrieval.steps import Ranking

PAID = "a turn of the episode of a hit, after the hits worth more per token"


def cost(unit: MemoryUnit) -> int:
    """What a memory costs in a context, in characters of its turn line (a token is about
    four): only ratios of costs are compared."""
    return len(turn_line(unit)) + 1


@dataclass(frozen=True)
class TokenCost:
    """Each episode neighbour (reason ``"episode"``, :class:`~.steps.Neighbours`) moves after
    every later hit whose score per token is at least its own; it never moves up.

    Why: the budget is filled in rank order, so a long neighbour is no free passenger: placed
    by its score alone, a 700-token assistant reply pushes several better hits out of a
    2,000-token context. Its score per token against theirs is what the packer's budget
    buys."""

    name: ClassVar[str] = "token-cost"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False
    #: The step it runs after (:func:`~.optional.added`).
    after: ClassVar[str] = "neighbours"

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        worth = [h.score / cost(h.memory) for h in ranked]
        placed: list[tuple[float, int, ScoredMemory]] = []
        hits = -1  # hits (not neighbours) seen so far, less one
        for i, hit in enumerate(ranked):
            if hit.reason != "episode":
                hits += 1
                placed.append((hits, i, hit))
                continue
            later = [j for j in range(i + 1, len(ranked)) if ranked[j].reason != "episode"]
            passed = sum(1 for j in later if worth[j] >= worth[i])
            if passed:
                hit = replace(hit, placed=PAID)
            placed.append((hits + passed + 0.5, i, hit))
        return [h for _, _, h in sorted(placed, key=lambda p: (p[0], p[1]))]
