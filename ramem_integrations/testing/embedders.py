"""Deterministic embedders for tests about ranking logic: fast, offline, no model."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ramem_integrations.errors import InvalidInputError

_WORD = re.compile(r"\w+")


class HashingEmbedder:
    """Bag of hashed lower-cased word tokens in 64 signed buckets, L2-normalised.

    Texts sharing words are close; texts sharing none are orthogonal or nearly so. Stable
    across processes (sha1, not Python's salted ``hash``).
    """

    name = "hashing-64"
    dimension = 64

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a list of strings.")
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            if not isinstance(text, str) or not text.strip():
                raise InvalidInputError(f"texts[{row}] is empty or not a string.")
            for word in _WORD.findall(text.lower()):
                digest = hashlib.sha1(word.encode("utf-8")).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dimension
                out[row, bucket] += 1.0 if digest[4] & 1 else -1.0
            if not out[row].any():
                out[row, 0] = 1.0  # punctuation only, or words that cancel out
        normalised: np.ndarray[Any, np.dtype[np.float32]] = out / np.linalg.norm(
            out, axis=1, keepdims=True
        )
        return normalised


class CountingEmbedder(HashingEmbedder):
    """A :class:`HashingEmbedder` that records the texts of every ``embed`` call."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        self.calls.append(list(texts))
        return super().embed(texts)
