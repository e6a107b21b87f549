"""An episode turn pays its token cost: a neighbour brought beside a hit keeps its place only
while its worth per token beats the hits it would push out of a budget (:class:`TokenCost`),
and a turn lifted by a shorter turn of its episode gains in proportion (:class:`PaidLift`).

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
from ramem_integrations.core.retrieval.steps import EpisodeEvidence, lifted_by_episode
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


def price(unit: MemoryUnit, mate: MemoryUnit) -> float:
    """The share of a lift from ``mate`` that ``unit`` keeps: all of it when ``unit`` costs no
    more than ``mate``, else their cost ratio."""
    return min(1.0, cost(mate) / cost(unit))


@dataclass(frozen=True)
class PaidLift(EpisodeEvidence):
    """:class:`~.steps.EpisodeEvidence` whose lift a turn longer than the episode mate lifting
    it gains in proportion to their costs (:func:`price`); it takes that step's place.

    Why: the lift is inferred worth, not the turn's own match: a 700-token reply lifted by
    the 50-token user turn it answers gains as if it cost 50 tokens, and crowds the budget with
    words the question did not match. A shorter turn lifted by a longer one keeps all of it."""

    name: ClassVar[str] = "paid-lift"
    #: The default step it takes the place of (:func:`~.optional.added`).
    replaces: ClassVar[str] = "episode-evidence"

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        if at.episodes is None or not self.weight:
            return ranked
        return lifted_by_episode(ranked, self.weight, keep_first=self.keep_first, price=price)
