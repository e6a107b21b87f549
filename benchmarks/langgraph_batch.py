"""The LangGraph store's own work on a batch: N puts into one namespace in one ``batch``, then a
filtered query search that keeps 1 of the N+1 items (median of 5). The hashing test embedder,
so that the figures are the store's, not the model's.

Usage::

    PYTHONPATH=. python benchmarks/langgraph_batch.py /tmp/batch-store 2000
"""

from __future__ import annotations

import argparse
import statistics
import time

from langgraph.store.base import PutOp

from ramem_integrations.langgraph import RaMemStore
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

QUERY = "What did the dentist say about flossing?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="a new folder for the store")
    parser.add_argument("n", type=int)
    args = parser.parse_args()
    store = RaMemStore(RaMem.from_path(args.store, embedder=HashingEmbedder()))
    ns = ("memories", "alice")
    ops = [
        PutOp(ns, f"n{i}", {"text": f"The dentist said to floss, visit {i}", "kind": "noise"})
        for i in range(args.n)
    ]
    ops.append(PutOp(ns, "bill", {"text": "Paid the clinic bill", "kind": "bill"}))
    started = time.perf_counter()
    store.batch(ops)
    print(f"batch of {len(ops)} puts: {time.perf_counter() - started:.2f} s")
    times = []
    for _ in range(6):
        started = time.perf_counter()
        found = store.search(ns, query=QUERY, filter={"kind": "bill"}, limit=1)
        times.append(time.perf_counter() - started)
    median = statistics.median(times[1:]) * 1000
    print(f"filtered search: {[i.key for i in found]}, {median:.0f} ms")


if __name__ == "__main__":
    main()
