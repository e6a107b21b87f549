"""Time zone abbreviations in written times ("13:56 PST"): the unambiguous ones and their
offsets, and the ambiguous ones refused with what they could mean.

Read by :func:`~ramem_integrations.core.conversation.parse_datetime` through dateutil's
``tzinfos``: an abbreviation not in :data:`OFFSETS` is refused, never read as UTC (dateutil
alone warns and drops it, which stores the time hours off).
"""

from __future__ import annotations

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
