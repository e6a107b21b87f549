"""A small OpenAI-compatible HTTP server for tests, with scripted replies.

Runs on 127.0.0.1 on a free port in a background thread. Chat completions answer from a queue of
scripted :class:`Reply` objects (a completion, an HTTP error, a delay, a raw or truncated body);
embeddings answer from their own queue, or with deterministic vectors when it is empty;
``GET /v1/models`` lists the models. Every request is recorded for assertions.

In a test, start one with :func:`openai_server_running` (the project's own tests wrap it in an
``openai_server`` pytest fixture)::

    with openai_server_running() as openai_server:
        openai_server.script(Reply.chat('{"ok": true}'))
        config = LLMConfig(model="m", base_url=openai_server.base_url, max_retries=0)
        ...
        assert openai_server.chat_requests[0].body["model"] == "m"
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

logger = logging.getLogger(__name__)

CHAT_PATH = "/v1/chat/completions"
EMBEDDINGS_PATH = "/v1/embeddings"
MODELS_PATH = "/v1/models"
DEFAULT_DIMENSIONS = 8


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build it with the class methods."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0
    truncate: bool = False
    content: str | None = None  # chat content, filled into a completion for the request's model
    finish_reason: str = "stop"
    vectors: tuple[tuple[float, ...], ...] | None = None  # for embeddings

    @classmethod
    def chat(cls, content: str, *, finish_reason: str = "stop", delay: float = 0.0) -> Reply:
        """A chat completion whose message has ``content``."""
        return cls(content=content, finish_reason=finish_reason, delay=delay)

    @classmethod
    def error(
        cls, status: int, message: str = "scripted error", *, headers: dict[str, str] | None = None
    ) -> Reply:
        """An HTTP error with an OpenAI-style error body."""
        body = {"error": {"message": message, "type": "test_error", "param": None, "code": None}}
        return cls(status=status, body=_dumps(body), headers=tuple((headers or {}).items()))

    @classmethod
    def rate_limited(cls, retry_after: str = "0.1") -> Reply:
        """HTTP 429 with a Retry-After header."""
        return cls.error(429, "rate limited", headers={"Retry-After": retry_after})

    @classmethod
    def raw(
        cls, body: str | bytes, *, status: int = 200, content_type: str = "text/plain"
    ) -> Reply:
        """A body sent as is."""
        data = body.encode() if isinstance(body, str) else body
        return cls(status=status, body=data, content_type=content_type)

    @classmethod
    def truncated(cls, content: str = '{"ok": true}') -> Reply:
        """A chat completion whose HTTP body stops halfway (Content-Length claims it all)."""
        return cls(content=content, truncate=True)

    @classmethod
    def slow(cls, seconds: float, content: str = '{"ok": true}') -> Reply:
        """A chat completion sent after ``seconds``."""
        return cls(content=content, delay=seconds)

    @classmethod
    def embeddings(cls, vectors: list[list[float]]) -> Reply:
        """An embeddings response with these vectors, one per input."""
        return cls(vectors=tuple(tuple(v) for v in vectors))


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any  # the parsed JSON body, or None


@dataclass
class OpenAIServer:
    """The running server: script replies, read recorded requests, ``base_url`` for clients."""

    models: tuple[str, ...] = ("test-model",)
    dimensions: int = DEFAULT_DIMENSIONS
    requests: list[RecordedRequest] = field(default_factory=list)
    _chat: deque[Reply] = field(default_factory=deque)
    _embeddings: deque[Reply] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _httpd: _Server | None = None
    _thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running; use openai_server_running()")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next chat completion requests, in order."""
        with self._lock:
            self._chat.extend(replies)

    def script_embeddings(self, *replies: Reply) -> None:
        """Queue replies for the next embeddings requests, in order."""
        with self._lock:
            self._embeddings.extend(replies)

    def pending(self) -> int:
        """How many scripted replies are still unused."""
        with self._lock:
            return len(self._chat) + len(self._embeddings)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path == CHAT_PATH]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path == EMBEDDINGS_PATH]

    def start(self) -> None:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop serving, wake delayed handlers, and join every thread."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()  # joins handler threads (daemon_threads is False)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None

    # Called from handler threads

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next(self, queue: deque[Reply]) -> Reply | None:
        with self._lock:
            return queue.popleft() if queue else None


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # so server_close() joins handler threads
    block_on_close = True
    owner: OpenAIServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        logger.debug("test server: error while answering %s", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"  # one request per connection: no idle keep-alive threads
    timeout = 5  # socket timeout, so a silent client cannot hold a thread

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("test server: " + format, *args)

    def do_GET(self) -> None:
        owner = self.server.owner
        owner._record(
            RecordedRequest("GET", self.path, {k.lower(): v for k, v in self.headers.items()}, None)
        )
        if self.path.rstrip("/") == MODELS_PATH:
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in owner.models
            ]
            self._send(Reply(body=_dumps({"object": "list", "data": data})))
        else:
            self._send(Reply.error(404, f"no route {self.path}"))

    def do_POST(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        owner._record(
            RecordedRequest(
                "POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body
            )
        )
        path = self.path.rstrip("/")
        if path == CHAT_PATH:
            reply = owner._next(owner._chat) or Reply.error(500, "no scripted reply left")
            self._answer(reply, lambda r: _completion(r, body))
        elif path == EMBEDDINGS_PATH:
            reply = owner._next(owner._embeddings) or Reply()
            self._answer(reply, lambda r: _embeddings(r, body, owner.dimensions))
        else:
            self._send(Reply.error(404, f"no route {self.path}"))

    def _answer(self, reply: Reply, build: Any) -> None:
        if reply.delay and self.server.owner._stopping.wait(reply.delay):
            return  # the server is shutting down; the client has given up long ago
        if reply.status == 200 and not reply.body:
            reply = Reply(body=_dumps(build(reply)), truncate=reply.truncate, headers=reply.headers)
        self._send(reply)

    def _send(self, reply: Reply) -> None:
        body = reply.body
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in reply.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body[: len(body) // 2] if reply.truncate else body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            logger.debug("test server: client went away before the reply was sent")


def _completion(reply: Reply, request: Any) -> dict[str, Any]:
    model = request.get("model", "test-model") if isinstance(request, dict) else "test-model"
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _embeddings(reply: Reply, request: Any, dimensions: int) -> dict[str, Any]:
    raw = request.get("input", []) if isinstance(request, dict) else []
    inputs = [raw] if isinstance(raw, str) else list(raw)
    vectors = reply.vectors or tuple(fake_vector(str(text), dimensions) for text in inputs)
    model = request.get("model", "test-embed") if isinstance(request, dict) else "test-embed"
    return {
        "object": "list",
        "data": [
            {"object": "embedding", "index": i, "embedding": list(v)} for i, v in enumerate(vectors)
        ],
        "model": model,
        "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
    }


def fake_vector(text: str, dimensions: int = DEFAULT_DIMENSIONS) -> tuple[float, ...]:
    """A deterministic unit vector for ``text`` (what the server embeds unscripted input as)."""
    digest = hashlib.sha256(text.encode()).digest()
    values = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dimensions)]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return tuple(v / norm for v in values)


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def closed_port() -> int:
    """A local port with nothing listening on it (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def openai_server_running(**kwargs: Any) -> Iterator[OpenAIServer]:
    """Run an :class:`OpenAIServer` for the duration of the ``with`` block."""
    server = OpenAIServer(**kwargs)
    server.start()
    try:
        yield server
    finally:
        server.stop()
