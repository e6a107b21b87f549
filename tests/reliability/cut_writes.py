"""A write or a forget killed at every step, with a warm reader open: what the reader serves.

For each step N of the operation (each write call to Chroma: the data, the write marks), a
process on a Chroma server runs it and kills itself with SIGKILL just before its N-th write
call (``runner --kill-at N``); the last N is the first the process gets through. After the
kill a reader whose caches were warm before it started is compared with the store as a fresh
reader finds it; then the operation is run again to completion (the re-run the error message
advises, by another writer) and the reader compared again, and the store with what the
operation should leave. Shared by the tests and ``python -m tests.reliability.write_counts``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ramem_integrations.core.conversation import Conversation, load_conversations
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder, parts
from tests.reliability.helpers import conversation_json, synthetic_conversation

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2025, 6, 2, 18, tzinfo=UTC)
OLD = [
    {"speaker": "Maya", "text": "I walked the dog by the river."},
    {"speaker": "Sam", "text": "My sister bought a kiwi tart."},
]
QUERIES = ("dentist", "pottery class", "river dog", "sister kiwi", "Paris trip")


@dataclass
class Cuts:
    """What kills at every step of an operation left, summed over the steps."""

    kills: int = 0  # runs killed at a step (the last run of each operation is not)
    steps: int = 0  # write calls one whole operation makes
    stale_after_kill: int = 0  # memories a warm reader serves wrongly after a kill
    stale_after_rerun: int = 0  # ... after the operation was run again
    lost: int = 0  # memories the operation should leave that are not stored after the re-run
    wrong: int = 0  # stored with other text, or stored when they should be gone
    duplicated: int = 0  # rows of one id beyond the first
    details: list[dict[str, Any]] = field(default_factory=list)


def _client(server: str) -> Any:
    import chromadb

    host, port = server.rsplit(":", 1)
    return chromadb.HttpClient(host=host, port=int(port))


def open_mem(server: str) -> RaMem:
    return RaMem.from_client(_client(server), embedder=HashingEmbedder())


def view(mem: RaMem, namespace: str) -> dict[str, Any]:
    """What a reader serves: the memories retrieval reads (its cache, brought up to date as a
    read does), and the ids BM25 and dense retrieval rank per query."""
    ranked = {
        (q, mode): [h.memory.id for h in mem.retrieve(q, namespace, 5, mode=mode)]
        for q in QUERIES
        for mode in ("bm25", "dense")
    }
    cached = {u.id: u.content for u in parts(mem).cache.memories(namespace).values()}
    return {"memories": cached, "ranked": ranked}


def stale(reader: RaMem, server: str, namespace: str) -> int:
    """How many memories the warm reader serves unlike a fresh reader: missing, extra, other
    text, plus queries whose BM25 ranking differs."""
    mine, truth = view(reader, namespace), view(open_mem(server), namespace)
    pairs, real = set(mine["memories"].items()), set(truth["memories"].items())
    ranks = sum(mine["ranked"][key] != truth["ranked"][key] for key in truth["ranked"])
    return len(pairs ^ real) + ranks


def conversation(tmp: Path) -> tuple[Path, Conversation]:
    """The conversation the write stores: 20 turns, so two batches of 16 (``runner.BATCH``)."""
    path = tmp / "new.json"
    path.write_text(json.dumps(conversation_json(synthetic_conversation("new", 1, 20, seed=7))))
    (loaded,) = load_conversations(path)
    return path, loaded


def cut_rounds(server: str, tmp: Path, operation: str) -> Cuts:
    """Kill ``operation`` ("write" or "forget") at every step; see the module docstring."""
    path, conv = conversation(tmp)
    seeder = open_mem(server)
    cuts = Cuts()
    step = 0
    while True:
        step += 1
        namespace = f"{operation}{step}"
        seeder.add_turns(OLD, namespace, session_time=WHEN, session_id="s0", conversation_id="old")
        if operation == "forget":
            seeder.add_conversation(conv, namespace)
        reader = open_mem(server)
        view(reader, namespace)  # warm: its caches are loaded
        command, what = ("ingest", str(path)) if operation == "write" else ("forget", conv.id)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.reliability.runner",
                command,
                "-",
                what,
                namespace,
                "--server",
                server,
                "--kill-at",
                str(step),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=180,
        )
        finished = done.returncode == 0 and "done" in done.stdout
        assert finished or done.returncode == -9, done.stderr[-2000:]
        row = {"step": step, "killed": not finished, "after_kill": stale(reader, server, namespace)}
        again = open_mem(server)  # the re-run: another writer
        if operation == "write":
            again.add_conversation(conv, namespace)
        else:
            again.forget(namespace, conversation_id=conv.id)
        row["after_rerun"] = stale(reader, server, namespace)
        expected = {u.id: u.content for u in seeder.anchor(conv, namespace)}
        truth = open_mem(server)
        stored = {u.id: u.content for u in truth.memories(namespace)}
        old = {i: t for i, t in stored.items() if t in {o["text"] for o in OLD}}
        want = {**old, **(expected if operation == "write" else {})}
        rows = truth.store.ids(namespace)
        row["lost"] = len(set(want) - set(stored)) + (len(old) != len(OLD))
        row["wrong"] = sum(stored.get(i, text) != text for i, text in want.items()) + len(
            set(stored) - set(want)
        )
        row["duplicated"] = len(rows) - len(set(rows))
        cuts.details.append(row)
        cuts.kills += not finished
        cuts.stale_after_kill += row["after_kill"]
        cuts.stale_after_rerun += row["after_rerun"]
        cuts.lost += row["lost"]
        cuts.wrong += row["wrong"]
        cuts.duplicated += row["duplicated"]
        if finished:
            cuts.steps = step - 1
            return cuts
