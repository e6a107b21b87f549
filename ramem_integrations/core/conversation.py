"""Conversations, sessions and turns, and loaders for LoCoMo, LongMemEval and plain chat JSON.

Every loader validates the whole file before returning anything, so a bad file raises a
:class:`DataFormatError` that names the place and the fix, and nothing is half-ingested.
Dates without a timezone are read in ``tz`` (UTC by default).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from dateutil import parser as date_parser

from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import DataFormatError

#: How long a session is taken to last when only its start is known.
DEFAULT_SESSION_LENGTH = timedelta(hours=1)
FORMATS = ("locomo", "longmemeval", "chat")
#: Keys a turn's or message's time may have (ISO text or epoch seconds).
TIME_KEYS = ("time", "timestamp", "created_at")


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance. ``image_caption`` describes an image shared with it, if any."""

    id: str
    speaker: str
    text: str
    time: datetime | None = None
    image_caption: str | None = None

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
    """Parse a date as written in the data ('1:56 pm on 8 May, 2023', '2023/05/08 (Mon) 13:56')."""
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str) and value.strip():
        text = value.replace(" on ", " ").strip()
        text = text.split("(")[0] + text.split(")")[-1] if "(" in text else text
        try:
            parsed = date_parser.parse(text, default=datetime(2000, 1, 1))
        except (ValueError, OverflowError) as exc:
            raise DataFormatError(
                f"{where}: cannot read the date {value!r}. Write it like '2023-05-08 13:56' "
                "or '1:56 pm on 8 May, 2023'."
            ) from exc
    else:
        raise DataFormatError(
            f"{where}: a date is required but got {value!r}. Give every session a date, "
            "e.g. '2023-05-08 13:56'."
        )
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def load_conversations(
    path: str | Path, format: str | None = None, *, tz: tzinfo = UTC
) -> list[Conversation]:
    """Read a LoCoMo, LongMemEval or chat JSON file; ``format`` is detected when omitted."""
    data = _read_json(Path(path))
    fmt = format or detect_format(data, Path(path).name)
    if fmt not in LOADERS:
        raise DataFormatError(f"Unknown format {fmt!r}. Use one of: {', '.join(FORMATS)}.")
    return LOADERS[fmt](data, tz)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataFormatError(f"No file at {path}. Check the path.") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataFormatError(
            f"{path} is not valid UTF-8 JSON ({exc}). Check the file is complete JSON."
        ) from exc


def detect_format(data: Any, name: str = "the data") -> str:
    """Guess the format from the shape of the data."""
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, Mapping):
        if "conversation" in first:
            return "locomo"
        if "haystack_sessions" in first:
            return "longmemeval"
        if "turns" in first:
            return "chat"
    raise DataFormatError(
        f"Cannot tell the format of {name}: expected a non-empty JSON list of LoCoMo samples "
        "(with 'conversation'), LongMemEval items (with 'haystack_sessions') or chat sessions "
        "(with 'turns'). Pass --format to say which."
    )


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
    text = _require(raw, text_key, str, where).strip()
    caption = raw.get("blip_caption")
    if caption is not None and not isinstance(caption, str):
        raise DataFormatError(f"{where}: 'blip_caption' should be a string.")
    if not speaker:
        raise DataFormatError(f"{where}: the speaker is empty; name who said it.")
    if not text and not caption:
        raise DataFormatError(f"{where}: the turn has no text; remove it or give it text.")
    stamp = next((raw[key] for key in TIME_KEYS if raw.get(key) is not None), None)
    time = parse_datetime(stamp, where, tz) if stamp is not None else None
    return Turn(id=turn_id, speaker=speaker, text=text, time=time, image_caption=caption or None)


def _load_locomo(data: Any, tz: tzinfo) -> list[Conversation]:
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


def _load_longmemeval(data: Any, tz: tzinfo) -> list[Conversation]:
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


def _load_chat(data: Any, tz: tzinfo) -> list[Conversation]:
    sessions = []
    for index, raw in enumerate(_require_list(data, "chat file")):
        where = f"session {index}"
        start = parse_datetime(_require(raw, "session_time", (str, datetime), where), where, tz)
        sid = str(raw.get("session_id", f"session_{index + 1}"))
        turns = tuple(
            _turn(turn, _chat_turn_id(turn, sid, j), "speaker", "text", f"{where} turn {j}", tz)
            for j, turn in enumerate(_require(raw, "turns", list, where))
        )
        if not turns:
            raise DataFormatError(f"{where}: 'turns' is empty; give it at least one turn.")
        end = parse_datetime(raw["session_end"], where, tz) if raw.get("session_end") else None
        sessions.append(Session(sid, start, turns, end))
    return [_conversation("default", sessions)]


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


LOADERS: dict[str, Callable[[Any, tzinfo], list[Conversation]]] = {
    "locomo": _load_locomo,
    "longmemeval": _load_longmemeval,
    "chat": _load_chat,
}
