"""Ids made from several parts, so that two different lists of parts never share one.

The parts are joined by ``\\x1f`` when none of them holds it, which is how every id was made
before (so stored ids stay as they are), and written as a JSON list otherwise: JSON writes
``\\x1f`` as ``\\u001f``, so such a key never holds the separator, while a join of two or more
parts always does. Either way the key gives back its parts, and the digest of two different
lists of two or more parts differs (up to a SHA-1 collision).
"""

from __future__ import annotations

import hashlib
import json

SEPARATOR = "\x1f"


def part_key(first: str, second: str, *rest: str) -> str:
    """The parts as one string from which they can be read back (see the module)."""
    parts = [first, second, *rest]
    if any(SEPARATOR in part for part in parts):
        return json.dumps(parts, ensure_ascii=False)
    return SEPARATOR.join(parts)


def digest(first: str, second: str, *rest: str, size: int = 32) -> str:
    """The first ``size`` hex digits of the SHA-1 of :func:`part_key` of the parts."""
    key = part_key(first, second, *rest)
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:size]
