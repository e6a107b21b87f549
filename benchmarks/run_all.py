"""Run the performance suite (``make bench``) or its 1M-memory scale run (``make bench-large``).

    python benchmarks/run_all.py --data ../shared/data/locomo-dev.json
    python benchmarks/run_all.py --data ../shared/data/locomo-dev.json --large

Skips, with a message and exit status 0, when the LoCoMo file is absent.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--large", action="store_true", help="the 1M-memory scale run only")
    args = parser.parse_args()
    path = Path(args.data) if args.data else common.DEFAULT_DATA
    if not path.is_file():
        print(f"SKIP make bench: no LoCoMo file at {path} (pass --data PATH or DATA=PATH).")
        return
    data = ["--data", str(path)]
    if args.large:
        steps = [["bench_scale.py", "--sizes", "1000000", "--repeat", "1", "--out", "scale_large"]]
    else:
        steps = [
            ["bench_ingest.py", "--rounds", "2"],
            ["bench_scale.py", "--sizes", "1000", "10000", "100000"],
            ["bench_server.py", "--size", "5000", "--seconds", "6"],
            ["bench_async.py", "--size", "5000"],
        ]
    start = time.monotonic()
    for script, *rest in steps:
        print(f"\n=== {script} {' '.join(rest)}", flush=True)
        subprocess.run([sys.executable, str(HERE / script), *data, *rest], check=True)
    subprocess.run([sys.executable, str(HERE / "plot.py")], check=True)
    print(f"\nsuite done in {(time.monotonic() - start) / 60:.1f} min")


if __name__ == "__main__":
    main()
