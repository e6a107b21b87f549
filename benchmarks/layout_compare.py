"""Which Chroma layout makes a query's cost depend on its own namespace only (issue 16, item 1).

Three layouts of the same memories, each in its own embedded Chroma store:

- ``shared``: one collection holds every namespace; every read filters ``namespace`` (what the
  store did up to format version 1, and what most langchain-chroma users run);
- ``buckets``: ``--buckets`` collections, a namespace in the one its digest picks; reads
  still filter ``namespace``, over fewer memories;
- ``per_namespace``: one collection per namespace; reads filter nothing.

Memories are random unit vectors (``--dim``) with the metadata the store's filters read
(``namespace``, a session start in epoch seconds, a participants list); namespace sizes follow
a Zipf-like law so that small, median and large namespaces are all present. For each layout it
times, query by query interleaved across layouts (so the machine's load falls on all alike):
a nearest-neighbour query (k=10), the same with a participant condition, reading a namespace's
memories with their vectors (what the in-memory cache loads), reading 10 ids, and the two
candidate places for the write marks (a filtered ``get`` on a shared marks collection, and the
namespace collection's own metadata). It also reports the recall of each layout's top 10
against exact search, ingestion time and disk::

    .venv/bin/python benchmarks/layout_compare.py --memories 100000 --namespaces 180
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
PEOPLE = [f"P{i}" for i in range(40)]
BATCH = 1000


def sizes(total: int, namespaces: int, skew: float) -> list[int]:
    """Namespace sizes summing to ``total``, the i-th proportional to 1 / (i + 1) ** skew."""
    weights = [1 / (i + 1) ** skew for i in range(namespaces)]
    scale = total / sum(weights)
    out = [max(1, int(w * scale)) for w in weights]
    out[0] += total - sum(out)
    return out


def bucket_of(namespace: str, buckets: int) -> int:
    return int(hashlib.sha256(namespace.encode()).hexdigest(), 16) % buckets


class Layout:
    """One layout: which collection holds a namespace, and whether reads filter by it."""

    def __init__(self, name: str, client: Any, buckets: int | None) -> None:
        self.name, self.client, self.buckets = name, client, buckets
        self.collections: dict[str, Any] = {}

    def key(self, namespace: str) -> str:
        if self.name == "shared":
            return "all-memories"
        if self.name == "buckets":
            return f"bucket{bucket_of(namespace, self.buckets or 1)}"
        return "ns-" + hashlib.sha256(namespace.encode()).hexdigest()[:16]

    def collection(self, namespace: str) -> Any:
        key = self.key(namespace)
        if key not in self.collections:
            self.collections[key] = self.client.get_or_create_collection(
                key,
                embedding_function=None,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"ramem_namespace": namespace},
            )
        return self.collections[key]

    def where(self, namespace: str, extra: dict[str, Any] | None = None) -> dict[str, Any] | None:
        own = None if self.name == "per_namespace" else {"namespace": namespace}
        if own is None or extra is None:
            return own or extra
        return {"$and": [own, extra]}


def build(args: argparse.Namespace, root: Path) -> tuple[dict[str, Layout], dict[str, Any]]:
    import chromadb
    from chromadb.config import Settings

    rng = np.random.default_rng(7)
    names = [f"user{i:03d}" for i in range(args.namespaces)]
    counts = sizes(args.memories, args.namespaces, args.skew)
    layouts: dict[str, Layout] = {}
    ingest: dict[str, float] = {}
    data: dict[str, tuple[list[str], np.ndarray]] = {}
    for ns, n in zip(names, counts, strict=True):
        vectors = rng.standard_normal((n, args.dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        data[ns] = ([f"{ns}-{j}" for j in range(n)], vectors)
    for name in ("shared", "buckets", "per_namespace"):
        settings = Settings(anonymized_telemetry=False)
        client = chromadb.PersistentClient(path=str(root / name), settings=settings)
        layout = layouts[name] = Layout(name, client, args.buckets)
        started = time.perf_counter()
        for ns, (ids, vectors) in data.items():
            col = layout.collection(ns)
            for start in range(0, len(ids), BATCH):
                chunk = ids[start : start + BATCH]
                metas = [
                    {
                        "namespace": ns,
                        "session_start": 1_600_000_000 + 86_400 * (j % 300),
                        "participants": [PEOPLE[j % 40], PEOPLE[(j * 7 + 3) % 40]],
                    }
                    for j in range(start, start + len(chunk))
                ]
                col.upsert(
                    ids=chunk,
                    embeddings=vectors[start : start + len(chunk)],
                    metadatas=metas,  # type: ignore[arg-type]
                    documents=[f"memory {i}" for i in chunk],
                )
        ingest[name] = round(time.perf_counter() - started, 1)
    marks = layouts["shared"].client.get_or_create_collection("marks", embedding_function=None)
    for ns in names:  # three writers per namespace, as after three ingest runs
        for writer in range(3):
            marks.upsert(
                ids=[f"{ns}-{writer}"],
                embeddings=[[0.0]],
                metadatas=[{"namespace": ns, "writes": writer + 1}],
            )
    for ns in names:
        layouts["per_namespace"].collection(ns).modify(
            metadata={"ramem_namespace": ns, **{f"w{w}": w + 1 for w in range(3)}}
        )
    info = {
        "ingest_seconds": ingest,
        "disk_mb": {n: round(_du(root / n) / 1e6, 1) for n in layouts},
        "sizes": dict(zip(names, counts, strict=True)),
    }
    layouts["_marks"] = marks  # type: ignore[assignment]
    layouts["_data"] = data  # type: ignore[assignment]
    return layouts, info


def reopened(layouts: dict[str, Layout], root: Path) -> tuple[dict[str, Layout], Any]:
    """The layouts on fresh clients (nothing loaded in memory), and the marks collection."""
    import chromadb
    from chromadb.api.client import SharedSystemClient
    from chromadb.config import Settings

    SharedSystemClient.clear_system_cache()
    fresh = {}
    for name, old in layouts.items():
        client = chromadb.PersistentClient(
            path=str(root / name), settings=Settings(anonymized_telemetry=False)
        )
        fresh[name] = Layout(name, client, old.buckets)
    return fresh, fresh["shared"].client.get_collection("marks")


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def ops(layout: Layout, marks: Any) -> dict[str, Callable[[str, np.ndarray], Any]]:
    def query(ns: str, q: np.ndarray) -> Any:
        return layout.collection(ns).query(
            query_embeddings=q[None, :], n_results=10, where=layout.where(ns), include=[]
        )

    def query_person(ns: str, q: np.ndarray) -> Any:
        cond = {"participants": {"$contains": "P3"}}
        return layout.collection(ns).query(
            query_embeddings=q[None, :], n_results=10, where=layout.where(ns, cond), include=[]
        )

    def get_vectors(ns: str, q: np.ndarray) -> Any:
        return layout.collection(ns).get(
            where=layout.where(ns), include=["embeddings", "metadatas", "documents"]
        )

    def get_ids(ns: str, q: np.ndarray) -> Any:
        return layout.collection(ns).get(ids=[f"{ns}-{j}" for j in range(10)], include=[])

    table = {
        "query_k10": query,
        "query_k10_person": query_person,
        "get_with_vectors": get_vectors,
        "get_10_ids": get_ids,
    }
    if layout.name == "shared":
        table["marks_shared_collection"] = lambda ns, q: marks.get(
            where={"namespace": ns}, include=["metadatas"]
        )
    if layout.name == "per_namespace":
        table["marks_collection_metadata"] = lambda ns, q: (
            layout.client.get_collection(layout.key(ns)).metadata
        )
    return table


def measure(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="layout-"))
    try:
        layouts, info = build(args, root)
        marks = layouts.pop("_marks")  # type: ignore[arg-type]
        data = layouts.pop("_data")  # type: ignore[arg-type]
        counts = info["sizes"]
        ordered = sorted(counts, key=counts.get)  # type: ignore[arg-type]
        classes = {
            "small": ordered[: len(ordered) // 3],
            "median": ordered[len(ordered) // 3 : 2 * len(ordered) // 3],
            "large": ordered[-max(1, len(ordered) // 20) :],
        }
        layouts, marks = reopened(layouts, root)
        rng = random.Random(3)
        tables = {name: ops(layout, marks) for name, layout in layouts.items()}
        first = {name: [] for name in layouts}  # a namespace's first query after opening
        for ns in ordered:
            q = data[ns][1][0]
            for name, table in tables.items():
                started = time.perf_counter()
                table["query_k10"](ns, q)
                first[name].append(time.perf_counter() - started)
        timings: dict[str, dict[str, dict[str, list[float]]]] = {
            name: {op: {c: [] for c in classes} for op in table} for name, table in tables.items()
        }
        recall: dict[str, list[float]] = {name: [] for name in layouts}
        for _ in range(args.queries):
            for cls, members in classes.items():
                ns = rng.choice(members)
                ids, vectors = data[ns]
                q = vectors[rng.randrange(len(ids))] + 0.3 * np.asarray(
                    np.random.default_rng(rng.randrange(10**6)).standard_normal(args.dim),
                    dtype=np.float32,
                )
                q = (q / np.linalg.norm(q)).astype(np.float32)
                exact = {ids[i] for i in np.argsort(-(vectors @ q))[:10]}
                for name, table in tables.items():
                    for op, call in table.items():
                        if op == "get_with_vectors" and cls == "large" and rng.random() > 0.2:
                            continue  # the largest namespaces' full reads are slow: sample
                        started = time.perf_counter()
                        got = call(ns, q)
                        timings[name][op][cls].append(time.perf_counter() - started)
                        if op == "query_k10":
                            recall[name].append(len(exact & set(got["ids"][0])) / 10)
        return {
            "command": "benchmarks/layout_compare.py " + " ".join(sys.argv[1:]),
            "memories": args.memories,
            "namespaces": args.namespaces,
            "dim": args.dim,
            "buckets": args.buckets,
            "queries_per_class": args.queries,
            "namespace_sizes": {
                c: {
                    "namespaces": len(m),
                    "median_memories": int(statistics.median(counts[n] for n in m)),
                }
                for c, m in classes.items()
            },
            "ingest_seconds": info["ingest_seconds"],
            "disk_mb": info["disk_mb"],
            "first_query_after_open_ms": {n: _pcts(t) for n, t in first.items()},
            "recall_at_10_vs_exact": {
                n: round(statistics.mean(r), 4) if r else None for n, r in recall.items()
            },
            "latency_ms": {
                name: {op: {c: _pcts(t) for c, t in per.items() if t} for op, per in table.items()}
                for name, table in timings.items()
            },
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _pcts(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"p50": round(statistics.median(ordered) * 1000, 2), "p95": round(p95 * 1000, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--namespaces", type=int, default=180)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--buckets", type=int, default=16)
    parser.add_argument("--skew", type=float, default=0.8, help="Zipf exponent of sizes")
    parser.add_argument("--queries", type=int, default=60, help="per namespace size class")
    parser.add_argument("--out", type=Path, default=RESULTS / "layout_compare.json")
    args = parser.parse_args()
    result = measure(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
