"""A tiny ingestion process for the crash and multi-process tests (run as a script).

    python -m tests.reliability.runner ingest STORE CONV.json NS1,NS2 [--server HOST:PORT]
    python -m tests.reliability.runner verify STORE CONV.json NS1,NS2 [--partial] [--server ...]
    python -m tests.reliability.runner hold STORE          # open the store and wait for stdin
    python -m tests.reliability.runner forget STORE CONV_ID NS [--server HOST:PORT]

``--kill-at N`` (with ``ingest`` or ``forget``): the process kills itself with SIGKILL just
before its N-th write call to Chroma (data or write marks), so that a kill lands at one exact
step of a write; it prints ``done`` when it got through without reaching it.

``ingest`` is what ``ramem ingest`` does (anchor, embed, upsert in batches), with the hashing
embedder and small batches so that a kill lands between and inside many writes. It prints
``ready`` once the store is open and ``done`` when finished. ``verify`` opens the store fresh and
prints a JSON report: the stored memories against the rule path's output (turns cut into
episodes, as ingestion stores them), duplicates, BM25 of the fresh process against an index
rebuilt from the expected memories, and whether every stored memory is reachable by the dense
search retrieval uses (which also checks that each stored vector is its text's).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import Any

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.index.bm25 import BM25, lexical_text
from ramem_integrations.memory import writing as ingest_module
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores import guard
from ramem_integrations.testing import HashingEmbedder, parts
from tests.reliability.helpers import WORDS

BATCH = 16


def open_mem(store: str, server: str | None) -> RaMem:
    if server:
        import chromadb

        host, port = server.rsplit(":", 1)
        client = chromadb.HttpClient(host=host, port=int(port))
        return RaMem.from_client(client, embedder=HashingEmbedder())
    return RaMem.from_path(store, embedder=HashingEmbedder())


def ingest(mem: RaMem, conv_path: str, namespaces: list[str]) -> None:
    ingest_module.EMBED_BATCH = BATCH
    (conversation,) = load_conversations(conv_path)
    print("ready", flush=True)
    for namespace in namespaces:  # one line per batch written, for the kill to aim at
        calls = iter(range(10**9))

        def report(n: int, calls: Any = calls) -> None:
            first = next(calls) == 0  # the first report counts memories already stored
            print(f"skip {n}" if first else f"+{n}", flush=True)

        mem.add_conversation(conversation, namespace, progress=report)
    print("done", flush=True)


def verify(mem: RaMem, conv_path: str, namespace: str, partial: bool) -> dict[str, Any]:
    (conversation,) = load_conversations(conv_path)
    expected = {u.id: u for u in mem.anchor(conversation, namespace)}  # cut into episodes
    ids = mem.store.ids(namespace)
    stored = {u.id: u for u in mem.memories(namespace, missing_ok=partial)}
    wrong = [i for i, u in stored.items() if expected.get(i) != u]
    missing = [i for i in expected if i not in stored]
    rebuilt = BM25()
    for unit in (expected if not partial else {i: expected[i] for i in stored}).values():
        rebuilt.add(unit.id, lexical_text(unit))
    fresh = parts(mem).cache.index(namespace)
    queries = [*WORDS, "Ann Bob", "pottery class last week", "the dentist in Paris"]
    bm25_disagree = [q for q in queries if fresh.search(q, 20) != rebuilt.search(q, 20)]
    unreachable = []  # by the dense search retrieval uses (exact, over the loaded vectors)
    table = parts(mem).cache.vectors(namespace)
    made = memory_vectors(mem.embedder, list(stored.values()))  # what the write path embeds
    for unit, vector in zip(stored.values(), made, strict=True):
        if unit.id not in {i for i, _ in table.search(vector, 5)}:
            unreachable.append(unit.id)
    return {
        "expected": len(expected),
        "stored": len(stored),
        "rows": len(ids),
        "duplicates": len(ids) - len(set(ids)),
        "wrong": len(wrong),
        "missing": 0 if partial else len(missing),
        "bm25_disagree": len(bm25_disagree),
        "dense_unreachable": len(unreachable),
    }


def kill_at(step: int) -> None:
    """SIGKILL this process just before its ``step``-th write call to any Chroma collection."""
    calls = iter(range(1, 10**9))
    wrapped = guard._guarded

    def counted(method: Any, lock: Any) -> Any:
        call = wrapped(method, lock)
        if getattr(method, "__name__", "") not in guard.WRITES:
            return call

        def write(*args: Any, **kwargs: Any) -> Any:
            if next(calls) == step:
                os.kill(os.getpid(), signal.SIGKILL)
            return call(*args, **kwargs)

        return write

    guard._guarded = counted  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["ingest", "verify", "hold", "forget"])
    parser.add_argument("store")
    parser.add_argument("conversation", nargs="?")
    parser.add_argument("namespace", nargs="?")
    parser.add_argument("--partial", action="store_true")
    parser.add_argument("--server")
    parser.add_argument("--kill-at", type=int)
    args = parser.parse_args(argv)
    mem = open_mem(args.store, args.server)
    if args.kill_at:
        kill_at(args.kill_at)
    if args.command == "hold":
        print("ready", flush=True)
        sys.stdin.read()
        return 0
    namespaces = args.namespace.split(",")
    if args.command == "ingest":
        ingest(mem, args.conversation, namespaces)
        return 0
    if args.command == "forget":  # the conversation argument is the conversation's id
        for namespace in namespaces:
            mem.forget(namespace, conversation_id=args.conversation)
        print("done", flush=True)
        return 0
    report = {ns: verify(mem, args.conversation, ns, args.partial) for ns in namespaces}
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
