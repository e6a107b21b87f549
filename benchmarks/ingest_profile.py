"""Where RaMem's ingestion time goes, and how it compares with langchain-chroma ``add_texts``.

On LoCoMo (read at run time, never copied), with the packaged MiniLM int8 ONNX embedder on both
sides, each in a fresh embedded store:

- ``ramem``: ``RaMem.add_conversation`` once per conversation (namespace = its id);
- ``langchain_chroma``: ``Chroma.add_texts`` of every conversation's turn texts in batches of
  256, with the namespace as metadata (one collection), our embedder wrapped as a LangChain
  ``Embeddings``;
- ``langchain_chroma_same_texts``: the same, of the texts RaMem embeds (each memory's words
  as said, and each conversation's distinct speaker lines: ``memory_vectors.py``), so both
  sides embed the same tokens.

Each round ingests conversation after conversation, every system in turn, so load on a shared
machine falls on all; a ratio is langchain-chroma's seconds over RaMem's (>= 1: RaMem as fast
or faster), wall clock and process CPU. Then one RaMem ingestion is timed stage
by stage (every thread: anchoring, grouping, segmentation, change detection, embedding, Chroma
upsert, write marks, BM25 upkeep) and profiled with cProfile (the calling thread, as
``bench_ingest.py`` does).
``--sweep`` times the embedder alone at several ONNX batch sizes; ``--before`` adds RaMem with
the write path as it was before issue 16 (embed, then upsert, batch after batch; ONNX batches
of 32).

    python benchmarks/ingest_profile.py --rounds 2
    python benchmarks/ingest_profile.py --sweep 8 16 32 64 128 --rounds 0
"""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ingest
import common

from ramem_integrations.memory.embedding import speaker_line

if TYPE_CHECKING:
    from ramem_integrations.core.conversation import Conversation
    from ramem_integrations.memory.writing import Batch, Progress, Writer

LC_BATCH = 256

#: Ingests one conversation into a store opened for one system.
Step = Callable[["Conversation"], None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sweep", type=int, nargs="*", default=[], help="ONNX batch sizes")
    parser.add_argument(
        "--before", action="store_true", help="also time the write path as before issue 16"
    )
    parser.add_argument("--out", default="ingest_profile")
    args = parser.parse_args()
    from ramem_integrations import RaMem
    from ramem_integrations.core.conversation import load_conversations
    from ramem_integrations.models.embeddings import MiniLMEmbedder, default_embedder

    conversations = load_conversations(common.data_path(args.data))
    turns = [(c.id, t.text) for c in conversations for s in c.sessions for t in s.turns]
    anchorer = RaMem.from_path(tempfile.mkdtemp(prefix="ramem-anchor-")).writer
    restated = [(c.id, text) for c in conversations for text in embedded_texts(anchorer, c)]
    embedder = default_embedder()
    embedder.embed(["warm up"])

    def ramem(root: Path) -> Step:
        mem = RaMem.from_path(root, embedder=embedder)
        return lambda conversation: mem.add_conversation(conversation, conversation.id)

    def add_texts(root: Path, texts: list[tuple[str, str]]) -> Step:
        import chromadb
        from chromadb.config import Settings
        from langchain_chroma import Chroma

        client = chromadb.PersistentClient(
            path=str(root), settings=Settings(anonymized_telemetry=False)
        )
        store = Chroma(
            collection_name="langchain",
            embedding_function=common.langchain_embeddings(embedder),
            client=client,
            collection_configuration={"hnsw": {"space": "cosine"}},
        )

        def step(conversation: Conversation) -> None:
            own = [t for n, t in texts if n == conversation.id]
            for start in range(0, len(own), LC_BATCH):
                batch = own[start : start + LC_BATCH]
                store.add_texts(batch, metadatas=[{"namespace": conversation.id}] * len(batch))

        return step

    def ramem_before(root: Path) -> Step:
        mem = RaMem.from_path(root, embedder=MiniLMEmbedder(batch_size=32))
        mem.writer._write = types.MethodType(sequential_write, mem.writer)  # type: ignore[method-assign]
        return lambda conversation: mem.add_conversation(conversation, conversation.id)

    systems: dict[str, Callable[[Path], Step]] = {
        "ramem": ramem,
        "langchain_chroma": lambda root: add_texts(root, turns),
        "langchain_chroma_same_texts": lambda root: add_texts(root, restated),
    }
    if args.before:
        systems["ramem_before_issue16"] = ramem_before
    result: dict[str, Any] = {
        "turns": len(turns),
        "conversations": len(conversations),
        "tokens_embedded": {"langchain_chroma": tokens(turns), "ramem": tokens(restated)},
    }
    print(f"tokens embedded: {result['tokens_embedded']}")
    if args.rounds:
        result |= compare(systems, conversations, args.rounds)
        root = Path(tempfile.mkdtemp(prefix="ramem-ingest-"))
        result["stages"] = stages(lambda: all_of(ramem(root), conversations))
        shutil.rmtree(root, ignore_errors=True)
        root = Path(tempfile.mkdtemp(prefix="ramem-ingest-"))
        result["profile"] = bench_ingest.profile(
            lambda: all_of(ramem(root), conversations), len(turns)
        )
        shutil.rmtree(root, ignore_errors=True)
        print("where the time goes (one RaMem ingestion, every thread):")
        for stage, share in result["stages"]["seconds"].items():
            print(f"   {stage:34s} {share:6.2f} s")
        print(f"   {'wall':34s} {result['stages']['wall_s']:6.2f} s")
    if args.sweep:
        result["onnx_batch_sweep"] = sweep(conversations, args.sweep)
    common.write_result(args.out, result)


def embedded_texts(writer: Writer, conversation: Conversation) -> list[str]:
    """What RaMem's write path embeds for ``conversation``: each memory's words as said, then
    the distinct speaker lines."""
    units = writer.anchor(conversation, conversation.id)
    lines = dict.fromkeys(line for u in units if (line := speaker_line(u)))
    return [u.content for u in units] + list(lines)


def sequential_write(writer: Writer, batches: list[Batch], progress: Progress | None) -> None:
    """``Writer._write`` as it was before issue 16: embed, then upsert, batch after batch."""
    for namespace, batch in batches:
        vectors = writer.embedder.embed([u.search_text for u in batch])
        writer.store.upsert(batch, vectors)
        writer.cache.added(namespace, batch, vectors)
        if progress:
            progress(len(batch))


def all_of(step: Step, conversations: list[Conversation]) -> None:
    for conversation in conversations:
        step(conversation)


def compare(
    systems: dict[str, Callable[[Path], Step]], conversations: list[Conversation], rounds: int
) -> dict[str, Any]:
    """Wall and process CPU seconds of each system over all conversations, best round.

    Each round opens a fresh store per system, then ingests conversation after conversation,
    every system in turn (the order rotating), so a change of load on a shared machine falls
    on all systems alike. Ratios are langchain-chroma's seconds over RaMem's."""
    wall: dict[str, list[float]] = {name: [] for name in systems}
    cpu: dict[str, list[float]] = {name: [] for name in systems}
    roots = []
    for round_ in range(rounds):
        opened = {}
        for name, open_ in systems.items():
            roots.append(Path(tempfile.mkdtemp(prefix="ramem-ingest-")))
            opened[name] = open_(roots[-1])
        spent = {name: [0.0, 0.0] for name in systems}
        for index, conversation in enumerate(conversations):
            names = list(systems)
            shift = (index + round_) % len(names)
            for name in names[shift:] + names[:shift]:
                start, start_cpu = time.perf_counter(), time.process_time()
                opened[name](conversation)
                spent[name][0] += time.perf_counter() - start
                spent[name][1] += time.process_time() - start_cpu
        for name, (w, c) in spent.items():
            wall[name].append(w)
            cpu[name].append(c)
            print(f"round {round_ + 1} {name:28s} wall {w:6.2f} s  cpu {c:6.2f} s", flush=True)
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
    out: dict[str, Any] = {
        "rounds": rounds,
        "wall_s": {n: [round(x, 2) for x in s] for n, s in wall.items()},
        "cpu_s": {n: [round(x, 2) for x in s] for n, s in cpu.items()},
        "speed_ratio": {},
    }
    for other in [n for n in systems if n != "ramem"]:  # a ratio > 1: RaMem is faster
        out["speed_ratio"][other] = {
            "wall_best": round(min(wall[other]) / min(wall["ramem"]), 3),
            "wall_per_round": [
                round(o / r, 3) for o, r in zip(wall[other], wall["ramem"], strict=True)
            ],
            "cpu_best": round(min(cpu[other]) / min(cpu["ramem"]), 3),
        }
        print(f"RaMem speed / {other}: {out['speed_ratio'][other]}")
    return out


#: Stage -> (module, owner class or None, function): timed wherever they run.
STAGES = {
    "anchoring (RuleAnchorer.anchor, all)": ("core.anchoring", "RuleAnchorer", "anchor"),
    "  grouping (group_turns)": ("core.anchoring", None, "group_turns"),
    "  aliases (conversation_aliases)": ("core.anchoring", None, "conversation_aliases"),
    "segmentation (Segmenter.segment)": ("core.segmentation", "Segmenter", "segment"),
    "change detection (Writer._changed)": ("memory.writing", "Writer", "_changed"),
    "embedding (MiniLMEmbedder.embed)": ("models.embeddings", "MiniLMEmbedder", "embed"),
    "chroma upsert (store.upsert, all)": ("stores.chroma", "ChromaEpisodicStore", "upsert"),
    "  write marks (store.mark_written)": ("stores.chroma", "ChromaEpisodicStore", "mark_written"),
    "BM25 upkeep (NamespaceCache.added)": ("cache.namespaces", "NamespaceCache", "added"),
}


def stages(run: Callable[[], None]) -> dict[str, Any]:
    """Seconds spent in each of :data:`STAGES` during ``run``, summed over threads."""
    totals = dict.fromkeys(STAGES, 0.0)
    lock = threading.Lock()
    with timed(totals, lock):
        start = time.perf_counter()
        run()
        wall = time.perf_counter() - start
    return {"wall_s": round(wall, 2), "seconds": {k: round(v, 2) for k, v in totals.items()}}


@contextmanager
def timed(totals: dict[str, float], lock: threading.Lock) -> Iterator[None]:
    import importlib

    undo: list[tuple[Any, str, Any]] = []
    for stage, (module_name, owner_name, func_name) in STAGES.items():
        module = importlib.import_module(f"ramem_integrations.{module_name}")
        owner = getattr(module, owner_name) if owner_name else module
        original = getattr(owner, func_name)
        undo.append((owner, func_name, original))
        setattr(owner, func_name, _timer(original, stage, totals, lock))
    try:
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def _timer(
    func: Callable[..., Any], stage: str, totals: dict[str, float], lock: threading.Lock
) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            with lock:
                totals[stage] += time.perf_counter() - start

    return wrapper


def tokens(texts: list[tuple[str, str]]) -> int:
    """How many MiniLM tokens the texts hold (after truncation): embedding time follows it."""
    from ramem_integrations.models.embeddings import MINILM_MAX_TOKENS, _load_tokenizer

    encoded = _load_tokenizer(MINILM_MAX_TOKENS).encode_batch([t for _, t in texts])
    return sum(len(e.ids) for e in encoded)


def sweep(conversations: list[Any], sizes: list[int]) -> dict[str, float]:
    """Texts per second of the embedder alone on the memories' words, per ONNX batch size."""
    from ramem_integrations.core.anchoring import RuleAnchorer
    from ramem_integrations.models.embeddings import MiniLMEmbedder

    anchorer = RuleAnchorer()
    texts = [u.content for c in conversations for u in anchorer.anchor(c, c.id)]
    rates: dict[str, list[float]] = {str(s): [] for s in sizes}
    for _ in range(2):  # interleaved, best of two
        for size in sizes:
            embedder = MiniLMEmbedder(batch_size=size)
            start = time.perf_counter()
            for chunk in range(0, len(texts), 256):
                embedder.embed(texts[chunk : chunk + 256])
            rates[str(size)].append(len(texts) / (time.perf_counter() - start))
            print(f"onnx batch {size:4d}: {rates[str(size)][-1]:7.1f} texts/s", flush=True)
    return {size: round(max(r), 1) for size, r in rates.items()}


if __name__ == "__main__":
    main()
