"""Recall@K with the verbatim turn alone indexed vs the restatement indexed beside it.

Memories always store the turn verbatim (issue 13); this compares what search indexes: the
verbatim text only (``RuleAnchorer(restate=False)``), or the restatement (speaker named,
relative dates written out) kept beside it in metadata (the default). Figures go to
docs/reliability.md::

    RAMEM_CACHE_DIR=/tmp/cache .venv/bin/python benchmarks/verbatim_index.py \
        /work/dev-split/locomo-tune.json --json out.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.evaluation.datasets import load_dataset
from ramem_integrations.evaluation.runner import Evaluation, cache_key, cache_root, ingest
from ramem_integrations.evaluation.systems import select
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import default_embedder


def recall(path: Path, restate: bool, systems: str, ks: list[int]) -> dict[str, Any]:
    """The systems' Recall@K (all categories) with one indexing choice."""
    dataset = load_dataset("locomo", path)
    embedder = default_embedder()
    anchorer = RuleAnchorer(name="rule-v3" if restate else "rule-v3-verbatim", restate=restate)
    directory = cache_root() / cache_key(path, anchorer.name, embedder.name)
    directory.mkdir(parents=True, exist_ok=True)
    mem = RaMem.from_path(directory, embedder=embedder, anchorer=anchorer)
    ingest(mem, dataset, directory, progress=False)
    evaluation = Evaluation(dataset, mem, select(systems), ks)
    evaluation.run(progress=False)
    summary = evaluation.summary()
    return {
        name: {str(k): round(scores["recall"][str(k)]["all"], 4) for k in ks}
        for name, scores in summary.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a LoCoMo JSON file")
    parser.add_argument("--systems", default="content,ramem", help="comma-separated systems")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    ks = [1, 10]
    result = {
        "verbatim only": recall(args.path, False, args.systems, ks),
        "verbatim + restatement": recall(args.path, True, args.systems, ks),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
