"""``aretrieve`` under ``asyncio.gather`` and batched writes, on one embedded store.

- Async: the same questions retrieved sequentially with ``retrieve`` and concurrently with
  ``asyncio.gather(*(mem.aretrieve(...)))`` at 1, 4 and 16 in flight; queries/s and the
  per-call latency (query embedding included: each batch asks new questions).
- Batched writes (vectors precomputed, so this is the store side): ``add_memories`` of
  ``--size`` synthesised memories in one call, in batches of 100, and one namespace
  (conversation copy) at a time.

    python benchmarks/bench_async.py --size 10000
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

K = 10
CONCURRENCY = (1, 4, 16)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--out", default="async_batch")
    args = parser.parse_args()
    started = common.provenance()
    from ramem_integrations import RaMem

    corpus = common.Corpus.load(common.data_path(args.data))
    embedder = common.TableEmbedder()
    embedder.real.embed(["warm up"])
    chunks = list(corpus.copies(args.size))
    table = {text: v for _, t in chunks for text, v in t.items()}

    writes: dict[str, float] = {}
    roots = []
    mem: Any = None
    for mode in ("one_call", "batches_of_100", "per_namespace"):
        root = Path(tempfile.mkdtemp(prefix="ramem-batch-"))
        roots.append(root)
        mem = RaMem.from_path(root, embedder=embedder)
        embedder.table = table
        everything = [u for units, _ in chunks for u in units]
        start = time.perf_counter()
        if mode == "one_call":
            mem.add_memories(everything)
        elif mode == "batches_of_100":
            for i in range(0, len(everything), 100):
                mem.add_memories(everything[i : i + 100])
        else:
            for units, _ in chunks:
                mem.add_memories(units)
        writes[mode] = round(len(everything) / (time.perf_counter() - start), 1)
        print(f"add_memories {mode:16s} {writes[mode]:8.1f} memories/s")
    embedder.table = {}

    pool = common.QuestionPool(corpus, seed=3)
    working = range(min(8, len(chunks)))

    def batch() -> list[dict[str, str]]:
        return [q for kind in common.KINDS for q in pool.take(working, kind, 1)]

    for q in batch():  # warm: each working namespace queried once
        mem.retrieve(q["query"], q["namespace"], K)

    def sequential() -> float:
        qs = batch()
        start = time.perf_counter()
        for q in qs:
            mem.retrieve(q["query"], q["namespace"], K)
        return len(qs) / (time.perf_counter() - start)

    async def gathered(limit: int) -> float:
        qs = batch()
        gate = asyncio.Semaphore(limit)

        async def one(q: dict) -> Any:
            async with gate:
                return await mem.aretrieve(q["query"], q["namespace"], K)

        start = time.perf_counter()
        await asyncio.gather(*(one(q) for q in qs))
        return len(qs) / (time.perf_counter() - start)

    rates: dict[str, list[float]] = {"sequential_retrieve": []}
    rates.update({f"gather_{n}": [] for n in CONCURRENCY})
    for _ in range(2):  # alternate, keep the best of two
        rates["sequential_retrieve"].append(sequential())
        for n in CONCURRENCY:
            rates[f"gather_{n}"].append(asyncio.run(gathered(n)))
    qps = {name: round(max(r), 1) for name, r in rates.items()}
    base = qps["sequential_retrieve"]
    for name, rate in qps.items():
        print(f"{name:20s} {rate:6.1f} queries/s ({common.ratio(rate, base)}x sequential)")
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
    common.write_result(
        args.out,
        {
            "size": args.size,
            "namespaces": len(chunks),
            "add_memories_per_s": writes,
            "write_ratio_to_one_call": {
                m: common.ratio(r, writes["one_call"]) for m, r in writes.items()
            },
            "queries_per_s": qps,
            "ratio_to_sequential": {n: common.ratio(r, base) for n, r in qps.items()},
            "questions_per_batch": len(batch()),
        },
        started,
    )


if __name__ == "__main__":
    main()
