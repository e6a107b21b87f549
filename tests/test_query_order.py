"""``ramem query``: each hit says why it stands where it stands, and no score contradicts the
order without saying what it is. The README's chat, real RaMem over real Chroma."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pytest

from ramem_integrations import RaMem, load_conversations
from ramem_integrations.app import cli
from ramem_integrations.core.retrieval.steps import BY_RELEVANCE
from ramem_integrations.testing import HashingEmbedder

ASKED = datetime(2023, 10, 2, tzinfo=UTC)
CHAT = [
    {
        "session_time": "2023-08-20 19:00",
        "turns": [
            {"speaker": "Bob", "text": "The trip to Lisbon was great, I loved the trams."},
            {"speaker": "Alice", "text": "I still work at Contoso Coffee."},
        ],
    },
    {
        "session_time": "2023-09-28 18:00",
        "turns": [
            {"speaker": "Bob", "text": "We are planning a trip to Rome with the kids."},
            {"speaker": "Alice", "text": "I started a new job at Northwind this week."},
        ],
    },
]  # fmt: skip
QUESTIONS = [
    "Where does Alice work now?",
    "What did Bob say about the trip last August?",
    "What did Bob say about the trip?",
    "Where did Alice work the first time she mentioned a job?",
]


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("chat") / "chat.json"
    path.write_text(json.dumps(CHAT), encoding="utf-8")
    return path


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_hit_says_what_placed_it(chat: Path, tmp_path: Path, question: str) -> None:
    mem = RaMem.from_path(tmp_path / "memory", embedder=HashingEmbedder())
    (conversation,) = load_conversations(chat)
    mem.add_conversation(conversation, "alice")
    hits = mem.retrieve(question, "alice", 4, reference=ASKED)
    assert hits and all(h.placed for h in hits)
    for above, below in pairwise(hits):
        if above.score < below.score and above.reason == below.reason:
            assert above.placed != BY_RELEVANCE, (question, above.placed)


def test_query_output_explains_a_lower_score_above_a_higher_one(
    chat: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "memory")  # the packaged model: what a user runs
    assert cli.main(["ingest", str(chat), "--store", store, "--namespace", "alice"]) == 0
    capsys.readouterr()
    question = "Where does Alice work now?"
    args = ["query", question, "--store", store, "--namespace", "alice"]
    assert cli.main([*args, "--asked-on", "2023-10-02"]) == 0
    out = capsys.readouterr().out
    texts = re.findall(r"^ ?\d+\. (.*)$", out, re.MULTILINE)
    whys = re.findall(r"^    why: (.*)$", out, re.MULTILINE)
    assert texts[:2] == [
        "I started a new job at Northwind this week.",
        "I still work at Contoso Coffee.",
    ]
    scores = [float(m) for w in whys for m in re.findall(r"content score (\d\.\d+)", w)]
    assert scores[0] < scores[1]  # the order is not the score's ...
    assert "placed: latest first" in whys[0]  # ... and the line says what set it
    assert all("placed: " in w for w in whys)


def test_the_score_label_reads_the_lifted_flag_not_the_placed_words() -> None:
    """A lifted memory the question's speaker said is placed in two steps' words; its score
    still includes the condition bonus, and the line says so."""
    from dataclasses import replace

    from ramem_integrations.app.cli import why_line
    from ramem_integrations.core.retrieval.steps import LIFTED, SAID_BY, Context, merge
    from ramem_integrations.core.types import EpisodicContext, MemoryUnit, ScoredMemory, TimeSpan

    day = TimeSpan(datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 2, tzinfo=UTC))
    unit = MemoryUnit("m", "the hike", EpisodicContext("s", day, speaker="Ann"), "ns")
    (lifted,) = merge(Context(strict=False), [ScoredMemory(unit, 0.5, "context")], [], 5, None)
    assert lifted.lifted and lifted.placed == LIFTED
    said = replace(lifted, placed=f"{LIFTED}; {SAID_BY.format(speaker='Ann')}")
    assert "score with the condition bonus" in why_line(said)
    assert "; content score " in why_line(ScoredMemory(unit, 0.5, placed=LIFTED))
