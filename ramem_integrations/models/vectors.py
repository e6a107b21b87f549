"""Checks every embedder applies: the texts it is given and the vectors its backend returns.

Apart from :mod:`.embeddings` so that each embedder module (:mod:`.e5`) imports it without
importing the registry of embedders by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ramem_integrations.errors import EmbeddingError, InvalidInputError

Vectors = np.ndarray[Any, np.dtype[np.float32]]


def check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise InvalidInputError(
            "embed() takes a list of strings, got one string. Wrap it: embed([text])."
        )
    checked = list(texts)
    for i, text in enumerate(checked):
        if not isinstance(text, str):
            raise InvalidInputError(f"texts[{i}] is {type(text).__name__}, expected str.")
        if not text.strip():
            raise InvalidInputError(
                f"texts[{i}] is empty or whitespace; there is nothing to embed. "
                "Drop empty texts before embedding."
            )
    return checked


def normalise(raw: Any, count: int, source: str, dimension: int | None = None) -> Vectors:
    """Validate a backend's vectors and return them as unit-length float32 rows."""
    try:
        matrix = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise EmbeddingError(f"{source} returned vectors that are not numbers: {exc}") from exc
    if matrix.ndim != 2 or matrix.shape[0] != count:
        raise EmbeddingError(
            f"{source} returned an array of shape {matrix.shape} for {count} texts; "
            "expected one vector per text."
        )
    if dimension is not None and matrix.shape[1] != dimension:
        raise EmbeddingError(
            f"{source} returned {matrix.shape[1]}-d vectors, expected {dimension}-d."
        )
    if not np.isfinite(matrix).all():
        raise EmbeddingError(f"{source} returned NaN or infinite values.")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if (norms == 0).any():
        raise EmbeddingError(f"{source} returned an all-zero vector, which has no direction.")
    normalised: Vectors = matrix / norms
    return normalised
