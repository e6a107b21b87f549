"""Plot query p50 against store size: RaMem and both langchain-chroma layouts, a panel per kind.

python benchmarks/plot.py   # reads results/scale.json (and scale_large.json), writes
                            # docs/img/latency_vs_size.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "docs" / "img" / "latency_vs_size.png"
KINDS = {"time": "time condition", "person": "person named", "plain": "nothing to ground"}
SIDES = (
    ("ramem", "RaMem.retrieve", "tab:blue"),
    ("lc_one", "langchain-chroma, one collection + filter", "tab:orange"),
    ("lc_per_ns", "langchain-chroma, collection per namespace", "tab:green"),
)


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs: dict[int, dict] = {}
    commits = set()
    for name in ("scale.json", "scale_large.json"):
        path = HERE / "results" / name
        if path.is_file():
            result = json.loads(path.read_text(encoding="utf-8"))
            if "run" not in result:  # an older layout of results
                continue
            commits.add(result["run"]["commit"])
            for run in result["runs"]:
                runs.setdefault(run["size"], run)
    if not runs:
        sys.exit("no results/scale*.json yet: run benchmarks/bench_scale.py first")
    sizes = sorted(runs)
    fig, axes = plt.subplots(1, len(KINDS), figsize=(13, 4), sharey=True)
    for ax, (kind, title) in zip(axes, KINDS.items(), strict=True):
        for side, label, colour in SIDES:
            ran = [s for s in sizes if side in runs[s]["latency"][kind]]  # --sides may omit it
            p50 = [runs[s]["latency"][kind][side]["p50_ms"] for s in ran]
            ax.plot(ran, p50, "o-", color=colour, label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"questions: {title}")
        ax.set_xlabel("memories in the store")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("p50 ms per query (k=10, embedding incl.)")
    axes[0].legend(fontsize=7)
    fig.suptitle(
        "Query p50 against store size, embedded Chroma (commit " + ", ".join(sorted(commits)) + ")"
    )
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
