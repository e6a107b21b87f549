"""The hash of a frozen value of word tables, computed once."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def hash_once(value: Any) -> int:
    """The hash of every field of the frozen dataclass ``value``, kept on it after the first
    call: readers cache their compiled patterns by the value, so it is hashed often."""
    cached: int | None = value.__dict__.get("_hash")
    if cached is None:
        cached = hash(tuple(getattr(value, f.name) for f in fields(value)))
        object.__setattr__(value, "_hash", cached)
    return cached
