"""Ingestion throughput on LoCoMo with the real offline embedder: RaMem vs langchain-chroma.

Each round, in fresh embedded stores, same texts, same embedder (the packaged MiniLM ONNX):

- ``ramem_batched``: ``RaMem.add_conversations(conversations)`` (anchoring + embedding + upsert,
  one batched write);
- ``ramem_one_by_one``: ``RaMem.add_conversation`` once per conversation;
- ``ramem_add_memories``: ``RaMem.add_memories`` of the already anchored units (no anchoring);
- ``langchain_chroma``: ``Chroma.add_texts`` of the same memory texts with the same metadata,
  our embedder wrapped as a LangChain ``Embeddings``.

Rounds alternate the systems, so load on the machine falls on all of them. A cProfile of one
batched RaMem ingestion shows where the time goes.

    python benchmarks/bench_ingest.py --rounds 2
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

STAGES = {
    "anchoring (RuleAnchorer)": ("core/anchoring.py", "anchor"),
    "embedding (MiniLM ONNX)": ("ramem_integrations/embeddings.py", "embed"),
    "chroma upsert": ("stores/chroma.py", "upsert"),
    "change detection (store.get)": ("ramem_integrations/ingest.py", "_changed"),
    "BM25 upkeep": ("ramem_integrations/lexical.py", "added"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", default="ingest")
    args = parser.parse_args()
    from langchain_chroma import Chroma

    from ramem_integrations import RaMem
    from ramem_integrations.embeddings import default_embedder

    corpus = common.Corpus.load(common.data_path(args.data), embed=False)
    units = [u for group in corpus.units for u in group]
    embedder = default_embedder()
    embedder.embed(["warm up"])
    lc_embeddings = common.langchain_embeddings(embedder)

    def fresh() -> Path:
        return Path(tempfile.mkdtemp(prefix="ramem-ingest-"))

    def ramem_batched(root: Path) -> None:
        RaMem.from_path(root, embedder=embedder).add_conversations(corpus.conversations)

    def ramem_one_by_one(root: Path) -> None:
        mem = RaMem.from_path(root, embedder=embedder)
        for conversation in corpus.conversations:
            mem.add_conversation(conversation, conversation.id)

    def ramem_add_memories(root: Path) -> None:
        RaMem.from_path(root, embedder=embedder).add_memories(units)

    def langchain_chroma(root: Path) -> None:
        import chromadb
        from chromadb.config import Settings

        client = chromadb.PersistentClient(
            path=str(root), settings=Settings(anonymized_telemetry=False)
        )
        Chroma(
            collection_name="langchain",
            embedding_function=lc_embeddings,
            client=client,
            collection_configuration={"hnsw": {"space": "cosine"}},
        ).add_texts(
            [u.content for u in units],
            metadatas=[u.to_metadata() for u in units],
            ids=[u.id for u in units],
        )

    systems: dict[str, Callable[[Path], None]] = {
        "ramem_batched": ramem_batched,
        "ramem_one_by_one": ramem_one_by_one,
        "ramem_add_memories": ramem_add_memories,
        "langchain_chroma": langchain_chroma,
    }
    seconds: dict[str, list[float]] = {name: [] for name in systems}
    for round_ in range(args.rounds):
        for name, run in systems.items():
            root = fresh()
            start = time.perf_counter()
            run(root)
            seconds[name].append(time.perf_counter() - start)
            shutil.rmtree(root, ignore_errors=True)
            print(f"round {round_ + 1} {name:20s} {len(units) / seconds[name][-1]:7.1f}/s")
    rates = {name: round(len(units) / min(s), 1) for name, s in seconds.items()}
    lc = rates["langchain_chroma"]
    result: dict[str, Any] = {
        "memories": len(units),
        "rounds": args.rounds,
        "memories_per_s_best": rates,
        "ratio_to_langchain_chroma": {n: common.ratio(r, lc) for n, r in rates.items()},
        "seconds": {n: [round(x, 2) for x in s] for n, s in seconds.items()},
        "profile": profile(lambda: ramem_batched(fresh()), len(units)),
    }
    for name, rate in rates.items():
        print(f"{name:20s} {rate:7.1f} memories/s  ({common.ratio(rate, lc)}x langchain-chroma)")
    print("where the time goes (batched RaMem, profiled):")
    for stage, share in result["profile"]["stages_s"].items():
        print(f"   {stage:32s} {share:6.2f} s")
    common.write_result(args.out, result)


def profile(run: Callable[[], None], count: int) -> dict[str, Any]:
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    run()
    profiler.disable()
    total = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    stages = {
        stage: round(
            sum(
                row[3]
                for (path, _, func), row in stats.stats.items()  # type: ignore[attr-defined]
                if func == name and path.endswith(fragment)
            ),
            2,
        )
        for stage, (fragment, name) in STAGES.items()
    }
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(20)
    return {
        "total_s": round(total, 2),
        "memories": count,
        "stages_s": stages,
        "top_cumulative": text.getvalue().splitlines()[:40],
    }


if __name__ == "__main__":
    main()
