"""The counts of the write-reliability checks, printed and saved as JSON.

    PYTHONPATH=$PWD python -m tests.reliability.write_counts [--rounds 80] [--process-rounds 15]
        [--out benchmarks/results/reliability_writes.json]

- Same-id races: two writers store one id with different text at the same moment, as threads
  (one RaMem, and two on one path), as processes through a Chroma server, and as two
  ``RaMemMemory`` exchanges saved in one instant. Counted: rounds, both texts kept, the loser
  told (``MemoryConflictError``), texts lost silently, and memories stored torn (a vector not
  their text's).
- Cut writes: an ingestion and a forget killed (SIGKILL) at every step, with a warm reader open
  (:mod:`tests.reliability.cut_writes`). Counted: memories the reader serves stale after the
  kill and after the re-run, memories lost, wrong and duplicated after the re-run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.cut_writes import cut_rounds
from tests.reliability.helpers import ChromaServer
from tests.reliability.write_races import exchange_rounds, process_rounds, thread_rounds


def counts(rounds: int, process_rounds_: int) -> dict[str, Any]:
    out: dict[str, Any] = {"races": {}, "cuts": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one = RaMem.from_path(root / "one", embedder=HashingEmbedder())
        out["races"]["threads, one RaMem"] = asdict(thread_rounds((one, one), rounds))
        two = RaMem.from_path(root / "one", embedder=HashingEmbedder())
        one.forget("race")
        out["races"]["threads, two RaMem on one path"] = asdict(thread_rounds((one, two), rounds))
        out["races"]["RaMemMemory exchanges in one instant"] = asdict(exchange_rounds(one, rounds))
        server = ChromaServer(root / "server")
        try:
            out["races"]["processes, Chroma server"] = asdict(
                process_rounds(server.address, process_rounds_)
            )
            for operation in ("write", "forget"):
                cuts = asdict(cut_rounds(server.address, root, operation))
                out["cuts"][operation] = {k: v for k, v in cuts.items() if k != "details"}
        finally:
            server.stop()
    out["lost_silently"] = sum(r["lost_silently"] for r in out["races"].values())
    out["cut_stale_lost_duplicated"] = sum(
        c[k]
        for c in out["cuts"].values()
        for k in ("stale_after_kill", "stale_after_rerun", "lost", "wrong", "duplicated")
    )
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--process-rounds", type=int, default=15)
    parser.add_argument("--out", default="benchmarks/results/reliability_writes.json")
    args = parser.parse_args(argv)
    found = counts(args.rounds, args.process_rounds)
    text = json.dumps(found, indent=2)
    print(text)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
