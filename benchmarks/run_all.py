"""Run the performance suite (``make bench``) or its 1M-memory scale run (``make bench-large``).

    python benchmarks/run_all.py --data ../shared/data/locomo-dev.json
    python benchmarks/run_all.py --data ../shared/data/locomo-dev.json --large

Each step writes ``benchmarks/results/<name>.json``; then ``summary.py`` draws
docs/img/latency_vs_size.png and writes ``benchmarks/results/summary.md``, the
tables docs/performance.md shows. Skips, with a message and exit status 0, when the LoCoMo file
is absent.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402
import summary  # noqa: E402

SUITE = (
    ("bench_ingest.py", "--rounds", "5"),
    ("bench_scale.py", "--sizes", "1000", "10000", "100000"),
    ("bench_server.py", "--size", "5000"),
    ("growth_probe.py", "--large", "100000"),
)
LARGE = (
    (
        "bench_scale.py",
        *("--sizes", "1000", "1000000", "--per-ns", "6", "--sides", "ramem"),
        *("--out", "scale_large"),
    ),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--large", action="store_true", help="the 1M-memory scale run only")
    args = parser.parse_args()
    path = Path(args.data) if args.data else common.DEFAULT_DATA
    if not path.is_file():
        print(f"SKIP make bench: no LoCoMo file at {path} (pass --data PATH or DATA=PATH).")
        return
    started = common.provenance()
    start = time.monotonic()
    for script, *rest in LARGE if args.large else SUITE:
        print(f"\n=== {script} {' '.join(rest)}", flush=True)
        subprocess.run([sys.executable, str(HERE / script), "--data", str(path), *rest], check=True)
    summary.plot()
    minutes = (time.monotonic() - start) / 60
    target = "make bench-large" if args.large else "make bench"
    suite = (
        f"`{target}` (`{started['command']}`) on commit `{started['commit']}`, started "
        f"{started['date']}, took {minutes:.1f} min on {common.machine()['cpus']} CPUs "
        f"(load average {started['load_avg_start']} at the start)."
    )
    path = summary.write(suite)
    print("\n" + path.read_text(encoding="utf-8"))
    print(f"suite done in {minutes:.1f} min")


if __name__ == "__main__":
    main()
