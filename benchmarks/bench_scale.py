"""Query latency and resources against store size: RaMem vs langchain-chroma, same data.

For each size a fresh worker process builds two embedded Chroma stores from the same
synthesised memories (see ``common.py``): one written by ``RaMem.add_memories``, one by
langchain-chroma's ``Chroma.add_texts`` with the same vectors and metadata. It then times, on the
same questions, interleaved, with the query embedding included on both sides (RaMem's query
cache is cleared before every call):

- ``RaMem.retrieve(q, namespace, k=10)`` (frame induction, context and content candidates, RRF)
- ``Chroma.similarity_search(q, k=10, filter={"namespace": ns})`` (plain vector search)

on questions with a time condition ("What did X do in May 2023?", grounded) and plain ones, in a
working set of namespaces that have been queried before (warm). The first query of a namespace
(cold: BM25 index built from the store) is reported apart. It also records ingest rate
(vectors precomputed), resident memory, disk, and the BM25 bookkeeping: index builds, documents
added in place, namespaces held.

    python benchmarks/bench_scale.py --sizes 1000 10000 100000
    python benchmarks/bench_scale.py --sizes 1000000 --out scale_large
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

K = 10
WORKING_SET = 8  # namespaces queried in the warm measurement
PER_NAMESPACE = 6  # questions of each kind per namespace
KINDS = ("time", "person", "plain")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="LoCoMo JSON (default ../shared/data/locomo-dev.json)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=2, help="passes over the questions")
    parser.add_argument("--out", default="scale")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = common.data_path(args.data)
    if args.worker:
        print(json.dumps(worker(data, args.worker, args.repeat)))
        return
    runs = []
    for size in args.sizes:
        print(f"-- {size:,} memories (fresh process)", flush=True)
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--data",
                str(data),
                "--worker",
                str(size),
                "--repeat",
                str(args.repeat),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        run = json.loads(proc.stdout.strip().splitlines()[-1])
        runs.append(run)
        show(run)
    summary = summarise(runs)
    print(json.dumps(summary, indent=2))
    common.write_result(args.out, {"k": K, "runs": runs, "summary": summary})


def worker(data: Path, size: int, repeat: int) -> dict[str, Any]:
    import psutil
    from langchain_chroma import Chroma

    from ramem_integrations import RaMem

    corpus = common.Corpus.load(data)
    embedder = common.TableEmbedder()
    embedder.real.embed(["warm up"])
    rss_start = common.rss_mb()
    root = Path(tempfile.mkdtemp(prefix="ramem-bench-"))
    mem = RaMem.from_path(root / "ramem", embedder=embedder)
    builds = count_builds(mem)

    ramem_s = lc_s = 0.0
    copies = 0
    for units, vectors in corpus.copies(size):
        embedder.table = {u.content: v for u, v in zip(units, vectors, strict=True)}
        start = time.perf_counter()
        mem.add_memories(units)
        ramem_s += time.perf_counter() - start
        copies += 1
    rss_ramem = common.rss_mb()
    import chromadb
    from chromadb.config import Settings

    lc_client = chromadb.PersistentClient(
        path=str(root / "langchain"), settings=Settings(anonymized_telemetry=False)
    )
    lc = Chroma(
        collection_name="langchain",
        embedding_function=common.langchain_embeddings(embedder),
        client=lc_client,
        collection_configuration={"hnsw": {"space": "cosine"}},
    )
    for units, vectors in corpus.copies(size):
        embedder.table = {u.content: v for u, v in zip(units, vectors, strict=True)}
        start = time.perf_counter()
        lc.add_texts(
            [u.content for u in units],
            metadatas=[u.to_metadata() for u in units],
            ids=[u.id for u in units],
        )
        lc_s += time.perf_counter() - start
    embedder.table = {}

    working = list(range(min(WORKING_SET, copies)))
    qs = common.questions(corpus, working, PER_NAMESPACE, seed=size)
    cold = {}
    for copy in working:  # first query per namespace: builds its BM25 index and known context
        q = next(q for q in qs if q["namespace"] == common.namespace_of(copy))
        cold.setdefault("ramem", []).append(
            common.timed(lambda q=q: mem.retrieve(q["query"], q["namespace"], K))
        )
    grounded = sum(
        1 for q in qs if q["kind"] == "time" and mem.frame(q["query"], q["namespace"]).time_range
    )

    def ramem(q: dict) -> Any:
        mem.source._embed_query.cache_clear()
        return mem.retrieve(q["query"], q["namespace"], K)

    def plain(q: dict) -> Any:
        return lc.similarity_search(q["query"], k=K, filter={"namespace": q["namespace"]})

    for q in qs[:4]:  # warm-up of both paths
        ramem(q), plain(q)
    latency: dict[str, Any] = {}
    for kind in KINDS:
        cases = [q for q in qs if q["kind"] == kind]
        samples = common.interleaved(cases, {"ramem": ramem, "langchain_chroma": plain}, repeat)
        stats = {name: common.percentiles(s) for name, s in samples.items()}
        stats["ratio_p50"] = common.ratio(
            stats["ramem"]["p50_ms"], stats["langchain_chroma"]["p50_ms"]
        )
        stats["ratio_p95"] = common.ratio(
            stats["ramem"]["p95_ms"], stats["langchain_chroma"]["p95_ms"]
        )
        latency[kind] = stats
    rss_queried = common.rss_mb()
    bm25 = bm25_evidence(mem, corpus, builds, copies)
    shutil_rmtree(root)
    return {
        "size": size,
        "namespaces": copies,
        "working_set": len(working),
        "time_questions_grounded": f"{grounded}/{len(qs) // len(KINDS)}",
        "ingest": {
            "ramem_per_s": round(size / ramem_s, 1),
            "langchain_chroma_per_s": round(size / lc_s, 1),
            "ratio": common.ratio(lc_s, ramem_s),
            "note": "vectors precomputed: store write, BM25 upkeep and change detection only",
        },
        "latency": latency,
        "cold_first_query": common.percentiles(cold["ramem"]),
        "rss_mb": {
            "start": rss_start,
            "after_ramem_ingest": rss_ramem,
            "after_queries": rss_queried,
            "peak_hwm": _hwm(),
        },
        "disk_mb": {"ramem": DISK["ramem"], "langchain_chroma": DISK["langchain"]},
        "bm25": bm25,
        "cpu_count": psutil.cpu_count(),
    }


DISK: dict[str, float] = {}


def shutil_rmtree(root: Path) -> None:
    import shutil

    for name in ("ramem", "langchain"):
        DISK[name] = common.disk_mb(root / name)
    shutil.rmtree(root, ignore_errors=True)


def _hwm() -> float | None:
    status = Path("/proc/self/status")
    if not status.exists():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def count_builds(mem: Any) -> dict[str, int]:
    """Count full BM25 builds (loads of a namespace from the store) from now on."""
    counter = {"builds": 0}
    load = mem.lexical._load

    def counting(namespace: str) -> Any:
        counter["builds"] += 1
        return load(namespace)

    mem.lexical._load = counting
    return counter


def bm25_evidence(mem: Any, corpus: Any, builds: dict[str, int], copies: int) -> dict[str, Any]:
    """BM25 is updated in place on writes and holds a bounded number of namespaces."""
    lexical = mem.lexical
    out: dict[str, Any] = {
        "builds_after_queries": builds["builds"],
        "namespaces_held_after_queries": len(lexical._indexes),
        "namespaces_in_store": copies,
    }
    # Writes into a loaded namespace: one memory at a time, no rebuild.
    target = common.namespace_of(0)
    index = lexical.index(target)
    before_docs, before_builds = len(index), builds["builds"]
    extra = next(corpus.copies(200, seed=99))[0]
    fresh = [_moved(u, target, i) for i, u in enumerate(extra)]
    vector = mem.embedder.real.embed([fresh[0].content])[0]
    mem.embedder.table = {u.content: vector for u in fresh}
    start = time.perf_counter()
    for unit in fresh:
        mem.add_memories([unit])
    per_write = (time.perf_counter() - start) * 1000 / len(fresh)
    hits = mem.retrieve(fresh[-1].content, target, K, mode="bm25")
    out["single_writes"] = {
        "writes": len(fresh),
        "ms_per_write": round(per_write, 2),
        "builds_during_writes": builds["builds"] - before_builds,
        "docs_before": before_docs,
        "docs_after": len(lexical.index(target)),
        "last_write_found_by_bm25": any(h.memory.id == fresh[-1].id for h in hits),
    }
    # Touch namespaces one after another: the index holds at most its bound.
    rss_before = common.rss_mb()
    touched = min(copies, 100)
    for copy in range(touched):
        lexical.index(common.namespace_of(copy))
    out["after_touching"] = {
        "namespaces_touched": touched,
        "namespaces_held": len(lexical._indexes),
        "bound": lexical._max,
        "docs_held": sum(len(i) for i in lexical._indexes.values()),
        "rss_mb_before": rss_before,
        "rss_mb_after": common.rss_mb(),
    }
    return out


def _moved(unit: Any, namespace: str, i: int) -> Any:
    from dataclasses import replace

    return replace(
        unit, id=f"extra-{i:05d}", namespace=namespace, content=f"{unit.content} (note {i})"
    )


def show(run: dict[str, Any]) -> None:
    print(f"   {run['namespaces']} namespaces; ingest {run['ingest']}")
    for kind, stats in run["latency"].items():
        r, p = stats["ramem"], stats["langchain_chroma"]
        print(
            f"   {kind:5s} ramem p50 {r['p50_ms']:.1f} p95 {r['p95_ms']:.1f} | "
            f"langchain-chroma p50 {p['p50_ms']:.1f} p95 {p['p95_ms']:.1f} | "
            f"ratio p50 {stats['ratio_p50']} p95 {stats['ratio_p95']}"
        )
    print(
        f"   cold first query {run['cold_first_query']}; rss {run['rss_mb']}; "
        f"disk {run['disk_mb']}; bm25 {run['bm25']}",
        flush=True,
    )


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    by_size = {r["size"]: r for r in runs}
    out: dict[str, Any] = {}
    smallest = min(by_size)
    for size, run in sorted(by_size.items()):
        if size == smallest:
            continue
        for kind in KINDS:
            base = by_size[smallest]["latency"][kind]["ramem"]["p50_ms"]
            here = run["latency"][kind]["ramem"]["p50_ms"]
            out[f"ramem_p50_{size}_over_{smallest}_{kind}"] = common.ratio(here, base)
    return out


if __name__ == "__main__":
    main()
