"""Time zone abbreviations in written times ("13:56 PST"): the unambiguous ones and their
offsets, and the ambiguous ones refused with what they could mean.

Read by :func:`~ramem_integrations.core.conversation.parse_datetime` through dateutil's
``tzinfos``: an abbreviation not in :data:`OFFSETS` is refused, never read as UTC (dateutil
alone warns and drops it, which stores the time hours off). A zone in parentheses after a
time ("13:56 (PST)", "(UTC+3)") is read as one written without them (:func:`unbracket`).
"""

from __future__ import annotations

import re
from datetime import timedelta, timezone

from ramem_integrations.errors import InvalidTimeError

#: Abbreviation -> hours east of UTC, for abbreviations that name one offset only.
OFFSETS: dict[str, float] = {
    "UTC": 0, "UT": 0, "GMT": 0, "Z": 0, "WET": 0,
    "WEST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "EET": 2, "EEST": 3, "MSK": 3,
    "PKT": 5, "NPT": 5.75, "ICT": 7, "WIB": 7, "HKT": 8, "SGT": 8, "AWST": 8, "PHT": 8,
    "JST": 9, "KST": 9, "ACST": 9.5, "ACDT": 10.5, "AEST": 10, "AEDT": 11,
    "NZST": 12, "NZDT": 13,
    "HST": -10, "AKST": -9, "AKDT": -8, "PST": -8, "PDT": -7, "MST": -7, "MDT": -6,
    "EST": -5, "EDT": -4, "NST": -3.5, "NDT": -2.5, "BRT": -3,
}  # fmt: skip
#: Abbreviations used for more than one offset: refused, naming the meanings.
AMBIGUOUS: dict[str, str] = {
    "CST": "US Central (-06:00), China (+08:00) or Cuba (-05:00)",
    "CDT": "US Central daylight (-05:00) or Cuba daylight (-04:00)",
    "IST": "India (+05:30), Ireland (+01:00) or Israel (+02:00)",
    "BST": "British Summer (+01:00) or Bangladesh (+06:00)",
    "AST": "Atlantic (-04:00) or Arabia (+03:00)",
    "ADT": "Atlantic daylight (-03:00) or Arabia daylight (+04:00)",
    "GST": "Gulf (+04:00) or South Georgia (-02:00)",
    "SST": "Samoa (-11:00) or Singapore (+08:00)",
    "ECT": "Ecuador (-05:00) or Eastern Caribbean (-04:00)",
}


#: A part of a written time in parentheses: "(Mon)", "(PST)", "(UTC+3)".
_BRACKETED = re.compile(r"\(([^()]*)\)")
#: An offset as written: "+3", "-05:00", "UTC+3", "GMT-0500".
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*[+-]\d{1,2}(?::?\d{2})?", re.IGNORECASE)
#: A word that can only be a zone's abbreviation: two to five capitals ("PST", "XYZT").
_ABBREVIATION = re.compile(r"[A-Z]{2,5}")


def names_zone(text: str) -> bool:
    """Whether ``text`` is a zone: an abbreviation (known or not: :func:`zone` refuses an
    unknown one) or an offset."""
    word = text.strip()
    known = word.upper() in OFFSETS or word.upper() in AMBIGUOUS
    return known or bool(_ABBREVIATION.fullmatch(word) or _OFFSET.fullmatch(word))


def unbracket(text: str) -> str:
    """``text`` without its parenthesised parts ("2023/05/08 (Mon) 13:56"), except a zone,
    which is kept without its parentheses ("13:56 (PST)" is "13:56 PST") to be read or
    refused, never dropped."""
    return _BRACKETED.sub(lambda m: f" {m[1].strip()} " if names_zone(m[1]) else " ", text)


def zone(name: str | None, offset: int | None) -> timezone | None:
    """The zone dateutil found in a time: ``offset`` seconds when it read one, else the
    abbreviation ``name`` from :data:`OFFSETS`; :class:`InvalidTimeError` for any other name.
    (The signature is dateutil's ``tzinfos`` callable.)"""
    if offset is not None:
        return timezone(timedelta(seconds=offset))
    if name is None:
        return None
    key = name.upper()
    if key in OFFSETS:
        return timezone(timedelta(hours=OFFSETS[key]), key)
    meaning = f"it can mean {AMBIGUOUS[key]}" if key in AMBIGUOUS else "it is not a known zone"
    raise InvalidTimeError(
        f"the zone abbreviation {name!r} cannot be read: {meaning}. Write the offset instead "
        "(e.g. '2023-05-08T13:56:00-08:00'), or leave the zone out and give it as --tz "
        "America/Los_Angeles (tz= in the API)."
    )
