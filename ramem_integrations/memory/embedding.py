"""A memory's dense vector: the words as said, plus who said them to whom.

The vector is the sum of two unit vectors, normalised: the embedding of the memory's verbatim
``content`` and, weighted :data:`SPEAKER_WEIGHT`, the embedding of its speaker line
(``"Melanie (to Caroline)"``, the head of the rule anchorer's restatement, or the speaker's name).
Questions name people ("What did Melanie paint?"), and a short message rarely does; the speaker
line puts the names into every vector, while the words are embedded once, without the
restatement's extra tokens. Measured against embedding the restatement in docs/embeddings.md
("What a memory's vector is made of").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.models.embeddings import Embedder, Vectors

#: The speaker line's weight beside the words' (both unit vectors).
SPEAKER_WEIGHT = 3.0


def speaker_line(unit: MemoryUnit) -> str | None:
    """``"Speaker (to Addressee)"`` from the restatement's head, else the speaker's name."""
    speaker = unit.context.speaker
    if not speaker:
        return None
    head = (unit.restatement or "").partition(": ")[0]
    if re.fullmatch(re.escape(speaker) + r" \(to [^()\n]+\)", head):
        return head
    return speaker


def memory_vectors(
    embedder: Embedder, units: Sequence[MemoryUnit], made: Mapping[str, np.ndarray] | None = None
) -> Vectors:
    """The vectors to store for ``units``: one embedding call for their words and the
    distinct speaker lines among them. ``made`` holds texts already embedded, by text (the
    write path embeds a conversation's turns while it is anchored)."""
    return spoken_vectors(embedder, [(u.content, speaker_line(u)) for u in units], made)


def memory_embeddings(embedder: Embedder, units: Sequence[MemoryUnit]) -> dict[str, np.ndarray]:
    """What :func:`memory_vectors` embeds for ``units`` (their words and distinct speaker
    lines), by text, in one embedding call: ``made`` for writes that embed several groups of
    units at once (a LangGraph batch of puts)."""
    texts = list(dict.fromkeys(t for u in units for t in (u.content, speaker_line(u)) if t))
    return dict(zip(texts, embedder.embed(texts), strict=True)) if texts else {}


def spoken_vectors(
    embedder: Embedder,
    spoken: Sequence[tuple[str, str | None]],
    made: Mapping[str, np.ndarray] | None = None,
) -> Vectors:
    """The vector of each ``(words, speaker line or None)``: the words' embedding plus
    :data:`SPEAKER_WEIGHT` times the line's, normalised. One embedding call, for the words
    and lines not in ``made``; none when ``made`` holds them all."""
    if not spoken:
        return embedder.embed([])
    made = made or {}
    wanted = [words for words, _ in spoken] + [line for _, line in spoken if line]
    missing = [text for text in dict.fromkeys(wanted) if text not in made]
    found = (
        {**made, **dict(zip(missing, embedder.embed(missing), strict=True))} if missing else made
    )
    summed = np.array(
        [
            found[words] + (0.0 if line is None else SPEAKER_WEIGHT * found[line])
            for words, line in spoken
        ],
        dtype=np.float32,
    )
    norms = np.linalg.norm(summed, axis=1, keepdims=True)
    return (summed / np.where(norms > 0, norms, 1.0)).astype(np.float32)
