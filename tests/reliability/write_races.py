"""Two writers of one memory id at the same moment: threads, processes through a Chroma server,
and ``RaMemMemory`` exchanges saved in the same instant. Shared by the tests and by
``python -m tests.reliability.write_counts``.

Each round, two writers store the same id with different text, released together by a
barrier. A round *loses a text silently* when both writers were told OK and one text is not
stored. A writer told no (a ``MemoryConflictError``) has lost nothing silently.

    python -m tests.reliability.write_races SERVER WHO   # a process writer (reads rounds on stdin)
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import MemoryConflictError
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2025, 6, 2, 18, tzinfo=UTC)


@dataclass
class Tally:
    """Rounds of a race and how they ended."""

    rounds: int = 0
    both_stored: int = 0  # both texts kept (two memories)
    loser_told: int = 0  # one text kept, the other writer got a MemoryConflictError
    lost_silently: int = 0  # both told OK, one text gone
    torn: int = 0  # stored memories whose vector is not their own text's (parts of two writes)

    def count(self, told_ok: list[bool], texts: list[str], stored: set[str]) -> None:
        self.rounds += 1
        kept = [text in stored for text in texts]
        if all(kept):
            self.both_stored += 1
        elif any(ok and not k for ok, k in zip(told_ok, kept, strict=True)):
            self.lost_silently += 1
        else:
            self.loser_told += 1


def torn(mem: RaMem, namespace: str) -> int:
    """How many memories of ``namespace`` are stored with a vector other than their text's."""
    units, vectors = mem.store.get_with_vectors(namespace)
    own = memory_vectors(mem.embedder, units)
    return sum(not np.allclose(a, b, atol=1e-5) for a, b in zip(vectors, own, strict=True))


def unit(memory_id: str, text: str, namespace: str = "race") -> MemoryUnit:
    ctx = EpisodicContext(
        session_id="s1",
        session_span=TimeSpan(WHEN, WHEN + timedelta(minutes=1)),
        participants=("Ann",),
        speaker="Ann",
    )
    return MemoryUnit(memory_id, text, ctx, namespace, (memory_id,), "c")


def write(mem: RaMem, memory: MemoryUnit) -> bool:
    """Store one memory; True when told OK, False when told it conflicts."""
    try:
        mem.add_memories([memory])
    except MemoryConflictError:
        return False
    return True


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at the same moment; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except BaseException as exc:  # handed back below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    if errors:
        raise errors[0]
    return results


def thread_rounds(mems: tuple[RaMem, RaMem], rounds: int) -> Tally:
    """Two threads (on the two RaMem objects given, which may be one) write id ``t<n>``."""
    tally = Tally()
    for n in range(rounds):
        texts = [f"Ann said version A of note {n}.", f"Ann said version B of note {n}."]
        writes = [unit(f"t{n}", text) for text in texts]
        told = together([lambda m=m, u=u: write(m, u) for m, u in zip(mems, writes, strict=True)])
        tally.count(told, texts, {u.content for u in mems[0].store.get("race", ids=[f"t{n}"])})
    tally.torn = torn(mems[0], "race")
    return tally


def exchange_rounds(mem: RaMem, rounds: int) -> Tally:
    """Two threads save an exchange of one ``RaMemMemory`` whose clock stands still."""
    from ramem_integrations.langchain.memory import RaMemMemory

    tally = Tally()
    for n in range(rounds):
        when = WHEN + timedelta(days=n)
        memory = RaMemMemory(memory=mem, namespace="chat", clock=lambda when=when: when)
        texts = [f"My sister's name is Ana ({n}).", f"My brother's name is Tom ({n})."]

        def save(text: str, memory: RaMemMemory = memory) -> bool:
            try:
                memory.save_context({"input": text}, {"output": "Noted."})
            except MemoryConflictError:
                return False
            return True

        told = together([lambda t=t: save(t) for t in texts])
        tally.count(told, texts, {u.content for u in mem.store.get("chat")})
    tally.torn = torn(mem, "chat")
    return tally


def process_rounds(server: str, rounds: int) -> Tally:
    """Two processes on a Chroma server write id ``p<n>``, each told the round on stdin."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.write_races", server, who],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("A", "B")
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            assert line == "ready", line + (proc.stderr.read() if proc.stderr else "")
        reader = RaMem.from_client(_client(server), embedder=HashingEmbedder())
        tally = Tally()
        for n in range(rounds):
            for proc in procs:
                assert proc.stdin is not None
                proc.stdin.write(f"{n}\n")
                proc.stdin.flush()
            told = [_answer(proc) == "ok" for proc in procs]
            stored = {u.content for u in reader.store.get("race", ids=[f"p{n}"])}
            tally.count(told, [_text("A", n), _text("B", n)], stored)
        tally.torn = torn(reader, "race")
        return tally
    finally:
        for proc in procs:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=60)


def _answer(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line in ("ok", "conflict"), line + (proc.stderr.read() if proc.stderr else "")
    return line


def _text(who: str, n: int) -> str:
    return f"Ann said version {who} of note {n}."


def _client(server: str) -> Any:
    import chromadb

    host, port = server.rsplit(":", 1)
    return chromadb.HttpClient(host=host, port=int(port))


def main(argv: list[str]) -> int:
    """A process writer: open the store, say ready, then write one memory per round read."""
    server, who = argv
    mem = RaMem.from_client(_client(server), embedder=HashingEmbedder())
    mem.add_memories([unit("warm-" + who, f"{who} is here.")])  # collections exist, code loaded
    print("ready", flush=True)
    for line in sys.stdin:
        n = int(line)
        print("ok" if write(mem, unit(f"p{n}", _text(who, n))) else "conflict", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
