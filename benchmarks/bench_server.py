"""The query benchmark against a Chroma server, and queries/s with several client threads.

Starts ``chroma run --path TMP --host 127.0.0.1 --port FREE`` (stopped by its pid at the end),
writes ``--size`` synthesised memories through ``chromadb.HttpClient`` with
``RaMem.from_client`` and, into a second collection on the same server, with langchain-chroma;
then times ``RaMem.retrieve`` against ``Chroma.similarity_search`` (k=10, query embedding
included, interleaved) and measures queries/s at 1, 4 and 16 client threads (one RaMem and one
``Chroma`` shared by the threads).

    python benchmarks/bench_server.py --size 10000
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

K = 10
THREADS = (1, 4, 16)


def start_server(path: Path, port: int) -> subprocess.Popen[bytes]:
    chroma = Path(sys.executable).with_name("chroma")
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import chromadb

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
            return proc
        except Exception:
            if proc.poll() is not None:
                raise SystemExit(f"chroma run exited with {proc.returncode}") from None
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("chroma run did not answer its heartbeat within 60 s")


def throughput(run: Callable[[Any], Any], cases: list[Any], threads: int, seconds: float) -> float:
    """Queries per second with ``threads`` threads cycling through ``cases``."""
    done = [0] * threads
    stop = time.monotonic() + seconds

    def worker(n: int) -> None:
        i = n
        while time.monotonic() < stop:
            run(cases[i % len(cases)])
            done[n] += 1
            i += threads

    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    start = time.monotonic()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return round(sum(done) / (time.monotonic() - start), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=8.0, help="per throughput point")
    parser.add_argument("--out", default="server")
    args = parser.parse_args()
    import chromadb
    from langchain_chroma import Chroma

    from ramem_integrations import RaMem

    corpus = common.Corpus.load(common.data_path(args.data))
    root = Path(tempfile.mkdtemp(prefix="ramem-server-"))
    port = common.free_port()
    server = start_server(root / "chroma", port)
    try:
        client = chromadb.HttpClient(host="127.0.0.1", port=port)
        embedder = common.TableEmbedder()
        mem = RaMem.from_client(client, embedder=embedder)
        lc = Chroma(
            collection_name="langchain",
            embedding_function=common.langchain_embeddings(embedder),
            client=client,
            collection_configuration={"hnsw": {"space": "cosine"}},
        )
        copies, ramem_s, lc_s = 0, 0.0, 0.0
        for units, vectors in corpus.copies(args.size):
            embedder.table = {u.content: v for u, v in zip(units, vectors, strict=True)}
            start = time.perf_counter()
            mem.add_memories(units)
            ramem_s += time.perf_counter() - start
            start = time.perf_counter()
            lc.add_texts(
                [u.content for u in units],
                metadatas=[u.to_metadata() for u in units],
                ids=[u.id for u in units],
            )
            lc_s += time.perf_counter() - start
            copies += 1
        embedder.table = {}
        working = list(range(min(8, copies)))
        qs = common.questions(corpus, working, 4, seed=7)
        for q in qs:  # warm: BM25 indexes and known contexts of the working set
            mem.retrieve(q["query"], q["namespace"], K)

        def ramem(q: dict) -> Any:
            mem.source._embed_query.cache_clear()
            return mem.retrieve(q["query"], q["namespace"], K)

        def plain(q: dict) -> Any:
            return lc.similarity_search(q["query"], k=K, filter={"namespace": q["namespace"]})

        latency: dict[str, Any] = {}
        for kind in ("time", "person", "plain"):
            cases = [q for q in qs if q["kind"] == kind]
            samples = common.interleaved(cases, {"ramem": ramem, "langchain_chroma": plain}, 2)
            stats: dict[str, Any] = {n: common.percentiles(s) for n, s in samples.items()}
            stats["ratio_p50"] = common.ratio(
                stats["ramem"]["p50_ms"], stats["langchain_chroma"]["p50_ms"]
            )
            stats["ratio_p95"] = common.ratio(
                stats["ramem"]["p95_ms"], stats["langchain_chroma"]["p95_ms"]
            )
            latency[kind] = stats
            print(
                f"{kind:6s} ramem p50 {stats['ramem']['p50_ms']:.1f} ms, langchain-chroma p50 "
                f"{stats['langchain_chroma']['p50_ms']:.1f} ms, ratio {stats['ratio_p50']}"
            )
        qps: dict[str, dict[int, float]] = {"ramem": {}, "langchain_chroma": {}}
        for threads in THREADS:
            for name, run in (("ramem", ramem), ("langchain_chroma", plain)):
                qps[name][threads] = throughput(run, qs, threads, args.seconds)
            print(
                f"{threads:2d} threads: ramem {qps['ramem'][threads]} q/s, "
                f"langchain-chroma {qps['langchain_chroma'][threads]} q/s"
            )
        common.write_result(
            args.out,
            {
                "size": args.size,
                "namespaces": copies,
                "server": f"chroma run on 127.0.0.1:{port} (pid {server.pid})",
                "ingest_per_s": {
                    "ramem": round(args.size / ramem_s, 1),
                    "langchain_chroma": round(args.size / lc_s, 1),
                },
                "latency": latency,
                "queries_per_s": qps,
                "qps_ratio": {
                    t: common.ratio(qps["ramem"][t], qps["langchain_chroma"][t]) for t in THREADS
                },
            },
        )
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
