"""The query benchmark through a Chroma server, with 1, 4 and 16 client threads.

Starts ``chroma run --path TMP --host 127.0.0.1 --port FREE`` (stopped by its pid at the end)
and writes ``--size`` synthesised memories through ``chromadb.HttpClient`` three ways, as in
``bench_scale.py``: ``RaMem.from_client(...).add_memories``; langchain-chroma into one
collection (searched with a namespace filter); langchain-chroma into a collection per
namespace. Then, for each number of client threads and each kind of question (time-grounded,
person-grounded, plain), each side answers the same new questions (k=10, query embedding
included) from that many threads sharing one RaMem / one set of ``Chroma`` objects: per-query
p50 and p95, and queries per second. Two rounds, the sides' order rotating. Each thread answers
at least ``PER_THREAD`` questions (96 at 16 threads): with fewer, most calls start in the first
burst, when every thread asks at once, and the p50 measures that burst, not steady load.

    python benchmarks/bench_server.py --size 5000
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
from common import KINDS, SIDES, say

THREADS = (1, 4, 16)
ROUNDS = 2
PER_THREAD = 6  # questions per thread and kind, at least


def start_server(path: Path, port: int) -> subprocess.Popen[bytes]:
    """``chroma run`` on 127.0.0.1:``port``, once it answers its heartbeat."""
    import chromadb

    chroma = Path(sys.executable).with_name("chroma")
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
            return proc
        except Exception:
            if proc.poll() is not None:
                raise SystemExit(f"chroma run exited with {proc.returncode}") from None
            time.sleep(0.2)
    stop_server(proc)
    raise SystemExit("chroma run did not answer its heartbeat within 60 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def threaded(
    run: Callable[[dict[str, str]], Any], cases: list[dict[str, str]], threads: int
) -> tuple[list[float], float]:
    """Answer ``cases`` from ``threads`` threads: each call's milliseconds, and the wall time."""
    samples: list[float] = []
    lock = threading.Lock()
    queue = list(reversed(cases))

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                case = queue.pop()
            ms = common.timed(lambda case=case: run(case))
            with lock:
                samples.append(ms)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    start = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return samples, time.perf_counter() - start


def measure(
    runners: dict[str, Callable[[dict[str, str]], Any]],
    questions: list[dict[str, str]],
    threads: int,
    embedder: common.TableEmbedder,
) -> dict[str, Any]:
    """Each side answers ``questions`` from ``threads`` threads, in two rounds."""
    samples: dict[str, list[float]] = {side: [] for side in runners}
    wall = dict.fromkeys(runners, 0.0)
    embedded = dict.fromkeys(runners, 0)
    half = len(questions) // ROUNDS
    for r in range(ROUNDS):
        cases = questions[r * half : (r + 1) * half]
        for side in SIDES[r % 3 :] + SIDES[: r % 3]:
            before = embedder.embedded
            got, seconds = threaded(runners[side], cases, threads)
            samples[side] += got
            wall[side] += seconds
            embedded[side] += embedder.embedded - before
    stats = common.compare(samples)
    for side in runners:
        stats[side]["queries_per_s"] = round(len(samples[side]) / wall[side], 1)
        stats[side]["texts_embedded"] = embedded[side]
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument(
        "--questions", type=int, default=48, help="per kind and thread count, at least"
    )
    parser.add_argument("--out", default="server")
    args = parser.parse_args()
    import chromadb

    from ramem_integrations import RaMem

    started = common.provenance()
    corpus = common.Corpus.load(common.data_path(args.data))
    root = Path(tempfile.mkdtemp(prefix="ramem-server-"))
    port = common.free_port()
    server = start_server(root / "chroma", port)
    try:
        client = chromadb.HttpClient(host="127.0.0.1", port=port)
        embedder = common.TableEmbedder()
        embedder.real.embed(["warm up"])
        mem = RaMem.from_client(client, embedder=embedder)
        lc = common.LangchainSides(client, client, embedder)
        writes, copies = common.write_all(corpus, args.size, mem, lc, embedder)
        working = list(range(min(8, copies)))
        pool = common.QuestionPool(corpus, seed=7)
        runners = {
            "ramem": common.ramem_runner(mem),
            "lc_one": lc.search_one,
            "lc_per_ns": lc.search_per_ns,
        }
        for kind in KINDS:  # warm: each side has queried every working namespace
            common.interleaved(pool.take(working, kind, 1), runners)
        by_threads: dict[str, Any] = {}
        for threads in THREADS:
            by_threads[str(threads)] = {}
            count = max(args.questions, PER_THREAD * threads)
            for kind in KINDS:
                qs = pool.take(working, kind, -(-count // len(working)))[:count]
                stats = measure(runners, qs, threads, embedder)
                by_threads[str(threads)][kind] = stats
                say(
                    f"{threads:2d} threads {kind:6s} "
                    + " | ".join(
                        f"{s} p50 {stats[s]['p50_ms']:.1f} p95 {stats[s]['p95_ms']:.1f} "
                        f"{stats[s]['queries_per_s']} q/s"
                        for s in SIDES
                    )
                    + f" | x{stats['ratio_p50_lc_one']} vs lc_one, "
                    f"x{stats['ratio_p50_lc_per_ns']} vs lc_per_ns"
                )
        common.write_result(
            args.out,
            {
                "size": args.size,
                "namespaces": copies,
                "working_set": len(working),
                "server": "chroma run on 127.0.0.1, started and stopped by this script",
                "ingest_precomputed_vectors_per_s": {
                    s: round(args.size / writes[s], 1) for s in SIDES
                },
                "by_threads": by_threads,
            },
            started,
        )
    finally:
        stop_server(server)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
