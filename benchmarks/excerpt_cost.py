"""What excerpts cost: building a namespace's passage index, and the step on each question.

The ``excerpts`` step (core/retrieval/excerpts.py) reads a BM25 index of the 40-word passages of
a namespace's memories, built in memory when the namespace is first read and brought up to each
write after it (``CachedSource.best_passage``). On an existing store (an evaluation cache, say)
and the questions of its LoCoMo-format data file, for each namespace: its memories, those
longer than one passage, the passages, the milliseconds to build the index (what the first
question after a load pays) and to bring it up to one write (what the first question after a
write pays); then the retrieval of its questions (``PACK_DEPTH`` candidates, as a budgeted
retrieval asks) with the default steps and without ``excerpts``, interleaved, the index built.

    python benchmarks/excerpt_cost.py --store CACHE/KEY --data beam-dev.json --questions 10
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True, help="a RaMem store holding the data")
    parser.add_argument("--data", required=True, help="its LoCoMo-format data file")
    parser.add_argument("--questions", type=int, default=10, help="per namespace")
    parser.add_argument("--out", default="excerpt_cost")
    args = parser.parse_args()
    started = common.provenance()

    from ramem_integrations.core.passages import Passages
    from ramem_integrations.core.prompts import PACK_DEPTH
    from ramem_integrations.core.retrieval.excerpts import EXCERPT_WORDS
    from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS
    from ramem_integrations.evaluation.datasets import load_dataset
    from ramem_integrations.index.passages import PassageIndex
    from ramem_integrations.memory.ramem import RaMem

    dataset = load_dataset("locomo", args.data)
    mem = RaMem.from_path(args.store)
    plain = replace(
        mem.reinstatement, steps=tuple(s for s in DEFAULT_STEPS if s.name != "excerpts")
    )
    cut = Passages(EXCERPT_WORDS, EXCERPT_WORDS // 4)
    namespaces: list[dict[str, Any]] = []
    samples: dict[str, list[float]] = {"with": [], "without": []}
    for conversation in dataset.conversations:
        ns = conversation.id
        memories = mem.memories(ns)
        long = [m for m in memories if len(cut.spans(m.content)) > 1]
        built: list[PassageIndex] = []
        build_ms = common.timed(lambda ms=memories, b=built: b.append(PassageIndex(ms, cut)))
        index = built[0]
        passages = sum(len(v) for v in index._docs.values())
        # one write: a long memory added under a new id, the index brought up to it
        written = {m.id: m for m in memories}
        written["written-once"] = replace(long[0] if long else memories[0], id="written-once")
        update_ms = common.timed(lambda i=index, w=written: i.update(w))
        namespaces.append(
            {
                "namespace": ns,
                "memories": len(memories),
                "long": len(long),
                "documents": passages,
                "build_ms": round(build_ms, 1),
                "update_after_one_write_ms": round(update_ms, 2),
            }
        )
        common.say(ns, namespaces[-1])
        asked = [q.asked for q in dataset.questions if q.namespace == ns][: args.questions]
        frames = [mem.frame(a.text, ns, reference=a.asked_at) for a in asked]
        mem.reinstatement.retrieve(frames[0], ns, PACK_DEPTH)  # the index built, as it is warm
        runners = {
            "with": lambda f, ns=ns: mem.reinstatement.retrieve(f, ns, PACK_DEPTH),
            "without": lambda f, ns=ns: plain.retrieve(f, ns, PACK_DEPTH),
        }
        for name, values in common.interleaved(frames, runners).items():
            samples[name].extend(values)
    builds = [n["build_ms"] for n in namespaces]
    updates = [n["update_after_one_write_ms"] for n in namespaces]
    payload = {
        "store": args.store,
        "data": args.data,
        "passage_words": EXCERPT_WORDS,
        "namespaces": namespaces,
        "build_ms": common.percentiles(builds),
        "update_after_one_write_ms": common.percentiles(updates),
        "retrieve": common.compare(samples, base="with"),
    }
    common.say("build", payload["build_ms"], "update", payload["update_after_one_write_ms"])
    common.say("retrieve", payload["retrieve"])
    common.write_result(args.out, payload, started)


if __name__ == "__main__":
    main()
