"""LLM faults from the local OpenAI-compatible server: every LLM step degrades to its offline
twin with a warning, nothing crashes, and nothing the model invented is stored."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from ramem_integrations.core.frames import RuleFrameInducer
from ramem_integrations.core.prompts import turn_line
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.llm import LLMClient, LLMConfig, RamemFallbackWarning
from ramem_integrations.models.llm_anchoring import LLMAnchorer
from ramem_integrations.models.llm_frames import LLMFrameInducer
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from ramem_integrations.testing.openai_server import Reply, closed_port, openai_server_running
from tests.reliability.helpers import synthetic_conversation

pytestmark = pytest.mark.reliability

CONV = synthetic_conversation("c1", 2, 3, seed=2)
TURN_IDS = [t.id for s in CONV.sessions for t in s.turns]
QUESTION = "What did Ann say about the dentist in January 2023?"
REFERENCE = datetime(2023, 2, 1, tzinfo=UTC)


def anchoring_reply(**override: Any) -> Reply:
    """A reply for the first session whose fields are overridden to break it."""
    session = CONV.sessions[0]
    rows = [
        {
            "turn_id": t.id,
            "content": f"{t.speaker} said: {t.text}",
            "event_time": None,
            "participants": [],
            "location": None,
            "entities": [],
            "topic": None,
            **override,
        }
        for t in session.turns
    ]
    return Reply.chat(json.dumps({"memories": rows}))


#: name -> (replies, repeated for every request and retry)
FAULTS: dict[str, list[Reply]] = {
    "timeout": [Reply.slow(3.0)],
    "HTTP 500": [Reply.error(500)],
    "HTTP 503 then 503 (retries exhausted)": [Reply.error(503), Reply.error(503)],
    "HTTP 429 with Retry-After, twice": [Reply.rate_limited("0.1"), Reply.rate_limited("0.1")],
    "HTTP 400": [Reply.error(400, "bad request")],
    "truncated HTTP body": [Reply.truncated('{"memories": []}')],
    "HTML instead of JSON": [Reply.raw("<html>502 Bad Gateway</html>", content_type="text/html")],
    "empty message": [Reply.chat("")],
    "invalid JSON": [Reply.chat("Sure! Here are the memories: {memories: [")],
    "JSON cut at the token limit": [
        Reply.chat('{"memories": [{"turn_id": "s1:1", "cont', finish_reason="length")
    ],
    "a JSON list, not an object": [Reply.chat("[1, 2, 3]")],
    "schema: wrong turn ids": [anchoring_reply(turn_id="s9:9")],
    "schema: content is a number": [anchoring_reply(content=42)],
    "schema: content 100x too long": [anchoring_reply(content="padding " * 500)],
    "schema: event_time unreadable": [
        anchoring_reply(event_time={"start": "soon", "end": "later"})
    ],
    "schema: event_time in year 1": [
        anchoring_reply(event_time={"start": "0001-01-01", "end": "0001-01-02"})
    ],
    "schema: invented entity": [anchoring_reply(entities=["Zorro the Invisible Pirate"])],
    "schema: participants a string": [anchoring_reply(participants="Ann, Ben")],
    "schema: need is a number (frames)": [Reply.chat('{"need": 7, "participants": "Ann"}')],
}


def client(base_url: str, retries: int = 1) -> LLMClient:
    return LLMClient(
        LLMConfig(model="test-model", base_url=base_url, timeout=0.5, max_retries=retries)
    )


def with_server(replies: list[Reply], run: Callable[[LLMClient], Any]) -> tuple[Any, list[str]]:
    with openai_server_running() as server:
        server.script(*(replies * 8))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = run(client(server.base_url))
    return result, [str(w.message) for w in caught if issubclass(w.category, RamemFallbackWarning)]


def fresh_mem(tmp_path: Any, name: str, **kwargs: Any) -> RaMem:
    return RaMem(
        ChromaEpisodicStore.from_path(tmp_path / name.replace(" ", "_")),
        embedder=HashingEmbedder(),
        **kwargs,
    )


def shown_turns(prompt: str) -> list[str]:
    """The turn lines of an answer prompt's memories, sorted (episode headers left out)."""
    memories = prompt.split("\nMemories:\n", 1)[1].split("\n\nAnswer in ", 1)[0]
    return sorted(
        line for line in memories.splitlines() if line and not re.match(r"\[\d+\] ", line)
    )


def rule_output(tmp_path: Any) -> list[Any]:
    """What a store with the rule anchorer keeps: its turns, cut into episodes."""
    return sorted(fresh_mem(tmp_path, "rules").anchor(CONV, "ann"), key=lambda u: u.id)


@pytest.mark.parametrize("fault", list(FAULTS))
def test_anchoring_falls_back_and_stores_only_rule_output(tmp_path: Any, fault: str) -> None:
    def run(llm: LLMClient) -> list[Any]:
        mem = fresh_mem(tmp_path, fault, anchorer=LLMAnchorer(llm, window=8))
        mem.add_conversation(CONV, "ann")
        return sorted(mem.memories("ann"), key=lambda u: u.id)

    stored, warned = with_server(FAULTS[fault], run)
    assert warned and all("fell back to the rule-based path" in w for w in warned), fault
    assert stored == rule_output(tmp_path)


@pytest.mark.parametrize(
    "fault", [f for f in FAULTS if not f.startswith("schema:") or "frames" in f]
)
def test_frame_induction_falls_back(tmp_path: Any, fault: str) -> None:
    mem = fresh_mem(tmp_path, "f")
    mem.add_conversation(CONV, "ann")
    known = mem.known("ann")
    rules = RuleFrameInducer().induce(QUESTION, reference=REFERENCE, known=known)

    def run(llm: LLMClient) -> Any:
        return LLMFrameInducer(llm).induce(QUESTION, reference=REFERENCE, known=known)

    frame, warned = with_server(FAULTS[fault], run)
    assert warned and "Frame induction fell back" in warned[0]
    assert frame == rules


#: Answers are free text: a reply that is not JSON is still an answer, so these are the faults.
TRANSPORT = [
    "timeout",
    "HTTP 500",
    "HTTP 503 then 503 (retries exhausted)",
    "HTTP 429 with Retry-After, twice",
    "HTTP 400",
    "truncated HTTP body",
    "HTML instead of JSON",
    "empty message",
]


@pytest.mark.parametrize("fault", TRANSPORT)
def test_answering_falls_back_to_evidence(tmp_path: Any, fault: str) -> None:
    mem = fresh_mem(tmp_path, "a")
    mem.add_conversation(CONV, "ann")
    offline = mem.answer(QUESTION, "ann", reference=REFERENCE)

    def run(llm: LLMClient) -> Any:
        return mem.answer(QUESTION, "ann", reference=REFERENCE, llm=llm)

    result, warned = with_server(FAULTS[fault], run)
    assert warned and "Answering fell back" in warned[0]
    assert result.text is None and result.model == "test-model"
    assert result.hits == offline.hits and result.prompt == offline.prompt
    assert "fell back" in result.note


def test_answering_with_a_model_and_without(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    mem = fresh_mem(tmp_path, "ok")
    mem.add_conversation(CONV, "ann")
    for name in ("RAMEM_LLM_MODEL", "RAMEM_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    offline = mem.answer(QUESTION, "ann", reference=REFERENCE)
    assert offline.text is None and "No model is configured" in offline.note and offline.hits
    assert shown_turns(offline.prompt) == sorted(turn_line(h.memory) for h in offline.hits)
    with openai_server_running() as server:
        server.script(Reply.rate_limited("0.05"), Reply.chat("  In January 2023.  "))
        monkeypatch.setenv("RAMEM_LLM_MODEL", "env-model")
        monkeypatch.setenv("RAMEM_LLM_BASE_URL", server.base_url)
        result = mem.answer(QUESTION, "ann", reference=REFERENCE)  # model from the environment
        sent = server.chat_requests[-1].body
    assert result.text == "In January 2023." and result.model == "env-model"
    assert sent["messages"][-1]["content"] == result.prompt == offline.prompt


def test_connection_refused_falls_back(tmp_path: Any) -> None:
    mem = fresh_mem(
        tmp_path, "r", anchorer=LLMAnchorer(client(f"http://127.0.0.1:{closed_port()}/v1", 0))
    )
    with pytest.warns(RamemFallbackWarning, match="Could not get an answer"):
        mem.add_conversation(CONV, "ann")
    assert sorted(mem.memories("ann"), key=lambda u: u.id) == rule_output(tmp_path)


def test_cli_answer_offline(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ramem_integrations.app import cli

    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)
    monkeypatch.delenv("RAMEM_LLM_MODEL", raising=False)
    store = tmp_path / "store"
    RaMem.from_path(store, embedder=HashingEmbedder()).add_conversation(CONV, "ann")
    args = ["answer", QUESTION, "--store", str(store), "--namespace", "ann", "--k", "3"]
    assert cli.main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["text"] is None and "No model is configured" in out["note"]
    assert len(out["hits"]) == 3 and all(h["namespace"] == "ann" for h in out["hits"])
    quoted = [f"{h['context']['speaker']}: {json.dumps(h['content'])}" for h in out["hits"]]
    assert shown_turns(out["prompt"]) == sorted(quoted)
    assert cli.main(args) == 0
    assert "No model is configured" in capsys.readouterr().out
