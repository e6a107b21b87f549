"""Recall-condition induction with a language model (stage 2), checked against what is known.

:class:`LLMFrameInducer` asks a model for the question's frame as JSON (:data:`FRAME_SCHEMA`) and
checks every condition before it may steer retrieval:

- a time must be written in the question, with readable ``start`` / ``end`` dates, inside the
  conversation's dates widened by the rule inducer's margins (5 years before, 1 year after, by
  default); otherwise it is kept ungrounded with the reason (unreadable dates fall back to the
  rules' grounding of the expression when it has one);
- a participant, place or entity must be one the namespace knows (a first name or a short form
  of a participant counts); otherwise it is kept ungrounded;
- a relation must be ``before``, ``after``, ``first`` or ``last``; one anchored on a time
  ("after May 2023") becomes a time range, one anchored on an event stays ungrounded for the
  retriever to resolve;
- ``recency`` true is a grounded recency condition.

A reply that is not that JSON at all (invalid JSON, a timeout, an HTTP error, a wrong type where
the schema fixes one) makes the whole question fall back to the rule inducer, with a
:class:`~ramem_integrations.models.llm.RamemFallbackWarning`. ``induce`` never raises for a
model failure.

This lives outside ``core`` because it needs the ``openai``-backed client module.

Usage::

    from ramem_integrations.models.llm import LLMClient, LLMConfig
    from ramem_integrations.models.llm_frames import LLMFrameInducer

    inducer = LLMFrameInducer(LLMClient(LLMConfig(model="gpt-4o-mini")))
    frame = inducer.induce(question, reference=reference, known=known)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from ramem_integrations.core.frames import (
    KnownContext,
    RuleFrameInducer,
    asks_for_several,
    asks_for_time,
    check_time,
    known_name,
    open_range,
)
from ramem_integrations.core.time.grounding import Conventions, ground_time
from ramem_integrations.core.types import Condition, ConditionKind, RecallFrame, TimeSpan
from ramem_integrations.models.llm import LLM, with_fallback

__all__ = ["FRAME_SCHEMA", "LLMFrameInducer", "read_frame"]

RELATIONS = ("before", "after", "first", "last")
_NULLABLE_STRING = {"type": ["string", "null"]}
FRAME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "need": {"type": "string"},
        "time": {
            "type": ["object", "null"],
            "properties": {
                "expression": {"type": "string"},
                "start": {"type": "string", "description": "first day, YYYY-MM-DD"},
                "end": {"type": "string", "description": "last day (inclusive), YYYY-MM-DD"},
            },
        },
        "participants": {"type": "array", "items": {"type": "string"}},
        "location": _NULLABLE_STRING,
        "entities": {"type": "array", "items": {"type": "string"}},
        "relation": {
            "type": ["object", "null"],
            "properties": {"type": {"enum": list(RELATIONS)}, "anchor": _NULLABLE_STRING},
        },
        "recency": {"type": "boolean"},
    },
    "required": ["need"],
}

SYSTEM_PROMPT = """\
You read a question put to a memory of past conversations. Return JSON with:
- need: what is asked, without the time, relation and recency words;
- time: the time the question names, {{expression: its exact words, start, end: first and last \
day YYYY-MM-DD}}, read as said on {reference}; null if the question names no time. A question \
asking WHEN something happened names no time by that;
- participants: people named in the question;
- location: a place named, or null;
- entities: other named things;
- relation: {{type: before|after|first|last, anchor: the other event or time}} for "after the \
trip", "before May", "the first time"; else null;
- recency: true if the question asks about the current state ("now", "still", "these days").
Known people: {people}. Known places: {places}. The conversations run {dates}.\
"""


class LLMFrameInducer:
    """Frame induction by a model, validated, falling back to the rules.

    Args:
        llm: any :class:`~ramem_integrations.models.llm.LLM` (an ``LLMClient``, or a fake in tests).
        fallback: the rule inducer used when the reply is unusable; its margins also bound the
            dates accepted from the model, its conventions (hemisphere, date order) read the
            times the model names. A default ``RuleFrameInducer()`` when None.
    """

    def __init__(self, llm: LLM, *, fallback: RuleFrameInducer | None = None) -> None:
        self.llm = llm
        self.fallback = fallback or RuleFrameInducer()

    def induce(self, query: str, *, reference: datetime, known: KnownContext) -> RecallFrame:
        rules = self.fallback
        window = known.window(reference, rules.past_margin, rules.future_margin)

        def ask() -> RecallFrame:
            return self.llm.complete_json(
                system_prompt(reference, known),
                query,
                lambda reply: read_frame(
                    reply, query, reference, known, window, conventions=rules.conventions
                ),
                schema=FRAME_SCHEMA,
            )

        def by_rules() -> RecallFrame:
            return rules.induce(query, reference=reference, known=known)

        return with_fallback(ask, by_rules, "Frame induction")


def system_prompt(reference: datetime, known: KnownContext) -> str:
    dates = known.date_range.label() if known.date_range else "at unknown dates"
    return SYSTEM_PROMPT.format(
        reference=f"{reference:%A} {reference.date().isoformat()}",
        people=", ".join(known.participants) or "none",
        places=", ".join(known.places) or "none",
        dates=dates,
    )


# ------------------------------------------------------------------------- reading the reply


def read_frame(
    reply: Any,
    query: str,
    reference: datetime,
    known: KnownContext,
    window: TimeSpan,
    *,
    conventions: Conventions | None = None,
) -> RecallFrame:
    """The model's reply as a checked frame; times the model names but gives no readable
    dates for are grounded by the rules, with ``conventions`` (the defaults when None).

    Raises:
        ValueError: the reply breaks the schema (not an object, a field of the wrong type).
    """
    obj = _object(reply, "the reply")
    need = _typed(obj, "need", str, required=True)
    conditions = [
        *_time(obj, query, reference, known, window, conventions),
        *_names(obj, known),
        *_relation(obj, query, reference, known, window, conventions),
        *_recency(obj, query),
    ]
    return RecallFrame(
        query=query,
        need=need.strip() or query,
        conditions=tuple(conditions),
        reference=reference,
        asks_time=asks_for_time(query),
        asks_several=asks_for_several(query),
    )


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {json.dumps(value)[:80]}")
    return value


def _typed(obj: Mapping[str, Any], key: str, kind: type, *, required: bool = False) -> Any:
    """``obj[key]`` if it has type ``kind``; None when absent or null and not required."""
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{key!r} must be a {kind.__name__}, got {value!r}")
    return value


def _strings(obj: Mapping[str, Any], key: str) -> list[str]:
    values = _typed(obj, key, list) or []
    if not all(isinstance(v, str) for v in values):
        raise ValueError(f"{key!r} must be a list of strings, got {values!r}")
    return [v.strip() for v in values if v.strip()]


def _time(
    obj: Mapping[str, Any],
    query: str,
    reference: datetime,
    known: KnownContext,
    window: TimeSpan,
    conventions: Conventions | None,
) -> list[Condition]:
    raw = _typed(obj, "time", dict)
    if raw is None:
        return []
    expression = str(raw.get("expression") or "").strip()
    if not _in_question(expression, query):
        reason = f"the question does not say {expression!r}: a time the model added"
        return [Condition("time", expression, expression, False, None, reason)]
    span = _model_span(raw.get("start"), raw.get("end"), reference)
    reason = "dates from the model"
    if span is None:
        span = ground_time(expression, reference, conventions=conventions)
        reason = "the model's dates were unreadable; grounded by the rules"
    if span is None:
        reason = f"unreadable dates {raw.get('start')!r} to {raw.get('end')!r}"
        return [Condition("time", expression, expression, False, None, reason)]
    cond = Condition("time", span.label(), expression, True, span, reason)
    return [check_time(cond, window, known)]


def _in_question(words: str, query: str) -> bool:
    def fold(text: str) -> str:
        return " ".join(re.findall(r"\w+", text.casefold()))

    return bool(words.strip()) and f" {fold(words)} " in f" {fold(query)} "


def _model_span(start: Any, end: Any, reference: datetime) -> TimeSpan | None:
    """``[start day, day after end)`` from two ISO dates (or datetimes); None if unreadable."""
    first, last = _moment(start, reference), _moment(end, reference)
    if first is None or last is None:
        return None
    if last.time() == time(0) and last.tzinfo == first.tzinfo:
        last += timedelta(days=1)  # the last day is inclusive
    return TimeSpan(first, last) if first < last else None


def _moment(value: Any, reference: datetime) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        try:
            day = date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
        moment = datetime(day.year, day.month, day.day)
    return moment if moment.tzinfo else moment.replace(tzinfo=reference.tzinfo)


def _names(obj: Mapping[str, Any], known: KnownContext) -> list[Condition]:
    location = _typed(obj, "location", str)
    place: list[tuple[ConditionKind, str]] = (
        [("location", location.strip())] if location and location.strip() else []
    )
    named: list[tuple[ConditionKind, str]] = [
        *(("participant", n) for n in _strings(obj, "participants")),
        *place,
        *(("entity", n) for n in _strings(obj, "entities")),
    ]
    conditions, seen = [], set()
    for kind, name in named:
        found = known_name(name, known)
        if found is None:
            reason = f"the namespace has never seen {name!r}"
            cond = Condition(kind, name, name, False, None, reason)
        else:
            cond = Condition(found[0], found[1], name, True, None, f"known {found[0]}")
        if (cond.kind, cond.value) not in seen:
            seen.add((cond.kind, cond.value))
            conditions.append(cond)
    return conditions


def _relation(
    obj: Mapping[str, Any],
    query: str,
    reference: datetime,
    known: KnownContext,
    window: TimeSpan,
    conventions: Conventions | None,
) -> list[Condition]:
    raw = _typed(obj, "relation", dict)
    if raw is None:
        return []
    kind = str(raw.get("type") or "").strip().lower()
    anchor = str(raw.get("anchor") or "").strip() or None
    evidence = f"{kind} {anchor or ''}".strip()
    if kind not in RELATIONS:
        reason = f"unknown relation {kind!r}; expected one of {', '.join(RELATIONS)}"
        return [Condition("relation", kind, evidence, False, None, reason, anchor=anchor)]
    moment = None
    if anchor and _in_question(anchor, query):
        moment = ground_time(anchor, reference, conventions=conventions)
    if moment is not None and kind in ("before", "after"):
        return [check_time(open_range(evidence, kind, moment, window), window, known)]
    reason = "needs the anchor event's time: the retriever finds it among the memories (stage 3)"
    return [Condition("relation", kind, evidence, False, None, reason, anchor=anchor)]


def _recency(obj: Mapping[str, Any], query: str) -> list[Condition]:
    if not _typed(obj, "recency", bool):
        return []
    reason = "the model read the question as asking for the current state"
    return [Condition("recency", "latest", query, True, None, reason)]
