"""Evidence spread over sessions, read off the scores: which sessions hold a best match.

A question whose best content matches come from several sessions ("Which cities has she been
to?") wants one hit from each of them more than the turns around the first one; a question one
session answers wants that session's turns. :func:`spread_sessions` tells them apart from the
score distribution alone (no word of the question is read), and :func:`spread_out` spends the
ranking's first places accordingly.
"""

from __future__ import annotations

from collections.abc import Sequence

from ramem_integrations.core.types import MemoryUnit, ScoredMemory

Session = tuple[str | None, str]


def session_of(unit: MemoryUnit) -> Session:
    """A memory's session: its conversation and session id."""
    return unit.conversation_id, unit.context.session_id


def spread_sessions(candidates: Sequence[ScoredMemory], margin: float) -> list[Session]:
    """The sessions whose best candidate scores within ``margin`` (a share of the best score)
    of the best candidate, best first. One session: the evidence is in one place."""
    best: dict[Session, float] = {}
    for hit in candidates:
        session = session_of(hit.memory)
        best[session] = max(best.get(session, hit.score), hit.score)
    top = max(best.values(), default=0.0)
    if top <= 0.0:
        return []
    near = [s for s, score in best.items() if score >= top * (1.0 - margin)]
    return sorted(near, key=lambda s: -best[s])


def spread_out(ranked: Sequence[ScoredMemory], sessions: Sequence[Session]) -> list[ScoredMemory]:
    """``ranked`` with the first hit of each of ``sessions`` (in the order they stand) just
    after the first hit, then the other hits, then the episode neighbours (reason
    ``"episode"``): the budget goes to a hit of every session first, not to one hit's turns."""
    hits = [h for h in ranked if h.reason != "episode"]
    neighbours = [h for h in ranked if h.reason == "episode"]
    if not hits:
        return list(ranked)
    wanted = set(sessions) - {session_of(hits[0].memory)}
    leaders: list[ScoredMemory] = []
    for hit in hits[1:]:
        if (session := session_of(hit.memory)) in wanted:
            wanted.discard(session)
            leaders.append(hit)
    chosen = {id(h) for h in leaders}
    rest = [h for h in hits[1:] if id(h) not in chosen]
    return [*hits[:1], *leaders, *rest, *neighbours]
