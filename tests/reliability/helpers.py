"""Shared pieces of the reliability tests: synthetic conversations and a time bound per call."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import chromadb
import pytest

from ramem_integrations.core.conversation import Conversation, Session, Turn

T = TypeVar("T")

PEOPLE = ("Ann", "Ben", "Bob", "Cleo", "Dev")
WORDS = [
    "dentist",
    "trip",
    "Paris",
    "pottery",
    "class",
    "hiking",
    "lake",
    "weather",
    "concert",
    "sister",
    "job",
    "interview",
    "garden",
    "bread",
    "recipe",
    "guitar",
    "lesson",
    "marathon",
    "flight",
    "museum",
    "painting",
    "budget",
]
TIMES = ("yesterday", "last week", "two days ago", "next month", "on 3 May 2023", "last August")
START = datetime(2023, 1, 2, 9, tzinfo=UTC)


def synthetic_conversation(
    conv_id: str, sessions: int, turns: int, *, seed: int = 0, start: datetime = START
) -> Conversation:
    """A deterministic conversation of ``sessions`` x ``turns`` turns, a week apart."""
    rng = random.Random(seed)
    out = []
    for s in range(sessions):
        when = start + timedelta(days=7 * s)
        sid = f"s{s + 1}"
        rows = []
        for t in range(turns):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))
            cue = rng.choice(TIMES) if rng.random() < 0.3 else ""
            other = rng.choice(PEOPLE)
            text = f"I talked with {other} about the {words} {cue}".strip() + "."
            rows.append(Turn(f"{sid}:{t + 1}", PEOPLE[t % 2], text))
        out.append(Session(sid, when, tuple(rows)))
    return Conversation(conv_id, tuple(out))


def within(seconds: float, call: Callable[[], T]) -> T:
    """Run ``call`` in a thread; fail if it takes longer than ``seconds``, else return or raise
    what it did. (A thread cannot be killed: a hang fails the test and the thread is left as a
    daemon.)"""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed back to the caller below
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise AssertionError(f"call did not finish within {seconds} s (a hang)")
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


def conversation_json(conversation: Conversation) -> list[dict[str, Any]]:
    """The chat-format JSON of a conversation (what ``load_conversations`` reads back)."""
    return [
        {
            "session_id": s.id,
            "session_time": s.start.isoformat(),
            "turns": [{"id": t.id, "speaker": t.speaker, "text": t.text} for t in s.turns],
        }
        for s in conversation.sessions
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ChromaServer:
    """``chroma run`` on a directory, on loopback, started and stopped by its pid."""

    def __init__(self, path: Path) -> None:
        self.path, self.port = path, free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.url = f"http://{self.address}"
        chroma = Path(sys.executable).with_name("chroma")
        args = ["run", "--path", str(path), "--host", "127.0.0.1", "--port", str(self.port)]
        self.proc = subprocess.Popen(
            [str(chroma), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1)
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.kill()
                    pytest.fail("the chroma server did not start")
                time.sleep(0.2)

    def client(self) -> Any:
        return chromadb.HttpClient(host="127.0.0.1", port=self.port)

    def kill(self) -> None:
        """SIGKILL: the server dies as a crash would."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not stop within 10 s."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
