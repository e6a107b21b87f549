"""Episodic anchoring with a language model (stage 1), checked against the turns it reads.

:class:`LLMAnchorer` sends each session to a model in windows of turns and asks for one memory
per turn: a self-contained restatement (speaker named, pronouns resolved, relative times written
as dates), the event time, participants, place, entities and topic. It produces the same memory
ids as :class:`~ramem_integrations.core.anchoring.RuleAnchorer`, so switching anchorers upserts
memories instead of duplicating them.

What the model is sent: the session's date, the speakers' names and the turns' words, each turn
keyed by its position in its session ("1", "2", ...). Never an id from the data (a session id
such as LongMemEval's ``answer_<id>_N`` names the evidence; a turn id such as ``D1:3``), so
nothing in a request tells the model which memories a benchmark counts as gold.

What comes from the model and what never does:

- from the model: ``content``, ``event_time``, ``participants`` (added to the session's speakers),
  ``location``, ``entities``, ``topic``;
- never from the model: the memory id, ``session_id``, ``session_span`` (``Session.span``),
  ``mention_times`` (the temporal module over the turn's text), ``speaker``, ``source_ids`` and
  ``conversation_id``, all exactly as the rule anchorer sets them.

A reply is checked strictly (see :func:`read_reply`); when anything in it is wrong, the whole
window falls back to the rule anchorer's units for its turns, with a
:class:`~ramem_integrations.models.llm.RamemFallbackWarning`. Nothing the model invented is stored.

Usage::

    from ramem_integrations.models.llm import LLMClient, LLMConfig
    from ramem_integrations.models.llm_anchoring import LLMAnchorer

    llm = LLMClient(LLMConfig(model="qwen2.5:7b", base_url="http://localhost:11434/v1"))
    mem = RaMem.from_path("./memory", anchorer=LLMAnchorer(llm))
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from dateutil.relativedelta import relativedelta

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.models.llm import LLM, whole_number, with_fallback
from ramem_integrations.models.llm_segmentation import LLMSegmenter

logger = logging.getLogger(__name__)

__all__ = ["LLMAnchorer", "TurnReading", "Window", "read_reply"]

NAME = "llm-v1"

#: A restatement longer than ``MAX_CONTENT_FACTOR * len(turn) + MAX_CONTENT_SLACK`` is invalid.
MAX_CONTENT_FACTOR = 4
MAX_CONTENT_SLACK = 200
#: Longest topic, location, participant or entity accepted, in characters.
MAX_FIELD_CHARS = 120
#: An event may start at most this long before the session starts ...
EARLIEST_EVENT = relativedelta(years=100)
#: ... and end at most this long after the session ends.
LATEST_EVENT = relativedelta(years=1)

SYSTEM_PROMPT = """\
You turn conversation turns into memories that make sense on their own, read months later.
For EVERY turn under "turns" (and no other), write one memory:
- "turn_id": the turn's key, exactly as given.
- "content": a faithful, complete restatement of the turn in the third person. Name the speaker
  (and whom they speak to), replace pronouns by the names they refer to, and write relative times
  ("yesterday", "last week", "next month") as calendar dates computed from the session date.
  Add nothing that the conversation does not say.
- "event_time": when the thing the turn talks about happened or will happen, as
  {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"} (first and last day, inclusive), or null when the
  turn does not say. This is not the session date unless the event happens during the session.
- "participants": the people involved, spelled as in the conversation.
- "location": the place the turn is about, as written in the conversation, or null.
- "entities": named things, people, places, organisations or works mentioned, as written.
- "topic": a few words naming what the turn is about, or null.
"Earlier turns" are context for resolving pronouns only; do not write memories for them."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["memories"],
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["turn_id", "content"],
                "properties": {
                    "turn_id": {"type": "string"},
                    "content": {"type": "string"},
                    "event_time": {
                        "type": ["object", "null"],
                        "properties": {
                            "start": {"type": "string", "format": "date"},
                            "end": {"type": "string", "format": "date"},
                        },
                    },
                    "participants": {"type": "array", "items": {"type": "string"}},
                    "location": {"type": ["string", "null"]},
                    "entities": {"type": "array", "items": {"type": "string"}},
                    "topic": {"type": ["string", "null"]},
                },
            },
        }
    },
}


@dataclass(frozen=True, slots=True)
class Window:
    """A run of turns of one session sent to the model together.

    ``earlier`` are the turns just before the window, shown for context only; ``speakers`` are
    the whole conversation's speakers. The model knows each turn by :meth:`key`, its position
    in the session, never by its id.
    """

    session: Session
    turns: tuple[Turn, ...]
    earlier: tuple[Turn, ...] = ()
    speakers: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """'session_1 turns D1:1..D1:8', for messages."""
        return f"{self.session.id} turns {self.turns[0].id}..{self.turns[-1].id}"

    def key(self, turn: Turn) -> str:
        """The turn's position in its session, '1' for the first: what the model calls it."""
        return str(self.session.turns.index(turn) + 1)

    @property
    def shown_text(self) -> str:
        """All the text the model was shown; a name it returns must appear here."""
        return "\n".join(t.full_text for t in (*self.earlier, *self.turns))

    def prompt(self) -> str:
        """The user message: the session date, the speakers and the turns, as JSON (no ids)."""
        payload = {
            "session": {
                "date": self.session.start.isoformat(),
                "date_written_out": _written_out(self.session.start),
            },
            "speakers": list(self.speakers),
            "earlier_turns": [_turn_json(t) for t in self.earlier],
            "turns": [{"turn_id": self.key(t), **_turn_json(t)} for t in self.turns],
        }
        return (
            "Write one memory for each of the turns below, as a JSON object "
            '{"memories": [...]}.\n\n' + json.dumps(payload, ensure_ascii=False, indent=1)
        )


@dataclass(frozen=True, slots=True)
class TurnReading:
    """What the model said about one turn, after validation."""

    turn_id: str
    content: str
    event_time: TimeSpan | None
    participants: tuple[str, ...]
    location: str | None
    entities: tuple[str, ...]
    topic: str | None


class LLMAnchorer:
    """Anchoring with an OpenAI-compatible model, window by window, with rule fallback.

    Args:
        llm: an :class:`~ramem_integrations.models.llm.LLM` (e.g. ``LLMClient(LLMConfig(...))``).
        window: turns per request (at least 1). Larger windows mean fewer requests and more
            context; a failed window falls back as a whole.
        fallback: the rule anchorer used for invalid windows, one unit per turn;
            ``RuleAnchorer(group_gap=None)`` when omitted.
        context_turns: how many turns before each window are shown for resolving pronouns.

    ``name`` is ``"llm-v1:<model>"`` when the client exposes its model (``llm.config.model``),
    else ``"llm-v1"``.
    """

    def __init__(
        self,
        llm: LLM,
        *,
        window: int = 8,
        fallback: RuleAnchorer | None = None,
        context_turns: int = 2,
    ) -> None:
        self.llm = llm
        self.window = whole_number(window, "LLMAnchorer window", minimum=1)
        # One rule unit per turn (no message grouping): the model reads turn by turn.
        self.fallback = fallback if fallback is not None else RuleAnchorer(group_gap=None)
        self.context_turns = whole_number(context_turns, "LLMAnchorer context_turns", minimum=0)
        model = getattr(getattr(llm, "config", None), "model", None)
        self.name = f"{NAME}:{model}" if isinstance(model, str) and model else NAME

    def __repr__(self) -> str:
        return f"LLMAnchorer(name={self.name!r}, window={self.window})"

    def episode_segmenter(self) -> LLMSegmenter:
        """The episode cuts that go with this anchorer: the same model's."""
        return LLMSegmenter(self.llm)

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        """One memory per turn, in conversation order, window by window."""
        rule_units = iter(self.fallback.anchor(conversation, namespace))
        speakers = conversation.speakers
        units: list[MemoryUnit] = []
        for session in conversation.sessions:
            turns = session.turns
            for lo in range(0, len(turns), self.window):
                window = Window(
                    session,
                    turns[lo : lo + self.window],
                    turns[max(0, lo - self.context_turns) : lo],
                    speakers,
                )
                rules = [next(rule_units) for _ in window.turns]
                units.extend(self._anchor_window(window, rules))
        return units

    def _anchor_window(self, window: Window, rules: list[MemoryUnit]) -> list[MemoryUnit]:
        def ask() -> list[MemoryUnit]:
            readings = self.llm.complete_json(
                SYSTEM_PROMPT, window.prompt(), lambda obj: read_reply(obj, window), schema=SCHEMA
            )
            return [
                _unit(rule, window, readings[turn.id])
                for rule, turn in zip(rules, window.turns, strict=True)
            ]

        return with_fallback(ask, lambda: rules, f"LLM anchoring of {window.label}")


def _unit(rule: MemoryUnit, window: Window, reading: TurnReading) -> MemoryUnit:
    """The rule anchorer's unit with the model's reading put in; ids and times stay the rule's.

    As with the rules, the session's speakers are always participants and the conversation's
    speakers are never entities.
    """
    speakers = [t.speaker for t in window.session.turns]
    context = replace(
        rule.context,
        event_time=reading.event_time,
        participants=tuple(dict.fromkeys([*speakers, *reading.participants])),
        location=reading.location,
        entities=tuple(e for e in reading.entities if e not in window.speakers),
        topic=reading.topic,
    )
    return replace(rule, restatement=reading.content, context=context)


# ------------------------------------------------------------------------------ validation


def read_reply(obj: Any, window: Window) -> dict[str, TurnReading]:
    """Check a model's reply for ``window`` and return its reading of each turn, by turn id.

    Turns are named by their :meth:`Window.key`; the readings are keyed by the turns' own ids.
    Raises ValueError or TypeError, naming the problem, when the reply is not an object with a
    ``memories`` list holding each of the window's turns exactly once and no other key; or when
    any memory has empty or overlong content, an unreadable or implausible event time, or a
    participant, location or entity that is neither a conversation speaker nor written in the
    turns the model was shown.
    """
    if not isinstance(obj, Mapping) or not isinstance(obj.get("memories"), list):
        raise TypeError('expected an object {"memories": [...]}')
    by_key = {window.key(t): t for t in window.turns}
    readings: dict[str, TurnReading] = {}
    for item in obj["memories"]:
        if not isinstance(item, Mapping):
            raise TypeError(f"each memory must be an object, got {item!r}")
        key = _turn_id(item.get("turn_id"))
        if key not in by_key:
            raise ValueError(f"memory for unknown turn {key!r}")
        turn = by_key[key]
        if turn.id in readings:
            raise ValueError(f"turn {key!r} has more than one memory")
        readings[turn.id] = _reading(item, turn, window)
    missing = [key for key, t in by_key.items() if t.id not in readings]
    if missing:
        raise ValueError(f"no memory for turn(s) {', '.join(missing)}")
    return readings


def _reading(item: Mapping[str, Any], turn: Turn, window: Window) -> TurnReading:
    return TurnReading(
        turn_id=turn.id,
        content=_content(item.get("content"), turn),
        event_time=_event_time(item.get("event_time"), window.session),
        participants=_names(item, "participants", window),
        location=_optional_name(item.get("location"), window, "location"),
        entities=_names(item, "entities", window),
        topic=_topic(item.get("topic")),
    )


def _turn_id(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # ids that look like numbers may come back as numbers
    raise TypeError(f"turn_id must be a string, got {value!r}")


def _content(value: Any, turn: Turn) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"turn {turn.id!r}: content must be a non-empty string")
    content = " ".join(value.split())
    limit = MAX_CONTENT_FACTOR * len(turn.full_text) + MAX_CONTENT_SLACK
    if len(content) > limit:
        raise ValueError(
            f"turn {turn.id!r}: content of {len(content)} characters for a turn of "
            f"{len(turn.full_text)} (limit {limit})"
        )
    if not _appears(turn.speaker, content):
        raise ValueError(f"turn {turn.id!r}: content does not name the speaker {turn.speaker!r}")
    return content


def _event_time(value: Any, session: Session) -> TimeSpan | None:
    """``{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}`` (inclusive) as whole days, or None."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"event_time must be an object with start and end, or null; got {value!r}")
    first, last = _iso_date(value.get("start"), "start"), _iso_date(value.get("end"), "end")
    if last < first:
        raise ValueError(f"event_time ends ({last}) before it starts ({first})")
    tz = session.start.tzinfo
    span = TimeSpan(TimeSpan.day(first, tz).start, TimeSpan.day(last, tz).end)
    span_of_session = session.span
    earliest = span_of_session.start - EARLIEST_EVENT
    latest = span_of_session.end + LATEST_EVENT
    if span.start < earliest or span.end > latest:
        raise ValueError(
            f"event_time {first}..{last} lies outside the plausible window "
            f"{earliest.date()}..{latest.date()} around the session"
        )
    return span


def _iso_date(value: Any, field: str) -> date:
    if not isinstance(value, str):
        raise TypeError(f"event_time.{field} must be a 'YYYY-MM-DD' string, got {value!r}")
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError as exc:
        raise ValueError(f"event_time.{field} {value!r} is not a 'YYYY-MM-DD' date") from exc


def _names(item: Mapping[str, Any], key: str, window: Window) -> tuple[str, ...]:
    """A list of names, each checked with :func:`_name`, without repeats."""
    value = item.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{key} must be a list of strings, got {value!r}")
    names = (" ".join(v.split()) for v in value)
    return tuple(dict.fromkeys(_name(n, window, key) for n in names if n))


def _name(value: str, window: Window, kind: str) -> str:
    """A name that is a speaker (returned in the speaker's spelling) or written in the text."""
    if len(value) > MAX_FIELD_CHARS:
        raise ValueError(f"{kind} {value[:40]!r}... is longer than {MAX_FIELD_CHARS} characters")
    for speaker in window.speakers:
        if value.casefold() == speaker.casefold():
            return speaker
    if not _appears(value, window.shown_text) and not _appears(
        value.removeprefix("the ").removeprefix("The "), window.shown_text
    ):
        raise ValueError(
            f"{kind}: {value!r} is neither a conversation speaker nor written in the turns"
        )
    return value


def _optional_name(value: Any, window: Window, kind: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{kind} must be a string or null, got {value!r}")
    value = " ".join(value.split())
    return _name(value, window, kind) if value else None


def _topic(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"topic must be a string or null, got {value!r}")
    topic = " ".join(value.split())
    if len(topic) > MAX_FIELD_CHARS:
        raise ValueError(f"topic of {len(topic)} characters (limit {MAX_FIELD_CHARS})")
    return topic or None


def _appears(name: str, text: str) -> bool:
    """True when ``name`` occurs in ``text`` as whole words, ignoring case and spacing."""
    words = name.casefold().split()
    if not words:
        return False
    pattern = r"\s+".join(re.escape(w) for w in words)
    return re.search(rf"(?<!\w){pattern}(?!\w)", text.casefold()) is not None


# ------------------------------------------------------------------------------ small parts


def _turn_json(turn: Turn) -> dict[str, str]:
    item = {"speaker": turn.speaker, "text": turn.full_text}
    if turn.time is not None:
        item["time"] = turn.time.isoformat()
    return item


def _written_out(moment: datetime) -> str:
    """'Monday 8 May 2023, 13:56', so the model need not work out the weekday."""
    return f"{moment:%A} {moment.day} {moment:%B} {moment.year}, {moment:%H:%M}"
