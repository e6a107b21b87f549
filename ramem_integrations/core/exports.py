"""Messaging-app exports: WhatsApp's text export and Telegram's JSON export.

Both are streams of timed messages between people. They are read here into OpenAI-style
messages (``{"conversation_id", "messages": [{"role", "name", "content", "timestamp", "id"}]}``)
that :func:`~ramem_integrations.core.conversation.load_conversations` turns into sessions as
for any messages file: a silence of more than ``SESSION_GAP`` starts a new one. Ids are stable
across exports of the same chat (a later export with more messages adds them and changes
nothing stored): a Telegram turn is its message id, a WhatsApp turn its time (with a count when
several messages share it), and the conversation is named by the chat (Telegram's chat id;
WhatsApp's participants). Text is kept as exported, except the invisible direction marks
WhatsApp puts before some lines and what the app writes itself (:mod:`.lexicon.exports`).

>>> export = "[14/03/2024, 22:48:19] Bea: ugh\\n[14/03/2024, 22:49:02] Marcus: what happened"
>>> chat = whatsapp_messages(export)
>>> chat["conversation_id"], [(m["id"], m["name"], m["content"]) for m in chat["messages"]]
... # doctest: +NORMALIZE_WHITESPACE
('whatsapp-bea-marcus', [('2024-03-14T22:48:19', 'Bea', 'ugh'),
                         ('2024-03-14T22:49:02', 'Marcus', 'what happened')])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from itertools import pairwise
from typing import Any

from ramem_integrations.core.lexicon.exports import MARKS as _MARKS
from ramem_integrations.core.lexicon.exports import SYSTEM_LINES, SystemLines
from ramem_integrations.errors import DataFormatError

__all__ = ["looks_like_whatsapp", "telegram_chats", "whatsapp_messages"]

#: A chat as OpenAI-style messages: {"conversation_id": ..., "messages": [...]}.
Chat = dict[str, Any]

#: One message's first line in a WhatsApp export, from any phone and locale:
#: "[14/03/2024, 22:48:19] Bea: ugh" (iPhone), "14/03/2024, 22:48 - Bea: ugh" (Android),
#: "3/14/24, 10:48 PM - Bea: ugh" (US), "14.03.24, 22:48 - Bea: ugh".
WHATSAPP_LINE = re.compile(
    r"\[?(?P<a>\d{1,4})[./-](?P<b>\d{1,2})[./-](?P<c>\d{2,4}),? "
    r"(?P<hour>\d{1,2})[:.](?P<minute>\d{2})(?:[:.](?P<second>\d{2}))?"
    r"(?:[\s\u202f]*(?P<half>[AaPp])\.?[Mm]\.?)?\]?(?: -|:)? (?P<rest>.*)"
)
#: Telegram text pieces: a string, or an entity {"type": ..., "text": ...}.
_TEXT_PIECE = (str, Mapping)


@dataclass(frozen=True, slots=True)
class _Line:
    """A WhatsApp message's header: its date numbers, clock and the rest of the line."""

    date: tuple[int, int, int]
    clock: tuple[int, int, int]
    rest: str
    number: int


def looks_like_whatsapp(text: str) -> bool:
    """Whether the first non-empty line of ``text`` is a WhatsApp message header."""
    first = next((line for line in text.splitlines() if line.strip(_MARKS + " \t")), "")
    return WHATSAPP_LINE.fullmatch(first.strip(_MARKS)) is not None


def whatsapp_messages(
    text: str, tz: tzinfo = UTC, name: str = "the export", system: SystemLines = SYSTEM_LINES
) -> Chat:
    """A WhatsApp "Export chat" text file (with or without media) as one chat of messages.

    Lines that do not start a message continue the one before (a message of several lines).
    Lines without a speaker ("Bea changed the group name") and the app's lines written under
    a person's name (a deleted message, "image omitted", a call, a new phone number: the table
    ``system``) are not stored; an edited message keeps its words without the marker and is
    marked ``edited``. Whether dates are day/month or
    month/day is read from the file: a number above 12, else the order under which the
    messages are in time order (the shorter chat if both are).
    """
    lines = _whatsapp_lines(text, name)
    dated = _dates(lines, name)
    messages: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for line, day in zip(lines, dated, strict=True):
        speaker, sep, said = line.rest.partition(": ")
        words, edited = system.words(said.lstrip(_MARKS))
        if not sep or not speaker.strip() or not words.strip():
            continue
        when = datetime(*day, *line.clock, tzinfo=tz)
        stamp = when.replace(tzinfo=None).isoformat(timespec="seconds")
        seen[stamp] += 1
        turn_id = stamp if seen[stamp] == 1 else f"{stamp}#{seen[stamp]}"
        messages.append(_message(turn_id, speaker.strip(_MARKS + " "), words, when, edited))
    if not messages:
        raise DataFormatError(
            f"{name}: no message with a speaker. A WhatsApp export has lines like "
            "'[14/03/2024, 22:48:19] Bea: ugh'."
        )
    return {"conversation_id": _chat_id("whatsapp", messages), "messages": messages}


def _message(turn_id: str, speaker: str, text: str, when: datetime, edited: bool) -> dict[str, Any]:
    """One message; ``edited`` when the app says its sender changed it after sending."""
    said = {"role": "user", "name": speaker, "content": text, "timestamp": when, "id": turn_id}
    return {**said, "edited": True} if edited else said


def _whatsapp_lines(text: str, name: str) -> list[_Line]:
    """Each message's header, with its continuation lines joined to its text."""
    lines: list[_Line] = []
    for number, raw in enumerate(text.splitlines(), 1):
        match = WHATSAPP_LINE.fullmatch(raw.lstrip(_MARKS))
        if match is None:
            if not lines:
                if not raw.strip(_MARKS + " \t"):
                    continue
                raise DataFormatError(
                    f"{name} line {number}: {raw[:60]!r} does not start a WhatsApp message. "
                    "Give the file as WhatsApp exported it (lines like "
                    "'[14/03/2024, 22:48:19] Bea: ugh')."
                )
            last = lines[-1]
            lines[-1] = _Line(last.date, last.clock, f"{last.rest}\n{raw}", last.number)
            continue
        lines.append(_header(match, number, name))
    return lines


def _header(match: re.Match[str], number: int, name: str) -> _Line:
    hour, minute = int(match["hour"]), int(match["minute"])
    second = int(match["second"] or 0)
    if match["half"]:
        if not 1 <= hour <= 12:
            raise DataFormatError(f"{name} line {number}: the hour {hour} is not 1-12.")
        hour = hour % 12 + (12 if match["half"].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        raise DataFormatError(f"{name} line {number}: the time {hour}:{minute:02d} is impossible.")
    date = (int(match["a"]), int(match["b"]), int(match["c"]))
    rest = match["rest"].lstrip(_MARKS)
    return _Line(date, (hour, minute, second), rest, number)


def _dates(lines: Sequence[_Line], name: str) -> list[tuple[int, int, int]]:
    """(year, month, day) of each line, the day/month order read from the whole file."""
    if not lines:
        return []
    if all(len(str(line.date[0])) == 4 for line in lines):  # 2024-03-14
        orders = [(0, 1, 2)]
    else:
        orders = [(2, 1, 0), (2, 0, 1)]  # day/month/year, month/day/year
    readings = []
    for order in orders:
        days = [_ymd(line.date, order) for line in lines]
        if None not in days:
            readings.append(days)
    if not readings:
        bad = next(line for line in lines if all(_ymd(line.date, o) is None for o in orders))
        raise DataFormatError(
            f"{name} line {bad.number}: the date {'/'.join(map(str, bad.date))} is impossible "
            "in any order."
        )
    ordered = [days for days in readings if _in_time_order(days, lines)]
    if not ordered:
        raise DataFormatError(
            f"{name}: the messages are not in time order under any reading of the dates "
            "(day/month or month/day). Give the file as WhatsApp exported it."
        )
    return min(ordered, key=lambda days: _span(days))  # type: ignore[arg-type]


def _ymd(numbers: tuple[int, int, int], order: tuple[int, int, int]) -> tuple[int, int, int] | None:
    year, month, day = (numbers[i] for i in order)
    year += 2000 if year < 100 else 0
    try:
        datetime(year, month, day)
    except ValueError:
        return None
    return year, month, day


def _in_time_order(days: Sequence[tuple[int, int, int] | None], lines: Sequence[_Line]) -> bool:
    stamps = [(day, line.clock) for day, line in zip(days, lines, strict=True)]
    return all(a <= b for a, b in pairwise(stamps))


def _span(days: Sequence[tuple[int, int, int]]) -> timedelta:
    return datetime(*days[-1]) - datetime(*days[0])


def telegram_chats(data: Any, tz: tzinfo = UTC, system: SystemLines = SYSTEM_LINES) -> list[Chat]:
    """A Telegram Desktop export (``result.json``): one chat, or every chat of a full export.

    Service messages (joins, calls, pins: ``system.telegram_events``) and messages without
    text (a photo or sticker with no caption) are not stored; an edited message (one with an
    ``edited`` date) is marked ``edited``. A message's time is its local ``date`` with the
    offset that ``date_unixtime`` gives, so "yesterday" at 00:30 means the day the sender lived.
    """
    if isinstance(data, Mapping) and isinstance(data.get("chats"), Mapping):
        chats = data["chats"].get("list")
        if not isinstance(chats, list):
            raise DataFormatError("'chats' should hold a 'list' of chats.")
        return [
            c for i, chat in enumerate(chats) for c in _telegram_chat(chat, f"chat {i}", tz, system)
        ]
    return _telegram_chat(data, "the chat", tz, system)


def _telegram_chat(chat: Any, where: str, tz: tzinfo, system: SystemLines) -> list[Chat]:
    if not isinstance(chat, Mapping) or not isinstance(chat.get("messages"), list):
        raise DataFormatError(f"{where}: expected a Telegram chat with a 'messages' list.")
    messages = []
    for index, raw in enumerate(chat["messages"]):
        mwhere = f"{where} message {index}"
        if not isinstance(raw, Mapping):
            raise DataFormatError(f"{mwhere}: expected a JSON object.")
        if raw.get("type", "message") in system.telegram_events:
            continue
        text = _telegram_text(raw.get("text", ""), mwhere)
        speaker = raw.get("from")
        if not text.strip() or not isinstance(speaker, str) or not speaker.strip():
            continue  # a photo or sticker without words, or a deleted account
        own_id = raw.get("id")
        if not isinstance(own_id, int | str) or isinstance(own_id, bool) or not str(own_id):
            raise DataFormatError(f"{mwhere}: the message has no 'id'.")
        when = _telegram_time(raw, mwhere, tz)
        edited = bool(raw.get("edited") or raw.get("edited_unixtime"))
        messages.append(_message(str(own_id), speaker.strip(), text, when, edited))
    if not messages:
        raise DataFormatError(f"{where}: no message with text and a sender.")
    own = chat.get("id")
    conv_id = f"telegram-{own}" if isinstance(own, int | str) and str(own) else None
    return [{"conversation_id": conv_id or _chat_id("telegram", messages), "messages": messages}]


def _telegram_text(value: Any, where: str) -> str:
    """A message's text: a string, or a list of strings and entities, joined as written."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not all(isinstance(p, _TEXT_PIECE) for p in value):
        raise DataFormatError(f"{where}: 'text' should be a string or a list of pieces.")
    pieces = [p if isinstance(p, str) else p.get("text", "") for p in value]
    if not all(isinstance(p, str) for p in pieces):
        raise DataFormatError(f"{where}: a piece of 'text' has a 'text' that is not a string.")
    return "".join(pieces)


def _telegram_time(raw: Mapping[str, Any], where: str, tz: tzinfo) -> datetime:
    if "date" not in raw:
        raise DataFormatError(f"{where}: the message has no 'date'.")
    epoch = raw.get("date_unixtime")
    if epoch is None:
        return _parse_time(raw["date"], where, tz)
    wall = _parse_time(raw["date"], where, UTC).replace(tzinfo=None)
    try:
        exact = datetime.fromtimestamp(int(epoch), UTC).replace(tzinfo=None)
    except (TypeError, ValueError, OverflowError, OSError) as exc:
        raise DataFormatError(f"{where}: 'date_unixtime' {epoch!r} is not epoch seconds.") from exc
    offset = wall - exact
    if abs(offset) > timedelta(hours=14):
        raise DataFormatError(f"{where}: 'date' and 'date_unixtime' are more than 14 hours apart.")
    return wall.replace(tzinfo=timezone(offset))


def _parse_time(value: Any, where: str, tz: tzinfo) -> datetime:
    """Telegram's ISO ``date`` ('2024-03-15T00:13:02'), read in ``tz`` when it has no zone."""
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise DataFormatError(
            f"{where}: cannot read the date {value!r}; Telegram writes '2024-03-15T00:13:02'."
        )
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def _chat_id(app: str, messages: Sequence[Mapping[str, Any]]) -> str:
    """``app`` and the chat's participants, e.g. 'whatsapp-bea-marcus'."""
    names = sorted({m["name"] for m in messages}, key=str.lower)
    slug = "-".join(re.sub(r"[^\w]+", "-", n.lower()).strip("-") or "x" for n in names)
    return f"{app}-{slug}"
