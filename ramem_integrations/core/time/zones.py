"""Time zone abbreviations in written times ("13:56 PST"): the unambiguous ones and their
offsets, and the ambiguous ones refused with what they could mean (the tables are the
lexicon's ``TimeWords.zone_offsets`` and ``ambiguous_zones``).

Read by :func:`~ramem_integrations.core.conversation.parse_datetime` through dateutil's
``tzinfos``: an abbreviation not in ``zone_offsets`` is refused, never read as UTC (dateutil
alone warns and drops it, which stores the time hours off). A zone in parentheses after a
time ("13:56 (PST)", "(UTC+3)") is read as one written without them (:func:`unbracket`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta, timezone
from functools import lru_cache

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.errors import InvalidTimeError

#: A part of a written time in parentheses: "(Mon)", "(PST)", "(UTC+3)".
_BRACKETED = re.compile(r"\(([^()]*)\)")
#: An offset as written: "+3", "-05:00", "UTC+3", "GMT-0500".
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*[+-]\d{1,2}(?::?\d{2})?", re.IGNORECASE)
#: A word that can only be a zone's abbreviation: two to five capitals ("PST", "XYZT").
_ABBREVIATION = re.compile(r"[A-Z]{2,5}")


@lru_cache(maxsize=8)
def _zones(words: TimeWords) -> tuple[Mapping[str, float], Mapping[str, str]]:
    """The zone tables of ``words`` by abbreviation: those of one offset, the ambiguous ones."""
    return dict(words.zone_offsets), dict(words.ambiguous_zones)


def names_zone(text: str, words: TimeWords = ENGLISH.time) -> bool:
    """Whether ``text`` is a zone: an abbreviation (known or not: :func:`zone` refuses an
    unknown one) or an offset."""
    word = text.strip()
    offsets, ambiguous = _zones(words)
    known = word.upper() in offsets or word.upper() in ambiguous
    return known or bool(_ABBREVIATION.fullmatch(word) or _OFFSET.fullmatch(word))


def unbracket(text: str, words: TimeWords = ENGLISH.time) -> str:
    """``text`` without its parenthesised parts ("2023/05/08 (Mon) 13:56"), except a zone,
    which is kept without its parentheses ("13:56 (PST)" is "13:56 PST") to be read or
    refused, never dropped."""
    return _BRACKETED.sub(lambda m: f" {m[1].strip()} " if names_zone(m[1], words) else " ", text)


def zone(name: str | None, offset: int | None, words: TimeWords = ENGLISH.time) -> timezone | None:
    """The zone dateutil found in a time: ``offset`` seconds when it read one, else the
    abbreviation ``name`` from ``words.zone_offsets``; :class:`InvalidTimeError` for any other
    name. (Without ``words``, the signature is dateutil's ``tzinfos`` callable.)"""
    if offset is not None:
        return timezone(timedelta(seconds=offset))
    if name is None:
        return None
    key = name.upper()
    offsets, ambiguous = _zones(words)
    if key in offsets:
        return timezone(timedelta(hours=offsets[key]), key)
    meaning = f"it can mean {ambiguous[key]}" if key in ambiguous else "it is not a known zone"
    raise InvalidTimeError(
        f"the zone abbreviation {name!r} cannot be read: {meaning}. Write the offset instead "
        "(e.g. '2023-05-08T13:56:00-08:00'), or leave the zone out and give it as --tz "
        "America/Los_Angeles (tz= in the API)."
    )
