"""Query latency, resident memory and disk against store size: RaMem vs langchain-chroma.

For each size a fresh worker process writes the same synthesised memories (see ``common.py``)
into three embedded Chroma stores, vectors precomputed:

- ``ramem``: ``RaMem.from_path(...).add_memories`` (whatever layout the package uses);
- ``lc_one``: langchain-chroma ``Chroma.add_texts`` into ONE collection holding every namespace,
  searched with ``similarity_search(q, k=10, filter={"namespace": ns})`` (what most users run);
- ``lc_per_ns``: langchain-chroma with a collection per namespace, searched with
  ``similarity_search(q, k=10)`` (the best a user could set up by hand).

It then times ``RaMem.retrieve(q, ns, k=10)`` and the two searches on the same questions, three
kinds (time-grounded, person-grounded, plain), interleaved question by question with the order
rotating, in a working set of namespaces each side has queried before (warm); the first query
of each namespace (cold) is reported apart. Growth with size is timed on more questions, RaMem
and a collection per namespace only: the one-collection side's slow filtered search, run between
their questions, slows them, most likely by evicting their CPU caches (its effect is in the
``interleaved`` growth). Every
question text is asked once per process, so every call on every side embeds its question
(checked: the count of texts embedded for real).
Then, per side, a fresh process opens the store and answers questions in the working set: its
resident memory before and after, and the store's size on disk.

    python benchmarks/bench_scale.py --sizes 1000 10000 100000
    python benchmarks/bench_scale.py --sizes 1000 1000000 --sides ramem --out scale_large

``--sides`` leaves sides out (the 1M run times RaMem alone: building the three stores would take
over two hours on two cores); tables show a side left out as "not run".
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import KINDS, SIDES, say

WORKING_SET = 8  # namespaces queried in the warm measurement
RSS_QUESTIONS = 2  # questions of each kind per working namespace in the resident-memory run
APART = ("ramem", "lc_per_ns")  # the sides whose growth is timed without the one collection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="LoCoMo JSON (default ../shared/data/locomo-dev.json)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument(
        "--per-ns", type=int, default=12, help="timed questions per kind and namespace"
    )
    parser.add_argument("--sides", nargs="+", choices=SIDES, default=list(SIDES))
    parser.add_argument("--out", default="scale")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rss", choices=SIDES, help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--vectors", help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = common.data_path(args.data)
    sides = tuple(s for s in SIDES if s in args.sides)
    if args.worker or args.rss:
        corpus = common.Corpus.load(data, embed=bool(args.worker), cache=Path(args.vectors))
        root = Path(args.root)
        if args.worker:
            out = worker(corpus, root, args.worker, args.per_ns, sides)
        else:
            out = rss_worker(
                corpus, root, args.rss, json.loads((root / "working.json").read_text())
            )
        print(json.dumps(out))
        return
    started = common.provenance()
    runs = []
    scratch = Path(tempfile.mkdtemp(prefix="ramem-scale-"))
    try:
        vectors = scratch / "vectors.npz"
        common.Corpus.load(data, cache=vectors)  # embeds the unique texts once for all workers
        for size in args.sizes:
            say(f"-- {size:,} memories (fresh processes)")
            root = scratch / str(size)
            root.mkdir()
            extra = ["--data", str(data), "--root", str(root), "--vectors", str(vectors)]
            run = child(
                [*extra, "--worker", str(size), "--per-ns", str(args.per_ns), "--sides", *sides]
            )
            run["resources"] = {}
            for side in sides:
                res = child([*extra, "--rss", side])
                res["disk_mb"] = common.disk_mb(root / side)
                res["disk_mb_per_100k"] = round(res["disk_mb"] * 100_000 / size, 1)
                run["resources"][side] = res
            shutil.rmtree(root, ignore_errors=True)
            runs.append(run)
            show(run)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary = growth(runs, sides)
    print(json.dumps(summary, indent=2))
    result = {"k": common.K, "sides": list(sides), "runs": runs, "growth": summary}
    common.write_result(args.out, result, started)


def child(args: list[str]) -> dict[str, Any]:
    """Run this script as a worker; its last stdout line is its JSON result."""
    proc = subprocess.run(
        [sys.executable, __file__, *args], check=True, stdout=subprocess.PIPE, text=True
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def client(path: Path) -> Any:
    import chromadb
    from chromadb.config import Settings

    return chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))


def open_sides(root: Path, embedder: Any) -> tuple[Any, common.LangchainSides]:
    """RaMem and the two langchain-chroma set-ups, each in its own directory under ``root``."""
    from ramem_integrations import RaMem

    mem = RaMem.from_path(root / "ramem", embedder=embedder)
    return mem, common.LangchainSides(client(root / "lc_one"), client(root / "lc_per_ns"), embedder)


def runners(mem: Any, lc: common.LangchainSides) -> dict[str, Any]:
    return {
        "ramem": common.ramem_runner(mem),
        "lc_one": lc.search_one,
        "lc_per_ns": lc.search_per_ns,
    }


def open_side(root: Path, side: str, embedder: Any) -> Any:
    """One side's query function over its store, opened alone (nothing else in the process)."""
    if side == "ramem":
        from ramem_integrations import RaMem

        return common.ramem_runner(RaMem.from_path(root / "ramem", embedder=embedder))
    store = client(root / side)
    return runners(None, common.LangchainSides(store, store, embedder))[side]


def worker(
    corpus: common.Corpus, root: Path, size: int, per_ns: int, sides: tuple[str, ...]
) -> dict[str, Any]:
    embedder = common.TableEmbedder()
    embedder.real.embed(["warm up"])
    mem, lc = open_sides(root, embedder)
    writes, copies = common.write_all(corpus, size, mem, lc, embedder, sides)
    embedded_at_ingest = embedder.embedded

    step = max(1, copies // WORKING_SET)
    working = list(range(0, copies, step))[:WORKING_SET]
    (root / "working.json").write_text(json.dumps(working))
    pool = common.QuestionPool(corpus, seed=size)
    run = checked({s: fn for s, fn in runners(mem, lc).items() if s in sides}, embedder)
    cold = common.interleaved(pool.take(working, "plain", 1), run)  # first query per namespace
    for kind in KINDS:  # warm-up, untimed
        common.interleaved(pool.take(working, kind, 1), run)
    latency: dict[str, Any] = {}
    grounded: dict[str, str] = {}
    for kind in KINDS:
        qs = pool.take(working, kind, per_ns)
        latency[kind] = common.compare(common.interleaved(qs, run))
        hits = sum(1 for q in qs if mem.frame(q["query"], q["namespace"]).is_grounded)
        grounded[kind] = f"{hits}/{len(qs)}"
    # Growth is read apart: at 100k the one-collection side's filtered search (about 50 ms,
    # over every namespace's vectors), run between the others' questions, slows them by about
    # as much as they grow (most likely by evicting their CPU caches).
    apart = {side: fn for side, fn in run.items() if side != "lc_one"}
    latency_apart = {
        kind: common.compare(common.interleaved(pool.take(working, kind, per_ns), apart))
        for kind in KINDS
    }
    return {
        "size": size,
        "namespaces": copies,
        "working_set": len(working),
        "questions_grounded": grounded,
        "served_without_embedding": run.misses,  # type: ignore[attr-defined]
        "ingest_precomputed_vectors": {
            **{f"{s}_per_s": round(size / writes[s], 1) for s in sides},
            **{
                f"ratio_{s}": common.ratio(writes[s], writes["ramem"])
                for s in sides
                if s != "ramem" and "ramem" in sides
            },
            "texts_embedded_for_real": embedded_at_ingest,
        },
        "latency": latency,
        "latency_apart": latency_apart,
        "cold_first_query": {side: common.percentiles(s) for side, s in cold.items()},
    }


def checked(run: dict[str, Any], embedder: common.TableEmbedder) -> Any:
    """The runners, each counting the calls that embedded nothing (a cache answered)."""

    class Runners(dict[str, Any]):
        misses = dict.fromkeys(run, 0)

    def counting(side: str, fn: Any) -> Any:
        def call(q: dict[str, str]) -> Any:
            before = embedder.embedded
            out = fn(q)
            if embedder.embedded == before:
                Runners.misses[side] += 1
            return out

        return call

    return Runners({side: counting(side, fn) for side, fn in run.items()})


def rss_worker(corpus: common.Corpus, root: Path, side: str, working: list[int]) -> dict[str, Any]:
    """Resident memory of a process serving ``side``'s store: before it opens the store,
    and after it answers questions in every working namespace."""
    embedder = common.TableEmbedder()
    embedder.real.embed(["warm up"])
    before = common.rss_mb()
    run = open_side(root, side, embedder)
    pool = common.QuestionPool(corpus, seed=1)
    for kind in KINDS:
        for q in pool.take(working, kind, RSS_QUESTIONS):
            run(q)
    after = common.rss_mb()
    return {
        "rss_mb_before_store": before,
        "rss_mb_after_queries": after,
        "rss_mb_store": round(after - before, 1),
    }


def line(stats: dict[str, Any]) -> str:
    sides = [s for s in SIDES if s in stats]
    parts = [f"{s} p50 {stats[s]['p50_ms']:.1f} p95 {stats[s]['p95_ms']:.1f}" for s in sides]
    ratios = [
        f"x{stats[f'ratio_p50_{s}']}/{stats[f'ratio_p95_{s}']} vs {s}"
        for s in sides
        if f"ratio_p50_{s}" in stats
    ]
    return " | ".join(parts + ratios)


def show(run: dict[str, Any]) -> None:
    say(f"   {run['namespaces']} namespaces; ingest {run['ingest_precomputed_vectors']}")
    for kind, stats in run["latency"].items():
        say(f"   {kind:6s} {line(stats)}")
    say(
        f"   grounded {run['questions_grounded']}; served without embedding "
        f"{run['served_without_embedding']}"
    )
    say(f"   resources {run['resources']}")


def growth(runs: list[dict[str, Any]], sides: tuple[str, ...] = SIDES) -> dict[str, Any]:
    """p50 at each size over p50 at the smallest, per side and kind: RaMem and a collection per
    namespace timed apart from the one-collection side, and (``interleaved``) all three
    timed together, as the ratios are."""
    by_size = {r["size"]: r for r in runs}
    smallest = min(by_size)

    def ratios(key: str, sides: tuple[str, ...]) -> dict[str, Any]:
        return {
            str(size): {
                side: {
                    kind: common.ratio(
                        run[key][kind][side]["p50_ms"],
                        by_size[smallest][key][kind][side]["p50_ms"],
                    )
                    for kind in KINDS
                }
                for side in sides
            }
            for size, run in sorted(by_size.items())
            if size != smallest
        }

    return {
        "base_size": smallest,
        **ratios("latency_apart", tuple(s for s in APART if s in sides)),
        "interleaved": ratios("latency", sides),
    }


if __name__ == "__main__":
    main()
