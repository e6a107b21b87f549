"""What the id registry (``<store>.ids``: which namespace holds each id) costs ingestion: the
same 600-turn synthetic conversation ingested with the packaged embedder, with the registry and
with its reads and writes switched off, alternating, ``--runs`` times each::

    PYTHONPATH=. .venv/bin/python benchmarks/registry_cost.py --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from ramem_integrations.memory import RaMem
from tests.reliability.helpers import synthetic_conversation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    conversation = synthetic_conversation("c", 10, 60, seed=1)
    times: dict[str, list[float]] = {"with the registry": [], "without": []}
    for _ in range(runs):
        for label, seconds in times.items():
            mem = RaMem.from_path(tempfile.mkdtemp())
            if label == "without":  # no registry read or write
                registry = mem.store.registry
                registry.owners = lambda ids: {}  # type: ignore[method-assign]
                registry.carried = lambda *args, **kwargs: {}  # type: ignore[method-assign]
                registry.record = lambda *args, **kwargs: None  # type: ignore[method-assign]
            mem.embedder.embed(["warm up"])
            started = time.perf_counter()
            mem.add_conversation(conversation, "ns")
            seconds.append(time.perf_counter() - started)
    for label, seconds in times.items():
        rounded = [round(s, 2) for s in seconds]
        print(f"{label}: median {statistics.median(seconds):.2f} s of {rounded}")


if __name__ == "__main__":
    main()
