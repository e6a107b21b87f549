"""A thin client for any OpenAI-compatible chat endpoint, with JSON validation and fallback.

Works with OpenAI, vLLM, Ollama, llama.cpp server or anything else that speaks
``/v1/chat/completions``, through the official ``openai`` package. Every failure (timeout, refused
connection, HTTP error, rate limit after retries, empty reply, invalid or truncated JSON, output
that fails validation) raises :class:`~ramem_integrations.errors.LLMError` with a message saying
what went wrong and what to change. :func:`with_fallback` turns such an error into a
:class:`RamemFallbackWarning` and runs the rule-based path instead.

Usage::

    config = LLMConfig(model="qwen2.5:7b", base_url="http://localhost:11434/v1")
    llm = LLMClient(config)
    frame = llm.complete_json(system, question, validate=RecallFrame.from_json)

Retries are done here, not by the ``openai`` client (it is used with ``max_retries=0``): HTTP 408,
409, 429 and 5xx and connection failures are retried up to ``LLMConfig.max_retries`` times,
waiting what ``Retry-After`` asks for, capped at :data:`MAX_RETRY_WAIT` seconds.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import math
import os
import re
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import openai
from openai.types.chat import ChatCompletion

from ramem_integrations.errors import InvalidInputError, LLMError

logger = logging.getLogger(__name__)

T = TypeVar("T")

Message = dict[str, str]

PLACEHOLDER_API_KEY = "not-needed"
"""API key sent to a local server when none is configured (most local servers ignore it)."""

MAX_RETRY_WAIT = 8.0
"""Longest wait, in seconds, before a retry, whatever ``Retry-After`` asks for."""

_BASE_BACKOFF = 0.5
_RETRY_STATUSES = frozenset({408, 409, 429})
_JSON_MODE_REJECTED_STATUSES = frozenset({400, 422})
_SNIPPET_CHARS = 200
_FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)```", re.DOTALL)


class RamemFallbackWarning(UserWarning):
    """An LLM step failed and the rule-based path was used instead."""


class LLM(Protocol):
    """What the rest of the package needs from a language model (a fake in tests, or LLMClient)."""

    def chat(self, messages: list[Message]) -> str: ...

    def complete_json(
        self,
        system: str,
        user: str,
        validate: Callable[[Any], T],
        *,
        schema: dict[str, Any] | None = None,
    ) -> T: ...


@dataclass(frozen=True)
class LLMConfig:
    """Where the model is and how long to wait for it.

    ``base_url`` is the ``/v1`` root of an OpenAI-compatible server, or None for the OpenAI API.
    With a ``base_url`` and no ``api_key``, a placeholder key is sent so local servers work.
    """

    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 30.0
    max_retries: int = 1
    temperature: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise InvalidInputError("LLMConfig.model must name a model, e.g. 'gpt-4o-mini'.")
        if not self.timeout > 0:
            raise InvalidInputError(f"LLMConfig.timeout must be > 0 seconds, got {self.timeout}.")
        if not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise InvalidInputError(
                f"LLMConfig.max_retries must be an integer >= 0, got {self.max_retries!r}."
            )

    @classmethod
    def from_env(cls) -> LLMConfig | None:
        """Read the configuration from the environment; None when no model is configured.

        ``RAMEM_LLM_MODEL`` (required to enable the LLM), ``RAMEM_LLM_BASE_URL`` or
        ``OPENAI_BASE_URL``, ``RAMEM_LLM_API_KEY`` or ``OPENAI_API_KEY``, and optionally
        ``RAMEM_LLM_TIMEOUT`` (seconds). Empty values count as unset.
        """
        model = _env("RAMEM_LLM_MODEL")
        if model is None:
            return None
        timeout_text = _env("RAMEM_LLM_TIMEOUT")
        timeout = 30.0
        if timeout_text is not None:
            try:
                timeout = float(timeout_text)
            except ValueError as exc:
                raise InvalidInputError(
                    f"RAMEM_LLM_TIMEOUT={timeout_text!r} is not a number of seconds, e.g. 60."
                ) from exc
        return cls(
            model=model,
            base_url=_env("RAMEM_LLM_BASE_URL") or _env("OPENAI_BASE_URL"),
            api_key=_env("RAMEM_LLM_API_KEY") or _env("OPENAI_API_KEY"),
            timeout=timeout,
        )


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


class LLMClient:
    """Chat and validated JSON completions against an OpenAI-compatible endpoint.

    Pass ``client`` (or ``async_client``) to reuse a configured ``openai`` client; its own
    retries are turned off, since this class retries as ``config.max_retries`` says.
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        client: openai.OpenAI | None = None,
        async_client: openai.AsyncOpenAI | None = None,
    ) -> None:
        self.config = config
        self._owns_client = client is None
        if client is None:
            try:
                client = openai.OpenAI(**self._client_args())
            except openai.OpenAIError as exc:
                raise LLMError(_no_client_message(exc)) from exc
        self._client = client.with_options(max_retries=0)
        self._async_client = async_client.with_options(max_retries=0) if async_client else None
        self._owns_async_client = async_client is None
        self._json_mode = True  # False once the server rejected response_format, then answered

    def _client_args(self) -> dict[str, Any]:
        api_key = self.config.api_key
        if api_key is None and self.config.base_url is not None:
            api_key = os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_API_KEY
        args: dict[str, Any] = {"api_key": api_key, "max_retries": 0}
        if self.config.base_url is not None:
            args["base_url"] = self.config.base_url
        return args

    def _aclient(self) -> openai.AsyncOpenAI:
        if self._async_client is None:
            try:
                self._async_client = openai.AsyncOpenAI(**self._client_args())
            except openai.OpenAIError as exc:
                raise LLMError(_no_client_message(exc)) from exc
        return self._async_client

    @property
    def where(self) -> str:
        """The endpoint, for messages and logs."""
        return str(self._client.base_url).rstrip("/")

    def close(self) -> None:
        """Close the HTTP connections of the clients this object created."""
        if self._owns_client:
            self._client.close()

    async def aclose(self) -> None:
        """Close the HTTP connections of the async client this object created."""
        if self._owns_async_client and self._async_client is not None:
            await self._async_client.close()

    # Public calls

    def chat(self, messages: list[Message]) -> str:
        """Send ``messages`` and return the text of the answer."""
        text, finish_reason = self._complete(messages, json_mode=False)
        return self._chat_text(text, finish_reason)

    async def achat(self, messages: list[Message]) -> str:
        """Async :meth:`chat`."""
        text, finish_reason = await self._acomplete(messages, json_mode=False)
        return self._chat_text(text, finish_reason)

    def complete_json(
        self,
        system: str,
        user: str,
        validate: Callable[[Any], T],
        *,
        schema: dict[str, Any] | None = None,
    ) -> T:
        """Ask for a JSON object, parse it and return ``validate(obj)``.

        ``validate`` raises ValueError, TypeError, LookupError or AttributeError on bad data;
        that, like every other failure, becomes an :class:`LLMError`. ``schema``, a JSON
        schema, is shown to the model in the system message.
        """
        messages = _json_messages(system, user, schema)
        text, finish_reason = self._complete(messages, json_mode=self._json_mode)
        return self._validated(text, finish_reason, validate)

    async def acomplete_json(
        self,
        system: str,
        user: str,
        validate: Callable[[Any], T],
        *,
        schema: dict[str, Any] | None = None,
    ) -> T:
        """Async :meth:`complete_json`."""
        messages = _json_messages(system, user, schema)
        text, finish_reason = await self._acomplete(messages, json_mode=self._json_mode)
        return self._validated(text, finish_reason, validate)

    # One completion, with retries

    def _complete(self, messages: list[Message], *, json_mode: bool) -> tuple[str, str | None]:
        retries, dropped = 0, False
        while True:
            try:
                reply = self._client.chat.completions.create(**self._params(messages, json_mode))
            except (openai.OpenAIError, ValueError) as exc:
                if json_mode and self._rejects_json_mode(exc):
                    json_mode, dropped = False, True  # retry once without response_format
                    continue
                wait = self._retry_wait(exc, retries)
                retries += 1
                time.sleep(wait)
                continue
            if dropped:  # the server answers without response_format: stop sending it
                self._json_mode = False
            return self._reply_text(reply)

    async def _acomplete(
        self, messages: list[Message], *, json_mode: bool
    ) -> tuple[str, str | None]:
        retries, dropped = 0, False
        while True:
            try:
                reply = await self._aclient().chat.completions.create(
                    **self._params(messages, json_mode)
                )
            except (openai.OpenAIError, ValueError) as exc:
                if json_mode and self._rejects_json_mode(exc):
                    json_mode, dropped = False, True  # retry once without response_format
                    continue
                wait = self._retry_wait(exc, retries)
                retries += 1
                await asyncio.sleep(wait)
                continue
            if dropped:  # the server answers without response_format: stop sending it
                self._json_mode = False
            return self._reply_text(reply)

    def _params(self, messages: list[Message], json_mode: bool) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
            "timeout": self.config.timeout,
        }
        if json_mode:
            params["response_format"] = {"type": "json_object"}
        return params

    def _rejects_json_mode(self, exc: Exception) -> bool:
        """True on a 400/422, which may mean the server does not support response_format."""
        status = getattr(exc, "status_code", None)
        if not isinstance(exc, openai.APIStatusError) or status not in (
            _JSON_MODE_REJECTED_STATUSES
        ):
            return False
        logger.info(
            "%s rejected the request with HTTP %s; retrying without response_format (%s)",
            self.where,
            status,
            exc.message,
        )
        return True

    def _retry_wait(self, exc: Exception, retries: int) -> float:
        """Seconds to wait before retrying ``exc``; raises LLMError when it is not retried."""
        retryable = isinstance(exc, openai.APIConnectionError) or (
            isinstance(exc, openai.APIStatusError)
            and (exc.status_code in _RETRY_STATUSES or exc.status_code >= 500)
        )
        if not retryable or retries >= self.config.max_retries:
            raise self._error(exc, attempts=retries + 1) from exc
        wait: float = min(_BASE_BACKOFF * 2**retries, MAX_RETRY_WAIT)
        if isinstance(exc, openai.APIStatusError):
            asked = _retry_after(exc.response.headers)
            if asked is not None:
                wait = min(asked, MAX_RETRY_WAIT)
        logger.warning(
            "LLM call to %s failed (%s); retry %d of %d in %.2f s",
            self.where,
            _describe(exc),
            retries + 1,
            self.config.max_retries,
            wait,
        )
        return wait

    def _error(self, exc: Exception, *, attempts: int) -> LLMError:
        where, model, timeout = self.where, self.config.model, self.config.timeout
        tried = f" after {attempts} attempts" if attempts > 1 else ""
        if isinstance(exc, openai.APITimeoutError):
            text = (
                f"The LLM at {where} (model {model!r}) did not answer within {timeout} s{tried}. "
                "Raise LLMConfig.timeout (RAMEM_LLM_TIMEOUT) or check that the server is not "
                "overloaded."
            )
        elif isinstance(exc, openai.APIConnectionError):
            text = (
                f"Could not get an answer from the LLM at {where}{tried}: {_describe(exc)}. "
                "Check that the server is running and that LLMConfig.base_url "
                "(RAMEM_LLM_BASE_URL) is right, including the /v1 suffix."
            )
        elif isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            text = (
                f"The LLM at {where} refused the API key (HTTP {exc.status_code}): {exc.message}. "
                "Set RAMEM_LLM_API_KEY or OPENAI_API_KEY (LLMConfig.api_key)."
            )
        elif isinstance(exc, openai.NotFoundError):
            text = (
                f"The LLM at {where} answered HTTP 404: {exc.message}. Check the model name "
                f"{model!r} (LLMConfig.model, RAMEM_LLM_MODEL) and that base_url ends in /v1."
            )
        elif isinstance(exc, openai.RateLimitError):
            text = (
                f"The LLM at {where} is rate-limiting requests (HTTP 429){tried}: {exc.message}. "
                "Wait and try again, or raise LLMConfig.max_retries."
            )
        elif isinstance(exc, openai.APIStatusError):
            side = "server error" if exc.status_code >= 500 else "rejected the request"
            text = (
                f"The LLM at {where} {side} (HTTP {exc.status_code}){tried}: {exc.message}. "
                f"Check the model name {model!r} and the server's logs."
            )
        elif isinstance(exc, ValueError):
            text = (
                f"The LLM at {where} sent a response body that is not valid JSON ({exc}). "
                "Check that base_url points at an OpenAI-compatible /v1 endpoint."
            )
        else:
            text = f"The LLM call to {where} failed: {_describe(exc)}."
        return LLMError(text)

    # Reading the reply

    def _reply_text(self, reply: object) -> tuple[str, str | None]:
        if not isinstance(reply, ChatCompletion):
            raise LLMError(
                f"The LLM at {self.where} did not return a chat completion (got "
                f"{_snippet(str(reply))!r}). Check that base_url points at an OpenAI-compatible "
                "/v1 endpoint."
            )
        choices = getattr(reply, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        content = getattr(message, "content", None)
        if not isinstance(content, str) or not content.strip():
            refusal = getattr(message, "refusal", None)
            reason = f" (refusal: {refusal})" if refusal else ""
            raise LLMError(
                f"The LLM at {self.where} (model {self.config.model!r}) returned an empty "
                f"reply{reason}. Check that the model is loaded and can answer chat requests."
            )
        finish_reason = getattr(choices[0], "finish_reason", None)
        return content, finish_reason if isinstance(finish_reason, str) else None

    def _chat_text(self, text: str, finish_reason: str | None) -> str:
        if finish_reason == "length":
            logger.warning("LLM answer from %s was cut at the token limit", self.where)
        return text

    def _validated(self, text: str, finish_reason: str | None, validate: Callable[[Any], T]) -> T:
        try:
            obj = extract_json(text)
        except ValueError as exc:
            if finish_reason == "length":
                raise LLMError(
                    f"The JSON reply of model {self.config.model!r} was truncated at its token "
                    f"limit: {_snippet(text)!r}. Use a model or server setting with a larger "
                    "output limit, or a shorter input."
                ) from exc
            raise LLMError(
                f"Model {self.config.model!r} did not reply with valid JSON ({exc}): "
                f"{_snippet(text)!r}. Try a model that follows JSON instructions better."
            ) from exc
        try:
            return validate(obj)
        except (ValueError, TypeError, LookupError, AttributeError) as exc:
            raise LLMError(
                f"The JSON reply of model {self.config.model!r} failed validation "
                f"({type(exc).__name__}: {exc}): {_snippet(text)!r}. Try a stronger model."
            ) from exc


def extract_json(text: str) -> Any:
    """Parse the JSON in a model's reply: strips ```json fences, else takes the outermost {...}.

    Raises ValueError (a ``json.JSONDecodeError`` or plain ValueError) when there is none.
    """
    body = text.strip()
    fenced = _FENCE.search(body)
    if fenced:
        body = fenced.group(1).strip()
    elif body.startswith("```"):  # an opening fence with no closing one
        body = body.partition("\n")[2].strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        start, end = body.find("{"), body.rfind("}")
        if start == -1 or end <= start:
            raise ValueError(f"no complete JSON object found: {exc}") from exc
        return json.loads(body[start : end + 1])


def whole_number(value: Any, what: str, *, minimum: int) -> int:
    """``value`` when it is an integer of at least ``minimum`` (not a bool), else an
    InvalidInputError naming ``what`` ("LLMAnchorer window")."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInputError(f"{what} must be an integer >= {minimum}, got {value!r}.")
    return value


def with_fallback(primary: Callable[[], T], fallback: Callable[[], T], what: str) -> T:
    """Return ``primary()``; on an :class:`LLMError`, warn and return ``fallback()`` instead.

    The warning (logged, and issued as a :class:`RamemFallbackWarning`) reads
    "<what> fell back to the rule-based path: <reason>".
    """
    try:
        return primary()
    except LLMError as exc:
        message = f"{what} fell back to the rule-based path: {exc}"
        logger.warning(message)
        warnings.warn(message, RamemFallbackWarning, stacklevel=2)
        return fallback()


def _json_messages(system: str, user: str, schema: dict[str, Any] | None) -> list[Message]:
    parts = [system.strip()] if system.strip() else []
    if schema is not None:
        parts.append(
            "Reply with one JSON object, and nothing else, that follows this JSON schema:\n"
            + json.dumps(schema, ensure_ascii=False)
        )
    elif "json" not in (system + user).lower():
        # OpenAI's JSON mode rejects requests whose messages never mention JSON.
        parts.append("Reply with one JSON object and nothing else.")
    return [{"role": "system", "content": "\n\n".join(parts)}, {"role": "user", "content": user}]


def _no_client_message(exc: Exception) -> str:
    return (
        f"Could not create the OpenAI client: {exc}. Set RAMEM_LLM_API_KEY or OPENAI_API_KEY "
        "(LLMConfig.api_key), or LLMConfig.base_url (RAMEM_LLM_BASE_URL) for a local server."
    )


def _retry_after(headers: Any) -> float | None:
    """Seconds asked for by ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date)."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            parsed = email.utils.parsedate_tz(value) if name == "retry-after" else None
            if parsed is None:
                continue
            seconds = email.utils.mktime_tz(parsed) - time.time()
        if math.isfinite(seconds):
            return max(seconds, 0.0)
    return None


def _describe(exc: Exception) -> str:
    cause = exc.__cause__
    detail = f"{exc}; {cause}" if cause is not None and str(cause) not in str(exc) else str(exc)
    return f"{type(exc).__name__}: {detail}"


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET_CHARS else text[: _SNIPPET_CHARS - 3] + "..."
