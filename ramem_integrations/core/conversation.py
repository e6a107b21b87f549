"""Conversations, sessions and turns, and loaders for LoCoMo, LongMemEval and chat files.

Chat files come as sessions of turns (``chat``) or as OpenAI-style messages (``messages``), in
JSON or JSONL (docs/chat-format.md), or as a messaging app exported them (``whatsapp``,
``telegram``: ``core/exports.py``). Every loader validates the whole file before returning
anything, so a bad file raises a :class:`DataFormatError` that names the place and the fix, and
nothing is half-ingested. Dates without a timezone are read in ``tz`` (UTC by default).
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from dateutil import parser as date_parser

from ramem_integrations.core.exports import looks_like_whatsapp, telegram_chats, whatsapp_messages
from ramem_integrations.core.jsondata import parse_json, read_text
from ramem_integrations.core.limits import DEFAULT_LIMITS, Limits, check_unicode
from ramem_integrations.core.time import zones
from ramem_integrations.core.time.grounding import REFERENCE_YEARS
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import DataFormatError, InvalidTimeError

#: How long a session is taken to last when only its start is known.
DEFAULT_SESSION_LENGTH = timedelta(hours=1)
#: Messages further apart than this start a new session (``messages`` format).
SESSION_GAP = timedelta(hours=4)
FORMATS = ("locomo", "longmemeval", "chat", "messages", "whatsapp", "telegram")
#: What each format looks like, for the error that names them.
FORMAT_SHAPES = {
    "locomo": "a list of LoCoMo samples (with 'conversation')",
    "longmemeval": "a list of LongMemEval items (with 'haystack_sessions')",
    "chat": "a list of sessions (with 'session_time' and 'turns'), or {'sessions': [...]}",
    "messages": "OpenAI-style messages ({'role', 'content'[, 'name', 'timestamp']}) as a "
    "list, as {'messages': [...]} or as JSONL, one message a line",
    "whatsapp": "WhatsApp's 'Export chat' text, lines like '[14/03/2024, 22:48:19] Bea: ugh'",
    "telegram": "Telegram Desktop's JSON export (result.json: 'messages' with 'from' and 'date')",
}
#: Keys a turn's or message's time may have (ISO text or epoch seconds).
TIME_KEYS = ("time", "timestamp", "created_at")
#: "UTC" or "GMT" written before an offset ("UTC+3", "GMT-05:00").
_NAMED_OFFSET = re.compile(r"\b(?:UTC|GMT)\s*(?=[+-]\d)", re.IGNORECASE)
#: Message roles that are not anyone's words (instructions, tool output): not stored.
SKIPPED_ROLES = frozenset({"system", "developer", "tool", "function"})


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance. ``image_caption`` describes an image shared with it, if any;
    ``asks_memory`` marks a question put to the memory (an agent's user asking it);
    ``edited`` a message its sender changed after sending (its text is the latest)."""

    id: str
    speaker: str
    text: str
    time: datetime | None = None
    image_caption: str | None = None
    asks_memory: bool = False
    edited: bool = False

    @property
    def full_text(self) -> str:
        """The text with the shared image described, as a memory should keep it."""
        if not self.image_caption:
            return self.text
        shared = f"[shares an image: {self.image_caption}]"
        return f"{self.text} {shared}".strip()


@dataclass(frozen=True, slots=True)
class Session:
    """A sitting of the conversation: its start, its turns, and its span."""

    id: str
    start: datetime
    turns: tuple[Turn, ...]
    end: datetime | None = None

    @property
    def span(self) -> TimeSpan:
        """``[start, end)``: the given end, else the last timed turn, else one hour after start.

        When every turn has its own time, the span runs from the first message to the last
        (a minute after it), whatever the session's date says: per-message times are exact.
        """
        if self.end is not None and self.end > self.start:
            return TimeSpan(self.start, self.end)
        stamped = [t.time for t in self.turns if t.time is not None]
        if stamped and len(stamped) == len(self.turns):
            return TimeSpan(min(stamped), max(stamped) + timedelta(minutes=1))
        times = [t.time for t in self.turns if t.time is not None and t.time > self.start]
        end = max(times) + timedelta(minutes=1) if times else self.start + DEFAULT_SESSION_LENGTH
        return TimeSpan(self.start, end)


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation between known speakers, as an ordered tuple of sessions."""

    id: str
    sessions: tuple[Session, ...]

    @property
    def speakers(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for session in self.sessions:
            seen.update((turn.speaker, None) for turn in session.turns)
        return tuple(seen)

    @property
    def date_range(self) -> TimeSpan:
        """From the first session's start to the last session's end."""
        spans = [s.span for s in self.sessions]
        return TimeSpan(min(s.start for s in spans), max(s.end for s in spans))


def parse_datetime(value: Any, where: str, tz: tzinfo = UTC) -> datetime:
    """Parse a date as written in the data ('1:56 pm on 8 May, 2023', '2023/05/08 (Mon) 13:56',
    '2023-05-08T13:56-08:00', '13:56 PST'), in ``tz`` when it names no zone.

    Every time a user writes (a turn's, a session's, ``--asked-on``) is read here. A zone
    abbreviation is read from ``TimeWords.zone_offsets`` (:mod:`.time.zones`) or refused, never
    dropped; the year must be one times can be grounded in (:data:`.temporal.REFERENCE_YEARS`).
    """
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        parsed = _from_epoch(value, where)
    elif isinstance(value, str) and value.strip():
        parsed = _parse_text(value, where)
    else:
        raise DataFormatError(
            f"{where}: a date is required but got {value!r}. Give every session a date, "
            "e.g. '2023-05-08 13:56'."
        )
    try:
        parsed.utcoffset()  # dateutil can build a zone of 24 hours or more; it breaks later
    except ValueError as exc:
        raise DataFormatError(f"{where}: the date {value!r} has an impossible timezone.") from exc
    return check_year(parsed if parsed.tzinfo else parsed.replace(tzinfo=tz), where)


def check_year(when: datetime, where: str) -> datetime:
    """``when`` if its year is one times can be grounded in (:data:`.temporal.REFERENCE_YEARS`),
    else :class:`InvalidTimeError` naming ``where`` and the range."""
    first, last = REFERENCE_YEARS
    if not first <= when.year <= last:
        raise InvalidTimeError(
            f"{where}: the time {when.isoformat()} is in the year {when.year}; times are read "
            f"in the years {first} to {last}. Check the date."
        )
    return when


def _parse_text(value: str, where: str) -> datetime:
    """A written date, read by dateutil with zone abbreviations from :func:`.zones.zone`."""
    text = value.replace(" on ", " ").strip()
    text = zones.unbracket(text)  # "(Mon)" dropped, "(PST)" read as "PST"
    # "UTC+3" means three hours east; dateutil reads it the POSIX way round (west): drop "UTC"
    text = _NAMED_OFFSET.sub("", text)
    try:
        parsed: datetime = date_parser.parse(text, default=datetime(2000, 1, 1), tzinfos=zones.zone)
    except InvalidTimeError as exc:
        raise InvalidTimeError(f"{where}: {exc}") from exc
    except (ValueError, OverflowError) as exc:
        raise DataFormatError(
            f"{where}: cannot read the date {value!r}. Write it like '2023-05-08 13:56' "
            "or '1:56 pm on 8 May, 2023'."
        ) from exc
    return parsed


def _from_epoch(value: float, where: str) -> datetime:
    if abs(value) > 1e11:
        raise DataFormatError(
            f"{where}: {value!r} is not epoch seconds (milliseconds?); divide it by 1000."
        )
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise DataFormatError(f"{where}: {value!r} is not a time in epoch seconds.") from exc


def load_conversations(
    path: str | Path,
    format: str | None = None,
    *,
    tz: tzinfo = UTC,
    conversation_id: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Conversation]:
    """Read a LoCoMo, LongMemEval or chat file (JSON or JSONL), or a WhatsApp or Telegram
    export; ``format`` is detected when omitted.

    A chat file's conversation id is ``conversation_id`` when given, else the file's own
    ``conversation_id`` field, else ``chat-`` and a digest of the file's content: two files
    never share ids by accident, and the same file always gets the same ones. The file, its
    JSON and every turn are held to ``limits`` (:class:`~.limits.Limits`).
    """
    path = Path(path)
    text = read_text(path, limits)
    fmt = format or ("whatsapp" if looks_like_whatsapp(text[:4096]) else None)
    if fmt == "whatsapp":
        conversations = read_whatsapp(text, tz, path.name)
    elif fmt is None or fmt in LOADERS:
        data = parse_json(text, str(path), limits)  # parsed once, also to detect the format
        fmt = fmt or detect_format(data, path.name)
        digest = "chat-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        conversations = LOADERS[fmt](data, tz, digest)
    else:
        raise DataFormatError(f"Unknown format {fmt!r}. Use one of: {', '.join(FORMATS)}.")
    for conversation in conversations:
        check_conversation(conversation, limits)
    return _named(conversations, conversation_id, path)


def check_conversation(conversation: Conversation, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a turn longer than ``limits.message_chars``, a speaker or id longer than
    ``limits.name_chars``, any text or id that is not valid Unicode, or a time outside the
    years times are read in, naming the conversation, session, turn and field."""
    limits.check_name(conversation.id, "the conversation id")
    for session in conversation.sessions:
        limits.check_name(session.id, f"conversation {_short(conversation.id)} session id")
        where = f"conversation {_short(conversation.id)} session {_short(session.id)}"
        for when in (session.start, session.end):
            if isinstance(when, datetime):
                check_year(when, where)
        for turn in session.turns:
            limits.check_name(turn.id, f"{where}: a turn id")
            at = f"{where} turn {_short(turn.id)}"
            limits.check_name(turn.speaker, f"{at} speaker")
            check_unicode(turn.image_caption or "", at)
            limits.check_text(turn.full_text, at)
            if isinstance(turn.time, datetime):
                check_year(turn.time, at)


def _short(name: str) -> str:
    """A name for a message: quoted, cut to 60 characters."""
    return repr(name) if len(name) <= 60 else repr(name[:60]) + "..."


def _named(
    conversations: list[Conversation], conversation_id: str | None, path: Path
) -> list[Conversation]:
    """``conversations``, the one of them renamed ``conversation_id`` when it is given."""
    if conversation_id is None:
        return conversations
    if not isinstance(conversation_id, str) or not conversation_id.strip():
        raise DataFormatError(
            f"The conversation id must be a non-empty string, got {conversation_id!r}."
        )
    if len(conversations) != 1:
        raise DataFormatError(
            f"{path.name} holds {len(conversations)} conversations; a conversation id "
            "can name one only. Leave it out to use each one's own id."
        )
    return [Conversation(conversation_id, conversations[0].sessions)]


def file_format(text: str, path: Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """The format of a file's text: a WhatsApp text export, else by the shape of its JSON."""
    if looks_like_whatsapp(text[:4096]):
        return "whatsapp"
    return detect_format(parse_json(text, str(path), limits), path.name)


def detect_format(data: Any, name: str = "the data") -> str:
    """Guess the format from the shape of the data."""
    if isinstance(data, Mapping):
        if _is_telegram(data):
            return "telegram"
        if "messages" in data:
            return "messages"
        if "sessions" in data:
            return "chat"
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, Mapping):
        if "conversation" in first:
            return "locomo"
        if "haystack_sessions" in first:
            return "longmemeval"
        if "turns" in first:
            return "chat"
        if "role" in first and "content" in first:
            return "messages"
    shapes = "; ".join(f"{fmt}: {shape}" for fmt, shape in FORMAT_SHAPES.items())
    raise DataFormatError(
        f"Cannot tell the format of {name}. The formats read are {shapes}. Pass --format to "
        "say which (docs/chat-format.md)."
    )


def _is_telegram(data: Mapping[str, Any]) -> bool:
    """A Telegram export: a full one ('chats') or a chat whose messages have 'from'/'date'."""
    if isinstance(data.get("chats"), Mapping) and "list" in data["chats"]:
        return True
    messages = data.get("messages")
    first = messages[0] if isinstance(messages, list) and messages else None
    return isinstance(first, Mapping) and "date" in first and "role" not in first


def _require(mapping: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(mapping, Mapping):
        raise DataFormatError(f"{where}: expected a JSON object, got {type(mapping).__name__}.")
    if key not in mapping:
        raise DataFormatError(f"{where}: the field {key!r} is missing.")
    value = mapping[key]
    if not isinstance(value, kind):
        raise DataFormatError(
            f"{where}: {key!r} should be {_kind_name(kind)}, got {type(value).__name__}."
        )
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def _turn(raw: Any, turn_id: str, speaker_key: str, text_key: str, where: str, tz: tzinfo) -> Turn:
    speaker = _require(raw, speaker_key, str, where).strip()
    text = _require(raw, text_key, str, where)  # verbatim: the user's words are kept as given
    caption = raw.get("blip_caption")
    if caption is not None and not isinstance(caption, str):
        raise DataFormatError(f"{where}: 'blip_caption' should be a string.")
    if not speaker:
        raise DataFormatError(f"{where}: the speaker is empty; name who said it.")
    if not text.strip() and not caption:
        raise DataFormatError(f"{where}: the turn has no text; remove it or give it text.")
    stamp = next((raw[key] for key in TIME_KEYS if raw.get(key) is not None), None)
    time = parse_datetime(stamp, where, tz) if stamp is not None else None
    return Turn(id=turn_id, speaker=speaker, text=text, time=time, image_caption=caption or None)


def _load_locomo(data: Any, tz: tzinfo, default_id: str = "") -> list[Conversation]:
    conversations = []
    for index, sample in enumerate(_require_list(data, "LoCoMo file")):
        where = f"sample {index}"
        conv = _require(sample, "conversation", Mapping, where)
        sample_id = str(sample.get("sample_id", f"sample-{index}"))
        sessions = []
        for key in sorted(_session_keys(conv), key=lambda k: int(k.split("_")[1])):
            swhere = f"{sample_id} {key}"
            start = parse_datetime(conv.get(f"{key}_date_time"), f"{swhere} date", tz)
            turns = tuple(
                _turn(
                    raw,
                    str(_require(raw, "dia_id", str, swhere)),
                    "speaker",
                    "text",
                    f"{swhere} turn {i}",
                    tz,
                )
                for i, raw in enumerate(conv[key])
            )
            sessions.append(Session(id=key, start=start, turns=turns))
        conversations.append(_conversation(sample_id, sessions))
    return conversations


def _session_keys(conv: Mapping[str, Any]) -> list[str]:
    return [
        key
        for key, value in conv.items()
        if key.startswith("session_")
        and key.split("_")[1].isdigit()
        and key.count("_") == 1
        and isinstance(value, list)
        and value
    ]


def _load_longmemeval(data: Any, tz: tzinfo, default_id: str = "") -> list[Conversation]:
    conversations = []
    for index, item in enumerate(_require_list(data, "LongMemEval file")):
        where = f"item {index}"
        item_id = str(_require(item, "question_id", (str, int), where))
        sessions_raw = _listish(item, "haystack_sessions", where)
        dates = _listish(item, "haystack_dates", where)
        ids = _listish(item, "haystack_session_ids", where)
        if not len(sessions_raw) == len(dates) == len(ids):
            raise DataFormatError(
                f"{where}: haystack_sessions, haystack_dates and haystack_session_ids "
                f"have different lengths ({len(sessions_raw)}, {len(dates)}, {len(ids)})."
            )
        sessions = []
        for sid, date, turns_raw in zip(ids, dates, sessions_raw, strict=True):
            swhere = f"{item_id} session {sid}"
            turns = tuple(
                _turn(raw, f"{sid}:{j}", "role", "content", f"{swhere} turn {j}", tz)
                for j, raw in enumerate(_require_list(turns_raw, swhere))
                if isinstance(raw, Mapping) and str(raw.get("content", "")).strip()
            )
            if turns:
                sessions.append(Session(str(sid), parse_datetime(date, swhere, tz), turns))
        conversations.append(_conversation(item_id, sessions))
    return conversations


def _listish(item: Any, key: str, where: str) -> list[Any]:
    """A list field, also when stored as its Python/JSON text (as some derived files do)."""
    value = _require(item, key, (list, str), where)
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError) as exc:
            raise DataFormatError(f"{where}: {key!r} is text that is not a list.") from exc
    if not isinstance(value, list):
        raise DataFormatError(f"{where}: {key!r} should be a list.")
    return value


def _load_chat(data: Any, tz: tzinfo, default_id: str = "default") -> list[Conversation]:
    sessions_raw, conv_id = _unwrap(data, "sessions", default_id)
    sessions = []
    for index, raw in enumerate(_require_list(sessions_raw, "chat file")):
        where = f"session {index}"
        start = parse_datetime(
            _require(raw, "session_time", (str, int, float, datetime), where), where, tz
        )
        sid = str(raw.get("session_id", f"session_{index + 1}"))
        turns = tuple(
            _chat_turn(turn, _chat_turn_id(turn, sid, j), f"{where} turn {j}", tz)
            for j, turn in enumerate(_require(raw, "turns", list, where))
        )
        if not turns:
            raise DataFormatError(f"{where}: 'turns' is empty; give it at least one turn.")
        end = parse_datetime(raw["session_end"], where, tz) if raw.get("session_end") else None
        sessions.append(Session(sid, start, turns, end))
        conv_id = _own_id(raw, conv_id)
    return [_conversation(conv_id, sessions)]


def _unwrap(data: Any, key: str, default_id: str) -> tuple[Any, str]:
    """The list inside ``{key: [...], "conversation_id": ...}``, or ``data`` itself."""
    if isinstance(data, Mapping):
        return _require(data, key, list, "the file"), _own_id(data, default_id)
    return data, default_id


def _own_id(raw: Any, default_id: str) -> str:
    """A record's own ``conversation_id`` field, else ``default_id``."""
    own = raw.get("conversation_id") if isinstance(raw, Mapping) else None
    if own is None:
        return default_id
    if not isinstance(own, str | int) or not str(own).strip():
        raise DataFormatError(f"'conversation_id' should be a non-empty string, got {own!r}.")
    return str(own)


def _chat_turn(raw: Any, turn_id: str, where: str, tz: tzinfo) -> Turn:
    """A turn written ``{speaker, text}`` or as a message ``{role, content[, name]}``."""
    if isinstance(raw, Mapping) and "speaker" not in raw and "role" in raw:
        return _message_turn(raw, turn_id, where, tz)
    return _turn(raw, turn_id, "speaker", "text", where, tz)


def _message_turn(raw: Mapping[str, Any], turn_id: str, where: str, tz: tzinfo) -> Turn:
    speaker = raw.get("name") or raw.get("role")
    content = raw.get("content")
    if isinstance(content, list):  # OpenAI content parts: the text parts, in order
        texts = [
            p.get("text") for p in content if isinstance(p, Mapping) and p.get("type") == "text"
        ]
        content = "\n".join(t for t in texts if isinstance(t, str))
    return _turn(
        {**raw, "speaker": speaker, "text": content}, turn_id, "speaker", "text", where, tz
    )


def _load_messages(data: Any, tz: tzinfo, default_id: str = "default") -> list[Conversation]:
    """OpenAI-style messages; a gap of more than :data:`SESSION_GAP` starts a new session."""
    messages, conv_id = _unwrap(data, "messages", default_id)
    turns: list[Turn] = []
    for index, raw in enumerate(_require_list(messages, "messages file")):
        where = f"message {index}"
        role = _require(raw, "role", str, where)
        if role.strip().lower() in SKIPPED_ROLES:
            continue
        conv_id = _own_id(raw, conv_id)
        turn = _message_turn(raw, str(raw.get("id") or f"m{index + 1}"), where, tz)
        when = turn.time or (turns[-1].time if turns else None)
        if when is None:
            raise DataFormatError(
                f"{where}: no time. Give the first message a 'timestamp' or 'created_at' (ISO "
                "like '2025-05-30T19:00:00Z', or epoch seconds); later ones default to it."
            )
        edited = raw.get("edited") is True  # a chat export's edited message
        turns.append(
            Turn(turn.id, turn.speaker, turn.text, when, turn.image_caption, edited=edited)
        )
    if not turns:
        raise DataFormatError("The messages file has no user or assistant messages.")
    return [_conversation(conv_id, _sessions_by_gap(turns))]


def _sessions_by_gap(turns: Sequence[Turn], gap: timedelta = SESSION_GAP) -> list[Session]:
    """Timed turns, in order, as sessions: a silence of more than ``gap`` starts a new one."""
    sessions: list[tuple[datetime, list[Turn]]] = []
    last: datetime | None = None
    for turn in turns:
        assert turn.time is not None, "every turn needs its time here"
        if last is None or turn.time - last > gap:
            sessions.append((turn.time, []))
        sessions[-1][1].append(turn)
        last = turn.time
    return [
        Session(f"session_{n}", start, tuple(group)) for n, (start, group) in enumerate(sessions, 1)
    ]


def read_whatsapp(text: str, tz: tzinfo = UTC, name: str = "the export") -> list[Conversation]:
    """A WhatsApp export's text as one conversation (:func:`.exports.whatsapp_messages`)."""
    return _load_messages(whatsapp_messages(text, tz, name), tz)


def read_telegram(data: Any, tz: tzinfo = UTC, default_id: str = "") -> list[Conversation]:
    """A Telegram export's JSON as a conversation a chat (:func:`.exports.telegram_chats`)."""
    return [c for chat in telegram_chats(data, tz) for c in _load_messages(chat, tz)]


def _chat_turn_id(turn: Any, session_id: str, index: int) -> str:
    given = turn.get("id") if isinstance(turn, Mapping) else None
    return str(given) if given else f"{session_id}:{index + 1}"


def _require_list(data: Any, where: str) -> Sequence[Any]:
    if not isinstance(data, list):
        raise DataFormatError(f"{where}: expected a JSON list, got {type(data).__name__}.")
    return data


def _conversation(conv_id: str, sessions: Iterable[Session]) -> Conversation:
    ordered = tuple(sorted(sessions, key=lambda s: s.start))
    if not ordered:
        raise DataFormatError(f"{conv_id}: the conversation has no sessions with turns.")
    ids = [t.id for s in ordered for t in s.turns]
    if len(ids) != len(set(ids)):
        raise DataFormatError(f"{conv_id}: turn ids repeat; every turn needs its own id.")
    return Conversation(conv_id, ordered)


LOADERS: dict[str, Callable[[Any, tzinfo, str], list[Conversation]]] = {
    "locomo": _load_locomo,
    "longmemeval": _load_longmemeval,
    "chat": _load_chat,
    "messages": _load_messages,
    "telegram": read_telegram,
}
