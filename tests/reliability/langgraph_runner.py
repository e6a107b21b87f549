"""A process putting LangGraph items, for the kill test of ``RaMemStore.put`` (run as a script).

    python -m tests.reliability.langgraph_runner put STORE SEED   # on a line in: put until killed

``put`` imports, waits for a line on stdin (so that it loads while the process before it is
killed), opens the store and prints a JSON report of what it finds (what the last kill left),
then ``+`` after every put: new values for a few keys, over and over, so that a kill lands
inside many puts; every other put is a ``batch`` of two or three puts (one embedding call, a key
possibly twice). The report compares, for every key, the item with the memories the store's
reads return for it (``recall`` of the item's own words, every memory of the namespace asked
for): exactly one, with the item's text and time, or none for no item. Memories of a key that
no read returns are counted apart (``unowned``).
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from langgraph.store.base import PutOp

from ramem_integrations.langgraph import RaMemStore
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import WORDS

NAMESPACE = ("memories", "alice")
KEYS = [f"k{n}" for n in range(6)]


def open_store(path: str) -> RaMemStore:
    return RaMemStore(RaMem.from_path(path, embedder=HashingEmbedder()))


def value(key: str, version: int, rng: random.Random) -> dict[str, Any]:
    words = " ".join(rng.choice(WORDS) for _ in range(6))
    day = 1 + version % 28
    return {
        "text": f"{key} version {version}: {words}",
        "time": f"2024-03-{day:02d}T10:00:00+00:00",
    }


def put(path: str, seed: int) -> None:
    sys.stdin.readline()
    store = open_store(path)
    rng = random.Random(seed)
    print(json.dumps(check(store)), flush=True)
    for version in range(10**9):
        keys = [rng.choice(KEYS) for _ in range((1, 2, 1, 3)[version % 4])]  # a put or a batch
        ops = [PutOp(NAMESPACE, key, value(key, seed * 10**6 + version, rng)) for key in keys]
        store.batch(ops)
        print("+", flush=True)


def check(store: RaMemStore) -> dict[str, int]:
    name = ".".join(NAMESPACE)
    everything = store.memory.memories(name, missing_ok=True)
    report = {"items": 0, "inconsistent": 0, "unowned": 0}
    for key in KEYS:
        item = store.get(NAMESPACE, key)
        mine = [m for m in everything if m.conversation_id == f"langgraph:{key}"]
        query = item.value["text"] if item else key
        hits = store.recall(NAMESPACE, query, k=len(everything) + 5) if everything else []
        seen = [h.memory for h in hits if h.memory.conversation_id == f"langgraph:{key}"]
        report["items"] += item is not None
        report["unowned"] += len(mine) - len(seen)
        if item is None:
            report["inconsistent"] += bool(seen)
            continue
        said = item.value["time"]
        agrees = (
            len(seen) == 1
            and seen[0].content == item.value["text"]
            and seen[0].context.session_span.start.isoformat() == said
        )
        report["inconsistent"] += not agrees
    return report


def main(argv: list[str]) -> int:
    put(argv[1], int(argv[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
