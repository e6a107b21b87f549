"""Shared pieces of the reliability tests: synthetic conversations and a time bound per call."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

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
