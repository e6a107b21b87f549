"""How long the ``ramem`` command takes from a cold start (issue 34 item 3).

Each figure is a fresh interpreter, as a user types the command: ``ramem --help``,
``ramem --version`` and ``ramem query`` on a store of 1,000 memories written with the real
packaged embedder. Beside them, the floors no change to ramem can go under: an empty
interpreter and ``import chromadb``. Medians of ``--runs`` runs, interleaved.

    python benchmarks/cli_startup.py --runs 7
    python benchmarks/cli_startup.py --store /tmp/store1k   # reuse (or make) a store there
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, provenance, say, write_result

WORDS = (
    "dentist trip Paris pottery class hiking lake weather concert sister job interview garden "
    "bread recipe guitar lesson marathon flight museum painting budget"
).split()
QUESTION = "what did Ann say about the pottery class in March?"


def chat_file(path: Path, sessions: int = 50, turns: int = 20) -> Path:
    """A chat of ``sessions`` x ``turns`` distinct turns (one memory each)."""
    rng = random.Random(1)
    rows = [
        {
            "session_time": f"2023-{1 + s // 5:02d}-{1 + (s % 5) * 5:02d} 19:00",
            "turns": [
                {
                    "speaker": ("Ann", "Ben")[t % 2],
                    "text": f"I talked with {rng.choice(('Cleo', 'Dev', 'Bob'))} about the "
                    + " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 10)))
                    + f" ({s}.{t}).",
                }
                for t in range(turns)
            ],
        }
        for s in range(sessions)
    ]
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def ramem(*args: str) -> list[str]:
    return [sys.executable, "-m", "ramem_integrations.app.cli", *args]


def seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


PHASES = """
import json, sys, time
t0 = time.perf_counter()
from ramem_integrations.app import cli
t1 = time.perf_counter()
import chromadb
from ramem_integrations.memory.ramem import RaMem
t2 = time.perf_counter()
mem = RaMem.from_path(sys.argv[1])
t3 = time.perf_counter()
mem.known("ann")
t4 = time.perf_counter()
mem.embedder.embed(["warm"])
t5 = time.perf_counter()
mem.retrieve(sys.argv[2], "ann", k=10)
t6 = time.perf_counter()
print(json.dumps({"import ramem cli": t1 - t0, "import chromadb + memory": t2 - t1,
                  "open store": t3 - t2, "load namespace (index)": t4 - t3,
                  "load model, embed": t5 - t4, "retrieve": t6 - t5}))
"""


def phase_times(store: Path) -> dict[str, float]:
    """Where a cold query's time goes, measured inside one fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PHASES, str(store), QUESTION],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--store", type=Path, help="default: a temporary directory")
    args = parser.parse_args()
    started = provenance()
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or Path(tmp) / "store"
        if not (store / "chroma.sqlite3").is_file():
            say(f"writing 1,000 memories to {store} (real embedder) ...")
            chat = chat_file(Path(tmp) / "chat.json")
            subprocess.run(
                ramem("ingest", str(chat), "--store", str(store), "--namespace", "ann"),
                check=True,
                capture_output=True,
            )
        query = ramem("query", QUESTION, "--store", str(store), "--namespace", "ann")
        cases = {
            "python -c pass (floor)": [sys.executable, "-c", "pass"],
            "import chromadb (floor of a query)": [sys.executable, "-c", "import chromadb"],
            "ramem --help": ramem("--help"),
            "ramem --version": ramem("--version"),
            "ramem query (1,000 memories)": query,
        }
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, argv in cases.items():
                samples[name].append(seconds(argv))
        phases = [phase_times(store) for _ in range(args.runs)]
    figures = {
        name: {
            "median_s": round(statistics.median(s), 3),
            "min_s": round(min(s), 3),
            "max_s": round(max(s), 3),
        }
        for name, s in samples.items()
    }
    parts = {name: round(statistics.median(p[name] for p in phases), 3) for name in phases[0]}
    for name, f in figures.items():
        say(f"{name:<36} median {f['median_s']:.2f} s (min {f['min_s']:.2f}, max {f['max_s']:.2f})")
    say("a cold query, by phase (medians, s): " + ", ".join(f"{k} {v}" for k, v in parts.items()))
    payload = {"runs": args.runs, "figures": figures, "query_phases_s": parts}
    write_result("cli_startup", payload, started)


if __name__ == "__main__":
    main()
