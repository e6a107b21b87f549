"""Ids cannot leave their namespace (issue 31, items 2 and 3).

An id names a memory within its namespace: the same id written for alice and for carol is two
memories, and no write into one namespace (an add, an import of a crafted file) ever removes
or changes another namespace's memories.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability

RAMEM = Path(sys.executable).with_name("ramem")
SPAN = TimeSpan(datetime(2025, 5, 30, 19, tzinfo=UTC), datetime(2025, 5, 30, 20, tzinfo=UTC))


def memory(namespace: str, memory_id: str, text: str) -> MemoryUnit:
    """A memory under an id chosen by the caller (a LangChain Document id, a node id)."""
    context = EpisodicContext("s1", SPAN)
    return MemoryUnit(memory_id, text, context, namespace, (memory_id,), "notes")


def test_the_same_id_written_for_two_namespaces_is_two_memories(tmp_path: Path) -> None:
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_memories([memory("alice", "doc-1", "Alice booked the dentist for Friday.")])
    mem.add_memories([memory("carol", "doc-1", "Carol flies to Lisbon in August.")])
    fresh = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())  # what is stored
    assert [u.content for u in fresh.memories("alice")] == ["Alice booked the dentist for Friday."]
    assert [u.content for u in fresh.memories("carol")] == ["Carol flies to Lisbon in August."]
    hits = fresh.retrieve("dentist", "alice", k=5, mode="bm25")
    assert [h.memory.content for h in hits] == ["Alice booked the dentist for Friday."]
    assert fresh.forget("carol", ids=["doc-1"]) == 1  # forgetting carol's leaves alice's
    assert fresh.namespaces() == {"alice": 1}


def ramem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(RAMEM), *args], capture_output=True, text=True, timeout=300, check=False
    )


def crafted(export: Path, out: Path, namespace: str, edit: dict[int, str]) -> Path:
    """``export`` relabelled as a backup of ``namespace``, with the texts of lines in ``edit``
    (1 is the first memory) replaced: ids and everything else kept."""
    header, *rows = [json.loads(line) for line in export.read_text().splitlines()]
    header["namespace"] = namespace
    for number, row in enumerate(rows, 1):
        row["metadata"]["namespace"] = namespace
        row["content"] = edit.get(number, row["content"])
    out.write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    return out


def test_import_never_moves_memories_out_of_another_namespace(tmp_path: Path) -> None:
    """A file whose header says ``mallory`` but holds bob's ids (one text edited) is imported
    into mallory only, says what it added; bob keeps every memory, word for word."""
    store, chat = str(tmp_path / "store"), tmp_path / "chat.json"
    turns = ["I start at Brightwave on 16 June.", "My cat Miso saw the vet.", "We fly to Lisbon."]
    session = {"session_time": "2025-05-30 19:00", "turns": []}
    session["turns"] = [{"speaker": "Bob", "text": t} for t in turns]
    chat.write_text(json.dumps([session]))
    assert ramem("ingest", str(chat), "--store", store, "--namespace", "bob").returncode == 0
    bob = tmp_path / "bob.jsonl"
    assert (
        ramem("export", "--store", store, "--namespace", "bob", "--out", str(bob)).returncode == 0
    )
    count = len(bob.read_text().splitlines()) - 1
    assert count == 3

    forged = crafted(bob, tmp_path / "forged.jsonl", "mallory", {1: "Bob owes Mallory 500."})
    done = ramem("import", str(forged), "--store", store)
    assert done.returncode == 0, done.stderr
    after = tmp_path / "bob-after.jsonl"
    ramem("export", "--store", store, "--namespace", "bob", "--out", str(after))
    assert after.read_bytes() == bob.read_bytes()  # bob lost nothing, no word changed
    assert done.stdout.strip() == (
        f"{count} memories read into namespace 'mallory': {count} added, 0 changed, "
        "0 already stored"
    )

    # the target's own stored words are never overwritten silently either (mallory is named:
    # a file alone never writes into a namespace that holds memories)
    again = crafted(bob, tmp_path / "again.jsonl", "mallory", {1: "Bob owes Mallory 900."})
    named = ("--namespace", "mallory")
    refused = ramem("import", str(again), "--store", store, *named, "--json")
    assert refused.returncode != 0
    assert "would be overwritten with different text" in refused.stderr
    assert "Nothing was written" in refused.stderr
    replaced = ramem("import", str(again), "--store", store, *named, "--replace", "--json")
    assert json.loads(replaced.stdout) == {
        "namespace": "mallory",
        "read": count,
        "added": 0,
        "changed": 1,
        "written": 1,
    }
