"""What each offline embedder costs: ingest rate and content-retrieval latency, back to back.

Each round, for each embedder (the order alternates between rounds, so load on the machine
falls on all of them), in a fresh embedded store: ``RaMem.add_conversation`` of the first
``--sessions`` of a LoCoMo conversation (anchoring + embedding + upsert: messages per second,
and CPU milliseconds per message, which a loaded machine disturbs less), then
``retrieve(question, mode="content", k=10)`` for each of its first ``--questions`` questions
(each text asked once per store, so no query cache answers it). The model is loaded before
the clock starts. The best round of each embedder is reported: on a shared machine only the
best runs are comparable.

    python benchmarks/embedder_cost.py --embedders minilm,e5-small --rounds 3
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common


def turns(conversation: Any) -> int:
    return sum(len(s.turns) for s in conversation.sessions)


def one_round(name: str, conversation: Any, questions: list[str]) -> dict[str, float]:
    from ramem_integrations import RaMem
    from ramem_integrations.models.embeddings import embedder_named

    embedder = embedder_named(name)
    embedder.embed(["warm up"])  # the model loads outside the timed part
    root = Path(tempfile.mkdtemp(prefix="ramem-embcost-"))
    try:
        mem = RaMem.from_path(root, embedder=embedder)
        started, cpu = time.perf_counter(), time.process_time()
        mem.add_conversation(conversation, "c")
        ingest_s, ingest_cpu = time.perf_counter() - started, time.process_time() - cpu
        mem.retrieve("warm up the store", "c", 10, mode="content")
        samples, cpu_samples = [], []
        for text in questions:
            started, cpu = time.perf_counter(), time.process_time()
            mem.retrieve(text, "c", 10, mode="content")
            samples.append((time.perf_counter() - started) * 1000)
            cpu_samples.append((time.process_time() - cpu) * 1000)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {
        "messages_per_s": round(turns(conversation) / ingest_s, 1),
        "cpu_ms_per_message": round(ingest_cpu * 1000 / turns(conversation), 2),
        "query_p50_ms": round(statistics.median(samples), 2),
        "query_cpu_p50_ms": round(statistics.median(cpu_samples), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--embedders", default="minilm,e5-small")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--sessions", type=int, default=4, help="the conversation's first N")
    parser.add_argument("--out", default="embedder_cost")
    args = parser.parse_args()
    started = common.provenance()
    from ramem_integrations.evaluation.datasets import load_dataset

    dataset = load_dataset("locomo", common.data_path(args.data))
    whole = dataset.conversations[0]
    conversation = replace(whole, sessions=whole.sessions[: args.sessions])
    questions = [q.text for q in dataset.questions if q.namespace == whole.id]
    questions = questions[: args.questions]
    names = [n.strip() for n in args.embedders.split(",") if n.strip()]
    runs: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    for r in range(args.rounds):
        for name in names if r % 2 == 0 else reversed(names):
            runs[name].append(one_round(name, conversation, questions))
            common.say(r, name, runs[name][-1])
    best = {
        n: {
            "messages_per_s": max(x["messages_per_s"] for x in rs),
            "cpu_ms_per_message": min(x["cpu_ms_per_message"] for x in rs),
            "query_p50_ms": min(x["query_p50_ms"] for x in rs),
            "query_cpu_p50_ms": min(x["query_cpu_p50_ms"] for x in rs),
        }
        for n, rs in runs.items()
    }
    payload = {
        "conversation": conversation.id,
        "messages": turns(conversation),
        "questions": len(questions),
        "best": best,
        "rounds": runs,
    }
    common.write_result(args.out, payload, started)
    for n, b in best.items():
        print(n, b)


if __name__ == "__main__":
    main()
