"""LLMClient against a local OpenAI-compatible server: replies, failures, retries, fallback.

The ``openai_server`` fixture comes from ``tests/openai_server.py`` through ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from typing import Any

import openai
import pytest

from ramem_integrations.errors import InvalidInputError, LLMError
from ramem_integrations.models import llm
from ramem_integrations.models.llm import (
    PLACEHOLDER_API_KEY,
    LLMClient,
    LLMConfig,
    RamemFallbackWarning,
    extract_json,
    with_fallback,
)
from ramem_integrations.testing.openai_server import (
    CHAT_PATH,
    OpenAIServer,
    Reply,
    closed_port,
    fake_vector,
)

MODEL = "test-model"
#: A generous bound for "fast": far below what a retry loop or an ignored limit would take,
#: far above what a loaded CI machine needs.
SLOW = 10.0
SYSTEM = "Extract the answer as JSON."
USER = "What is the answer?"


def make_client(server: OpenAIServer, **overrides: Any) -> LLMClient:
    args: dict[str, Any] = {"model": MODEL, "base_url": server.base_url, "max_retries": 0}
    args.update(overrides)
    return LLMClient(LLMConfig(**args))


def need_answer(obj: Any) -> int:
    """A validator: the object must have an integer "answer"."""
    if not isinstance(obj, dict) or not isinstance(obj["answer"], int):
        raise ValueError(f"expected {{'answer': int}}, got {obj!r}")
    return obj["answer"]


def ask(client: LLMClient) -> int:
    return client.complete_json(SYSTEM, USER, need_answer)


# Replies that are answered and parsed


def test_good_json_reply_is_validated_and_request_is_well_formed(openai_server: OpenAIServer):
    openai_server.script(Reply.chat('{"answer": 42}'))
    assert ask(make_client(openai_server)) == 42

    [request] = openai_server.chat_requests
    assert request.body["model"] == MODEL
    assert request.body["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": USER},
    ]
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.body["temperature"] == 0.0
    assert request.headers["authorization"] == f"Bearer {PLACEHOLDER_API_KEY}"


@pytest.mark.parametrize(
    "content",
    [
        '```json\n{"answer": 7}\n```',
        '```\n{"answer": 7}\n```',
        'Sure! Here it is:\n```json\n{"answer": 7}\n```\nAnything else?',
        'The result is {"answer": 7}. Hope that helps.',
        '  {"answer": 7}\n',
    ],
)
def test_json_is_found_in_fences_and_prose(openai_server: OpenAIServer, content: str):
    openai_server.script(Reply.chat(content))
    assert ask(make_client(openai_server)) == 7


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": {"b": [1, 2]}}\n```', {"a": {"b": [1, 2]}}),
        ('```JSON\n{"a": 1}', {"a": 1}),  # opening fence, no closing one
        ('Answer: {"a": "}"} done', {"a": "}"}),
        ("[1, 2]", [1, 2]),
    ],
)
def test_extract_json(text: str, expected: Any):
    assert extract_json(text) == expected


@pytest.mark.parametrize("text", ["", "no json here", '{"a": [1, 2', "```json\n{oops}\n```"])
def test_extract_json_rejects(text: str):
    with pytest.raises(ValueError):
        extract_json(text)


def test_schema_is_shown_to_the_model(openai_server: OpenAIServer):
    openai_server.script(Reply.chat('{"answer": 1}'))
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}}
    make_client(openai_server).complete_json("Be brief.", USER, need_answer, schema=schema)

    system = openai_server.chat_requests[0].body["messages"][0]["content"]
    assert system.startswith("Be brief.")
    assert '"answer": {"type": "integer"}' in system


def test_json_is_mentioned_when_the_prompt_does_not(openai_server: OpenAIServer):
    # OpenAI's JSON mode answers 400 when no message mentions JSON.
    openai_server.script(Reply.chat('{"answer": 1}'))
    make_client(openai_server).complete_json("Be brief.", USER, need_answer)
    assert "JSON" in openai_server.chat_requests[0].body["messages"][0]["content"]


def test_chat_returns_text_and_sends_messages_as_given(openai_server: OpenAIServer):
    openai_server.script(Reply.chat("Bob went to Paris."))
    messages = [
        {"role": "system", "content": "Answer from the memories."},
        {"role": "user", "content": "Where did Bob go?"},
    ]
    assert make_client(openai_server).chat(messages) == "Bob went to Paris."

    [request] = openai_server.chat_requests
    assert request.body["messages"] == messages
    assert request.body["model"] == MODEL
    assert "response_format" not in request.body


# Failures: every one is an LLMError raised from its cause


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply.chat("I think the answer is forty-two."), "did not reply with valid JSON"),
        (Reply.chat('{"answer": 42, "why": "bec', finish_reason="length"), "truncated"),
        (Reply.chat('{"answer": "forty-two"}'), "failed validation"),
        (Reply.chat('{"other": 1}'), "failed validation"),  # KeyError in the validator
        (Reply.chat(""), "empty reply"),
        (Reply.chat("   \n"), "empty reply"),
        (Reply.error(500, "boom"), "server error (HTTP 500)"),
        (Reply.error(503, "overloaded"), "HTTP 503"),
        (Reply.error(404, "model not found"), "Check the model name 'test-model'"),
        (Reply.error(401, "bad key"), "API key"),
        (Reply.rate_limited("0"), "rate-limiting"),
        (Reply.raw("<html>Bad gateway</html>"), "did not return a chat completion"),
        (Reply.raw("{not json", content_type="application/json"), "not valid JSON"),
        (Reply.raw('{"unexpected": 1}', content_type="application/json"), "empty reply"),
        (Reply.truncated('{"answer": 42}'), "Could not get an answer"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_failures_raise_llm_error(openai_server: OpenAIServer, reply: Reply, message: str):
    openai_server.script(reply)
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        ask(make_client(openai_server))
    assert message in str(info.value)
    assert len(openai_server.chat_requests) == 1  # max_retries=0: no retry
    assert time.monotonic() - started < SLOW  # no hidden back-off either
    if "empty reply" not in message and "did not return" not in message:
        assert info.value.__cause__ is not None


def test_chat_maps_failures_too(openai_server: OpenAIServer):
    openai_server.script(Reply.error(500, "boom"))
    with pytest.raises(LLMError, match="HTTP 500") as info:
        make_client(openai_server).chat([{"role": "user", "content": "hi"}])
    assert isinstance(info.value.__cause__, openai.InternalServerError)


def test_timeout_raises_fast(openai_server: OpenAIServer):
    openai_server.script(Reply.slow(2.0))
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"did not answer within 0\.3 s") as info:
        ask(make_client(openai_server, timeout=0.3))
    assert time.monotonic() - started < SLOW
    assert "Raise LLMConfig.timeout" in str(info.value)
    assert isinstance(info.value.__cause__, openai.APITimeoutError)


def test_connection_refused():
    port = closed_port()
    config = LLMConfig(model=MODEL, base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)
    with pytest.raises(LLMError, match=f"127.0.0.1:{port}") as info:
        ask(LLMClient(config))
    assert "Check that the server is running" in str(info.value)
    assert isinstance(info.value.__cause__, openai.APIConnectionError)


# Retries


def test_429_is_retried_after_retry_after(openai_server: OpenAIServer):
    openai_server.script(Reply.rate_limited("0.2"), Reply.chat('{"answer": 3}'))
    started = time.monotonic()
    assert ask(make_client(openai_server, max_retries=1)) == 3
    assert 0.2 <= time.monotonic() - started < SLOW  # waited as told, not much more
    assert len(openai_server.chat_requests) == 2


def test_retry_after_is_capped(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(llm, "MAX_RETRY_WAIT", 0.05)
    openai_server.script(Reply.rate_limited("3600"), Reply.chat('{"answer": 3}'))
    started = time.monotonic()
    assert ask(make_client(openai_server, max_retries=1)) == 3
    assert time.monotonic() - started < SLOW  # not the hour it asked for


def test_429_after_retries_is_an_error(openai_server: OpenAIServer):
    openai_server.script(Reply.rate_limited("0"), Reply.rate_limited("0"))
    with pytest.raises(LLMError, match=r"rate-limiting requests \(HTTP 429\) after 2 attempts"):
        ask(make_client(openai_server, max_retries=1))
    assert len(openai_server.chat_requests) == 2


def test_bad_output_is_not_retried(openai_server: OpenAIServer):
    openai_server.script(Reply.chat("not json"), Reply.chat('{"answer": 1}'))
    with pytest.raises(LLMError, match="valid JSON"):
        ask(make_client(openai_server, max_retries=1))
    assert len(openai_server.chat_requests) == 1


def test_injected_client_does_not_retry_on_its_own(openai_server: OpenAIServer):
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k", max_retries=5)
    openai_server.script(Reply.error(500), Reply.error(500))
    with pytest.raises(LLMError, match="HTTP 500"):
        ask(LLMClient(LLMConfig(model=MODEL, max_retries=0), client=client))
    assert len(openai_server.chat_requests) == 1
    assert openai_server.chat_requests[0].headers["authorization"] == "Bearer k"


def test_rejected_response_format_is_dropped(openai_server: OpenAIServer):
    openai_server.script(
        Reply.error(400, "response_format is not supported"),
        Reply.chat('{"answer": 5}'),
        Reply.chat('{"answer": 6}'),
    )
    client = make_client(openai_server)
    assert ask(client) == 5
    assert ask(client) == 6  # remembered: not asked for again

    first, second, third = (r.body for r in openai_server.chat_requests)
    assert first["response_format"] == {"type": "json_object"}
    assert "response_format" not in second
    assert "response_format" not in third
    assert first["messages"] == second["messages"]


def test_a_second_400_is_an_error_and_json_mode_stays(openai_server: OpenAIServer):
    openai_server.script(
        Reply.error(400, "bad"), Reply.error(400, "context too long"), Reply.chat('{"answer": 1}')
    )
    client = make_client(openai_server)
    with pytest.raises(LLMError, match=r"rejected the request \(HTTP 400\).*context too long"):
        ask(client)
    assert len(openai_server.chat_requests) == 2
    assert ask(client) == 1
    assert openai_server.chat_requests[2].body["response_format"] == {"type": "json_object"}


# Async variants


def test_async_variants(openai_server: OpenAIServer):
    openai_server.script(Reply.chat('{"answer": 9}'), Reply.chat("hello"), Reply.error(500))
    client = make_client(openai_server)

    async def run() -> tuple[int, str]:
        try:
            number = await client.acomplete_json(SYSTEM, USER, need_answer)
            text = await client.achat([{"role": "user", "content": "hi"}])
            with pytest.raises(LLMError, match="HTTP 500"):
                await client.achat([{"role": "user", "content": "hi"}])
            return number, text
        finally:
            await client.aclose()

    assert asyncio.run(run()) == (9, "hello")
    assert openai_server.chat_requests[0].body["model"] == MODEL


# Fallback


def test_with_fallback_warns_and_returns_the_fallback():
    def primary() -> str:
        raise LLMError("the model is down")

    with pytest.warns(RamemFallbackWarning) as record:
        result = with_fallback(primary, lambda: "rules", "anchoring")
    assert result == "rules"
    assert str(record[0].message) == (
        "anchoring fell back to the rule-based path: the model is down"
    )


def test_with_fallback_end_to_end(openai_server: OpenAIServer, caplog: pytest.LogCaptureFixture):
    openai_server.script(Reply.chat("not json"))
    client = make_client(openai_server)
    with pytest.warns(RamemFallbackWarning, match="frame induction fell back.*valid JSON"):
        result = with_fallback(lambda: ask(client), lambda: -1, "frame induction")
    assert result == -1
    assert "frame induction fell back to the rule-based path" in caplog.text


def test_with_fallback_passes_success_and_other_errors_through():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert with_fallback(lambda: 1, lambda: 2, "x") == 1

    def broken() -> int:
        raise RuntimeError("a bug, not an LLM failure")

    with pytest.raises(RuntimeError):
        with_fallback(broken, lambda: 2, "x")


# Configuration

ENV_VARS = (
    "RAMEM_LLM_MODEL",
    "RAMEM_LLM_BASE_URL",
    "OPENAI_BASE_URL",
    "RAMEM_LLM_API_KEY",
    "OPENAI_API_KEY",
    "RAMEM_LLM_TIMEOUT",
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"OPENAI_API_KEY": "sk-1", "OPENAI_BASE_URL": "http://x/v1"}, None),
        ({"RAMEM_LLM_MODEL": "  "}, None),
        ({"RAMEM_LLM_MODEL": "gpt-4o-mini"}, LLMConfig(model="gpt-4o-mini")),
        (
            {"RAMEM_LLM_MODEL": "m", "OPENAI_BASE_URL": "http://a/v1", "OPENAI_API_KEY": "k1"},
            LLMConfig(model="m", base_url="http://a/v1", api_key="k1"),
        ),
        (
            {
                "RAMEM_LLM_MODEL": "m",
                "RAMEM_LLM_BASE_URL": "http://ours/v1",
                "OPENAI_BASE_URL": "http://theirs/v1",
                "RAMEM_LLM_API_KEY": "ours",
                "OPENAI_API_KEY": "theirs",
                "RAMEM_LLM_TIMEOUT": "90",
            },
            LLMConfig(model="m", base_url="http://ours/v1", api_key="ours", timeout=90.0),
        ),
        (
            {"RAMEM_LLM_MODEL": "m", "RAMEM_LLM_BASE_URL": "", "RAMEM_LLM_API_KEY": ""},
            LLMConfig(model="m"),
        ),
    ],
)
def test_config_from_env(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: LLMConfig | None
):
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert LLMConfig.from_env() == expected


def test_config_from_env_rejects_a_bad_timeout(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RAMEM_LLM_MODEL", "m")
    monkeypatch.setenv("RAMEM_LLM_TIMEOUT", "soon")
    with pytest.raises(InvalidInputError, match="RAMEM_LLM_TIMEOUT"):
        LLMConfig.from_env()


@pytest.mark.parametrize(
    "args",
    [{"model": ""}, {"model": "m", "timeout": 0}, {"model": "m", "max_retries": -1}],
)
def test_config_rejects_impossible_values(args: dict[str, Any]):
    with pytest.raises(InvalidInputError):
        LLMConfig(**args)


def test_config_repr_hides_the_key():
    assert "sk-secret" not in repr(LLMConfig(model="m", api_key="sk-secret"))


def test_missing_api_key_for_the_openai_api(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError, match="OPENAI_API_KEY"):
        LLMClient(LLMConfig(model="gpt-4o-mini"))


def test_configured_key_is_sent(openai_server: OpenAIServer):
    openai_server.script(Reply.chat('{"answer": 1}'))
    ask(make_client(openai_server, api_key="sk-local"))
    assert openai_server.chat_requests[0].headers["authorization"] == "Bearer sk-local"


# The test server itself (other modules' tests rely on it)


def test_server_models_embeddings_and_records(openai_server: OpenAIServer):
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k", max_retries=0)
    assert [m.id for m in client.models.list()] == ["test-model"]

    result = client.embeddings.create(model="embed", input=["a", "b"])
    assert [tuple(d.embedding) for d in result.data] == [fake_vector("a"), fake_vector("b")]

    openai_server.script_embeddings(Reply.embeddings([[1.0, 0.0]]))
    assert client.embeddings.create(model="embed", input="a").data[0].embedding == [1.0, 0.0]

    assert [r.path for r in openai_server.requests] == [
        "/v1/models",
        "/v1/embeddings",
        "/v1/embeddings",
    ]
    assert openai_server.embedding_requests[0].body["input"] == ["a", "b"]
    assert openai_server.pending() == 0


def test_server_without_a_script_answers_500(openai_server: OpenAIServer):
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k", max_retries=0)
    with pytest.raises(openai.InternalServerError, match="no scripted reply"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert openai_server.requests[0].path == CHAT_PATH
