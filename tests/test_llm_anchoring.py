"""LLMAnchorer against a local OpenAI-compatible server: good replies, and every kind of fallback.

The ``openai_server`` fixture comes from ``tests/openai_server.py`` through ``tests/conftest.py``.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer, memory_id
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.types import MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.llm import LLMClient, LLMConfig, RamemFallbackWarning
from ramem_integrations.models.llm_anchoring import LLMAnchorer, Window, read_reply
from ramem_integrations.testing.openai_server import OpenAIServer, Reply

MODEL = "test-model"
SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
LATER = datetime(2023, 6, 1, 10, 0, tzinfo=UTC)
NS = "alice"

# Session 1 is sent in two windows (window=2): D1:1 + D1:2, then D1:3. Session 2 is one window.
TURNS_1 = (
    Turn("D1:1", "Caroline", "I went to the LGBTQ support group yesterday."),
    Turn("D1:2", "Melanie", "That's great! Did you go with Jo?"),
    Turn("D1:3", "Caroline", "Yes, she drove us to Boston."),
)
TURNS_2 = (
    Turn("D2:1", "Melanie", "I painted a sunrise last week.", time=LATER + timedelta(minutes=5)),
)


def conversation() -> Conversation:
    return Conversation(
        "conv-1",
        (Session("session_1", SAID, TURNS_1), Session("session_2", LATER, TURNS_2)),
    )


def key(turn_id: str) -> str:
    """What the model calls a turn: its position in its session ('D1:2' is '2')."""
    return str(turn_id).rsplit(":", 1)[-1]


def memory(turn_id: str, content: str, **fields: Any) -> dict[str, Any]:
    return {
        "turn_id": key(turn_id),
        "content": content,
        "event_time": None,
        "participants": [],
        "location": None,
        "entities": [],
        "topic": None,
        **fields,
    }


def reply(*memories: dict[str, Any]) -> Reply:
    return Reply.chat(json.dumps({"memories": list(memories)}))


GOOD_1 = (
    memory(
        "D1:1",
        "Caroline told Melanie she went to the LGBTQ support group on 7 May 2023.",
        event_time={"start": "2023-05-07", "end": "2023-05-07"},
        participants=["Caroline", "Melanie"],
        entities=["LGBTQ support group", "Melanie"],
        topic="support group visit",
    ),
    memory("D1:2", "Melanie asked Caroline whether she went with Jo.", participants=["Jo"]),
)
GOOD_2 = (
    memory(
        "D1:3",
        "Caroline said Jo drove Caroline and Jo to Boston.",
        participants=["Jo"],
        location="Boston",
        entities=["Boston"],
    ),
)
GOOD_3 = (
    memory(
        "D2:1",
        "Melanie said she painted a sunrise in the week of 22 to 28 May 2023.",
        event_time={"start": "2023-05-22", "end": "2023-05-28"},
        topic="painting",
    ),
)


def anchorer(server: OpenAIServer, **config: Any) -> LLMAnchorer:
    args: dict[str, Any] = {"model": MODEL, "base_url": server.base_url, "max_retries": 0}
    args.update(config)
    return LLMAnchorer(LLMClient(LLMConfig(**args)), window=2)


def rule_units() -> list[MemoryUnit]:
    return RuleAnchorer().anchor(conversation(), NS)


def test_good_replies_give_the_models_restatements_on_the_rule_episode(
    openai_server: OpenAIServer,
):
    openai_server.script(reply(*GOOD_1), reply(*GOOD_2), reply(*GOOD_3))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RamemFallbackWarning)
        units = anchorer(openai_server).anchor(conversation(), NS)

    rules = rule_units()
    assert [u.restatement for u in units] == [m["content"] for m in (*GOOD_1, *GOOD_2, *GOOD_3)]
    assert [u.content for u in units] == [r.content for r in rule_units()]  # verbatim turns
    for unit, rule in zip(units, rules, strict=True):
        assert unit.id == rule.id
        assert unit.source_ids == rule.source_ids and unit.conversation_id == "conv-1"
        assert unit.namespace == NS
        assert unit.context.session_id == rule.context.session_id
        assert unit.context.session_span == rule.context.session_span
        assert unit.context.mention_times == rule.context.mention_times
        assert unit.context.speaker == rule.context.speaker

    first, second, third, fourth = units
    assert first.context.event_time == TimeSpan.day(SAID.date() - timedelta(days=1))
    assert first.context.entities == ("LGBTQ support group",)
    assert first.context.topic == "support group visit"
    assert [m.text for m in first.context.mention_times] == ["yesterday"]
    assert second.context.participants == ("Caroline", "Melanie", "Jo")
    assert second.context.event_time is None
    assert third.context.location == "Boston"
    # Session 2 has no end and every turn a time: its span runs from its first message to
    # its last plus a minute.
    said = LATER + timedelta(minutes=5)
    assert fourth.context.session_span == TimeSpan(said, said + timedelta(minutes=1))
    assert fourth.context.event_time == TimeSpan(
        datetime(2023, 5, 22, tzinfo=UTC), datetime(2023, 5, 29, tzinfo=UTC)
    )
    assert openai_server.pending() == 0


def test_the_request_holds_the_turns_and_the_session_date(openai_server: OpenAIServer):
    openai_server.script(reply(*GOOD_1), reply(*GOOD_2), reply(*GOOD_3))
    anchorer(openai_server).anchor(conversation(), NS)

    first, second, third = openai_server.chat_requests
    assert first.body["model"] == MODEL
    system, user = first.body["messages"]
    assert '"memories"' in system["content"]  # the schema is shown to the model
    for position, turn in enumerate(TURNS_1[:2], 1):
        assert turn.text in user["content"] and f'"turn_id": "{position}"' in user["content"]
        assert turn.id not in user["content"]  # the data's ids never reach the model
    assert "session_1" not in user["content"]
    assert TURNS_1[2].text not in user["content"]
    assert "2023-05-08T13:56" in user["content"] and "Monday 8 May 2023" in user["content"]
    # The next window shows the turns before it as context.
    assert TURNS_1[2].text in second.body["messages"][1]["content"]
    assert TURNS_1[1].text in second.body["messages"][1]["content"]
    assert "2023-06-01T10:00" in third.body["messages"][1]["content"]


def without(turn_id: str) -> tuple[dict[str, Any], ...]:
    return tuple(m for m in GOOD_1 if m["turn_id"] != key(turn_id))


def changed(turn_id: str, **fields: Any) -> tuple[dict[str, Any], ...]:
    return tuple({**m, **fields} if m["turn_id"] == key(turn_id) else m for m in GOOD_1)


# Each bad reply for the first window, and words of the reason the warning must give.
BAD_FIRST_WINDOW: dict[str, tuple[Reply, str]] = {
    "missing turn": (reply(*without("D1:2")), "no memory for turn.s. 2"),
    "unknown turn id": (
        reply(*GOOD_1, memory("D9:9", "Caroline said something else.")),
        "unknown turn '9'",
    ),
    "turn twice": (reply(*GOOD_1, GOOD_1[0]), "more than one memory"),
    "turn of another window": (reply(*GOOD_1, *GOOD_2), "unknown turn '3'"),
    "invented participant": (
        reply(*changed("D1:2", participants=["Jo", "Zelda"])),
        "'Zelda' is neither a conversation speaker nor written in the turns",
    ),
    "invented location": (reply(*changed("D1:1", location="Paris")), "'Paris' is neither"),
    "invented entity": (
        reply(*changed("D1:1", entities=["Pride Foundation"])),
        "'Pride Foundation' is neither",
    ),
    "event after the window": (
        reply(*changed("D1:1", event_time={"start": "2025-01-01", "end": "2025-01-02"})),
        "outside the plausible window 1923-05-08..2024-05-08",
    ),
    "event before the window": (
        reply(*changed("D1:1", event_time={"start": "1900-05-07", "end": "1900-05-07"})),
        "outside the plausible window",
    ),
    "unparseable date": (
        reply(*changed("D1:1", event_time={"start": "May 7", "end": "May 7"})),
        "not a 'YYYY-MM-DD' date",
    ),
    "event ends before it starts": (
        reply(*changed("D1:1", event_time={"start": "2023-05-07", "end": "2023-05-01"})),
        "ends .2023-05-01. before it starts",
    ),
    "empty content": (reply(*changed("D1:1", content="  ")), "content must be a non-empty"),
    "overlong content": (
        reply(*changed("D1:2", content="Melanie asked " + "x" * 400)),
        "content of 414 characters for a turn of 33 .limit 332.",
    ),
    "speaker not named": (
        reply(*changed("D1:1", content="She went to a support group.")),
        "does not name the speaker 'Caroline'",
    ),
    "participants not a list": (
        reply(*changed("D1:2", participants="Jo")),
        "participants must be a list of strings",
    ),
    "no memories key": (
        Reply.chat(json.dumps({"turns": list(GOOD_1)})),
        "expected an object",
    ),
    "invalid JSON": (Reply.chat('{"memories": [{"turn_id": "D1:1",'), "not reply with valid JSON"),
    "HTTP 500": (Reply.error(500), "HTTP 500"),
    "timeout": (
        Reply.slow(2.0, json.dumps({"memories": list(GOOD_1)})),
        "did not answer within 0.5 s",
    ),
}


@pytest.mark.parametrize(("bad", "reason"), BAD_FIRST_WINDOW.values(), ids=BAD_FIRST_WINDOW.keys())
def test_an_invalid_window_falls_back_to_the_rule_units_for_its_turns(
    openai_server: OpenAIServer, bad: Reply, reason: str
):
    openai_server.script(bad, reply(*GOOD_2), reply(*GOOD_3))
    with pytest.warns(RamemFallbackWarning) as caught:
        units = anchorer(openai_server, timeout=0.5).anchor(conversation(), NS)

    [warning] = caught
    assert re.search(
        r"LLM anchoring of session_1 turns D1:1\.\.D1:2 fell back", str(warning.message)
    )
    assert re.search(reason, str(warning.message))
    rules = rule_units()
    assert units[:2] == rules[:2]  # the whole window, not just the bad turn
    assert [u.restatement for u in units[2:]] == [GOOD_2[0]["content"], GOOD_3[0]["content"]]
    assert [u.id for u in units] == [u.id for u in rules]
    stored_names = {n for u in units for n in (*u.context.participants, *u.context.entities)}
    assert not stored_names & {"Zelda", "Paris", "Pride Foundation"}
    assert "Paris" not in {u.context.location for u in units}


def test_ids_equal_the_rule_anchorers_so_switching_anchorers_upserts(
    openai_server: OpenAIServer, fake_mem: RaMem
):
    first_ids = fake_mem.add_conversation(conversation(), NS)
    assert fake_mem.count(NS) == 4

    # Three anchoring windows, then the episode cuts of session 1 (the same model's).
    episodes = Reply.chat(json.dumps({"starts": ["1"]}))
    openai_server.script(reply(*GOOD_1), reply(*GOOD_2), reply(*GOOD_3), episodes)
    fake_mem.anchorer = anchorer(openai_server)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RamemFallbackWarning)
        second_ids = fake_mem.add_conversation(conversation(), NS)

    assert second_ids == first_ids
    assert first_ids[0] == memory_id(NS, "conv-1", ["D1:1"])
    assert fake_mem.count(NS) == 4
    stored = {u.id: u.restatement for u in fake_mem.store.get(NS)}
    assert stored[first_ids[0]] == GOOD_1[0]["content"]


# The validator on its own, without a server


def window() -> Window:
    session = Session("session_1", SAID, TURNS_1)
    return Window(session, TURNS_1[1:], TURNS_1[:1], ("Caroline", "Melanie"))


def reading_of(which: str, **fields: Any) -> dict[str, Any]:
    """A valid reply for :func:`window`, with ``fields`` changed in the memory of turn ``which``."""
    items = [
        memory("D1:2", "Melanie asked Caroline whether Caroline went with Jo."),
        memory("D1:3", "Caroline said Jo drove them."),
    ]
    return {"memories": [{**m, **fields} if m["turn_id"] == key(which) else m for m in items]}


@pytest.mark.parametrize(
    ("fields", "check"),
    [
        ({"participants": ["caroline"]}, lambda r: r.participants == ("Caroline",)),
        ({"participants": ["jo", "Jo"]}, lambda r: r.participants == ("jo", "Jo")),
        # Names from the earlier (context) turns count as shown to the model.
        ({"entities": ["LGBTQ support group"]}, lambda r: r.entities == ("LGBTQ support group",)),
        ({"location": "the  Boston"}, lambda r: r.location == "the Boston"),
        ({"location": ""}, lambda r: r.location is None),
        ({"participants": None, "entities": None}, lambda r: r.participants == r.entities == ()),
        ({"topic": "  car  ride "}, lambda r: r.topic == "car ride"),
        (
            {"event_time": {"start": "2024-05-07", "end": "2024-05-07"}},
            lambda r: r.event_time == TimeSpan.day(datetime(2024, 5, 7).date()),
        ),
        ({"content": "Caroline said Jo drove\n them."}, lambda r: "\n" not in r.content),
    ],
    ids=[
        "speaker spelling",
        "names deduplicated by spelling",
        "entity from earlier turn",
        "location with article and spaces",
        "empty location",
        "null lists",
        "topic spacing",
        "event within a year after",
        "content spacing",
    ],
)
def test_valid_readings(fields: dict[str, Any], check: Callable[[Any], bool]) -> None:
    readings = read_reply(reading_of("D1:3", **fields), window())
    assert set(readings) == {"D1:2", "D1:3"}
    assert check(readings["D1:3"])


@pytest.mark.parametrize(
    "obj",
    [
        [],
        {"memories": {}},
        {"memories": ["D1:2", "D1:3"]},
        reading_of("D1:3", turn_id=True),
        reading_of("D1:3", turn_id="1"),  # an earlier turn is context, not to be restated
        reading_of("D1:3", event_time="2023-05-07"),
        reading_of("D1:3", event_time={"start": "2023-05-07"}),
        reading_of("D1:3", location=["Boston"]),
        reading_of("D1:3", topic="word " * 40),
        reading_of("D1:3", entities=["Jo" * 100]),
    ],
    ids=[
        "not an object",
        "memories not a list",
        "memories not objects",
        "boolean turn id",
        "context turn restated",
        "event time not an object",
        "event time without end",
        "location not a string",
        "topic too long",
        "entity too long",
    ],
)
def test_invalid_readings_raise(obj: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        read_reply(obj, window())


def test_numeric_turn_ids_may_come_back_as_numbers() -> None:
    session = Session("s", SAID, (Turn("1", "Caroline", "Hi."),))
    obj = {"memories": [memory(1, "Caroline said hi.")]}  # type: ignore[arg-type]
    assert set(read_reply(obj, Window(session, session.turns))) == {"1"}


class FakeLLM:
    """An LLM without a ``config``: the anchorer cannot know its model."""

    def chat(self, messages: list[dict[str, str]]) -> str:
        raise NotImplementedError

    def complete_json(self, system: str, user: str, validate: Any, *, schema: Any = None) -> Any:
        raise NotImplementedError


def test_name_and_arguments(openai_server: OpenAIServer) -> None:
    assert anchorer(openai_server).name == "llm-v1:test-model"
    assert LLMAnchorer(FakeLLM()).name == "llm-v1"
    for bad in (0, -1, 2.5, True):
        with pytest.raises(InvalidInputError, match="window"):
            LLMAnchorer(FakeLLM(), window=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="context_turns"):
        LLMAnchorer(FakeLLM(), context_turns=-1)
    assert openai_server.chat_requests == []


def test_an_empty_session_sends_nothing(openai_server: OpenAIServer) -> None:
    empty = Conversation("c", (Session("s", SAID, ()),))
    assert anchorer(openai_server).anchor(empty, NS) == []
    assert openai_server.chat_requests == []
