"""Episodes (stage 1): cut every session into runs of consecutive turns about one event.

Offline and without a model: :class:`Segmenter` reads the lexical cohesion between
neighbouring turns (TextTiling: the words of the ``window`` turns before a gap against the
words of the ``window`` turns after it) and cuts where cohesion falls into a valley deeper than
``depth`` (a change of subject), or where a turn brings a time cue that does not overlap the
episode's own (a new event). Episodes never cross a session.

Each turn keeps its own context and gains an :class:`~ramem_integrations.core.types.Episode`:
the episode's id (a hash of namespace, conversation and its first turn, so re-ingesting gives
the same ids), the turn's position in it, and the episode's context read from all its turns
(the first time cue any of them grounds, their participants, places, entities and topic).
See docs/episodes.md for the options measured.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ramem_integrations.core.ids import digest
from ramem_integrations.core.prompts import spoken_text
from ramem_integrations.core.text import tokenize
from ramem_integrations.core.types import Episode, EpisodicContext, MemoryUnit, TimeSpan


class EpisodeSegmenter(Protocol):
    """Anything that sets the episodes of a conversation's units (:class:`Segmenter`, or
    :class:`~ramem_integrations.models.llm_segmentation.LLMSegmenter` when a model is
    configured)."""

    @property
    def name(self) -> str: ...

    def segment(self, units: Sequence[MemoryUnit]) -> list[MemoryUnit]: ...


@dataclass(frozen=True)
class Segmenter:
    """Cuts sessions into episodes by lexical cohesion and time cues.

    Args:
        window: turns on each side of a gap whose words are compared.
        depth: how far cohesion must dip below the peaks on both sides of a gap to cut there
            (0 cuts at every dip; larger values make longer episodes).
        time_breaks: cut before a turn whose time cue does not overlap the episode's.
        min_turns: an episode has at least this many turns (unless its session is shorter).
        max_turns: and at most this many.
    """

    name: str = "cohesion-v1"
    window: int = 2
    depth: float = 0.6
    time_breaks: bool = True
    min_turns: int = 2
    max_turns: int = 10

    def segment(self, units: Sequence[MemoryUnit]) -> list[MemoryUnit]:
        """``units`` (a conversation's turns, in order) with their episodes set."""
        return cut_into_episodes(units, self.runs)

    def runs(self, session: Sequence[MemoryUnit]) -> list[list[MemoryUnit]]:
        """The session's turns split into episodes, in order."""
        cuts = set(self.cuts(session))
        runs: list[list[MemoryUnit]] = []
        for index, unit in enumerate(session):
            if index == 0 or index in cuts:
                runs.append([])
            runs[-1].append(unit)
        return runs

    def cuts(self, session: Sequence[MemoryUnit]) -> list[int]:
        """Indices of the turns that open a new episode (never 0)."""
        valleys = _depths(self.cohesion(session))
        cuts, start, when = [], 0, session[0].context.event_time if session else None
        for index in range(1, len(session)):
            length = index - start
            cue = session[index].context.event_time
            new_time = (
                self.time_breaks and cue is not None and when is not None and not cue.overlaps(when)
            )
            topic_shift = valleys[index - 1] >= self.depth
            if length >= self.max_turns or (length >= self.min_turns and (new_time or topic_shift)):
                cuts.append(index)
                start, when = index, cue
            elif when is None:
                when = cue
        return cuts

    def cohesion(self, session: Sequence[MemoryUnit]) -> list[float]:
        """How alike the turns before and after each gap are (gap ``i`` opens turn ``i + 1``)."""
        words = [Counter(tokenize(spoken_text(u))) for u in session]
        return [self._cohesion(words, gap) for gap in range(1, len(session))]

    def _cohesion(self, words: list[Counter[str]], gap: int) -> float:
        left = _merged(words[max(0, gap - self.window) : gap])
        right = _merged(words[gap : gap + self.window])
        return cosine(left, right)


def _merged(bags: list[Counter[str]]) -> Counter[str]:
    """The bags' counts added up."""
    total: Counter[str] = Counter()
    for bag in bags:
        total.update(bag)
    return total


def cosine(a: Counter[str], b: Counter[str]) -> float:
    """Cosine similarity of two bags of words (0 when either is empty)."""
    dot = sum(count * b.get(word, 0) for word, count in a.items())
    norm = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    return dot / norm if norm else 0.0


def _depths(cohesion: list[float]) -> list[float]:
    """TextTiling depth of each gap: how far it lies below the nearest peak on either side.

    The peak on a side is where climbing from the gap (through values at least as high)
    stops; a gap's climb goes on as its neighbour's does, so each peak comes from the
    neighbour's in one pass per side (plateaus included, the work grows as the gaps do)."""
    n = len(cohesion)
    left, right = list(cohesion), list(cohesion)
    for i in range(1, n):
        if cohesion[i - 1] >= cohesion[i]:
            left[i] = left[i - 1]
    for i in range(n - 2, -1, -1):
        if cohesion[i + 1] >= cohesion[i]:
            right[i] = right[i + 1]
    return [
        (lo - value) + (hi - value) for lo, value, hi in zip(left, cohesion, right, strict=True)
    ]


def cut_into_episodes(
    units: Sequence[MemoryUnit], runs: Callable[[list[MemoryUnit]], list[list[MemoryUnit]]]
) -> list[MemoryUnit]:
    """``units`` with their episodes set: each session cut into the ``runs`` it returns."""
    out: list[MemoryUnit] = []
    for session in _sessions(units):
        cut = runs(session)
        following = [episode_id(run) for run in cut[1:]] + [None]
        for run, next_id in zip(cut, following, strict=True):
            out.extend(episode_of(run, next_id))
    return out


def episode_id(run: Sequence[MemoryUnit]) -> str:
    """A hash of the episode's namespace, conversation and first turn (stable across writes)."""
    first = run[0]
    return digest(first.namespace, first.conversation_id, "episode", first.id)


def episode_of(run: Sequence[MemoryUnit], next_id: str | None = None) -> list[MemoryUnit]:
    """The turns of one episode, each with the episode's context and its own position;
    ``next_id`` is the episode that follows it in its session."""
    contexts = [u.context for u in run]
    topics: Counter[str] = Counter(
        word.strip() for c in contexts if c.topic for word in c.topic.split(",")
    )
    shared = Episode(
        id=episode_id(run),
        event_time=next((c.event_time for c in contexts if c.event_time), None),
        participants=_union(c.participants for c in contexts),
        places=_union((c.location,) if c.location else () for c in contexts),
        entities=_union(c.entities for c in contexts),
        topic=", ".join(word for word, _ in topics.most_common(3)) or None,
        said=_said(contexts),
        next_id=next_id,
    )
    return [
        replace(u, context=replace(u.context, episode=replace(shared, position=i)))
        for i, u in enumerate(run)
    ]


def _said(contexts: Sequence[EpisodicContext]) -> TimeSpan | None:
    """From the first message to the last, when every turn of the episode has its own time."""
    spans = [c.said_at for c in contexts if c.said_at is not None]
    if not spans or len(spans) < len(contexts):
        return None
    return TimeSpan(min(s.start for s in spans), max(s.end for s in spans))


def _union(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for group in groups for item in group))


def _sessions(units: Sequence[MemoryUnit]) -> list[list[MemoryUnit]]:
    """Consecutive units of one session, in order."""
    out: list[list[MemoryUnit]] = []
    key: tuple[str, str, str] | None = None
    for unit in units:
        here = (unit.namespace, unit.conversation_id, unit.context.session_id)
        if here != key:
            out.append([])
            key = here
        out[-1].append(unit)
    return out
