"""Where RaMem's query time goes: cProfile over ``RaMem.retrieve`` on a synthesised store.

Builds ``--size`` memories (vectors precomputed, see ``common.py``), warms the namespaces, then
profiles the retrieval of time-conditioned and plain questions with the query cache cleared
before each call. Prints the functions with the most cumulative time and a per-stage split
(embedding, Chroma calls, BM25, frame induction), and writes ``results/profile_query.json``.

    python benchmarks/profile_query.py --size 10000
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

#: Stage -> functions whose cumulative time is that stage's (file fragment, function name).
STAGES = {
    "query embedding": ("models/embeddings.py", "embed"),
    "dense search (NumPy)": ("index/vectors.py", "search"),
    "chroma get (ids / memories)": ("stores/chroma.py", "_pages"),
    "chroma present (existence)": ("stores/chroma.py", "present"),
    "conditions (which memories meet the filter)": ("memory/source.py", "_among"),
    "BM25 search": ("index/bm25.py", "search"),
    "frame induction": ("core/frames.py", "induce"),
    "fusion": ("fusion.py", "convex_combination"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--namespaces", type=int, default=4)
    parser.add_argument("--out", default="profile_query")
    args = parser.parse_args()
    started = common.provenance()
    from ramem_integrations import RaMem

    corpus = common.Corpus.load(common.data_path(args.data))
    embedder = common.TableEmbedder()
    mem = RaMem.from_path(Path(tempfile.mkdtemp(prefix="ramem-prof-")), embedder=embedder)
    copies = 0
    for units, table in corpus.copies(args.size):
        embedder.table = table
        mem.add_memories(units)
        copies += 1
    embedder.table = {}
    pool = common.QuestionPool(corpus, seed=1)
    working = range(min(args.namespaces, copies))
    for kind in ("time", "person", "plain"):  # warm: each working namespace queried once
        for q in pool.take(working, kind, 1):
            mem.retrieve(q["query"], q["namespace"], 10)
    result: dict[str, Any] = {"size": args.size}
    for kind in ("time", "person", "plain"):
        cases = pool.take(working, kind, 6)  # new texts: every call embeds its question
        profiler = cProfile.Profile()
        start = time.perf_counter()
        profiler.enable()
        for q in cases:
            mem.retrieve(q["query"], q["namespace"], 10)
        profiler.disable()
        per_query = (time.perf_counter() - start) * 1000 / len(cases)
        stats = pstats.Stats(profiler)
        stages = stage_split(stats, len(cases))
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(25)
        print(f"== {kind} questions: {per_query:.1f} ms/query under the profiler")
        for stage, ms in stages.items():
            print(f"   {stage:30s} {ms:7.1f} ms/query")
        result[kind] = {
            "ms_per_query_profiled": round(per_query, 1),
            "stages_ms": stages,
            "calls_per_query": calls(stats, len(cases)),
            "top_cumulative": text.getvalue().splitlines()[:60],
        }
        print("\n".join(text.getvalue().splitlines()[:45]))
    common.write_result(args.out, result, started)


def stage_split(stats: pstats.Stats, n: int) -> dict[str, float]:
    out = {}
    for stage, (fragment, name) in STAGES.items():
        total = sum(
            row[3]
            for (path, _, func), row in stats.stats.items()  # type: ignore[attr-defined]
            if func == name and path.endswith(fragment)
        )
        out[stage] = round(total * 1000 / n, 2)
    return out


def calls(stats: pstats.Stats, n: int) -> dict[str, float]:
    """Chroma round-trips per query (collection.query / collection.get)."""
    out = {}
    for (path, _, func), row in stats.stats.items():  # type: ignore[attr-defined]
        if path.endswith("models/Collection.py") and func in ("query", "get"):
            out[f"Collection.{func}"] = round(row[1] / n, 2)
    return out


if __name__ == "__main__":
    main()
