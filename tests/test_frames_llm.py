"""LLMFrameInducer against a local OpenAI-compatible server: checked replies and fallbacks.

The ``openai_server`` fixture comes from ``tests/openai_server.py`` through ``tests/conftest.py``.
A model failure never raises: an unusable reply gives the rule inducer's frame and a
``RamemFallbackWarning``; a usable reply with a bad condition keeps that condition ungrounded.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest

from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.types import Condition, RecallFrame, TimeSpan
from ramem_integrations.models.llm import LLMClient, LLMConfig, RamemFallbackWarning
from ramem_integrations.models.llm_frames import FRAME_SCHEMA, LLMFrameInducer
from ramem_integrations.testing.openai_server import OpenAIServer, Reply

KNOWN = KnownContext(
    participants=("Alice", "Bob", "Carol", "Sam"),
    places=("Lisbon", "Kyoto"),
    entities=("Northwind", "Contoso Coffee"),
    date_range=TimeSpan(
        datetime(2023, 9, 2, 19, 10, tzinfo=UTC), datetime(2024, 9, 2, 19, 45, tzinfo=UTC)
    ),
)
REFERENCE = datetime(2024, 9, 2, 19, 45, tzinfo=UTC)


def inducer(server: OpenAIServer) -> LLMFrameInducer:
    config = LLMConfig(model="m", base_url=server.base_url, max_retries=0, timeout=0.5)
    return LLMFrameInducer(LLMClient(config))


def reply(**fields: Any) -> Reply:
    body: dict[str, Any] = {
        "need": "",
        "time": None,
        "participants": [],
        "location": None,
        "entities": [],
        "relation": None,
        "recency": False,
    }
    body.update(fields)
    return Reply.chat(json.dumps(body))


def induce(server: OpenAIServer, question: str) -> RecallFrame:
    return inducer(server).induce(question, reference=REFERENCE, known=KNOWN)


def by_kind(frame: RecallFrame) -> dict[str, list[Condition]]:
    kinds: dict[str, list[Condition]] = {}
    for cond in frame.conditions:
        kinds.setdefault(cond.kind, []).append(cond)
    return kinds


@contextmanager
def no_fallback() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RamemFallbackWarning)
        yield


def rules(question: str) -> RecallFrame:
    return RuleFrameInducer().induce(question, reference=REFERENCE, known=KNOWN)


# ------------------------------------------------------------------------- usable replies


def test_good_reply_becomes_a_grounded_frame(openai_server: OpenAIServer) -> None:
    question = "What did Alice eat in Lisbon last May?"
    openai_server.script(
        reply(
            need="What did Alice eat in Lisbon?",
            time={"expression": "last May", "start": "2024-05-01", "end": "2024-05-31"},
            participants=["Alice"],
            location="lisbon",
        )
    )
    with no_fallback():
        frame = induce(openai_server, question)
    assert frame.query == question and frame.need == "What did Alice eat in Lisbon?"
    assert frame.time_range == TimeSpan(
        datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)
    )
    assert frame.values("participant") == ("Alice",)
    assert frame.values("location") == ("Lisbon",)  # the known spelling
    assert all(c.grounded for c in frame.conditions) and frame.reference == REFERENCE

    [request] = openai_server.chat_requests
    system = request.body["messages"][0]["content"]
    assert "2024-09-02" in system and "Alice, Bob, Carol, Sam" in system
    assert json.dumps(FRAME_SCHEMA) in system
    assert request.body["messages"][1]["content"] == question


def test_invented_participant_is_kept_ungrounded(openai_server: OpenAIServer) -> None:
    openai_server.script(reply(need="What did they say?", participants=["Alice", "Dave"]))
    with no_fallback():
        frame = induce(openai_server, "What did Alice and Dave say?")
    alice, dave = by_kind(frame)["participant"]
    assert alice.grounded and alice.value == "Alice"
    assert not dave.grounded and "never seen 'Dave'" in dave.reason
    assert frame.values("participant") == ("Alice",)


def test_date_outside_the_range_is_kept_ungrounded(openai_server: OpenAIServer) -> None:
    time = {"expression": "in 2015", "start": "2015-01-01", "end": "2015-12-31"}
    openai_server.script(reply(need="What did Bob say?", time=time, participants=["Bob"]))
    with no_fallback():
        frame = induce(openai_server, "What did Bob say in 2015?")
    [cond] = by_kind(frame)["time"]
    assert not cond.grounded and "outside the conversation's dates" in cond.reason
    assert frame.time_range is None and frame.is_grounded  # Bob still grounds it


def test_time_the_question_never_names_is_kept_ungrounded(openai_server: OpenAIServer) -> None:
    time = {"expression": "in March 2024", "start": "2024-03-01", "end": "2024-03-31"}
    openai_server.script(reply(need="What did the dentist say?", time=time))
    with no_fallback():
        frame = induce(openai_server, "What did the dentist say?")
    assert not frame.is_grounded
    assert "a time the model added" in frame.why_not_grounded


def test_unreadable_dates_fall_back_to_the_rules_grounding(openai_server: OpenAIServer) -> None:
    time = {"expression": "last March", "start": "March", "end": "?"}
    openai_server.script(reply(need="What did the dentist say?", time=time))
    with no_fallback():
        frame = induce(openai_server, "What did the dentist say last March?")
    [cond] = frame.conditions
    assert cond.grounded and cond.value == "March 2024" and "by the rules" in cond.reason


@pytest.mark.parametrize(
    ("hemisphere", "value"),
    [
        ("southern", "1 June 2024 to 31 August 2024"),
        ("northern", "1 December 2023 to 29 February 2024"),
    ],
)
def test_the_rules_grounding_reads_by_the_fallbacks_conventions(
    openai_server: OpenAIServer, hemisphere: str, value: str
) -> None:
    """A time the model names but dates unreadably, and a relation's anchor, are grounded
    with the fallback's hemisphere, as the fallback itself would ground them."""
    time = {"expression": "last winter", "start": "winter", "end": "?"}
    relation = {"type": "after", "anchor": "last winter"}
    openai_server.script(
        reply(need="What did Sam ski?", time=time),
        reply(need="What did Bob do?", relation=relation),
    )
    fallback = RuleFrameInducer(hemisphere=hemisphere)
    config = LLMConfig(model="m", base_url=openai_server.base_url, max_retries=0, timeout=0.5)
    llm = LLMFrameInducer(LLMClient(config), fallback=fallback)
    with no_fallback():
        [cond] = llm.induce(
            "What did Sam ski last winter?", reference=REFERENCE, known=KNOWN
        ).conditions
        [after] = llm.induce(
            "What did Bob do after last winter?", reference=REFERENCE, known=KNOWN
        ).conditions
    assert cond.grounded and cond.value == value and "by the rules" in cond.reason
    by_rules = fallback.induce("What did Sam ski last winter?", reference=REFERENCE, known=KNOWN)
    assert [cond.span] == [c.span for c in by_rules.conditions if c.kind == "time"]
    assert after.grounded and after.span is not None and cond.span is not None
    assert after.span.start == cond.span.end


def test_unreadable_dates_without_a_rule_reading_stay_ungrounded(
    openai_server: OpenAIServer,
) -> None:
    time = {"expression": "back then", "start": "then", "end": None}
    openai_server.script(reply(need="What did Sam say?", time=time))
    with no_fallback():
        frame = induce(openai_server, "What did Sam say back then?")
    [cond] = frame.conditions
    assert not cond.grounded and "unreadable dates" in cond.reason


def test_relations_recency_and_short_names(openai_server: OpenAIServer) -> None:
    openai_server.script(
        reply(need="Where does Alice work?", participants=["alice"], recency=True),
        reply(need="What did Bob eat?", relation={"type": "after", "anchor": "the trip"}),
        reply(need="What did Bob do?", relation={"type": "after", "anchor": "May 2024"}),
        reply(need="What did Bob do?", relation={"type": "during", "anchor": "the trip"}),
    )
    with no_fallback():
        now = induce(openai_server, "Where does Alice work now?")
        trip = induce(openai_server, "What did Bob eat after the trip?")
        may = induce(openai_server, "What did Bob do after May 2024?")
        odd = induce(openai_server, "What did Bob do during the trip?")
    assert now.values("participant") == ("Alice",) and now.values("recency") == ("latest",)
    [relation] = trip.conditions
    assert (relation.kind, relation.value, relation.anchor) == ("relation", "after", "the trip")
    assert not relation.grounded and "anchor event's time" in relation.reason
    assert may.time_range is not None
    assert may.time_range.start == datetime(2024, 6, 1, tzinfo=UTC)
    assert not odd.is_grounded and "unknown relation 'during'" in odd.why_not_grounded


def test_a_misspelt_name_from_the_model_is_the_participant(openai_server: OpenAIServer) -> None:
    openai_server.script(reply(need="What did Alcie eat?", participants=["Alcie"]))
    with no_fallback():
        frame = induce(openai_server, "What did Alcie eat?")
    assert frame.values("participant") == ("Alice",) and frame.is_grounded


def test_empty_need_is_the_question(openai_server: OpenAIServer) -> None:
    openai_server.script(reply(need="  "))
    with no_fallback():
        frame = induce(openai_server, "What does Alice like?")
    assert frame.need == "What does Alice like?"


# ------------------------------------------------------------------------- fallbacks


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(Reply.chat("this is not JSON at all"), id="invalid-json"),
        pytest.param(Reply.slow(2.0), id="timeout"),
        pytest.param(Reply.error(500), id="http-500"),
        pytest.param(Reply.chat('["a", "list"]'), id="not-an-object"),
        pytest.param(Reply.chat('{"time": null}'), id="no-need"),
        pytest.param(Reply.chat('{"need": "x", "participants": "Alice"}'), id="wrong-type"),
        pytest.param(Reply.chat('{"need": "x", "recency": "yes"}'), id="wrong-bool"),
    ],
)
def test_unusable_reply_falls_back_to_the_rules(
    openai_server: OpenAIServer, failure: Reply
) -> None:
    question = "What did Alice eat in Kyoto last month?"
    openai_server.script(failure)
    with pytest.warns(RamemFallbackWarning, match="Frame induction fell back"):
        frame = induce(openai_server, question)
    assert frame == rules(question)
    assert frame.values("location") == ("Kyoto",)


def test_custom_fallback_is_used(openai_server: OpenAIServer) -> None:
    openai_server.script(Reply.error(500))
    strict = RuleFrameInducer(future_margin=RuleFrameInducer().past_margin)
    config = LLMConfig(model="m", base_url=openai_server.base_url, max_retries=0, timeout=0.5)
    with pytest.warns(RamemFallbackWarning):
        frame = LLMFrameInducer(LLMClient(config), fallback=strict).induce(
            "What did Sam say?", reference=REFERENCE, known=KNOWN
        )
    assert frame.values("participant") == ("Sam",)
