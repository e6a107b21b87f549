"""Episodes cut by a language model (stage 1), checked, with the lexical cut as fallback.

When a model is configured (``RaMem(..., anchorer=LLMAnchorer(llm))``), :class:`LLMSegmenter`
asks it where each session's episodes begin: runs of consecutive turns about one event or
subject. The model is sent the session's date and its turns, each keyed by its position in the
session ("1", "2", ...) with its speaker and words; never an id from the data. It answers
``{"starts": ["1", "4", "9"]}``: the turns that open an episode.

A reply is checked (:func:`read_starts`); when anything in it is wrong, or the request fails,
the whole session is cut by the offline :class:`~ramem_integrations.core.segmentation.Segmenter`
instead, with a :class:`~ramem_integrations.models.llm.RamemFallbackWarning`. Episodes get the same
context and ids either way (:func:`~ramem_integrations.core.segmentation.episode_of`).

Usage::

    from ramem_integrations.models.llm import LLMClient, LLMConfig
    from ramem_integrations.models.llm_segmentation import LLMSegmenter

    mem.segmenter = LLMSegmenter(LLMClient(LLMConfig(model="qwen2.5:7b", base_url=...)))
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from ramem_integrations.core.segmentation import Segmenter, cut_into_episodes
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.models.llm import LLM, whole_number, with_fallback

__all__ = ["LLMSegmenter", "read_starts"]

NAME = "llm-episodes-v1"

SYSTEM_PROMPT = """\
You cut one session of a conversation into episodes. An episode is a run of consecutive turns
about one event or subject (a visit to the dentist, planning a trip, a new job). A new episode
starts where the talk moves to another event or subject, or to the same kind of event at another
time. Greetings, reactions and small talk ("haha", "congrats!") belong to the episode they answer.
Reply {"starts": [...]}: the turn_id of every turn under "turns" that opens an episode, in the
order of the turns; the first turn always opens one."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["starts"],
    "properties": {"starts": {"type": "array", "items": {"type": "string"}}},
}


class LLMSegmenter:
    """Episodes cut by an OpenAI-compatible model, session by session, with lexical fallback.

    Args:
        llm: an :class:`~ramem_integrations.models.llm.LLM` (e.g. ``LLMClient(LLMConfig(...))``).
        window: turns per request (at least 2). A longer session is sent in overlapping
            windows: each next window starts at the last episode the previous one opened, so
            no episode is cut only because a window ended.
        fallback: cuts a session whose request fails or whose reply is invalid; its
            ``max_turns`` also caps the model's episodes. ``Segmenter()`` when omitted.
    """

    def __init__(self, llm: LLM, *, window: int = 40, fallback: Segmenter | None = None) -> None:
        self.llm = llm
        self.window = whole_number(window, "LLMSegmenter window", minimum=2)
        self.fallback = fallback if fallback is not None else Segmenter()
        model = getattr(getattr(llm, "config", None), "model", None)
        self.name = f"{NAME}:{model}" if isinstance(model, str) and model else NAME

    def __repr__(self) -> str:
        return f"LLMSegmenter(name={self.name!r}, window={self.window})"

    def segment(self, units: Sequence[MemoryUnit]) -> list[MemoryUnit]:
        """``units`` (a conversation's turns, in order) with their episodes set."""
        return cut_into_episodes(units, self._runs_or_fallback)

    def _runs_or_fallback(self, session: Sequence[MemoryUnit]) -> list[list[MemoryUnit]]:
        return with_fallback(
            lambda: self.runs(session),
            lambda: self.fallback.runs(session),
            f"LLM episode cuts of session {session[0].context.session_id}",
        )

    def runs(self, session: Sequence[MemoryUnit]) -> list[list[MemoryUnit]]:
        """The session's turns split where the model says episodes start (raises LLMError)."""
        if len(session) < 2:
            return [list(session)]
        starts: list[int] = []
        lo = 0
        while lo < len(session):
            hi = min(lo + self.window, len(session))
            found = self._ask(session, lo, hi)
            if hi == len(session) or len(found) == 1:
                starts.extend(found)  # the end, or one episode filling the window: cut at hi
                lo = hi
            else:
                starts.extend(found[:-1])  # the last episode may go on: read it again
                lo = found[-1]
        return _capped(_split(session, starts), self.fallback.max_turns)

    def _ask(self, session: Sequence[MemoryUnit], lo: int, hi: int) -> list[int]:
        keys = [str(i + 1) for i in range(lo, hi)]
        found = self.llm.complete_json(
            SYSTEM_PROMPT,
            _prompt(session, lo, hi),
            lambda obj: read_starts(obj, keys),
            schema=SCHEMA,
        )
        return [lo + i for i in found]


def read_starts(obj: Any, keys: Sequence[str]) -> list[int]:
    """The positions (0-based, in ``keys``) of the turns a reply says open an episode.

    Valid: a JSON object whose ``starts`` is a list of keys (strings, or whole numbers) of this
    window's turns, each at most once, in order. The first turn always opens an episode and is
    added when missing. Anything else raises ValueError (the client turns it into LLMError).
    """
    if not isinstance(obj, dict) or not isinstance(obj.get("starts"), list):
        raise ValueError('expected a JSON object {"starts": [turn ids]}')
    positions = []
    for item in obj["starts"]:
        key = str(item) if isinstance(item, int) and not isinstance(item, bool) else item
        if not isinstance(key, str) or key.strip() not in keys:
            raise ValueError(f"starts names {item!r}, not a turn_id of this window ({keys[0]}..)")
        positions.append(keys.index(key.strip()))
    if positions != sorted(set(positions)):
        raise ValueError(f"starts must be distinct turn ids in order, got {obj['starts']!r}")
    return positions if positions[:1] == [0] else [0, *positions]


def _prompt(session: Sequence[MemoryUnit], lo: int, hi: int) -> str:
    """The user message: the session's date and the window's turns, as JSON (no ids)."""
    payload = {
        "session": {"date": session[0].context.session_span.start.date().isoformat()},
        "turns": [
            {"turn_id": str(i + 1), "speaker": u.context.speaker or "", "text": u.content}
            for i, u in enumerate(session[lo:hi], start=lo)
        ],
    }
    return 'Say which turns open an episode, as a JSON object {"starts": [...]}.\n\n' + json.dumps(
        payload, ensure_ascii=False, indent=1
    )


def _split(session: Sequence[MemoryUnit], starts: Sequence[int]) -> list[list[MemoryUnit]]:
    bounds = [*sorted(set(starts) | {0}), len(session)]
    return [list(session[a:b]) for a, b in pairwise(bounds) if a < b]


def _capped(runs: list[list[MemoryUnit]], longest: int) -> list[list[MemoryUnit]]:
    """Runs longer than ``longest`` cut into pieces of at most that many turns."""
    return [run[i : i + longest] for run in runs for i in range(0, len(run), longest)]
