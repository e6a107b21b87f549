"""One serialiser of a memory (core/serialise.py): the flat metadata a store keeps, byte for
byte as before, and one rendering of the coordinates in every readable view."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from ramem_integrations.adapters_common.hits import readable_metadata
from ramem_integrations.app.cli import coordinates_line, hit_to_json
from ramem_integrations.core.serialise import coordinates, memory_json
from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    ScoredMemory,
    TimeMention,
    TimeSpan,
)
from ramem_integrations.llama_index.nodes import episodic_metadata

IST = timezone(timedelta(hours=5, minutes=30))
SESSION = TimeSpan(
    datetime(2024, 3, 14, 22, 48, tzinfo=IST), datetime(2024, 3, 15, 0, 14, tzinfo=IST)
)
SAID = TimeSpan(datetime(2024, 3, 15, 0, 13, tzinfo=IST), datetime(2024, 3, 15, 0, 14, tzinfo=IST))
EVENT = TimeSpan.day(datetime(2024, 3, 12).date(), IST)
EPISODE = Episode("ep1", 1, EVENT, ("Bea", "Marcus"), ("Pune",), ("dentist",), "teeth", SAID)
CHAT = MemoryUnit(
    "m1",
    "the dentist on Tuesday was fine",
    EpisodicContext(
        "s1",
        SESSION,
        event_time=EVENT,
        mention_times=(TimeMention("on Tuesday", EVENT),),
        participants=("Bea", "Marcus"),
        speaker="Bea",
        location="Pune",
        entities=("dentist",),
        topic="teeth",
        episode=EPISODE,
        aliases=(("B", "Bea"),),
        said_at=SAID,
    ),
    "bea",
    ("t7",),
    "chat",
    corrects=("m0",),
)
#: The flat metadata as stores kept it before the serialiser had a module of its own.
STORED = {
    "namespace": "bea",
    "conversation_id": "chat",
    "session_id": "s1",
    "session_start": 1710436680,
    "session_end": 1710441840,
    "utc_offset": 19800,
    "event_start": 1710181800,
    "event_end": 1710268200,
    "said_start": 1710441780,
    "said_end": 1710441840,
    "mention_texts": ["on Tuesday"],
    "mention_starts": [1710181800],
    "mention_ends": [1710268200],
    "participants": ["Bea", "Marcus"],
    "speaker": "Bea",
    "location": "Pune",
    "entities": ["dentist"],
    "topic": "teeth",
    "source_ids": ["t7"],
    "alias_names": ["B"],
    "alias_of": ["Bea"],
    "corrects": ["m0"],
    "episode_id": "ep1",
    "episode_position": 1,
    "episode_event_start": 1710181800,
    "episode_event_end": 1710268200,
    "episode_said_start": 1710441780,
    "episode_said_end": 1710441840,
    "episode_participants": ["Bea", "Marcus"],
    "episode_places": ["Pune"],
    "episode_entities": ["dentist"],
    "episode_topic": "teeth",
}


def test_the_flat_metadata_is_what_stores_kept_and_reads_back() -> None:
    assert CHAT.to_metadata() == STORED
    assert MemoryUnit.from_metadata("m1", CHAT.content, STORED) == CHAT


#: Where each readable view shows when the memory was said.
SAID_IN: list[tuple[str, Callable[[MemoryUnit], str]]] = [
    ("prompt coordinates", lambda u: coordinates(u)["said"]),
    ("framework metadata", lambda u: readable_metadata(ScoredMemory(u, 1.0))["said"]),
    ("llama_index node", lambda u: episodic_metadata(u)["said"]),
    ("terminal line", lambda u: coordinates_line(u).split(" | ")[0].removeprefix("said ")),
    ("query --json", lambda u: memory_json(u)["context"]["said_at"]["label"]),
]


@pytest.mark.parametrize(("view", "said"), SAID_IN, ids=[v for v, _ in SAID_IN])
def test_every_view_says_when_the_message_was_sent(
    view: str, said: Callable[[MemoryUnit], str]
) -> None:
    assert said(CHAT) == "15 March 2024 00:13"  # not the session's span from the evening before


def test_without_message_times_every_view_says_the_session() -> None:
    plain = MemoryUnit("m2", "hello", EpisodicContext("s1", SESSION), "bea")
    said = {view: read(plain) for view, read in SAID_IN if view != "query --json"}
    assert set(said.values()) == {"14 March 2024 22:48 to 15 March 2024 00:13"}
    assert memory_json(plain)["context"]["said_at"] is None


def test_query_json_holds_every_field() -> None:
    shown = hit_to_json(ScoredMemory(CHAT, 0.5, "context", ("time",)))
    assert shown["score"] == 0.5 and shown["matched"] == ["time"]
    assert shown["context"]["session_span"] == {
        "start": "2024-03-14T22:48:00+05:30",
        "end": "2024-03-15T00:14:00+05:30",
        "label": "14 March 2024 22:48 to 15 March 2024 00:13",
    }
    assert shown["context"]["mention_times"] == [
        {
            "text": "on Tuesday",
            "start": "2024-03-12T00:00:00+05:30",
            "end": "2024-03-13T00:00:00+05:30",
            "label": "12 March 2024",
        }
    ]
    assert shown["context"]["aliases"] == {"Bea": ["B"]}
    assert shown["context"]["episode"]["said"]["label"] == "15 March 2024 00:13"
    assert shown["corrects"] == ["m0"] and shown["content"] == CHAT.content


def test_utc_memories_keep_no_offset() -> None:
    utc = MemoryUnit(
        "m3",
        "hi",
        EpisodicContext("s", TimeSpan.day(datetime(2024, 1, 1).date(), UTC)),
        "ns",
    )
    assert utc.to_metadata() == {
        "namespace": "ns",
        "conversation_id": "",
        "session_id": "s",
        "session_start": 1704067200,
        "session_end": 1704153600,
    }
