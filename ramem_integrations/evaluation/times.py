"""``ramem eval times FILE``: how well chat messages and questions are dated.

A file of chats (``messages``: ``id``, ``chat``, ``group``, ``sent``, ``speaker``, ``text``,
``gold``, and ``corrects`` on a correcting message) and ``questions`` (``id``, ``asked``,
``text``, ``gold``). Each chat is read as one conversation by the write path the package uses
(:class:`~.anchoring.RuleAnchorer`, then :func:`~.corrections.corrected`), each message sent at
its own time; each question is read by :class:`~.frames.RuleFrameInducer` against its own
time. A message or question is right when the days it is grounded to (a memory's own event
time; a question's first time condition) are gold's ``start`` to ``end`` (inclusive), or, for a
null gold, when nothing is grounded; a span shorter than a day ("tonight", "at 1am") counts
as the day it starts. A correcting message is also checked for its link to the
message it corrects. A chat whose id ends in ``-us``, or is listed in the file's
``conventions["us_chat_ids"]``, is an American user's: its numeric dates are read month first
(``RuleAnchorer(date_order="MDY")``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.time.corrections import corrected
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError

__all__ = ["score_times", "times_table"]


def _moment(text: str, where: str) -> datetime:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"{where}: {text!r} is no date and time; write it as YYYY-MM-DDTHH:MM."
        ) from exc


def _days(span: TimeSpan | None) -> tuple[str, str] | None:
    if span is None:
        return None
    if span.end - span.start < timedelta(days=1):  # 'tonight', 'at 1am': the day it starts
        return span.start.date().isoformat(), span.start.date().isoformat()
    last: date = (span.end - timedelta(microseconds=1)).date()
    return span.start.date().isoformat(), last.isoformat()


def _gold(item: Mapping[str, Any]) -> tuple[str, str] | None:
    gold = item.get("gold")
    return None if gold is None else (gold["start"], gold["end"])


def _chat_units(
    messages: Sequence[Mapping[str, Any]], american: bool = False
) -> tuple[list[MemoryUnit], list[MemoryUnit]]:
    """One chat through the write path: its units as anchored, and after corrections; an
    ``american`` chat's numeric dates month first."""
    turns = tuple(
        Turn(m["id"], m["speaker"], m["text"], _moment(m["sent"], m["id"])) for m in messages
    )
    times = [t.time for t in turns if t.time is not None]
    session = Session(f"{messages[0]['chat']}-s1", min(times), turns)
    conversation = Conversation(messages[0]["chat"], (session,))
    units = RuleAnchorer(date_order="MDY" if american else "DMY").anchor(conversation, "times")
    return units, corrected(units)


def _message_span(unit: MemoryUnit, message: Mapping[str, Any]) -> TimeSpan | None:
    """The time a unit gives one of its messages: the unit's event time when it holds that
    message only, else the first time said in that message."""
    if unit.source_ids == (message["id"],):
        return unit.context.event_time
    mentions = [m for m in unit.context.mention_times if m.text in message["text"]]
    return mentions[0].span if mentions else None


def score_times(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every message and question of ``data`` read and compared with its gold."""
    try:
        messages, questions = list(data["messages"]), list(data.get("questions", []))
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(
            "a times file holds 'messages' (and optionally 'questions'); see "
            "ramem_integrations/evaluation/times.py for their fields."
        ) from exc
    chats: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for message in messages:
        chats[message["chat"]].append(message)
    rows = []
    listed = set(data.get("conventions", {}).get("us_chat_ids", ()))
    for name, chat in chats.items():
        units, fixed = _chat_units(chat, name in listed or name.endswith("-us"))
        by_turn = {tid: i for i, u in enumerate(units) for tid in u.source_ids}
        for message in chat:
            at = by_turn[message["id"]]
            # a message's own reading; a correcting one's as the correction read it
            unit = fixed[at] if fixed[at].corrects else units[at]
            got = _days(_message_span(unit, message))
            row = {
                "id": message["id"],
                "group": message["group"],
                "text": message["text"],
                "gold": _gold(message),
                "got": got,
                "right": got == _gold(message),
            }
            if message.get("corrects"):
                target = fixed[by_turn[message["corrects"]]].id
                row["linked"] = target in fixed[at].corrects
            rows.append(row)
    inducer = RuleFrameInducer()
    for question in questions:
        asked = _moment(question["asked"], question["id"])
        frame = inducer.induce(question["text"], reference=asked, known=KnownContext())
        spans = [c.span for c in frame.conditions if c.kind == "time" and c.span is not None]
        got = _days(spans[0]) if spans else None
        rows.append(
            {
                "id": question["id"],
                "group": "question",
                "text": question["text"],
                "gold": _gold(question),
                "got": got,
                "right": got == _gold(question),
            }
        )
    return {"rows": rows, "groups": _groups(rows)}


def _groups(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    groups: dict[str, dict[str, int]] = defaultdict(lambda: {"right": 0, "total": 0})
    for row in rows:
        for name in (row["group"], "messages" if row["group"] != "question" else "questions"):
            groups[name]["right"] += row["right"]
            groups[name]["total"] += 1
        if "linked" in row:
            groups["correction links"]["right"] += row["linked"]
            groups["correction links"]["total"] += 1
    return dict(groups)


def times_table(result: Mapping[str, Any]) -> str:
    """The per-group figures, and each wrong row, as text for the terminal."""
    lines = ["group                right / total"]
    order = sorted(result["groups"], key=lambda g: (g in ("messages", "questions"), g))
    for name in order:
        cell = result["groups"][name]
        lines.append(f"  {name:<18} {cell['right']:>3} / {cell['total']}")
    wrong = [r for r in result["rows"] if not r["right"] or r.get("linked") is False]
    if wrong:
        lines.append("wrong:")
        lines += [
            f"  {r['id']:<12} {r['text']!r}: got {r['got']}, gold {r['gold']}"
            + (" (correction not linked)" if r.get("linked") is False else "")
            for r in wrong
        ]
    return "\n".join(lines)


def run_times(path: Path, out: Path | None) -> str:
    """Score the file at ``path``; write the JSON to ``out`` when given; return the table."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read {path} as JSON: {exc}") from exc
    result = score_times(data)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return times_table(result)
