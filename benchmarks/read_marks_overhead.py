"""What the per-query freshness check costs (issue 13: every read sees every write).

Each read first reads the namespace's write marks (one small Chroma ``get``) and reloads a
cache only when another object or process wrote since. This measures that read alone, and
query latency with the check and with it switched off, on an embedded store of
``--memories`` memories (hashing embedder, so the store's cost is not hidden by embedding)::

    .venv/bin/python benchmarks/read_marks_overhead.py --memories 2000 --queries 300
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ramem_integrations.memory import RaMem
from tests.fakes import HashingEmbedder
from tests.reliability.helpers import WORDS, synthetic_conversation


def median_ms(call: Callable[[int], object], runs: int) -> float:
    times = []
    for i in range(runs):
        started = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 3)


def paired_ms(mem: RaMem, call: Callable[[int], object], runs: int) -> dict[str, float]:
    """Median latency with the check and without it, alternating query by query so that the
    machine's load falls on both alike."""
    sync = mem.writer.sync
    skip = lambda namespace, missing_ok=False: True  # noqa: E731
    with_check, without = [], []
    for i in range(runs):
        for timings, check in ((with_check, sync), (without, skip)):
            mem.writer.sync = check  # type: ignore[method-assign]
            started = time.perf_counter()
            call(i)
            timings.append(time.perf_counter() - started)
    mem.writer.sync = sync  # type: ignore[method-assign]
    return {
        "with check": round(statistics.median(with_check) * 1000, 3),
        "without": round(statistics.median(without) * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        mem = RaMem.from_path(tmp, embedder=HashingEmbedder())
        sessions = max(1, args.memories // 50)
        mem.add_conversation(synthetic_conversation("c", sessions, 50), "ns")
        queries = [f"{WORDS[i % len(WORDS)]} {WORDS[(i * 7) % len(WORDS)]}" for i in range(64)]
        result: dict[str, object] = {"memories": mem.count("ns"), "queries": args.queries}
        result["marks read (ms, median)"] = median_ms(lambda i: mem.store.written("ns"), 500)
        for mode in ("content", "ramem"):
            query = lambda i, m=mode: mem.retrieve(queries[i % 64], "ns", k=10, mode=m)  # noqa: E731
            query(0)  # warm the caches
            result[f"{mode} query (ms, median)"] = paired_ms(mem, query, args.queries)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
