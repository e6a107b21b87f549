"""The one vocabulary of a retrieved memory's metadata, the same on every framework surface.

A LangChain ``Document``'s metadata, a LlamaIndex ``NodeWithScore``'s node metadata and a
LangGraph ``SearchItem``'s episode (``item.value["episode"]``) carry these keys with the same
values:

- the coordinate lines a prompt shows (:data:`COORDINATE_KEYS`): ``said`` (when it was said),
  ``happened`` (when what it tells happened), ``who`` (the participants, the speaker marked),
  ``place``;
- why it was chosen (:data:`HIT_KEYS`): ``reason`` (``"context"`` when it meets the question's
  conditions, else ``"content"``), ``matched`` (the conditions it meets, a list) and ``score``;
- what it is (:data:`IDENTITY_KEYS`): ``namespace``, ``conversation_id``, ``session_id``,
  ``speaker``, ``location`` (the place as stored), ``topic``, each when known.

LangChain and LangGraph add readable data keys (:func:`readable_metadata`: ISO session dates,
lists of participants and entities, ``source``, the turns it was made from); LlamaIndex nodes
add the flat keys a vector store keeps
(:func:`~ramem_integrations.core.serialise.scalar_metadata`). :data:`RENAMED` are the older
LlamaIndex names, still written beside the new ones for one release.
"""

from __future__ import annotations

from typing import Any, Final

from ramem_integrations.core.serialise import coordinates
from ramem_integrations.core.types import MemoryUnit, ScoredMemory

SAID: Final = "said"
HAPPENED: Final = "happened"
WHO: Final = "who"
PLACE: Final = "place"
REASON: Final = "reason"
MATCHED: Final = "matched"
SCORE: Final = "score"

#: The coordinate lines every memory carries, retrieved or not.
COORDINATE_KEYS: Final = (SAID, HAPPENED, WHO, PLACE)
#: Why a retrieved memory was chosen.
HIT_KEYS: Final = (REASON, MATCHED, SCORE)
#: What a memory is, with the same value on every surface (each only when known).
IDENTITY_KEYS: Final = (
    "namespace",
    "conversation_id",
    "session_id",
    "speaker",
    "location",
    "topic",
)
#: Older names of the LlamaIndex surface and the key each became (``ramem_matched`` was the
#: conditions comma-separated); written beside the new keys until the next release.
RENAMED: Final = {"ramem_reason": REASON, "ramem_matched": MATCHED}


def coordinate_metadata(unit: MemoryUnit) -> dict[str, str]:
    """The coordinate lines of :data:`COORDINATE_KEYS`, as a prompt shows them."""
    shown = coordinates(unit)
    return {
        SAID: shown["said"],
        HAPPENED: shown["happened"],
        WHO: shown["participants"],
        PLACE: shown["place"],
    }


def hit_metadata(hit: ScoredMemory) -> dict[str, Any]:
    """:data:`HIT_KEYS`: why ``hit`` was chosen, and its score."""
    return {REASON: hit.reason, MATCHED: list(hit.matched), SCORE: float(hit.score)}


def readable_metadata(hit: ScoredMemory) -> dict[str, Any]:
    """A retrieved memory as LangChain and LangGraph show it: the shared keys above plus
    readable data (ISO dates and labels).

    Keys: ``id``, ``namespace``, ``conversation_id``, ``session_id``, ``source_ids``,
    ``session_start`` / ``session_end`` (ISO), ``session`` (label), ``event_time`` (label, when
    known), ``speaker``, ``participants``, ``location``, ``entities``, ``topic`` (when known),
    ``source`` (its turn ids, comma-separated), and every key of :data:`COORDINATE_KEYS` and
    :data:`HIT_KEYS`.
    """
    unit, ctx = hit.memory, hit.memory.context
    meta: dict[str, Any] = {
        "id": unit.id,
        "namespace": unit.namespace,
        "conversation_id": unit.conversation_id,
        "session_id": ctx.session_id,
        "source_ids": list(unit.source_ids),
        "session_start": ctx.session_span.start.isoformat(),
        "session_end": ctx.session_span.end.isoformat(),
        "session": ctx.session_span.label(),
        "event_time": ctx.event_time.label() if ctx.event_time else None,
        "speaker": ctx.speaker,
        "participants": list(ctx.participants),
        "location": ctx.location,
        "entities": list(ctx.entities),
        "topic": ctx.topic,
        **coordinate_metadata(unit),
        "source": coordinates(unit)["source"],
        **hit_metadata(hit),
    }
    return {key: value for key, value in meta.items() if value is not None}
