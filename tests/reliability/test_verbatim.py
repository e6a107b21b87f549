"""The user's words are stored, returned, exported and shown exactly as given (issue 13, 2).

Every turn of the shipped sample, a small chat fixture and a chat file of our own (double
spaces, a trailing space, a newline, U+2028, emoji, quotes, "{question}", relative dates, a
turn that starts with its own speaker's name) is
ingested with ``ramem ingest``; then every stored memory, every exported line, every retrieved
hit and every rendered prompt block carries the input text unchanged. The restatement lives
beside it in the metadata.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ramem_integrations.app.cli import main
from ramem_integrations.app.demo import sample_path
from ramem_integrations.memory.ramem import RaMem

pytestmark = pytest.mark.reliability

FIXTURES = Path(__file__).parent.parent / "fixtures"
FILES = [sample_path(), FIXTURES / "chat_small.json", FIXTURES / "chat_own.json"]


def input_texts(path: Path) -> dict[str, str]:
    """Turn id -> text, read straight from the chat JSON (not through the loader)."""
    texts = {}
    for index, session in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        sid = session.get("session_id", f"session_{index + 1}")
        for j, turn in enumerate(session["turns"]):
            texts[turn.get("id") or f"{sid}:{j + 1}"] = turn["text"]
    return texts


def shown_turns(prompt: str) -> list[tuple[str, str]]:
    """(speaker, text) of every turn line of a prompt's memories: ``Speaker: "quoted text"``
    under each episode's ``[n] said ...`` line."""
    memories = prompt.split("\nMemories:\n", 1)[1].split("\n\nAnswer in ", 1)[0]
    turns = [line for line in memories.splitlines() if line and not line.startswith("[")]
    return [(line.split(": ", 1)[0], json.loads(line.split(": ", 1)[1])) for line in turns]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_turn_is_stored_returned_exported_and_rendered_verbatim(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = input_texts(path)
    store = tmp_path / "store"
    assert main(["ingest", str(path), "--store", str(store), "--namespace", "v"]) == 0
    mem = RaMem.from_path(store)
    stored = {m.source_ids[0]: m for m in mem.memories("v")}
    assert {i: m.content for i, m in stored.items()} == expected  # texts changed: 0
    assert all(m.restatement and m.context.speaker in m.restatement for m in stored.values())

    out = tmp_path / "v.jsonl"
    assert main(["export", "--store", str(store), "--namespace", "v", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n")[1:-1]]
    assert sorted(row["content"] for row in lines) == sorted(expected.values())
    restored = tmp_path / "restored"
    assert main(["import", str(out), "--store", str(restored)]) == 0
    again = {m.source_ids[0]: m.content for m in RaMem.from_path(restored).memories("v")}
    assert again == expected

    for text in expected.values():
        hits = mem.retrieve(text.strip() or "x", "v", k=3)
        assert [h.memory.content for h in hits] == [expected[h.memory.source_ids[0]] for h in hits]
        prompt = mem.render(text, hits)
        assert sorted(shown_turns(prompt)) == sorted(
            (h.memory.context.speaker, h.memory.content) for h in hits
        )
    capsys.readouterr()
