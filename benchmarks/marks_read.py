"""What reading a namespace's write marks costs, as format 2 read them and as format 3 does.

Every question first reads its namespace's write marks (docs/reliability.md, "How a read sees
every write"). Format 2 kept a record per namespace and writer and read them with a namespace
filter (``get(where={"namespace": ...})``); format 3 keeps one record per namespace and reads it
by id. Both are timed here on the same marks collection (``--namespaces`` namespaces, one
writer each, as many format-2 records beside them), embedded and through ``chroma run`` on
127.0.0.1: wall time and the calling thread's CPU, the median of ``--reads`` reads each,
alternating read by read::

    python benchmarks/marks_read.py --namespaces 10 --reads 400
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from bench_server import start_server, stop_server

from ramem_integrations.stores import layout


def fill(marks: Any, namespaces: list[str]) -> None:
    """One format-2 record (per writer) and one format-3 record per namespace."""
    marks.upsert(
        ids=[f"{i:040x}" for i in range(len(namespaces))]
        + [layout.marks_id(n) for n in namespaces],
        embeddings=[[0.0]] * (2 * len(namespaces)),
        metadatas=[{"namespace": n, "writes": 3} for n in namespaces]
        + [{"namespace": n, "w_writer": 3} for n in namespaces],
    )


def timed(reads: dict[str, Callable[[str], object]], namespaces: list[str], runs: int) -> Any:
    """Median wall and thread-CPU milliseconds of each read, alternating read by read."""
    wall: dict[str, list[float]] = {name: [] for name in reads}
    cpu: dict[str, list[float]] = {name: [] for name in reads}
    for i in range(runs):
        namespace = namespaces[i % len(namespaces)]
        for name, read in reads.items():
            started, thread = time.perf_counter(), time.thread_time()
            read(namespace)
            cpu[name].append(time.thread_time() - thread)
            wall[name].append(time.perf_counter() - started)
    return {
        name: {
            "wall_ms": round(statistics.median(wall[name]) * 1000, 3),
            "thread_cpu_ms": round(statistics.median(cpu[name]) * 1000, 3),
        }
        for name in reads
    }


def measure(client: Any, namespaces: list[str], runs: int) -> Any:
    marks = client.get_or_create_collection("bench.writes", embedding_function=None)
    fill(marks, namespaces)
    reads = {
        "format 2: get(where=namespace)": lambda n: marks.get(
            where={"namespace": n}, include=["metadatas"]
        ),
        "format 3: get(ids=[marks_id])": lambda n: marks.get(
            ids=[layout.marks_id(n)], include=["metadatas"]
        ),
    }
    timed(reads, namespaces, 20)  # warm
    return timed(reads, namespaces, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=10)
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--out", default="marks_read")
    args = parser.parse_args()
    import chromadb

    started = common.provenance()
    namespaces = [f"user-{i}" for i in range(args.namespaces)]
    root = Path(tempfile.mkdtemp(prefix="ramem-marks-"))
    results = {
        "embedded": measure(chromadb.PersistentClient(str(root / "e")), namespaces, args.reads)
    }
    port = common.free_port()
    server = start_server(root / "s", port)
    try:
        client = chromadb.HttpClient(host="127.0.0.1", port=port)
        results["chroma server"] = measure(client, namespaces, args.reads)
    finally:
        stop_server(server)
    for where, reads in results.items():
        for name, figures in reads.items():
            common.say(
                f"{where:13s} {name:31s} wall {figures['wall_ms']:.2f} ms, "
                f"thread CPU {figures['thread_cpu_ms']:.2f} ms"
            )
    common.write_result(
        args.out,
        {"namespaces": args.namespaces, "reads": args.reads, "by_place": results},
        started,
    )


if __name__ == "__main__":
    main()
