"""Does a RaMem query pay for other namespaces' memories? One process, two stores, one load.

    python benchmarks/growth_probe.py --data ../shared/data/locomo-dev.json --large 100000

Builds a small store (``--small`` memories) and a large one (``--large``) from the same
synthesised LoCoMo copies as ``bench_scale.py`` (RaMem only, vectors precomputed), then asks
every question of each kind in the namespaces both stores hold, timing the small and the large
store question by question, in rotating order, so the machine's load falls on both alike. Prints
p50/p95 per store and kind and their ratio; writes ``benchmarks/results/growth_probe.json``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

KINDS = ("time", "person", "plain")
SHARED = 3  # namespaces ns-0 .. ns-2: in both stores


def build(corpus: common.Corpus, size: int, root: Path, embedder: common.TableEmbedder) -> Any:
    from ramem_integrations import RaMem

    mem = RaMem.from_path(root, embedder=embedder)
    for copy, (units, table) in enumerate(corpus.copies(size), start=1):
        embedder.table = table
        mem.add_memories(units)
        if copy % 20 == 0:
            common.say(f"   {size:,}: written {copy} namespaces")
    embedder.table = {}
    return mem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=100000)
    parser.add_argument("--per-ns", type=int, default=16)
    args = parser.parse_args()
    started = common.provenance()
    corpus = common.Corpus.load(common.data_path(args.data))
    embedder = common.TableEmbedder()
    embedder.real.embed(["warm up"])
    with tempfile.TemporaryDirectory(prefix="ramem-growth-") as tmp:
        small = build(corpus, args.small, Path(tmp) / "small", embedder)
        large = build(corpus, args.large, Path(tmp) / "large", embedder)
        runs = {"small": common.ramem_runner(small), "large": common.ramem_runner(large)}
        pool = common.QuestionPool(corpus, seed=7)
        for kind in KINDS:  # warm-up: each namespace loaded in each store
            common.interleaved(pool.take(range(SHARED), kind, 1), runs)
        result: dict[str, Any] = {"small": args.small, "large": args.large, "latency": {}}
        for kind in KINDS:
            samples = common.interleaved(pool.take(range(SHARED), kind, args.per_ns), runs)
            stats = common.compare(samples, base="large")
            result["latency"][kind] = stats
            common.say(
                f"   {kind:6} {args.small:,}: p50 {stats['small']['p50_ms']} ms | "
                f"{args.large:,}: p50 {stats['large']['p50_ms']} ms | "
                f"large ÷ small p50 {stats['ratio_p50_small']} p95 {stats['ratio_p95_small']}"
            )
    common.write_result("growth_probe", result, started)


if __name__ == "__main__":
    main()
