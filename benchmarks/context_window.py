"""What reading the messages before a question costs RaMem's retrieval when they are about
something else (``RaMem.retrieve(..., context=...)``, the window of ``RaMemMemoryBlock``).

LoCoMo gives no chat around its questions, so the context of each question is the previous N
questions asked of the same conversation: a change of subject at every question, the worst
case for a window. Reported: Recall@10 of the evidence turns over the scored categories (1-4),
for each context weight and N (N=0: the question alone).

Usage::

    python benchmarks/context_window.py /work/shared/data/locomo-dev.json \\
        --weights 0.25,0.5,1.0 --before 0,1,4 [--store DIR]

The store (the packaged MiniLM embedder, the rule anchorer) is kept in ``--store`` between runs.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ramem_integrations.evaluation.datasets import RETRIEVAL_CATEGORIES, load_dataset
from ramem_integrations.evaluation.metrics import mean, recall
from ramem_integrations.evaluation.runner import ingest
from ramem_integrations.memory import source
from ramem_integrations.memory.ramem import RaMem


def recall_at_10(mem: RaMem, questions: list, before: int) -> float:
    scores = []
    asked: dict[str, list[str]] = {}
    for question in questions:
        earlier = asked.setdefault(question.namespace, [])
        context = "\n".join(earlier[-before:]) if before else None
        hits = mem.retrieve(
            question.asked.text,
            question.namespace,
            10,
            reference=question.asked.asked_at,
            context=context,
        )
        scores.append(
            recall(question.evidence_turns, [t for h in hits for t in h.memory.source_ids])
        )
        earlier.append(question.asked.text)
    return mean(scores) or 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data")
    parser.add_argument("--weights", default=str(source.CONTEXT_WEIGHT))
    parser.add_argument("--before", default="0,1,4")
    parser.add_argument("--store", default=None)
    args = parser.parse_args()
    store = Path(args.store or tempfile.mkdtemp(prefix="context-window-"))
    store.mkdir(parents=True, exist_ok=True)
    data = load_dataset("locomo", args.data)
    mem = RaMem.from_path(store)
    ingest(mem, data, store, progress=False)
    questions = [
        q for q in data.questions if q.category in RETRIEVAL_CATEGORIES and q.evidence_turns
    ]
    print(f"{len(questions)} questions; Recall@10")
    for weight in (float(w) for w in args.weights.split(",")):
        source.CONTEXT_WEIGHT = weight
        for before in (int(n) for n in args.before.split(",")):
            print(
                f"weight {weight}  previous questions {before}: "
                f"{recall_at_10(mem, questions, before):.4f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
