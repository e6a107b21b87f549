"""Ingestion throughput on LoCoMo with the real offline embedder: RaMem vs langchain-chroma.

Each round, in fresh embedded stores, the same conversations, the same embedder (the packaged
MiniLM ONNX), both sides batched:

- ``ramem_batched``: ``RaMem.add_conversations(conversations)`` (anchoring + embedding +
  upsert, one call, a namespace per conversation);
- ``ramem_per_conversation``: ``RaMem.add_conversation`` once per conversation;
- ``langchain_chroma``: ``Chroma.add_texts`` in batches of 256 into one collection, of the
  memory texts RaMem stores (verbatim) with the same metadata, our embedder wrapped as a
  LangChain ``Embeddings`` (the anchoring that made those texts is not timed on this side).

Rounds alternate the systems' order, so load on the machine falls on all of them; the best
round of each is compared. ``--profile`` adds a cProfile of one batched RaMem ingestion.

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
    parser.add_argument("--batch", type=int, default=256, help="add_texts batch size")
    parser.add_argument("--profile", action="store_true", help="profile a batched RaMem run")
    parser.add_argument("--conversations", type=int, help="only the first N (a quick check)")
    parser.add_argument("--out", default="ingest")
    args = parser.parse_args()
    started = common.provenance()
    from langchain_chroma import Chroma

    from ramem_integrations import RaMem
    from ramem_integrations.models.embeddings import default_embedder

    corpus = common.Corpus.load(common.data_path(args.data), embed=False)
    if args.conversations:
        corpus.conversations = corpus.conversations[: args.conversations]
        corpus.units = corpus.units[: args.conversations]
    units = [u for group in corpus.units for u in group]
    embedder = default_embedder()
    embedder.embed(["warm up"])
    lc_embeddings = common.langchain_embeddings(embedder)

    def fresh() -> Path:
        return Path(tempfile.mkdtemp(prefix="ramem-ingest-"))

    def ramem_batched(root: Path) -> None:
        RaMem.from_path(root, embedder=embedder).add_conversations(corpus.conversations)

    def ramem_per_conversation(root: Path) -> None:
        mem = RaMem.from_path(root, embedder=embedder)
        for conversation in corpus.conversations:
            mem.add_conversation(conversation, conversation.id)

    def langchain_chroma(root: Path) -> None:
        import chromadb
        from chromadb.config import Settings

        client = chromadb.PersistentClient(
            path=str(root), settings=Settings(anonymized_telemetry=False)
        )
        store = Chroma(
            collection_name="langchain",
            embedding_function=lc_embeddings,
            client=client,
            collection_configuration={"hnsw": {"space": "cosine"}},
        )
        for i in range(0, len(units), args.batch):
            batch = units[i : i + args.batch]
            store.add_texts(
                [u.content for u in batch],
                metadatas=[u.to_metadata() for u in batch],
                ids=[u.id for u in batch],
            )

    systems: dict[str, Callable[[Path], None]] = {
        "ramem_batched": ramem_batched,
        "ramem_per_conversation": ramem_per_conversation,
        "langchain_chroma": langchain_chroma,
    }
    seconds: dict[str, list[float]] = {name: [] for name in systems}
    names = list(systems)
    for round_ in range(args.rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            run = systems[name]
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
        "conversations": len(corpus.conversations),
        "add_texts_batch": args.batch,
        "rounds": args.rounds,
        "memories_per_s_best": rates,
        "ratio_to_langchain_chroma": {n: common.ratio(r, lc) for n, r in rates.items()},
        "seconds": {n: [round(x, 2) for x in s] for n, s in seconds.items()},
    }
    if args.profile:
        result["profile"] = profile(lambda: ramem_batched(fresh()), len(units))
    for name, rate in rates.items():
        print(f"{name:20s} {rate:7.1f} memories/s  ({common.ratio(rate, lc)}x langchain-chroma)")
    if args.profile:
        print("where the time goes (batched RaMem, profiled):")
        for stage, share in result["profile"]["stages_s"].items():
            print(f"   {stage:32s} {share:6.2f} s")
    common.write_result(args.out, result, started)


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
