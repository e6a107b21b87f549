"""Plot RaMem and plain vector-search latency against store size from ``results/scale*.json``.

python benchmarks/plot.py   # writes docs/img/latency_vs_size.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "docs" / "img" / "latency_vs_size.png"
KINDS = {"time": "time condition", "person": "person named", "plain": "nothing to ground"}


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = {}
    for name in ("scale.json", "scale_large.json"):
        path = HERE / "results" / name
        if path.is_file():
            for run in json.loads(path.read_text(encoding="utf-8"))["runs"]:
                runs[run["size"]] = run
    if not runs:
        sys.exit("no results/scale*.json yet: run benchmarks/bench_scale.py first")
    sizes = sorted(runs)
    fig, axes = plt.subplots(1, len(KINDS), figsize=(13, 4), sharey=True)
    for ax, (kind, title) in zip(axes, KINDS.items(), strict=True):
        for system, label, colour in (
            ("ramem", "RaMem.retrieve", "tab:blue"),
            ("langchain_chroma", "langchain-chroma similarity_search", "tab:orange"),
        ):
            stats = [runs[s]["latency"][kind][system] for s in sizes]
            ax.plot(sizes, [x["p50_ms"] for x in stats], "o-", color=colour, label=f"{label} p50")
            ax.plot(
                sizes,
                [x["p95_ms"] for x in stats],
                "s--",
                color=colour,
                alpha=0.6,
                label=f"{label} p95",
            )
        ax.set_xscale("log")
        ax.set_title(f"questions: {title}")
        ax.set_xlabel("memories in the store")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("ms per query (k=10, embedding incl.)")
    axes[0].legend(fontsize=7)
    fig.suptitle("Query latency against store size (2-core shared machine, same process run)")
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
