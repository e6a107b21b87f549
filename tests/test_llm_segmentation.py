"""LLMSegmenter against a local OpenAI-compatible server: the model's cuts, long sessions read in
overlapping windows, and every kind of fallback to the lexical cuts.

The ``openai_server`` fixture comes from ``tests/openai_server.py`` through ``tests/conftest.py``.
"""

from __future__ import annotations

import json
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.segmentation import Segmenter, episode_id, episode_of
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.llm import LLMClient, LLMConfig, RamemFallbackWarning
from ramem_integrations.models.llm_anchoring import LLMAnchorer
from ramem_integrations.models.llm_segmentation import LLMSegmenter, read_starts
from ramem_integrations.testing.openai_server import OpenAIServer, Reply

SAID = datetime(2022, 5, 8, 18, tzinfo=UTC)
NS = "nadia"
WORDS = (
    ("Nadia", "I finally went to the dentist on 28 April 2022."),
    ("Leila", "Oh no, what did the dentist say?"),
    ("Nadia", "He found a small cavity in a back tooth."),
    ("Leila", "Are you still going to Lisbon next month?"),
    ("Nadia", "Yes, Leila booked the flights for 3 June."),
    ("Leila", "Pack light, the hostel lockers are tiny."),
    ("Nadia", "Noted. I will take the small bag."),
)


def session_units(count: int = 6, sessions: int = 1) -> list[MemoryUnit]:
    """``sessions`` sessions of the first ``count`` turns, anchored by the rules."""
    built = tuple(
        Session(
            f"session_{s}",
            SAID.replace(day=8 + s),
            tuple(Turn(f"D{s}:{i}", who, text) for i, (who, text) in enumerate(WORDS[:count], 1)),
        )
        for s in range(1, sessions + 1)
    )
    return RuleAnchorer().anchor(Conversation("conv-1", built), NS)


def client(server: OpenAIServer, **config: Any) -> LLMClient:
    args: dict[str, Any] = {"model": "test-model", "base_url": server.base_url, "max_retries": 0}
    return LLMClient(LLMConfig(**{**args, **config}))


def starts(*keys: Any) -> Reply:
    return Reply.chat(json.dumps({"starts": list(keys)}))


def runs_of(units: list[MemoryUnit]) -> list[list[str]]:
    """The turn ids of each episode, in order."""
    out: dict[str, list[str]] = {}
    for unit in units:
        assert unit.context.episode is not None
        out.setdefault(unit.context.episode.id, []).append(unit.source_ids[0])
    return list(out.values())


def sent_turns(server: OpenAIServer) -> list[list[str]]:
    """The turn keys of each request, as the model saw them."""
    payloads = [
        json.loads(r.body["messages"][1]["content"].split("\n\n", 1)[1])
        for r in server.chat_requests
    ]
    return [[t["turn_id"] for t in payload["turns"]] for payload in payloads]


def test_the_models_cuts_make_the_episodes(openai_server: OpenAIServer) -> None:
    openai_server.script(starts("1", "4"))
    units = session_units()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RamemFallbackWarning)
        cut = LLMSegmenter(client(openai_server)).segment(units)

    assert runs_of(cut) == [["D1:1", "D1:2", "D1:3"], ["D1:4", "D1:5", "D1:6"]]
    # same ids and context as rules
    assert cut == episode_of(units[:3], episode_id(units[3:])) + episode_of(units[3:])
    assert [u.context.episode.position for u in cut] == [0, 1, 2, 0, 1, 2]
    cavity = cut[2].context.episode
    assert cavity.event_time is not None and cavity.event_time.label() == "28 April 2022"
    assert [u.content for u in cut] == [u.content for u in units]  # words untouched

    (request,) = openai_server.chat_requests
    system, user = (m["content"] for m in request.body["messages"])
    assert "episode" in system and '"starts"' in system
    payload = json.loads(user.split("\n\n", 1)[1])
    assert payload["session"] == {"date": "2022-05-09"}
    assert payload["turns"][2] == {
        "turn_id": "3",
        "speaker": "Nadia",
        "text": "He found a small cavity in a back tooth.",
    }
    assert "D1:" not in user and "session_1" not in user


@pytest.mark.parametrize(
    ("window", "replies", "sent", "expected"),
    [
        # The last episode of a window is read again at the start of the next one.
        (
            4,
            [starts("1", "3"), starts("3", "5"), starts("5")],
            [["1", "2", "3", "4"], ["3", "4", "5", "6"], ["5", "6", "7"]],
            [["D1:1", "D1:2"], ["D1:3", "D1:4"], ["D1:5", "D1:6", "D1:7"]],
        ),
        # A window that is one episode is cut where it ends, so every request moves on.
        (
            3,
            [starts("1"), starts("4", "6"), starts("6", "7")],
            [["1", "2", "3"], ["4", "5", "6"], ["6", "7"]],
            [["D1:1", "D1:2", "D1:3"], ["D1:4", "D1:5"], ["D1:6"], ["D1:7"]],
        ),
    ],
)
def test_a_long_session_is_read_in_overlapping_windows(
    openai_server: OpenAIServer,
    window: int,
    replies: list[Reply],
    sent: list[list[str]],
    expected: list[list[str]],
) -> None:
    openai_server.script(*replies)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RamemFallbackWarning)
        cut = LLMSegmenter(client(openai_server), window=window).segment(session_units(7))
    assert sent_turns(openai_server) == sent
    assert runs_of(cut) == expected


def test_an_episode_longer_than_max_turns_is_cut(openai_server: OpenAIServer) -> None:
    openai_server.script(starts("1"))
    segmenter = LLMSegmenter(client(openai_server), fallback=Segmenter(max_turns=3))
    cut = segmenter.segment(session_units(7))
    assert runs_of(cut) == [["D1:1", "D1:2", "D1:3"], ["D1:4", "D1:5", "D1:6"], ["D1:7"]]


def test_a_one_turn_session_sends_nothing(openai_server: OpenAIServer) -> None:
    cut = LLMSegmenter(client(openai_server)).segment(session_units(1))
    assert runs_of(cut) == [["D1:1"]]
    assert openai_server.chat_requests == []


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply.chat("the first episode starts at 1"), "JSON"),
        (starts("1", "9"), "'9'"),
        (starts("1", "D1:4"), "'D1:4'"),
        (starts("4", "2"), "in order"),
        (starts("1", "4", "4"), "in order"),
        (Reply.chat(json.dumps({"starts": "1, 4"})), "starts"),
        (Reply.chat(json.dumps({"episodes": [1, 4]})), "starts"),
        (starts(1, True), "True"),
        (Reply.error(500), "500"),
        (Reply.slow(3.0, json.dumps({"starts": ["1", "4"]})), "did not answer within"),
    ],
    ids=[
        "not-json",
        "unknown-turn",
        "dataset-id",
        "out-of-order",
        "twice",
        "not-a-list",
        "no-starts",
        "boolean",
        "http-500",
        "timeout",
    ],
)
def test_a_failed_session_falls_back_to_the_lexical_cuts_alone(
    openai_server: OpenAIServer, reply: Reply, reason: str
) -> None:
    # Session 1 is cut by the model; session 2's reply fails and only it falls back.
    openai_server.script(starts("1", "4"), reply)
    units = session_units(6, sessions=2)
    with pytest.warns(RamemFallbackWarning) as caught:
        cut = LLMSegmenter(client(openai_server, timeout=1.0)).segment(units)

    (warning,) = caught
    message = str(warning.message)
    assert "LLM episode cuts of session session_2 fell back" in message
    assert reason.lower() in message.lower()
    assert cut[:6] == episode_of(units[:3], episode_id(units[3:])) + episode_of(units[3:6])
    assert cut[6:] == Segmenter().segment(units[6:])


def test_read_starts_adds_the_first_turn_and_takes_numbers() -> None:
    keys = ["5", "6", "7", "8"]
    assert read_starts({"starts": ["7"]}, keys) == [0, 2]
    assert read_starts({"starts": [5, 8]}, keys) == [0, 3]
    assert read_starts({"starts": []}, keys) == [0]
    with pytest.raises(ValueError, match="not a turn_id"):
        read_starts({"starts": ["4"]}, keys)


def test_name_and_arguments(openai_server: OpenAIServer) -> None:
    assert LLMSegmenter(client(openai_server)).name == "llm-episodes-v1:test-model"
    for bad in (1, 0, 2.5, True, "8"):
        with pytest.raises(InvalidInputError, match="window"):
            LLMSegmenter(client(openai_server), window=bad)  # type: ignore[arg-type]


def test_an_llm_anchorer_brings_the_models_episode_cuts(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    llm = client(openai_server)
    mem = RaMem.from_path(tmp_path / "m", anchorer=LLMAnchorer(llm))
    assert isinstance(mem.segmenter, LLMSegmenter) and mem.segmenter.llm is llm

    # The anchoring request fails (rules anchor), then the model cuts the session.
    openai_server.script(Reply.error(500), starts("1", "4"))
    with pytest.warns(RamemFallbackWarning, match="LLM anchoring"):
        mem.add_turns(
            [{"speaker": who, "text": text} for who, text in WORDS[:6]],
            namespace=NS,
            session_time=SAID,
        )
    episodes: dict[str, list[tuple[int, str]]] = {}
    for unit in mem.memories(NS):
        episode = unit.context.episode
        assert episode is not None
        episodes.setdefault(episode.id, []).append((episode.position, unit.content))
    assert sorted([text for _, text in sorted(run)] for run in episodes.values()) == sorted(
        [[text for _, text in WORDS[:3]], [text for _, text in WORDS[3:6]]]
    )


def test_the_segmenter_follows_the_anchorer_until_one_is_chosen(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    llm = client(openai_server)
    mem = RaMem.from_path(tmp_path / "m")
    assert type(mem.segmenter) is Segmenter
    mem.anchorer = LLMAnchorer(llm)
    assert isinstance(mem.segmenter, LLMSegmenter)
    mem.anchorer = RuleAnchorer()
    assert type(mem.segmenter) is Segmenter

    mem.segmenter = Segmenter(depth=0.3)
    mem.anchorer = LLMAnchorer(llm)
    assert mem.segmenter == Segmenter(depth=0.3)
    mem.segmenter = None
    assert mem.segmenter is None
